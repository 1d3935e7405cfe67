//! A game-tree search for Tank Battle: iterative-deepening PVS with a
//! transposition table, an evaluation that knows the terrain, and clean
//! stops on time or node limits.

mod eval;
pub mod levels;
mod search;
mod tt;
mod zobrist;

pub use eval::{Evaluator, POINT};
pub use search::{
    reads_further, search, search_judging, search_with, Iteration, Line, SearchLimits,
    SearchResult, WIN,
};
pub use tt::MAX_TABLE_BYTES;
pub use zobrist::hash;

/// Bumped whenever the search or evaluation changes what it answers; part
/// of every cache key.
pub const ENGINE_VERSION: u32 = 5;

#[cfg(test)]
mod tests;
