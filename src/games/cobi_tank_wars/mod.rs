//! Tank Wars (a commercial board game's round, SPEC section 4 and issue 8):
//! orders executed in card order, artillery, support and gunfire tokens,
//! and a seeded supply drop. Engine only; the HTTP endpoints are to come.

mod rules;
mod state;

pub use rules::{
    check_orders, outcome, resolve, splitmix64, Dir, Event, Order, OrderData, OrderError,
};
pub use state::{Player, State, StateData, StateError, Vehicle, VehicleData};

#[cfg(test)]
mod tests;
