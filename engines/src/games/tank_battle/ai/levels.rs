//! The eight levels of the Tank Battle AI: fixed budgets in plies and
//! positions (the same play on any machine) and a temperature, in
//! centipoints, at which a level chooses among all its moves by value
//! (`exp(-(best - value) / temperature)`): a move a point worse than the
//! best is played `e^(-100/T)` times as often.

use crate::games::level::Level;

/// What one level searches and how it chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// Deepest iteration, plies.
    pub depth: u32,
    /// Most positions visited.
    pub nodes: u64,
    /// Centipoints; 0 plays the best move.
    pub temperature: i32,
}

/// Levels 1 to 8, weakest first.
pub const RECIPES: [Recipe; 8] = [
    Recipe {
        depth: 1,
        nodes: 20_000,
        temperature: 250,
    },
    Recipe {
        depth: 1,
        nodes: 20_000,
        temperature: 150,
    },
    Recipe {
        depth: 1,
        nodes: 20_000,
        temperature: 35,
    },
    Recipe {
        depth: 1,
        nodes: 20_000,
        temperature: 10,
    },
    Recipe {
        depth: 2,
        nodes: 100_000,
        temperature: 0,
    },
    Recipe {
        depth: 3,
        nodes: 300_000,
        temperature: 0,
    },
    Recipe {
        depth: 4,
        nodes: 300_000,
        temperature: 0,
    },
    Recipe {
        depth: 64,
        nodes: 300_000,
        temperature: 0,
    },
];

/// The recipe of `level`.
pub fn recipe(level: Level) -> Recipe {
    level.pick(&RECIPES)
}
