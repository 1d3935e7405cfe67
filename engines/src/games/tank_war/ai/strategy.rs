//! A player's strategy at full strength from the root's matrix game, as
//! `ai-move` plays it and the review judges against it: one equilibrium
//! for both endpoints.

use super::found::Found;
use crate::games::tank_war::solve::lp;
use crate::games::tank_war::state::Player;

/// `player`'s payoff (its picks by rows: U's view for U, the negated
/// transpose for D) of its pick `i` against the opponent's `j` in the
/// root's matrix game of `n` picks a player.
pub(super) fn payoff(found: &Found, n: [usize; 2], player: Player, i: usize, j: usize) -> f64 {
    match player {
        Player::U => found.matrix.get(i * n[1] + j).copied().unwrap_or(0.0),
        Player::D => -found.matrix.get(j * n[1] + i).copied().unwrap_or(0.0),
    }
}

/// A player's strategy at full strength, as `ai-move` plays it and the
/// review judges against it (one equilibrium for both): each pick's
/// probability and worst case, and the game's value, all the player's.
pub(super) struct FullStrength {
    pub probabilities: Vec<f64>,
    pub worst: Vec<f64>,
    pub value: f64,
}

/// `player`'s [`FullStrength`] strategy from the root's matrix game over
/// both players' `picks` (in the order the matrix has them): where some
/// pick guarantees the game's value (a pure equilibrium exists), every
/// such pick at random — which keeps the guarantee, gives an opponent who
/// knows the strategy less to aim at (the exploitability in BENCHMARKS),
/// and is the matrix's, not the solver's; else the canonical mixed
/// equilibrium ([`canonical`]). Either way the strategy does not depend
/// on the order of the picks, so `ai-move` (which orders them by its
/// seed) and the review (which does not) play one strategy.
pub(super) fn full_strength(
    found: &Found,
    picks: &[Vec<usize>; 2],
    player: Player,
) -> FullStrength {
    let n = [picks[0].len(), picks[1].len()];
    let (mut probabilities, opponents, value) = match player {
        Player::U => (found.solution.rows.clone(), n[1], found.solution.value),
        Player::D => (found.solution.cols.clone(), n[0], -found.solution.value),
    };
    let own = n[player.index()];
    let worst: Vec<f64> = (0..own)
        .map(|i| {
            (0..opponents)
                .map(|j| payoff(found, n, player, i, j))
                .fold(f64::INFINITY, f64::min)
                + 0.0
        })
        .collect();
    let guaranteed: Vec<usize> = (0..own)
        .filter(|&i| worst.get(i).is_some_and(|w| *w >= value - 1e-9))
        .collect();
    if found.depth > 0 && !guaranteed.is_empty() {
        let share = 1.0 / guaranteed.len() as f64;
        probabilities = (0..own)
            .map(|i| if guaranteed.contains(&i) { share } else { 0.0 })
            .collect();
    } else if found.depth > 0 {
        probabilities = canonical(found, picks, player);
    }
    FullStrength {
        probabilities,
        worst,
        value,
    }
}

/// `player`'s mixed equilibrium strategy, the same whatever the order of
/// the picks: the matrix game solved (by the simplex, exactly) with each
/// player's picks in the order of their tanks' ids, then read back in the
/// matrix's order. An equilibrium need not be unique; this one is the
/// simplex's from one fixed order, so both endpoints find it.
fn canonical(found: &Found, picks: &[Vec<usize>; 2], player: Player) -> Vec<f64> {
    let order = |list: &Vec<usize>| {
        let mut order: Vec<usize> = (0..list.len()).collect();
        order.sort_by_key(|&i| list.get(i).copied());
        order
    };
    let [rows, cols] = [order(&picks[0]), order(&picks[1])];
    let width = picks[1].len();
    let matrix: Vec<f64> = rows
        .iter()
        .flat_map(|&i| {
            cols.iter()
                .map(move |&j| found.matrix.get(i * width + j).copied().unwrap_or(0.0))
        })
        .collect();
    let solution = lp::solve(&matrix, rows.len(), cols.len());
    let (order, solved) = match player {
        Player::U => (rows, solution.rows),
        Player::D => (cols, solution.cols),
    };
    let mut probabilities = vec![0.0; order.len()];
    for (&at, p) in order.iter().zip(solved) {
        if let Some(slot) = probabilities.get_mut(at) {
            *slot = p;
        }
    }
    probabilities
}
