//! The depth-limited search, for positions whose game cannot be solved
//! within the limits: every round ahead is a zero-sum matrix game over
//! both players' picks, solved for mixed strategies (regret matching+),
//! with a transposition table (picks made in another order often lead to
//! the same position: from the default start, 3,158 positions after three
//! rounds instead of 46,656 sequences), deepened iteratively within time
//! and node limits. Where the AI plays exactly but the whole game did not
//! fit the limits, the search solves its leaves exactly where their games
//! are small ([`Leaves`]).

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

use super::found::Found;
use super::matrix::solve;
use crate::games::tank_war::rules::{outcome, pickable, play_round, surviving, territory};
use crate::games::tank_war::solve::lp::Solution;
use crate::games::tank_war::solve::{Compiled, Key, Solver, Unsolved};
use crate::games::tank_war::state::{Player, Position, Setup};
use crate::games::SearchLimits;

/// Value of a won game (U's point of view), before the margin.
pub const WIN: f64 = 10_000.0;
pub(super) const TANK: f64 = 100.0;
const SQUARE: f64 = 4.0;
/// Regret-matching iterations at the root and inside the tree, scaled down
/// for big matrices so one solve stays within a few million operations.
const ROOT_ITERATIONS: usize = 4_000;
const NODE_ITERATIONS: usize = 300;
const SOLVE_WORK: usize = 4_000_000;

fn iterations(cap: usize, rows: usize, cols: usize) -> usize {
    (SOLVE_WORK / (rows * cols).max(1)).clamp(20, cap)
}

/// Most positions one leaf's solve may add to what the solver remembers:
/// a leaf whose game is larger is valued by its material.
const LEAF_POSITIONS: u64 = 4_096;

/// The exact solver at the search's leaves: a leaf whose game can be
/// solved within [`LEAF_POSITIONS`] more positions is worth its exact value
/// (`WIN` times the expected result) instead of its material, and is no
/// horizon. The solver is the one the root's attempt used, with what it
/// solved.
pub(super) struct Leaves<'a> {
    compiled: &'a Compiled,
    solver: Solver<'a>,
    /// Leaves found too large (not tried again).
    too_large: HashSet<Key>,
}

impl<'a> Leaves<'a> {
    pub(super) fn new(compiled: &'a Compiled, solver: Solver<'a>) -> Self {
        Leaves {
            compiled,
            solver,
            too_large: HashSet::new(),
        }
    }
}

/// Iterative deepening within `limits`: the last finished depth's
/// solution of the root, its payoffs (U's view) and depth, and the
/// positions evaluated. The uniform strategy at depth 0 when not even
/// depth 1 finished.
pub(super) fn deepen(
    setup: &Setup,
    pos: &Position,
    picks: &[Vec<usize>; 2],
    limits: SearchLimits<'_>,
    start: Instant,
    leaves: Option<Leaves<'_>>,
) -> Found {
    let mut searcher = Searcher {
        setup,
        leaves,
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
        let (solution, matrix) = searcher.root(pos, picks, depth);
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
    Found {
        solution,
        matrix,
        depth,
        nodes: searcher.nodes,
        exact: false,
    }
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
    leaves: Option<Leaves<'a>>,
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
            if let Some(value) = self.solved_leaf(pos) {
                return value;
            }
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

    /// The exact value of a leaf for U (`WIN` times the expected result)
    /// when its game can be solved within [`LEAF_POSITIONS`] more
    /// positions; the positions the solve looks at count as evaluated.
    fn solved_leaf(&mut self, pos: &Position) -> Option<f64> {
        let leaves = self.leaves.as_mut()?;
        let key = leaves.compiled.key(pos)?;
        if leaves.too_large.contains(&key) {
            return None;
        }
        let before = leaves.solver.visited();
        let value = leaves.solver.value_within(key, LEAF_POSITIONS);
        self.nodes += leaves.solver.visited() - before;
        match value {
            Ok(v) => Some(WIN * v),
            Err(Unsolved::TooLarge) => {
                if leaves.too_large.len() < TABLE_CAP {
                    leaves.too_large.insert(key);
                }
                None
            }
            Err(_) => {
                self.stopped = true;
                None
            }
        }
    }

    /// Surviving tanks and owned squares, U's view.
    fn material(&self, pos: &Position) -> f64 {
        let tanks = surviving(self.setup, pos, Player::U) as f64
            - surviving(self.setup, pos, Player::D) as f64;
        let squares = territory(pos, Player::U) as f64 - territory(pos, Player::D) as f64;
        TANK * tanks + SQUARE * squares
    }
}
