//! The solver ([`Solver`]): backward induction over packed positions,
//! within its [`Bounds`], each position's matrix game solved by [`super::lp`].

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use thiserror::Error;

use super::lp;
use super::packed::{Key, Packed};
use super::table::Table;
use crate::games::tank_war::state::{Position, Setup};
use crate::games::SearchLimits;

/// Most positions one request's solve remembers: about 17 MB, so that the
/// searches a server runs at once stay well within a 256 MiB pod. Past
/// the table's rounds, the default game's positions need far fewer (at
/// most 22,306 from 300 random playouts after round 7).
pub const MAX_POSITIONS: u64 = 400_000;

/// The lookahead, in rounds, that lets `ai-move` solve a game however
/// long it can last (the server's default `max_depth`); a request that
/// allows fewer rounds than both this and the game's length gets the
/// search.
pub const FULL_DEPTH: u32 = 64;

/// Why a solve did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Unsolved {
    #[error("the game from this position has more positions than the solve may remember")]
    TooLarge,
    #[error("the solve ran out of time")]
    OutOfTime,
    #[error("the solve was stopped")]
    Stopped,
    #[error("a position of this setup does not pack into 128 bits")]
    Unpackable,
}

/// A hasher for packed positions: one multiply-fold of each half, enough
/// to spread keys whose bits are mostly structure.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        let mixed = u128::from(self.0 ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835);
        self.0 = (mixed >> 64) as u64 ^ mixed as u64;
    }

    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }
}

/// Remembered values of positions, by packed key.
pub type Memo = HashMap<Key, f64, BuildHasherDefault<KeyHasher>>;

/// What bounds a solve.
#[derive(Clone, Copy, Debug)]
pub struct Bounds<'a> {
    /// Most positions remembered.
    pub max_positions: u64,
    pub deadline: Option<Instant>,
    pub limits: Option<&'a SearchLimits<'a>>,
}

impl Bounds<'_> {
    /// No bounds at all: for the offline table and the tests.
    pub const NONE: Bounds<'static> = Bounds {
        max_positions: u64::MAX,
        deadline: None,
        limits: None,
    };
}

/// One game's solver: its compiled setup, what it has solved so far, and
/// the table of the default game when the setup is the default one.
pub struct Solver<'a> {
    game: &'a Packed,
    table: Option<&'a Table>,
    memo: Memo,
    bounds: Bounds<'a>,
    /// Positions solved (remembered), and positions looked at.
    visited: u64,
    stack: Vec<Frame>,
}

/// A position being solved: its picks and the values of the children
/// found so far (row-major, U's picks by rows).
#[derive(Default)]
struct Frame {
    key: Key,
    picks: [Vec<u8>; 2],
    values: Vec<f64>,
}

impl<'a> Solver<'a> {
    pub fn new(game: &'a Packed, table: Option<&'a Table>, bounds: Bounds<'a>) -> Self {
        Solver {
            game,
            table,
            memo: Memo::default(),
            bounds,
            visited: 0,
            stack: Vec::new(),
        }
    }

    /// Positions remembered so far.
    pub fn remembered(&self) -> usize {
        self.memo.len()
    }

    /// Positions looked at so far (remembered, finished and from the
    /// table).
    pub fn visited(&self) -> u64 {
        self.visited
    }

    /// Everything solved so far.
    pub fn memo(&self) -> &Memo {
        &self.memo
    }

    /// The compiled setup.
    pub fn game(&self) -> &Packed {
        self.game
    }

    /// A known value: a finished game, the table, or a position solved
    /// before. Fills `picks` when the game goes on.
    fn known(&mut self, key: Key, picks: &mut [Vec<u8>; 2]) -> Option<f64> {
        self.visited += 1;
        if let Some(&v) = self.memo.get(&key) {
            return Some(v);
        }
        if let Some(v) = self.table.and_then(|t| t.get(key)) {
            return Some(v);
        }
        self.game.picks(key, picks)
    }

