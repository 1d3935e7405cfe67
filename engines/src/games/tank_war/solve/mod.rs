//! The exact solution of a Tank War game: the value of every position for
//! U on the result scale (1 a win, 0 a draw, −1 a loss) when both players
//! play an equilibrium, by backward induction over the positions (each
//! round moves a tank, so no position comes back), each position's matrix
//! game over both players' picks solved exactly ([`lp`]).
//!
//! Positions are [`packed`] into 128 bits and remembered once each, however
//! many orders of play reach them. A solve is bounded: it stops when it
//! would remember more positions than its cap, at its deadline, or when
//! its stop flag is raised, and says which ([`Unsolved`]). The default
//! game's first rounds, too large to solve within a request, come from a
//! [`table`] made offline by `engines/src/bin/tank_war_table.rs`; a request's
//! setup is translated into the solver's terms (the default game and its
//! table, or the setup on its own) by [`compiled`].

pub mod compiled;
pub mod lp;
pub mod packed;
mod solver;
pub mod table;

#[cfg(test)]
mod tests;

pub use compiled::Compiled;
pub use packed::{Key, Packed};
pub use solver::{rounds_left, Bounds, KeyHasher, Solver, Unsolved, FULL_DEPTH, MAX_POSITIONS};
pub use table::Table;
