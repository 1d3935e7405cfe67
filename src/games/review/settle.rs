//! A review's verdicts settled with their neighbours', so that a game's
//! verdicts are one account of it ([`settle`]).

/// A move's numbers: what the position was worth to its player and what
/// the move kept, on the game's scale and as a chance to win (0-100).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Numbers {
    pub value: f64,
    pub value_played: f64,
    pub chance: f64,
    pub chance_played: f64,
}

/// A move's verdict settled with the next two moves' (as the judge found
/// them; `None` past the game's end), so that a game's verdicts are one
/// account of it. The judge searches each position once: position k is
/// worth `T_k` to its player, and the move played there keeps `P_k`
/// (the next position's search, negated). A search may underrate a
/// position: when the move played keeps more than the search said the
/// position was worth, the position was worth that. So position k is
/// worth `V_k = max(T_k, P_k)`, and the move played there keeps what the
/// next position is worth to its player, negated: `-V_(k+1)`. Then
/// `loss = V_k + V_(k+1) >= 0`; the judge's own choice keeps the
/// position's value only when the next search agrees; and the chance
/// after a move is the chance before the next, so every fall of the
/// curve is some move's loss. The chances are settled the same way (the
/// chance of a negated value is 100 less the chance: the scale is
/// symmetric). `from_next` is the game's [`super::Review::from_next`] (the
/// "negated" above, a forced result one ply further away).
pub fn settle(
    entry: Numbers,
    next: Option<Numbers>,
    after_next: Option<Numbers>,
    from_next: fn(f64) -> f64,
) -> Numbers {
    // A number the judge wrote is kept as written (its chance too), so
    // that a judge that agrees with itself is left exactly as it was.
    let worth = |entry: Numbers, next: Option<Numbers>| match next {
        Some(next) if from_next(next.value) > entry.value => {
            (from_next(next.value), 100.0 - next.chance)
        }
        _ => (entry.value, entry.chance),
    };
    let (value, chance) = worth(entry, next);
    let (value_played, chance_played) = match next {
        Some(next) => {
            let (v, c) = worth(next, after_next);
            if from_next(v) == entry.value_played {
                (entry.value_played, entry.chance_played)
            } else {
                (from_next(v), 100.0 - c)
            }
        }
        None => (entry.value_played, entry.chance_played),
    };
    Numbers {
        value,
        value_played,
        chance,
        chance_played,
    }
}