    fn check_bounds(&self) -> Result<(), Unsolved> {
        if self.memo.len() as u64 >= self.bounds.max_positions {
            return Err(Unsolved::TooLarge);
        }
        if self.memo.len().is_multiple_of(256) {
            if self.bounds.limits.is_some_and(SearchLimits::stop_requested) {
                return Err(Unsolved::Stopped);
            }
            if self.bounds.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(Unsolved::OutOfTime);
            }
        }
        Ok(())
    }

    /// Bounds from now on (what was solved stays remembered).
    pub fn set_bounds(&mut self, bounds: Bounds<'a>) {
        self.bounds = bounds;
    }

    /// The value of `key` for U, remembering at most `extra` more
    /// positions than now (and within the bounds): for a search that
    /// tries to solve its leaves. What it solved stays remembered when it
    /// stops.
    pub fn value_within(&mut self, key: Key, extra: u64) -> Result<f64, Unsolved> {
        let bounds = self.bounds;
        self.bounds.max_positions = bounds
            .max_positions
            .min((self.memo.len() as u64).saturating_add(extra));
        let value = self.value(key);
        self.bounds = bounds;
        value
    }

    /// The value of `key` for U.
    pub fn value(&mut self, key: Key) -> Result<f64, Unsolved> {
        let mut picks = [Vec::new(), Vec::new()];
        if let Some(v) = self.known(key, &mut picks) {
            return Ok(v);
        }
        self.solve_from(key, picks)
    }

    /// Every pair of picks' value for U (row-major, `picks[0]` by rows),
    /// picks given as tank ids of the compiled setup.
    pub fn matrix(&mut self, key: Key, picks: &[Vec<u8>; 2]) -> Result<Vec<f64>, Unsolved> {
        let mut values = Vec::with_capacity(picks[0].len() * picks[1].len());
        for &u in &picks[0] {
            for &d in &picks[1] {
                values.push(self.value(self.game.child(key, u, d))?);
            }
        }
        Ok(values)
    }

    /// Solves the unknown position `root` (whose picks are given) and
    /// everything below it not known yet, depth first without recursion.
    fn solve_from(&mut self, root: Key, picks: [Vec<u8>; 2]) -> Result<f64, Unsolved> {
        let base = self.stack.len();
        self.push(root, picks);
        let mut scratch = [Vec::new(), Vec::new()];
        loop {
            let Some(top) = self.stack.last_mut() else {
                return Err(Unsolved::TooLarge);
            };
            let (rows, cols) = (top.picks[0].len(), top.picks[1].len());
            let done = top.values.len();
            if done == rows * cols {
                let value = lp::value(&top.values, rows, cols);
                let key = top.key;
                self.check_bounds()
                    .inspect_err(|_| self.stack.truncate(base))?;
                self.memo.insert(key, value);
                self.stack.pop();
                if self.stack.len() == base {
                    return Ok(value);
                }
                if let Some(parent) = self.stack.last_mut() {
                    parent.values.push(value);
                }
                continue;
            }
            let (u, d) = (
                top.picks[0].get(done / cols).copied().unwrap_or(0),
                top.picks[1].get(done % cols).copied().unwrap_or(0),
            );
            let child = self.game.child(top.key, u, d);
            match self.known(child, &mut scratch) {
                Some(v) => {
                    if let Some(top) = self.stack.last_mut() {
                        top.values.push(v);
                    }
                }
                None => {
                    let picks = [scratch[0].clone(), scratch[1].clone()];
                    self.push(child, picks);
                }
            }
        }
    }

    fn push(&mut self, key: Key, picks: [Vec<u8>; 2]) {
        let size = picks[0].len() * picks[1].len();
        self.stack.push(Frame {
            key,
            picks,
            values: Vec::with_capacity(size),
        });
    }
}

/// The most rounds the game from `pos` can still last.
pub fn rounds_left(setup: &Setup, pos: &Position) -> u32 {
    setup
        .tanks
        .iter()
        .zip(pos.at.iter().zip(&pos.alive))
        .filter(|(_, (_, alive))| **alive)
        .map(|(tank, (at, _))| tank.track.len().saturating_sub(at + 1) as u32)
        .sum()
}
