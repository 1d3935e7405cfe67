//! Tank Battle as a [`Game`]: a state is a position on its layout, a step
//! one move.

use super::ai;
use super::{IllegalMove, Layout, Move, MoveText, Outcome, Position, Score};
use crate::games::review::{logistic_chance, Forced, Label, Review, Spent, Verdict};
use crate::games::{Game, SearchLimits, Style};

/// A position together with the layout it was checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub layout: Layout,
    pub position: Position,
}

impl State {
    /// The start position of `layout`.
    pub fn initial(layout: Layout) -> State {
        State {
            position: Position::initial(&layout),
            layout,
        }
    }
}

/// The marker type of Tank Battle's [`Game`] implementation.
#[derive(Clone, Copy, Debug)]
pub struct TankBattle;

impl Game for TankBattle {
    const ID: &'static str = "tank-battle";
    const AI_VERSION: u32 = ai::ENGINE_VERSION;

    type State = State;
    /// A move as written, checked by `play`.
    type Step = MoveText;
    /// The move played, with what it captured.
    type Events = Move;
    type Illegal = IllegalMove;
    type Outcome = Outcome;
    type Score = Score;
    type Moves = Vec<Move>;
    /// The side to move is in the position.
    type Question = ();
    type Suggestion = ai::SearchResult;

    /// The standard layout's start position.
    fn initial() -> State {
        State::initial(Layout::STANDARD)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.position.outcome(&state.layout)
    }

    fn is_over(state: &State) -> bool {
        state.position.is_finished(&state.layout)
    }

    fn score(state: &State) -> Score {
        state.position.score(&state.layout)
    }

    /// Sorted by `from` (file, then rank), then `to`.
    fn legal_moves(state: &State) -> Vec<Move> {
        state.position.legal_moves_file_major(&state.layout)
    }

    fn check(state: &State, step: &MoveText) -> Result<(), IllegalMove> {
        state.position.validate(&state.layout, *step).map(|_| ())
    }

    fn play(state: &mut State, step: MoveText) -> Result<Move, IllegalMove> {
        let (next, mv) = state.position.play(&state.layout, step)?;
        state.position = next;
        Ok(mv)
    }

    fn suggest(
        state: &State,
        _: &(),
        limits: SearchLimits,
        seed: u64,
        style: Style,
    ) -> Option<ai::SearchResult> {
        ai::search_with(&state.position, &state.layout, limits, seed, style)
    }

    fn size(_: &State) -> usize {
        super::square::SQUARES
    }
}

/// The chance to win of the search's centipoints for the side to move:
/// a logistic curve, its slope the maximum-likelihood fit on 40 games
/// between levels (`scripts/review-check.py fit`; BENCHMARKS, "Reviewing a
/// game": a tank ahead is about 88%). Fitted again whenever the levels or
/// the evaluation change.
pub const CHANCE_PER_CENTIPOINT: f64 = 0.0202;

/// The side to move's chance to win (0-100) of a search's centipoints: 100
/// or 0 for a forced result (beyond `WIN - 1000` in size), else the
/// logistic curve kept within 0.1 and 99.9, so that only a forced result
/// is certain and a forced win given up always shows.
pub fn chance_of(points: f64) -> f64 {
    match forced_of(points) {
        Some(Forced { win: true, .. }) => 100.0,
        Some(Forced { win: false, .. }) => 0.0,
        None => logistic_chance(points, CHANCE_PER_CENTIPOINT).clamp(0.1, 99.9),
    }
}

/// The forced result a search's centipoints name, if they name one
/// (beyond `WIN - 1000` in size): won, or lost, in `WIN - |points|`
/// plies from the position searched (a move that wins at once is
/// `WIN - 1`).
pub fn forced_of(points: f64) -> Option<Forced> {
    let win = f64::from(ai::WIN);
    (points.abs() >= win - 1000.0).then(|| Forced {
        win: points > 0.0,
        plies: Some((win - points.abs()).round() as u32),
    })
}

