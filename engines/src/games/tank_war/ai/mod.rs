//! The Tank War's AI. Wherever the game from a position can be solved
//! within the limits (always for the default setup at the default limits:
//! its first rounds come from a table solved offline), full strength and
//! level 8 play an exact equilibrium of the whole game ([`super::solve`]);
//! elsewhere, and at levels 1-7, a depth-limited simultaneous-move
//! [`search`]. Either way the answer is the root's matrix game over both
//! players' picks: the player's mixed strategy (a level's softened one,
//! [`levels`]), each pick's worst case, and a pick sampled with a seeded
//! generator.

pub mod exploit;
mod found;
mod judge;
mod levels;
mod matrix;
mod root;
mod search;
mod strategy;
pub mod version;

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::rules::pickable;
use super::solve as exact;
pub use super::solve::lp::Solution;
use super::state::{Player, Position, Setup};
use crate::games::level::{level_rng, Style};
use found::Found;
pub use judge::judge_round;
use levels::{keeping_the_line, quantal_response};
pub use levels::{recipe, Recipe, RECIPES};
pub use matrix::solve;
use root::root_game;
pub use search::WIN;
use strategy::{full_strength, payoff, FullStrength};

pub use version::{AI_VERSION, ENGINE_VERSION};

/// What bounds one search: the depth counts rounds looked ahead, the nodes
/// positions evaluated.
pub use crate::games::SearchLimits;

/// The search's answer for one player.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The sampled pick (a tank id of the setup).
    pub pick: usize,
    /// The mixed strategy played: (tank id, probability), probabilities
    /// summing to 1, sorted by tank name. At full strength the
    /// equilibrium's; at a level, the level's softened one.
    pub strategy: Vec<(usize, f64)>,
    /// Each pickable tank (same order) with its value for the player when
    /// the opponent answers it with its best reply, at the searched depth
    /// (when exact, on the result scale).
    pub worst_case: Vec<(usize, f64)>,
    /// The game's value for the player: tanks are worth 100, squares 4, a
    /// won game 10000 plus the margin; when exact, 10000 times the
    /// expected result.
    pub value: f64,
    /// Whether the strategy is an exact equilibrium of the whole game
    /// from here (the game was solved).
    pub exact: bool,
    /// When exact, the game's value for the player on the result scale:
    /// 1 a win, 0 a draw, −1 a loss (`worst_case` too is then on it).
    pub expected_result: Option<f64>,
    /// Rounds looked ahead by the last finished iteration; when exact,
    /// the most rounds the game can still last.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Searches for `player`'s pick at full strength. `None` when the game is
/// over.
pub fn search(
    setup: &Setup,
    pos: &Position,
    player: Player,
    limits: SearchLimits,
    seed: u64,
) -> Option<SearchResult> {
    search_with(setup, pos, player, limits, seed, Style::FULL)
}

/// Searches for `player`'s pick as `style` asks: at a level, its recipe's
/// budgets within `limits` and its softened strategy. `None` when the game
/// is over.
pub fn search_with(
    setup: &Setup,
    pos: &Position,
    player: Player,
    limits: SearchLimits,
    seed: u64,
    style: Style,
) -> Option<SearchResult> {
    let start = Instant::now();
    let recipe = style.level.map(recipe);
    let limits = match recipe {
        Some(recipe) => limits.within(recipe.depth, recipe.nodes),
        None => limits,
    };
    let (picks, rng) = seeded_picks(setup, pos, seed)?;
    let found = root_game(setup, pos, &picks, limits, style, start);
    Some(finish(
        setup,
        pos,
        player,
        (seed, rng),
        style,
        picks,
        found,
        start,
    ))
}

/// The exact answer, with a solver of the whole game that the caller
/// keeps between positions (a tool asking about many positions of one
/// game: the exploitability walk). `pos` must be of the setup the solver
/// was compiled from. `None` when the game is over.
pub fn exact_with(
    setup: &Setup,
    pos: &Position,
    player: Player,
    seed: u64,
    solver: &mut exact::Solver,
) -> Option<Result<SearchResult, exact::Unsolved>> {
    let start = Instant::now();
    let (picks, rng) = seeded_picks(setup, pos, seed)?;
    let key = solver.game().pack(pos)?;
    let packed: Option<Vec<Vec<u8>>> = picks
        .iter()
        .map(|list| list.iter().map(|&id| u8::try_from(id).ok()).collect())
        .collect();
    let [u, d]: [Vec<u8>; 2] = packed?.try_into().ok()?;
    let visited = solver.visited();
    let found = match solver.matrix(key, &[u, d]) {
        Ok(matrix) => Found::exact(setup, pos, &picks, matrix, solver.visited() - visited),
        Err(e) => return Some(Err(e)),
    };
    Some(Ok(finish(
        setup,
        pos,
        player,
        (seed, rng),
        Style::FULL,
        picks,
        found,
        start,
    )))
}

