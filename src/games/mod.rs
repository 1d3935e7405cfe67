//! Game engines. Each knows its rules and nothing of HTTP.

pub mod tank_battle;
