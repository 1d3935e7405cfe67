//! The root's matrix game over both players' picks ([`root_game`]): exact
//! where the game from the position can be solved within the limits (full
//! strength and level 8), searched elsewhere. The AI's answer and a
//! review's judge both start from it.

use std::time::Instant;

use super::found::Found;
use super::search::{deepen, Leaves};
use crate::games::level::{Level, Style};
use crate::games::tank_war::solve as exact;
use crate::games::tank_war::state::{Position, Setup};
use crate::games::SearchLimits;

/// The root's matrix game over both players' `picks`: exact where the game
/// from here can be solved within `limits` (full strength and level 8
/// only), searched elsewhere.
pub(super) fn root_game(
    setup: &Setup,
    pos: &Position,
    picks: &[Vec<usize>; 2],
    limits: SearchLimits,
    style: Style,
    start: Instant,
) -> Found {
    // Full strength and level 8 play the exact equilibrium whenever the
    // game from here can be solved within the limits, in half the time
    // (the default game's positions need a few ms beyond its table's
    // rounds). If it cannot, the search has the rest and solves its
    // leaves where it can, with what the attempt solved. Limits that
    // allow fewer rounds than the game can last (and than a full search
    // looks) ask for the search alone.
    let compiled = (plays_exact(style)
        && limits.max_depth >= exact::rounds_left(setup, pos).min(exact::FULL_DEPTH))
    .then(|| exact::Compiled::new(setup, pos))
    .flatten();
    let bounds = |share: u32| exact::Bounds {
        max_positions: limits.max_nodes.min(exact::MAX_POSITIONS),
        deadline: limits.max_time.map(|t| start + t * share / 4),
        limits: Some(&limits),
    };
    let solver = compiled.as_ref().and_then(|c| c.solver(bounds(2)));
    match (&compiled, solver) {
        (Some(compiled), Some(mut solver)) => match compiled.matrix(&mut solver, pos, picks) {
            Ok(matrix) => Found::exact(setup, pos, picks, matrix, solver.visited()),
            Err(_) => {
                let tried = solver.visited();
                solver.set_bounds(bounds(4));
                let leaves = Leaves::new(compiled, solver);
                let mut found = deepen(setup, pos, picks, limits, start, Some(leaves));
                found.nodes += tried;
                found
            }
        },
        _ => deepen(setup, pos, picks, limits, start, None),
    }
}

/// Whether `style` plays the exact equilibrium where it can: full
/// strength and the top level.
pub(super) fn plays_exact(style: Style) -> bool {
    style.level.is_none_or(|level| level.get() == Level::MAX)
}