/// What the judge keeps between moves: the position after the last move
/// judged and its search, which judges the next move's position; the
/// moves judged and the verifications searched.
#[derive(Debug, Default)]
pub struct Judge {
    /// Whether that search was a verification's (at `VERIFY_NODES`
    /// times the budget).
    after: Option<(Position, Option<Judged>, bool)>,
    spent: Spent,
    moves: u32,
    verifications: u32,
    /// The positions the verifications searched.
    verified_nodes: u64,
}

/// What the judge takes from a search of a position: the deepest
/// finished iteration of an even depth, where the side to move is to
/// move again at the horizon, or a forced result found at any depth.
/// A search that ends on the mover's own move rates the mover higher
/// than one that ends on the reply, so the last iteration's value swings
/// with the parity of the depth a budget happens to reach, and two
/// positions of a game, or two budgets, compared at different parities
/// disagree by that swing. Measured over 20 games between levels (1,318
/// moves): a judge at 1,000,000 positions a search finds 94 % of the
/// mistakes and blunders of one at 2,000,000 (90 % of its own confirmed)
/// by even depths, against 76 % (72 %) by the last depth (BENCHMARKS,
/// "Reviewing a game").
#[derive(Clone, Debug, PartialEq, Eq)]
struct Judged {
    /// Centipoints for the side to move.
    value: i32,
    /// The principal variation at that depth, starting with its best
    /// move.
    pv: Vec<Move>,
}

impl Judged {
    fn of(search: ai::SearchResult) -> Judged {
        let forced = forced_of(f64::from(search.evaluation)).is_some();
        let at_even = search.iterations.iter().rev().find(|it| it.depth % 2 == 0);
        match at_even {
            Some(it) if !forced => Judged {
                value: it.evaluation,
                pv: it.pv.clone(),
            },
            _ => Judged {
                value: search.evaluation,
                pv: search.pv,
            },
        }
    }
}

/// How many times the judge's budget in positions a verification's
/// searches get, at most [`VERIFY_MAX_NODES`]: at the default judge
/// (200,000) 1,000,000 (BENCHMARKS, "Reviewing a game").
pub const VERIFY_NODES: u64 = 5;

/// The most positions a verification's search gets: one of 1,000,000
/// takes about half a second here, and a review's verifications are
/// many. A judge searching that many already does not verify.
pub const VERIFY_MAX_NODES: u64 = 1_000_000;

/// The positions a review's verifications may search, as a multiple of
/// those its judge's own searches may (`(N + 1) × max_nodes` after N
/// moves), and at most [`VERIFY_MAX`] budgets: a verification starts
/// only while the verifications before it searched no more (one that
/// continues a verification, only within `VERIFY_MAX`), so a review of
/// N moves searches at most `(N + 1 + VERIFY_MAX) × max_nodes`
/// positions and one verification's two searches past that. Its
/// searches stop at the even depths they can finish, so most of a
/// budget is not spent: over the quality games a review searches 1.3x
/// the positions of one at 100,000 positions a search without
/// verification.
pub const VERIFY_SHARE: u64 = 1;

/// The positions the default judge's own searches share in a review:
/// 200,000 a position for 101 positions ([`TankBattle::default_nodes`]).
pub const REVIEW_NODES: u64 = 101 * 200_000;

/// The least budget a position the default judge gives a long review.
pub const LONG_REVIEW_NODES: u64 = 100_000;

/// The most positions a review's verifications search, in the judge's
/// budgets a search: five verifications each searching both positions
/// to the end of its budget, more of them where the searches stop at
/// the even depths they can finish.
pub const VERIFY_MAX: u64 = 50;

/// How far apart (chance points, 0-100) the position's value and what the
/// move played keeps by the next position's search may be before both
/// are searched again: the `good` width (5).
pub const VERIFY_WIDTH: f64 = Label::BOUNDS[1];

