//! Game engines. Each knows its rules and nothing of HTTP.

pub mod cobi_tank_wars;
mod game;
pub mod grid;
pub mod level;
#[cfg(any(test, feature = "nim"))]
pub mod nim;
pub mod review;
pub mod tank_battle;
pub mod tank_war;

pub use game::{Game, SearchLimits};
pub use level::{Level, Style};
