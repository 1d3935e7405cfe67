//! What each level simulates and how it chooses: the recipes of levels 1
//! to 8 and of full strength.

use crate::games::level::Level;

/// What one level simulates and how it chooses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recipe {
    /// Halving rounds at most (the first measures every candidate).
    pub rounds: u32,
    /// Most rounds simulated, the enemy model's and the aiming's included.
    pub simulations: u64,
    /// Most enemy samples a candidate is measured against: the halving
    /// ends when its finalists have met them all.
    pub samples: usize,
    /// How the enemy's orders are modelled: this share of the enemy
    /// samples comes from a player who answers the sensible model of us
    /// (the enemy's own joint orders measured, as this AI measures its own,
    /// against sensible samples of ours, and drawn by their values), the
    /// rest from the sensible player (see [`sample_order`]).
    pub model: f64,
    /// Whether (and how well) the enemy's gunfire is expected: a sensible
    /// aimer fires where our vehicles stop most often if we were the
    /// sensible player, which this many sensible samples of both sides
    /// locate (0: not expected); each square's chance of being fired at
    /// costs a vehicle that stops there.
    pub dodge: usize,
    /// In material points (armor, 3 a vehicle, 2 a support card): each
    /// measured candidate is played with a weight
    /// `exp((mean - best) / temperature)`; 0 plays the best.
    pub temperature: f64,
}

/// Levels 1 to 8, weakest first. Level 1 plays nearly any joint orders;
/// levels 2 to 4 measure them against more and more sensible samples (and
/// aim with those samples); levels 4 to 6 expect the enemy's gunfire,
/// located with more and more samples; levels 7 and 8 model the enemy as a
/// player who answers the sensible model of them, level 8 more so.
pub const RECIPES: [Recipe; 8] = [
    Recipe {
        rounds: 1,
        simulations: 5_000,
        samples: 4,
        model: 0.0,
        dodge: 0,
        temperature: 50.0,
    },
    Recipe {
        rounds: 2,
        simulations: 5_000,
        samples: 8,
        model: 0.0,
        dodge: 0,
        temperature: 0.0,
    },
    Recipe {
        rounds: 3,
        simulations: 10_000,
        samples: 16,
        model: 0.0,
        dodge: 0,
        temperature: 0.0,
    },
    Recipe {
        rounds: 5,
        simulations: 20_000,
        samples: 64,
        model: 0.0,
        dodge: 1,
        temperature: 0.0,
    },
    Recipe {
        rounds: 5,
        simulations: 20_000,
        samples: 64,
        model: 0.0,
        dodge: 4,
        temperature: 0.0,
    },
    Recipe {
        rounds: 5,
        simulations: 20_000,
        samples: 64,
        model: 0.0,
        dodge: 64,
        temperature: 0.0,
    },
    Recipe {
        rounds: 5,
        simulations: 20_000,
        samples: 64,
        model: 0.2,
        dodge: 64,
        temperature: 0.0,
    },
    Recipe {
        rounds: 6,
        simulations: 100_000,
        samples: 128,
        model: MODEL_SHARE,
        dodge: 64,
        temperature: 0.0,
    },
];

/// Full strength: everything level 8 does, with no budget of its own (the
/// limits of the request bound it) and more samples.
pub const FULL: Recipe = Recipe {
    rounds: u32::MAX,
    simulations: u64::MAX,
    samples: MAX_SAMPLES,
    model: MODEL_SHARE,
    dodge: 64,
    temperature: 0.0,
};

/// The recipe of `level`.
pub fn recipe(level: Level) -> Recipe {
    level.pick(&RECIPES)
}

/// The most enemy samples a candidate is measured against.
pub const MAX_SAMPLES: usize = 256;

/// The samples every candidate gets in the first round.
pub(super) const FIRST_SAMPLES: usize = 4;

/// How sure a sensible aimer is, in shares of its samples: a square where
/// our vehicles stop this much less often than at the likeliest square is
/// fired at `e` times less often.
pub(super) const AIM_NOISE: f64 = 0.04;

/// Full strength's (and level 8's) share of enemy samples drawn from the
/// modelled enemy's answers.
pub(super) const MODEL_SHARE: f64 = 0.75;

/// In material points: the modelled enemy plays its joint orders with
/// weights `exp((mean - best) / temperature)`.
pub(super) const MODEL_TEMPERATURE: f64 = 0.25;
