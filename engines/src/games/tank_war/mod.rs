//! The Tank War: a simultaneous-move game of tanks on tracks with a firing
//! phase and clocks (docs/TANK-WAR.md).
//!
//! A state is a [`Setup`] (board, tanks and their tracks; fixed for the
//! game) and a [`Position`] (what rounds change). The engine knows nothing
//! of HTTP.

pub mod ai;
mod game;
mod notation;
mod rules;
pub mod solve;
mod state;

pub use super::grid::{Board, Cell, MAX_SIDE};
pub use game::{IllegalPick, Round, Score, State, TankWar};
pub use notation::{StateData, TankData, NAME_MAX, STATE_SCHEMA};
pub use rules::{
    charge_clocks, check_pick, outcome, pickable, play_round, resolve_round, surviving, territory,
    EndReason, Event, Outcome, PickError,
};
pub use state::{
    default_state, Player, Position, Setup, StateError, TankInfo, TankType, ILLUSTRATION,
    INITIAL_CLOCK_MS,
};

#[cfg(test)]
mod tests;
