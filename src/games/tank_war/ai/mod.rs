//! A simultaneous-move search for The Tank War: a depth-limited lookahead in
//! which every round is a zero-sum matrix game over both players' picks,
//! solved for mixed strategies, with a transposition table (picks made in
//! another order often lead to the same position: from the default start,
//! 3,158 positions after three rounds instead of 46,656 sequences).
//! Iterative deepening within time and node limits; the answer is the last
//! finished depth's strategy, sampled with a seeded generator.

pub mod exploit;
mod matrix;

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::rules::{outcome, pickable, play_round, surviving, territory};
use super::state::{Player, Position, Setup};
use crate::games::level::{level_rng, Level, Style};
pub use matrix::{solve, Solution};

/// Bumped whenever the search changes what it answers; part of cache keys.
pub const ENGINE_VERSION: u32 = 5;

/// What one level searches and how it plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recipe {
    /// Rounds looked ahead at most.
    pub depth: u32,
    /// Most positions evaluated.
    pub nodes: u64,
    /// In value units (a tank 100, a square 4): each pick is played with a
    /// weight `exp((v - best) / temperature)`, `v` its value against the
    /// opponent's equilibrium strategy (a quantal response); 0 plays the
    /// equilibrium.
    pub temperature: f64,
    /// The share of rounds in which the level ignores what it found and
    /// moves one of its rearmost tanks (those least far along their
    /// tracks), as a beginner keeping the line does; 0 never.
    pub formation: f64,
}

impl Recipe {
    const fn new(depth: u32, nodes: u64, temperature: f64, formation: f64) -> Recipe {
        Recipe {
            depth,
            nodes,
            temperature,
            formation,
        }
    }
}

/// Levels 1 to 8, weakest first (BENCHMARKS.md measures each against the
/// one below): a beginner who keeps the line (1), who keeps it half the
/// time and otherwise picks almost uniformly (2), always so (3), one
/// round's equilibrium but the line in 30% of the rounds (4), one round's
/// equilibrium (5), two rounds' (6), then as deep as 30,000 and 650,000
/// positions let it (7, 8).
pub const RECIPES: [Recipe; 8] = [
    Recipe::new(1, 20_000, 0.0, 1.0),
    Recipe::new(1, 20_000, 10_000.0, 0.5),
    Recipe::new(1, 20_000, 10_000.0, 0.0),
    Recipe::new(1, 20_000, 0.0, 0.3),
    Recipe::new(1, 20_000, 0.0, 0.0),
    Recipe::new(2, 20_000, 0.0, 0.0),
    Recipe::new(64, 30_000, 0.0, 0.0),
    Recipe::new(64, 650_000, 0.0, 0.0),
];

/// The recipe of `level`.
pub fn recipe(level: Level) -> Recipe {
    level.pick(&RECIPES)
}

/// Value of a won game (U's point of view), before the margin.
pub const WIN: f64 = 10_000.0;
const TANK: f64 = 100.0;
const SQUARE: f64 = 4.0;
/// Regret-matching iterations at the root and inside the tree, scaled down
/// for big matrices so one solve stays within a few million operations.
const ROOT_ITERATIONS: usize = 4_000;
const NODE_ITERATIONS: usize = 300;
const SOLVE_WORK: usize = 4_000_000;