/// Both players' pickable tanks, each list in an order drawn from `seed`
/// (so that among equally good picks, a pure saddle point takes the
/// first, the choice varies with the seed). `None` when the game is over.
fn seeded_picks(setup: &Setup, pos: &Position, seed: u64) -> Option<([Vec<usize>; 2], ChaCha8Rng)> {
    let mut picks = [
        pickable(setup, pos, Player::U),
        pickable(setup, pos, Player::D),
    ];
    if picks.iter().any(Vec::is_empty) {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for list in &mut picks {
        list.shuffle(&mut rng);
    }
    Some((picks, rng))
}

/// The answer from the root's matrix game: the player's strategy (a
/// level's softened), each pick's worst case, and a pick drawn with
/// `seed` (a level) or the generator that ordered the picks.
#[allow(clippy::too_many_arguments)]
fn finish(
    setup: &Setup,
    pos: &Position,
    player: Player,
    (seed, mut rng): (u64, ChaCha8Rng),
    style: Style,
    picks: [Vec<usize>; 2],
    found: Found,
    start: Instant,
) -> SearchResult {
    let recipe = style.level.map(recipe);
    let n = [picks[0].len(), picks[1].len()];
    let FullStrength {
        mut probabilities,
        worst,
        value,
    } = full_strength(&found, &picks, player);
    let own = &picks[player.index()];
    // A level answers the opponent's equilibrium as solved.
    let opponent = match player {
        Player::U => &found.solution.cols,
        Player::D => &found.solution.rows,
    };
    let own_payoff = |i: usize, j: usize| payoff(&found, n, player, i, j);
    if let Some(temperature) = recipe.map(|r| r.temperature).filter(|t| *t > 0.0) {
        let against: Vec<f64> = (0..own.len())
            .map(|i| {
                (0..opponent.len())
                    .map(|j| opponent.get(j).copied().unwrap_or(0.0) * own_payoff(i, j))
                    .sum()
            })
            .collect();
        probabilities = quantal_response(&against, temperature);
    }
    if let Some(share) = recipe.map(|r| r.formation).filter(|f| *f > 0.0) {
        let line = keeping_the_line(pos, own);
        probabilities = probabilities
            .iter()
            .zip(line)
            .map(|(p, l)| (1.0 - share) * p + share * l)
            .collect();
    }
    let mut strategy: Vec<(usize, f64)> = own.iter().copied().zip(probabilities).collect();
    let mut worst_case: Vec<(usize, f64)> = own.iter().copied().zip(worst).collect();
    let pick = match style.level {
        Some(_) => sample(&strategy, &mut level_rng(seed)),
        None => sample(&strategy, &mut rng),
    }
    .unwrap_or(0);
    let by_name = |&(id, _): &(usize, f64)| setup.tanks.get(id).map(|t| t.name.clone());
    strategy.sort_by_key(by_name);
    worst_case.sort_by_key(by_name);
    SearchResult {
        pick,
        strategy,
        worst_case,
        // No negative zero.
        value: if found.exact { value * WIN } else { value } + 0.0,
        expected_result: found.exact.then_some(value + 0.0),
        exact: found.exact,
        depth: found.depth,
        nodes: found.nodes,
        elapsed: start.elapsed(),
    }
}

fn sample(strategy: &[(usize, f64)], rng: &mut ChaCha8Rng) -> Option<usize> {
    let mut r: f64 = rng.random();
    for &(id, p) in strategy {
        if r < p {
            return Some(id);
        }
        r -= p;
    }
    strategy
        .iter()
        .rev()
        .find(|(_, p)| *p > 0.0)
        .map(|&(id, _)| id)
}

#[cfg(test)]
mod tests;
