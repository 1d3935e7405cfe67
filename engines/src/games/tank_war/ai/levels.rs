//! The Tank War's AI levels: what each searches and the habits it plays
//! with (a beginner keeps its tanks in line; lower levels pick almost
//! uniformly), measured against each other in BENCHMARKS.md.

use crate::games::level::Level;
use crate::games::tank_war::state::Position;

/// What one level searches and how it plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recipe {
    /// Rounds looked ahead at most.
    pub depth: u32,
    /// Most positions evaluated.
    pub nodes: u64,
    /// In value units (a tank 100, a square 4): each pick is played with a
    /// weight `exp((v - best) / temperature)`, `v` its value against the
    /// opponent's equilibrium strategy (a quantal response); 0 plays the
    /// equilibrium.
    pub temperature: f64,
    /// The share of rounds in which the level ignores what it found and
    /// moves one of its rearmost tanks (those least far along their
    /// tracks), as a beginner keeping the line does; 0 never.
    pub formation: f64,
}

impl Recipe {
    const fn new(depth: u32, nodes: u64, temperature: f64, formation: f64) -> Recipe {
        Recipe {
            depth,
            nodes,
            temperature,
            formation,
        }
    }
}

/// Levels 1 to 8, weakest first (BENCHMARKS.md measures each against the
/// one below): a beginner who keeps the line (1), who keeps it half the
/// time and otherwise picks almost uniformly (2), always so (3), one
/// round's equilibrium but the line in 30% of the rounds (4), one round's
/// equilibrium (5), two rounds' (6), then as deep as 30,000 and 650,000
/// positions let it (7, 8).
pub const RECIPES: [Recipe; 8] = [
    Recipe::new(1, 20_000, 0.0, 1.0),
    Recipe::new(1, 20_000, 10_000.0, 0.5),
    Recipe::new(1, 20_000, 10_000.0, 0.0),
    Recipe::new(1, 20_000, 0.0, 0.3),
    Recipe::new(1, 20_000, 0.0, 0.0),
    Recipe::new(2, 20_000, 0.0, 0.0),
    Recipe::new(64, 30_000, 0.0, 0.0),
    Recipe::new(64, 650_000, 0.0, 0.0),
];

/// The recipe of `level`.
pub fn recipe(level: Level) -> Recipe {
    level.pick(&RECIPES)
}

/// Equal probabilities on the tanks of `own` least far along their tracks,
/// 0 on the others.
pub(super) fn keeping_the_line(pos: &Position, own: &[usize]) -> Vec<f64> {
    let along = |id: usize| pos.at.get(id).copied().unwrap_or(usize::MAX);
    let rearmost = own.iter().map(|&id| along(id)).min();
    let in_line = |id: usize| Some(along(id)) == rearmost;
    let count = own.iter().filter(|&&id| in_line(id)).count().max(1) as f64;
    own.iter()
        .map(|&id| if in_line(id) { 1.0 / count } else { 0.0 })
        .collect()
}

/// Probabilities `exp((v - best) / temperature)`, normalised.
pub(super) fn quantal_response(values: &[f64], temperature: f64) -> Vec<f64> {
    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = values
        .iter()
        .map(|v| ((v - best) / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    weights
        .iter()
        .map(|w| w / total.max(f64::MIN_POSITIVE))
        .collect()
}