fn iterations(cap: usize, rows: usize, cols: usize) -> usize {
    (SOLVE_WORK / (rows * cols).max(1)).clamp(20, cap)
}

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
    /// the opponent answers it with its best reply, at the searched depth.
    pub worst_case: Vec<(usize, f64)>,
    /// The game's value for the player: tanks are worth 100, squares 4, a
    /// won game 10000 plus the margin.
    pub value: f64,
    /// Rounds looked ahead by the last finished iteration.
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
    let mut picks = [
        pickable(setup, pos, Player::U),
        pickable(setup, pos, Player::D),
    ];
    if picks.iter().any(Vec::is_empty) {
        return None;
    }
    // The seed orders the picks, so that among equally good ones (a pure
    // saddle point takes the first) the choice varies with the seed.
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for list in &mut picks {
        list.shuffle(&mut rng);
    }
    let mut searcher = Searcher {
        setup,
        table: HashMap::new(),
        nodes: 0,
        limits,
        deadline: limits.max_time.map(|t| start + t),
        stopped: false,
        horizon: false,
    };
    let mut best: Option<(Solution, Vec<f64>, u32)> = None;
    for depth in 1..=limits.max_depth.max(1) {
        searcher.horizon = false;
        let (solution, matrix) = searcher.root(pos, &picks, depth);
        if searcher.stopped {
            break;
        }
        // A won game, or every line played to its end: looking deeper
        // would search the same tree again.
        let decided = solution.value.abs() >= WIN || !searcher.horizon;
        best = Some((solution, matrix, depth));
        if decided {
            break;
        }
        if let (Some(deadline), Some(max_time)) = (searcher.deadline, limits.max_time) {
            if Instant::now() + max_time / 4 > deadline {
                break;
            }
        }
    }
    // Not even depth 1 finished: play the uniform strategy.
    let n = [picks[0].len(), picks[1].len()];
    let (solution, matrix, depth) = best.unwrap_or_else(|| {
        (
            Solution {
                rows: vec![1.0 / n[0] as f64; n[0]],
                cols: vec![1.0 / n[1] as f64; n[1]],
                value: 0.0,
            },
            vec![0.0; n[0] * n[1]],
            0,
        )
    });
    // The player's payoffs, its picks by rows: U's view for U, the
    // negated transpose for D.
    let own_payoff = |i: usize, j: usize| match player {
        Player::U => matrix.get(i * n[1] + j).copied().unwrap_or(0.0),
        Player::D => -matrix.get(j * n[1] + i).copied().unwrap_or(0.0),
    };
    let (own, mut probabilities, opponent, value) = match player {
        Player::U => (&picks[0], solution.rows, solution.cols, solution.value),
        Player::D => (&picks[1], solution.cols, solution.rows, -solution.value),
    };
    let worst: Vec<f64> = (0..own.len())
        .map(|i| {
            (0..opponent.len())
                .map(|j| own_payoff(i, j))
                .fold(f64::INFINITY, f64::min)
                + 0.0
        })
        .collect();
    // A pure equilibrium of the lookahead is often one of several picks
    // that guarantee its value: playing all of them at random keeps the
    // guarantee and gives an opponent who knows the strategy less to aim
    // at (the exploitability in BENCHMARKS).
    let guaranteed: Vec<usize> = (0..own.len())
        .filter(|&i| worst.get(i).is_some_and(|w| *w >= value - 1e-9))
        .collect();
    if depth > 0 && guaranteed.len() > 1 && probabilities.iter().any(|p| *p >= 1.0 - 1e-12) {
        let share = 1.0 / guaranteed.len() as f64;
        probabilities = (0..own.len())
            .map(|i| if guaranteed.contains(&i) { share } else { 0.0 })
            .collect();
    }
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
        Some(_) => sample(&strategy, &mut level_rng(seed))?,
        None => sample(&strategy, &mut rng)?,
    };
    let by_name = |&(id, _): &(usize, f64)| setup.tanks.get(id).map(|t| t.name.clone());
    strategy.sort_by_key(by_name);
    worst_case.sort_by_key(by_name);
    Some(SearchResult {
        pick,
        strategy,
        worst_case,
        // No negative zero.
        value: value + 0.0,
        depth,
        nodes: searcher.nodes,
        elapsed: start.elapsed(),
    })
}

/// Equal probabilities on the tanks of `own` least far along their tracks,
/// 0 on the others.
fn keeping_the_line(pos: &Position, own: &[usize]) -> Vec<f64> {
    let along = |id: usize| pos.at.get(id).copied().unwrap_or(usize::MAX);
    let rearmost = own.iter().map(|&id| along(id)).min();
    let in_line = |id: usize| Some(along(id)) == rearmost;
    let count = own.iter().filter(|&&id| in_line(id)).count().max(1) as f64;
    own.iter()
        .map(|&id| if in_line(id) { 1.0 / count } else { 0.0 })
        .collect()
}