impl Judge {
    /// Whether another verification is allowed now, its searches at
    /// `max_nodes` a search for the judge's own ([`VERIFY_SHARE`],
    /// [`VERIFY_MAX`]). One that continues a verification (`deep`: the
    /// position was searched by the verification of the move before)
    /// needs only `VERIFY_MAX`: a verdict between a verified position and
    /// one searched at the judge's budget compares two depths, and would
    /// otherwise be left so when the share is spent (a judge's own
    /// choice then lost what the deeper search saw beyond the shallower).
    fn may_verify(&self, max_nodes: u64, deep: bool) -> bool {
        let share = (u64::from(self.moves) + 1).saturating_mul(VERIFY_SHARE);
        let budgets = if deep {
            VERIFY_MAX
        } else {
            share.min(VERIFY_MAX)
        };
        self.verified_nodes <= budgets.saturating_mul(max_nodes)
    }
}

/// One search a position, each reused for the move before it: a game of
/// N moves costs N + 1 searches. As written here a move is worth what the
/// position after it is worth to its mover (the search there, negated),
/// never more than the position before it, and the judge's own choice
/// keeps the position's value; the review then settles each verdict with
/// the next two ([`crate::games::review::settle`], `SETTLES`), so that
/// the judge's choice too loses what the next search finds.
impl Review for TankBattle {
    type Pick = Move;
    type Judge = Judge;
    /// Chosen by measurement over the quality games (BENCHMARKS,
    /// "Reviewing a game"): with searches stopping at the even depths
    /// they can finish and verification at [`VERIFY_NODES`], within
    /// twice the time of the former judge of 100,000 positions.
    const JUDGE_NODES: u64 = 200_000;
    /// Below it a search of a middle game ends at depth 2 or 3.
    const JUDGE_MIN_NODES: u64 = 10_000;

    /// `JUDGE_NODES` a position up to [`REVIEW_NODES`] in all (a review
    /// of 100 moves); a longer review shares those, never under
    /// [`LONG_REVIEW_NODES`] a position: a review of 400 moves searches
    /// no more than it did at the former judge of 100,000 positions.
    fn default_nodes(positions: usize) -> u64 {
        let positions = u64::try_from(positions.max(1)).unwrap_or(u64::MAX);
        (REVIEW_NODES / positions).clamp(LONG_REVIEW_NODES, Self::JUDGE_NODES)
    }
    /// Ten tanks' worth (a tank is 100): a forced result counts as that.
    const LOSS_CAP: f64 = 1_000.0;
    /// A quarter of what 100,000 positions take here (about 40 ms):
    /// below it a search ends at depth 3 or so.
    const JUDGE_FLOOR_MS: u64 = 10;
    /// One verdict a move, the players alternating: each settled with the
    /// next two moves' ([`crate::games::review::settle`]).
    const SETTLES: bool = true;

