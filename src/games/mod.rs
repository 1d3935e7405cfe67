//! Game engines. Each knows its rules and nothing of HTTP.

pub mod tank_battle;
pub mod tank_war;
