//! Tank Wars (a commercial board game's round, docs/TANK-WARS.md):
//! orders executed in card order, artillery, support and gunfire tokens,
//! and a seeded supply drop; and an AI that simulates rounds against sampled
//! enemy orders.

pub mod ai;
mod game;
mod notation;
mod puzzle;
mod rules;
mod state;

pub use game::{
    check_round, CobiTankWars, IllegalOrders, OrderFault, Question, Round, Score, CHANCE_PER_POINT,
};
pub use notation::{StateData, VehicleData, STATE_SCHEMA};
pub use puzzle::{only_orders, puzzle_id, RULES_VERSION};
pub use rules::{
    check_orders, gunfire, legal_orders, movement, outcome, resolve, splitmix64, supply_drop, Dir,
    Event, LegalOrder, Order, OrderData, OrderError,
};
pub use state::{Player, State, StateError, Vehicle};

#[cfg(test)]
mod tests;