    fn judge(
        judge: &mut Judge,
        state: &State,
        step: &MoveText,
        limits: SearchLimits<'_>,
        style: Style,
    ) -> Vec<Verdict<Move>> {
        let State { layout, position } = *state;
        let Ok((next, played)) = position.play(&layout, *step) else {
            return Vec::new();
        };
        judge.moves += 1;
        let search = |pos: &Position, spent: &mut Spent, limits: SearchLimits<'_>| {
            let searched = ai::search_even(pos, &layout, limits, style);
            let nodes = searched.as_ref().map_or(0, |s| s.nodes);
            spent.add(nodes);
            (searched.map(Judged::of), nodes)
        };
        let (before, deep) = match judge.after.take() {
            Some((pos, searched, deep)) if pos == position => (searched, deep),
            _ => (search(&position, &mut judge.spent, limits).0, false),
        };
        let Some(mut before) = before else {
            return Vec::new();
        };
        let mover = position.turn();
        let mut refutation = Vec::new();
        let mut verified = false;
        // The next position's worth to the side to move there.
        let next_value = match next.outcome(&layout) {
            Some(outcome) => match outcome.winner() {
                Some(side) if side == mover => -ai::WIN,
                Some(_) => ai::WIN,
                None => 0,
            },
            None => {
                let mut searched = search(&next, &mut judge.spent, limits).0;
                let value = |searched: &Option<Judged>| searched.as_ref().map_or(0, |s| s.value);
                // The two searches disagree about the move played (or the
                // judge's own choice): both are searched again, deeper.
                let apart = (chance_of(f64::from(before.value))
                    - chance_of(Self::from_next(f64::from(value(&searched)))))
                .abs();
                let deeper = SearchLimits {
                    max_nodes: limits
                        .max_nodes
                        .saturating_mul(VERIFY_NODES)
                        .min(VERIFY_MAX_NODES),
                    ..limits
                };
                if apart > VERIFY_WIDTH
                    && deeper.max_nodes > limits.max_nodes
                    && judge.may_verify(limits.max_nodes, deep)
                {
                    // A position a verification searched is not searched
                    // again: the same search would find the same.
                    let nodes = if deep {
                        0
                    } else {
                        let (again, nodes) = search(&position, &mut judge.spent, deeper);
                        if let Some(again) = again {
                            before = again;
                        }
                        nodes
                    };
                    let (again, more) = search(&next, &mut judge.spent, deeper);
                    searched = again;
                    judge.verified_nodes = judge.verified_nodes.saturating_add(nodes + more);
                    judge.verifications += 1;
                    verified = true;
                }
                refutation = searched.as_ref().map(|s| s.pv.clone()).unwrap_or_default();
                let next_value = value(&searched);
                judge.after = Some((next, searched, verified));
                next_value
            }
        };
        let value = f64::from(before.value);
        let value_played = if Some(&played) == before.pv.first() {
            value
        } else {
            Self::from_next(f64::from(next_value))
        };
        let chance = chance_of;
        vec![Verdict::new(
            mover.index(),
            played,
            before.pv.first().copied().into_iter().collect(),
            (value, value_played),
            (chance(value), chance(value_played)),
            false,
        )
        .with_lines(before.pv.clone(), refutation)
        .verified(verified)]
    }

    fn spent(judge: &Judge) -> Spent {
        judge.spent
    }

    fn forced(value: f64, _exact: bool) -> Option<Forced> {
        forced_of(value)
    }

    /// Negated, a forced result one ply further away (lost in 4 plies
    /// there is won in 5 here).
    fn from_next(value: f64) -> f64 {
        match forced_of(value) {
            Some(_) => -(value - value.signum()) + 0.0,
            None => -value + 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search of `depths` finished iterations, the last scoring `last`
    /// and each one before it its depth times 10 (its line one move
    /// long, the first legal move for odd depths, the second for even).
    fn searched(depths: u32, last: i32) -> ai::SearchResult {
        let layout = Layout::STANDARD;
        let moves = Position::initial(&layout).legal_moves(&layout);
        let mv = |depth: u32| moves[(depth % 2) as usize];
        let iterations: Vec<ai::Iteration> = (1..=depths)
            .map(|depth| ai::Iteration {
                depth,
                evaluation: if depth == depths {
                    last
                } else {
                    depth as i32 * 10
                },
                pv: vec![mv(depth)],
                nodes: u64::from(depth) * 1_000,
            })
            .collect();
        ai::SearchResult {
            best: mv(depths),
            evaluation: last,
            depth: depths,
            nodes: 0,
            iterations,
            pv: vec![mv(depths)],
            lines: Vec::new(),
            elapsed: std::time::Duration::ZERO,
        }
    }

    /// The judge values a position by the deepest even depth finished,
    /// its line with it; a forced result at whatever depth it was found;
    /// the one depth there is when no even one finished.
    #[test]
    fn the_judge_takes_the_deepest_even_depth() {
        let five = Judged::of(searched(5, 55));
        assert_eq!(five.value, 40);
        assert_eq!(five.pv, searched(4, 40).pv);
        assert_eq!(Judged::of(searched(4, 44)).value, 44);
        assert_eq!(Judged::of(searched(1, 7)).value, 7);
        let won = ai::WIN - 5;
        assert_eq!(Judged::of(searched(5, won)).value, won);
        assert_eq!(Judged::of(searched(5, -won)).value, -won);
        assert_eq!(Judged::of(searched(5, -won)).pv, searched(5, -won).pv);
    }

    /// A judge that could verify every move, each verification using its
    /// whole budget, searches at most its share of positions in them
    /// (and one verification's more), and verifies again as the moves
    /// judged let it.
    #[test]
    fn verifications_are_bounded_by_the_moves_judged() {
        let max_nodes = 1_000;
        let verification = 2 * VERIFY_NODES * max_nodes;
        for moves in [1u32, 7, 8, 9, 49, 50, 100, 400] {
            let mut judge = Judge::default();
            for _ in 0..moves {
                judge.moves += 1;
                if judge.may_verify(max_nodes, false) {
                    judge.verifications += 1;
                    judge.verified_nodes += verification;
                }
            }
            let share = ((u64::from(moves) + 1) * VERIFY_SHARE).min(VERIFY_MAX) * max_nodes;
            assert!(judge.verified_nodes <= share + verification, "{moves}");
            assert!(judge.verified_nodes + verification > share, "{moves}");
        }
    }

    /// A verification that continues one goes past the share, never
    /// past `VERIFY_MAX` budgets (and one verification's).
    #[test]
    fn continued_verifications_are_bounded_by_the_most() {
        let max_nodes = 1_000;
        let verification = 2 * VERIFY_NODES * max_nodes;
        let mut judge = Judge::default();
        let mut continued = 0;
        for _ in 0..400 {
            judge.moves += 1;
            if judge.may_verify(max_nodes, true) {
                continued += 1;
                judge.verified_nodes += verification;
            }
        }
        assert!(!judge.may_verify(max_nodes, false));
        assert!(judge.verified_nodes <= VERIFY_MAX * max_nodes + verification);
        assert_eq!(continued, VERIFY_MAX / (2 * VERIFY_NODES) + 1);
    }

    /// The default judge gives a review of up to 100 moves its whole
    /// budget a position, a longer one a share of the same positions,
    /// never under the floor for long reviews.
    #[test]
    fn a_long_review_shares_the_default_judges_positions() {
        let nodes = TankBattle::default_nodes;
        assert_eq!(nodes(1), TankBattle::JUDGE_NODES);
        assert_eq!(nodes(101), TankBattle::JUDGE_NODES);
        assert!(nodes(102) < TankBattle::JUDGE_NODES);
        assert_eq!(nodes(150), REVIEW_NODES / 150);
        assert_eq!(nodes(401), LONG_REVIEW_NODES);
        assert_eq!(nodes(0), TankBattle::JUDGE_NODES);
        let all: Vec<u64> = (1..=401).map(nodes).collect();
        assert!(all.windows(2).all(|w| w[0] >= w[1]));
    }

    /// A level is the judge's budget: 20,000 positions at level 1 to
    /// 2,000,000 at level 8, rising with each level.
    #[test]
    fn a_judges_level_is_its_budget() {
        use crate::games::level::Level;
        let nodes: Vec<u64> = Level::all()
            .map(crate::games::review::judge_nodes::<TankBattle>)
            .collect();
        assert_eq!(nodes.first(), Some(&20_000));
        assert_eq!(nodes.last(), Some(&2_000_000));
        assert!(nodes.windows(2).all(|w| w[0] < w[1]), "{nodes:?}");
        assert!(nodes[3] < TankBattle::JUDGE_NODES && TankBattle::JUDGE_NODES < nodes[4]);
    }

    #[test]
    fn forced_results_count_plies_from_the_position_judged() {
        let win = f64::from(ai::WIN);
        assert_eq!(
            forced_of(win - 5.0),
            Some(Forced {
                win: true,
                plies: Some(5)
            })
        );
        assert_eq!(
            forced_of(-win),
            Some(Forced {
                win: false,
                plies: Some(0)
            })
        );
        assert_eq!(forced_of(win - 1001.0), None);
        assert_eq!(forced_of(350.0), None);
        // Lost where the game ended: won in 1 by the move into it; lost
        // in 4 plies there: won in 5 here; a plain score only negated.
        assert_eq!(TankBattle::from_next(-win), win - 1.0);
        assert_eq!(TankBattle::from_next(-(win - 4.0)), win - 5.0);
        assert_eq!(TankBattle::from_next(win - 4.0), -(win - 5.0));
        assert_eq!(TankBattle::from_next(350.0), -350.0);
        assert_eq!(chance_of(win - 5.0), 100.0);
        assert_eq!(chance_of(-(win - 5.0)), 0.0);
    }
}