/// Probabilities `exp((v - best) / temperature)`, normalised.
fn quantal_response(values: &[f64], temperature: f64) -> Vec<f64> {
    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = values
        .iter()
        .map(|v| ((v - best) / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    weights
        .iter()
        .map(|w| w / total.max(f64::MIN_POSITIVE))
        .collect()
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

/// Most positions the transposition table remembers (about 12 MB).
const TABLE_CAP: usize = 1 << 18;

/// What identifies a position within one search, with the rounds left to
/// look: the round number and the clocks do not change what follows (a
/// search charges no time).
fn table_key(pos: &Position, depth: u32) -> u64 {
    let mut h = DefaultHasher::new();
    pos.at.hash(&mut h);
    pos.alive.hash(&mut h);
    pos.territory.hash(&mut h);
    depth.hash(&mut h);
    h.finish()
}

struct Searcher<'a> {
    setup: &'a Setup,
    /// Values of positions already searched, by [`table_key`]: rounds
    /// played in another order often lead to the same position.
    table: HashMap<u64, Entry>,
    nodes: u64,
    limits: SearchLimits<'a>,
    deadline: Option<Instant>,
    stopped: bool,
    /// Whether the subtree being searched stopped at the horizon somewhere
    /// (a position valued by its material, not played to its end).
    horizon: bool,
}

/// A searched position's value, and whether its whole tree was played to
/// its end (then it is the same at any greater depth).
#[derive(Clone, Copy)]
struct Entry {
    value: f64,
    exact: bool,
}

impl Searcher<'_> {
    fn out_of_budget(&mut self) -> bool {
        if !self.stopped {
            self.stopped = self.nodes >= self.limits.max_nodes
                || (self.nodes.is_multiple_of(64)
                    && (self.limits.stop_requested()
                        || self.deadline.is_some_and(|d| Instant::now() >= d)));
        }
        self.stopped
    }

    /// The matrix game at the root, solved, and its payoffs.
    fn root(
        &mut self,
        pos: &Position,
        picks: &[Vec<usize>; 2],
        depth: u32,
    ) -> (Solution, Vec<f64>) {
        let m = self.matrix(pos, picks, depth);
        let (rows, cols) = (picks[0].len(), picks[1].len());
        (
            solve(&m, rows, cols, iterations(ROOT_ITERATIONS, rows, cols)),
            m,
        )
    }

    /// Payoffs (U's view) of every pair of picks, looking `depth` rounds on.
    fn matrix(&mut self, pos: &Position, picks: &[Vec<usize>; 2], depth: u32) -> Vec<f64> {
        let mut m = Vec::with_capacity(picks[0].len() * picks[1].len());
        for &u in &picks[0] {
            for &d in &picks[1] {
                let mut child = pos.clone();
                play_round(self.setup, &mut child, [u, d], [0, 0]);
                m.push(self.value(&child, depth - 1));
                if self.stopped {
                    return m;
                }
            }
        }
        m
    }

    /// The value of `pos` for U.
    fn value(&mut self, pos: &Position, depth: u32) -> f64 {
        // Leaves are cheaper to evaluate than to look up.
        let key = (depth > 0).then(|| table_key(pos, depth));
        if let Some(&entry) = key.and_then(|k| self.table.get(&k)) {
            self.horizon |= !entry.exact;
            return entry.value;
        }
        self.nodes += 1;
        if self.out_of_budget() {
            return 0.0;
        }
        if let Some(end) = outcome(self.setup, pos) {
            let margin = self.material(pos);
            return match end.winner {
                Some(Player::U) => WIN + margin.abs(),
                Some(Player::D) => -WIN - margin.abs(),
                None => 0.0,
            };
        }
        if depth == 0 {
            self.horizon = true;
            return self.material(pos);
        }
        let picks = [
            pickable(self.setup, pos, Player::U),
            pickable(self.setup, pos, Player::D),
        ];
        let outer = std::mem::replace(&mut self.horizon, false);
        let m = self.matrix(pos, &picks, depth);
        if self.stopped {
            return 0.0;
        }
        let (rows, cols) = (picks[0].len(), picks[1].len());
        let value = solve(&m, rows, cols, iterations(NODE_ITERATIONS, rows, cols)).value;
        let exact = !self.horizon;
        self.horizon |= outer;
        if let Some(key) = key.filter(|_| self.table.len() < TABLE_CAP) {
            self.table.insert(key, Entry { value, exact });
        }
        value
    }

    /// Surviving tanks and owned squares, U's view.
    fn material(&self, pos: &Position) -> f64 {
        let tanks = surviving(self.setup, pos, Player::U) as f64
            - surviving(self.setup, pos, Player::D) as f64;
        let squares = territory(pos, Player::U) as f64 - territory(pos, Player::D) as f64;
        TANK * tanks + SQUARE * squares
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tank_war::state::{default_state, ILLUSTRATION};

    /// Limits of depth `d` alone.
    pub(super) fn depth(d: u32) -> SearchLimits<'static> {
        SearchLimits {
            max_time: None,
            max_depth: d,
            max_nodes: u64::MAX,
            stop: None,
        }
    }

    /// Plays a round of each player's first pickable tank; its picks.
    fn play_first_picks(setup: &Setup, pos: &mut Position) -> [usize; 2] {
        let first = |p| pickable(setup, pos, p).first().copied();
        let (Some(u), Some(d)) = (first(Player::U), first(Player::D)) else {
            panic!("the game goes on");
        };
        play_round(setup, pos, [u, d], [0, 0]);
        [u, d]
    }

    #[test]
    fn the_line_keeping_levels_move_their_rearmost_tanks() {
        let (setup, mut pos) = default_state();
        let [u, _] = play_first_picks(&setup, &mut pos);
        let level = |n| Style::at(Level::new(n).unwrap_or_else(|| panic!("level {n}")));
        let share = |result: &SearchResult, id: usize| {
            result
                .strategy
                .iter()
                .find(|(tank, _)| *tank == id)
                .map_or(0.0, |(_, p)| *p)
        };
        for seed in 0..20 {
            let Some(line) = search_with(&setup, &pos, Player::U, depth(64), seed, level(1)) else {
                panic!("the game goes on");
            };
            // U's tank that moved is ahead of the line; the other five share it.
            assert_ne!(line.pick, u);
            assert_eq!(share(&line, u), 0.0);
            for &(id, p) in &line.strategy {
                assert!(id == u || (p - 0.2).abs() < 1e-12, "{:?}", line.strategy);
            }
            let Some(equilibrium) = search_with(&setup, &pos, Player::U, depth(64), seed, level(5))
            else {
                panic!("the game goes on");
            };
            let Some(mixed) = search_with(&setup, &pos, Player::U, depth(64), seed, level(4))
            else {
                panic!("the game goes on");
            };
            let formation = recipe(Level::new(4).unwrap_or_else(|| panic!("level 4"))).formation;
            for &(id, p) in &mixed.strategy {
                let expected =
                    (1.0 - formation) * share(&equilibrium, id) + formation * share(&line, id);
                assert!((p - expected).abs() < 1e-9, "{id}: {p} vs {expected}");
            }
        }
    }

    #[test]
    fn a_tree_played_to_its_end_is_not_searched_deeper() {
        // The rules' illustration, then each player's first pick for three
        // rounds: every line ends within ten rounds.
        let (setup, mut pos) = default_state();
        for (u, d) in ILLUSTRATION {
            let (Some(u), Some(d)) = (
                setup.find(&pos, Player::U, u),
                setup.find(&pos, Player::D, d),
            ) else {
                panic!("{u} and {d} are alive");
            };
            play_round(&setup, &mut pos, [u, d], [0, 0]);
        }
        for _ in 0..3 {
            play_first_picks(&setup, &mut pos);
        }
        let Some(solved) = search(&setup, &pos, Player::U, depth(64), 1) else {
            panic!("the game goes on");
        };
        // Deepening stops where every line has ended instead of searching
        // the same tree again up to depth 64.
        assert!(solved.depth < 64, "depth {}", solved.depth);
        let Some(shallower) = search(&setup, &pos, Player::U, depth(solved.depth - 1), 1) else {
            panic!("the game goes on");
        };
        assert_eq!(shallower.depth, solved.depth - 1, "a line goes on");
        assert!(shallower.nodes < solved.nodes);
    }

    #[test]
    fn transpositions_are_searched_once() {
        let (setup, pos) = default_state();
        let Some(result) = search(&setup, &pos, Player::U, depth(3), 1) else {
            panic!("the start is not over");
        };
        assert_eq!(result.depth, 3);
        // Iterative deepening to depth 3 evaluates, without a table, every
        // sequence of picks: 36, then 36 + 36^2, then 36 + 36^2 + 36^3
        // positions (49,356). The start has 36 positions after one round
        // and 441 after two, so with the table depth 3 needs 36 + 441
        // positions inside the tree and 441 x 36 leaves at most (fewer
        // when a blocked move makes a position after two rounds one the
        // table holds already).
        let without_table = 36 + (36 + 1_296) + (36 + 1_296 + 46_656);
        let with_table = 36 + (36 + 1_296) + (36 + 441 + 441 * 36);
        assert!(
            result.nodes <= with_table && result.nodes < without_table / 2,
            "{} nodes",
            result.nodes
        );
    }
}
