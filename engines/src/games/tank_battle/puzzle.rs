//! Tank Battle's puzzles ([`Puzzles`]): at a position the review found
//! something in, a search of the two best moves at five times the judge's
//! budget; where the best alone keeps the mover's advantage, its line of
//! only moves and unique replies until the advantage is settled, themed
//! from the rules and rated by the levels.

use super::ai;
use super::judge::{chance_of, forced_of};
use super::{Layout, Move, Role, Side, State, TankBattle, RULES_VERSION};
use crate::games::level::{Level, Style};
use crate::games::review::puzzle::{
    digest, rating_of_level, Asked, Puzzle, Puzzles, Source, Theme, DEFENDED, LOST, MARGIN,
    REPLY_EPSILON, SOLUTION_MOVES, UNSOLVED_RATING, WINS_ANYWAY,
};
use crate::games::review::Spent;
use crate::games::{Game, SearchLimits};

/// The two best moves at `state` for its side to move, each with the
/// side's chance to win, at the last depth searched and the one before;
/// `None` where the game is over.
struct Two {
    best: Move,
    chance: f64,
    value: i32,
    /// `None` where the best is the only legal move.
    second: Option<f64>,
    second_value: Option<i32>,
    /// At the depth before the last: the best move, and its chance's lead
    /// over the second's (`None` where no depth before finished).
    before: Option<(Move, Option<f64>)>,
    /// The best move at the depth two before the last, if one finished.
    earlier: Option<Move>,
}

fn two_best(state: &State, limits: SearchLimits<'_>, spent: &mut Spent) -> Option<Two> {
    let style = Style {
        level: None,
        lines: 2,
    };
    let found = ai::search_with(state, limits, 0, style)?;
    spent.add(found.nodes);
    let best = found.lines.first()?;
    let chance = |v: i32| chance_of(f64::from(v));
    let before = found.iterations.iter().rev().nth(1).and_then(|it| {
        let lead = it
            .runner_up
            .map(|(_, second)| chance(it.evaluation) - chance(second));
        Some((*it.pv.first()?, lead))
    });
    let earlier = found
        .iterations
        .iter()
        .rev()
        .nth(2)
        .and_then(|it| it.pv.first().copied());
    Some(Two {
        earlier,
        best: best.mv,
        chance: chance(best.evaluation),
        value: best.evaluation,
        second: found.lines.get(1).map(|line| chance(line.evaluation)),
        second_value: found.lines.get(1).map(|line| line.evaluation),
        before,
    })
}

impl Two {
    /// Whether the best move alone keeps the advantage: its chance beats
    /// the second's by [`MARGIN`] at the last two depths searched (so
    /// that the side to move's edge at the horizon, which flips with the
    /// depth's parity, cannot make it), the same move best at the last
    /// three (a move only the last depths found may lose its lead a depth
    /// further); or it alone keeps a forced win and the second does not
    /// win anyway ([`WINS_ANYWAY`]). A position with one legal move holds
    /// no choice to find.
    fn only(&self) -> bool {
        let Some(second) = self.second else {
            return false;
        };
        if self.chance >= 100.0 {
            return second < WINS_ANYWAY;
        }
        let before = match self.before {
            None => true,
            Some((best, lead)) => best == self.best && lead.is_some_and(|lead| lead >= MARGIN),
        };
        let stable = self.earlier.is_none_or(|earlier| earlier == self.best);
        self.chance - second >= MARGIN && before && stable
    }

    /// Whether the best reply has a rival: one within [`REPLY_EPSILON`]
    /// of its chance, or, where both are forced results, one that ends
    /// the game as soon (a lost side's longest defence is its only
    /// best).
    fn rivalled(&self) -> bool {
        let (Some(second), Some(value)) = (self.second, self.second_value) else {
            return false;
        };
        match (
            forced_of(f64::from(self.value)),
            forced_of(f64::from(value)),
        ) {
            (Some(best), Some(other)) => best == other,
            _ => self.chance - second < REPLY_EPSILON,
        }
    }
}

/// Whether `mv`, played by `side`, settles the advantage: the game is
/// over after it, or it enters the opponent's base (a tank there is
/// locked in and scores), or it captures and the best reply does not
/// take back on that square.
fn settles(mv: Move, side: Side, after: &State, reply: Option<Move>, layout: &Layout) -> bool {
    after.end_reason().is_some()
        || enters_base(mv, side, layout)
        || (mv.is_capture() && reply.is_none_or(|r| !(r.is_capture() && r.to == mv.to)))
}

fn enters_base(mv: Move, side: Side, layout: &Layout) -> bool {
    let base = layout.base(!side);
    !base.contains(mv.from) && base.contains(mv.to)
}

/// The themes of `solution` (the solver's moves at even indices) played
/// from `state`, `previous` the move before it in the game.
fn themes(state: &State, solution: &[Move], previous: Option<Move>, two: &Two) -> Vec<Theme> {
    let layout = &state.layout;
    let solver = state.position.turn();
    let enemy_base = layout.base(!solver);
    let mut position = state.position;
    let mut found = Vec::new();
    let mut last = previous;
    for (i, &mv) in solution.iter().enumerate() {
        if i % 2 == 0 {
            let commander = position
                .piece_at(mv.from)
                .is_some_and(|p| p.role == Role::Commander);
            if mv.is_capture() {
                found.push(Theme::Capture);
            }
            if enters_base(mv, solver, layout) {
                found.push(Theme::BaseEntry);
            }
            if commander && mv.to == layout.commander_start(!solver) {
                found.push(Theme::CommanderStart);
            }
            if enemy_base.contains(mv.from) {
                found.push(Theme::LockedIn);
            }
        }
        let retakes = |before: Option<Move>| {
            before.is_some_and(|b| b.is_capture() && mv.is_capture() && b.to == mv.to)
        };
        if retakes(last) {
            found.push(Theme::Exchange);
        }
        last = Some(mv);
        position.play_unchecked(mv);
    }
    if two.chance >= 100.0 {
        found.push(Theme::ForcedWin);
    }
    if two.chance < DEFENDED && two.second.is_some_and(|second| second <= LOST) {
        found.push(Theme::Defence);
    }
    found.sort();
    found.dedup();
    found
}

/// The lowest level whose move at `state` (its own budgets, seed 0, as
/// `ai-move` plays it with no limits asked) is `first`, as a rating.
fn rating(state: &State, first: Move, limits: SearchLimits<'_>, spent: &mut Spent) -> u32 {
    let open = SearchLimits {
        max_depth: u32::MAX,
        max_nodes: u64::MAX,
        ..limits
    };
    for level in Level::all() {
        let Some(found) = ai::search_with(state, open, 0, Style::at(level)) else {
            break;
        };
        spent.add(found.nodes);
        if found.best == first {
            return rating_of_level(level.get());
        }
    }
    UNSOLVED_RATING
}

/// The puzzle's id: its game, rules version, layout and position.
pub fn puzzle_id(state: &State) -> String {
    digest(&format!(
        "{}|rules {}|{}|{}",
        TankBattle::ID,
        RULES_VERSION,
        state.layout,
        state.position
    ))
}

impl Puzzles for TankBattle {
    fn puzzles(
        state: &State,
        asked: &Asked<'_, TankBattle>,
        spent: &mut Spent,
    ) -> Vec<Puzzle<Move>> {
        puzzle(state, asked, spent).into_iter().collect()
    }
}

/// The puzzle at `state`, for its side to move, if one starts there.
fn puzzle(state: &State, asked: &Asked<'_, TankBattle>, spent: &mut Spent) -> Option<Puzzle<Move>> {
    let solver = state.position.turn();
    let label = asked.label(solver.index())?;
    if !asked.worth_a_look(solver.index()) {
        return None;
    }
    let played = state.validate(*asked.step).ok()?;
    let limits = asked.verifying();
    let first = two_best(state, limits, spent)?;
    if !first.only() || limits.stop_requested() {
        return None;
    }
    let mut solution = vec![first.best];
    let mut at = *state;
    at.position.play_unchecked(first.best);
    let mut mv = first.best;
    while solution.len() < 2 * SOLUTION_MOVES - 1 {
        let reply = two_best(&at, limits, spent);
        if settles(
            mv,
            solver,
            &at,
            reply.as_ref().map(|r| r.best),
            &state.layout,
        ) {
            break;
        }
        let Some(reply) = reply.filter(|r| !r.rivalled()) else {
            break;
        };
        let mut after = at;
        after.position.play_unchecked(reply.best);
        if after.end_reason().is_some() {
            break;
        }
        let Some(next) = two_best(&after, limits, spent).filter(Two::only) else {
            break;
        };
        after.position.play_unchecked(next.best);
        solution.extend([reply.best, next.best]);
        at = after;
        mv = next.best;
    }
    let previous = asked
        .previous
        .and_then(|(before, step, _)| before.validate(*step).ok());
    Some(Puzzle {
        id: puzzle_id(state),
        ply: asked.ply,
        player: solver.index(),
        themes: themes(state, &solution, previous, &first),
        forced: forced_of(f64::from(first.value)).filter(|f| f.win),
        chance: first.chance,
        second_chance: first.second.unwrap_or(0.0),
        rating: rating(state, first.best, asked.limits, spent),
        source: Source { played, label },
        solution,
    })
    .filter(|_| !limits.stop_requested())
}

#[cfg(test)]
mod tests;
