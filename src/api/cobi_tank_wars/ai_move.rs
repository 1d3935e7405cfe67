//! The DTOs of `POST /v1/cobi-tank-wars/ai-move`: the request (a level,
//! the limits, gunfire tokens, lines for analysis) and the answer: orders,
//! gunfire squares and lines.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::dto::{example_state, StateDto, SuggestedOrders, VehicleOrders};
use crate::api::flows::ask::{AskedLimits, Work};
use crate::api::openapi::notation::{CobiTankWarsPlayerName, CobiTankWarsState, GridSquare};
use crate::games::cobi_tank_wars::Player;

/// A state to find orders for.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": example_state(), "player": "P1", "gunfire_tokens": 2, "limits": {"max_nodes": 20000}, "seed": 7}))]
#[schema(as = CobiTankWarsAiMoveRequest)]
pub struct AiMoveRequest {
    #[schema(value_type = CobiTankWarsState)]
    pub state: StateDto,
    /// The player to give orders for.
    #[schema(value_type = CobiTankWarsPlayerName)]
    pub player: Player,
    /// Gunfire squares to suggest, 0 to 8 (1 when absent).
    #[schema(example = 2, minimum = 0, maximum = 8)]
    pub gunfire_tokens: Option<u32>,
    /// `max_nodes` bounds the simulated rounds, `max_depth` the halving
    /// rounds.
    pub limits: Option<AskedLimits>,
    /// Seeds the sampling of the enemy's orders, and a level's choice; 0
    /// when absent.
    #[schema(example = 7)]
    pub seed: Option<u64>,
    /// Plays at a level instead of full strength: 1 (a beginner: measures
    /// each joint order against 4 sampled enemy orders and often takes a
    /// worse one) to 8 (full strength at 100,000 simulated rounds). A level
    /// is a fixed recipe in halving rounds and simulations, so it plays the
    /// same on any machine, and repeats exactly with a `seed`; `limits` can
    /// only lower its budgets.
    #[schema(minimum = 1, maximum = 8, example = 3)]
    pub level: Option<u32>,
    /// How many of the best joint orders `lines` lists with their values
    /// (analysis), 1 to 16; 1 when absent. From the same search: `lines[0]`
    /// is `orders` at full strength.
    #[schema(minimum = 1, maximum = 16, example = 3)]
    pub multipv: Option<u32>,
    /// Also play the round, as `apply` would: the AI's orders for
    /// `player` and its `gunfire` squares, with the other player's
    /// `orders` and `gunfire` given here, the supply drop seeded by
    /// `seed`. The answer then carries `applied`, exactly `apply`'s answer
    /// for that round. The AI does not see the other player's decisions
    /// (they are hidden until the round is resolved).
    #[serde(default)]
    pub play: bool,
    /// With `play`: the other player's orders, one per vehicle, by id.
    pub orders: Option<VehicleOrders>,
    /// With `play`: the other player's gunfire tokens for the round.
    #[schema(value_type = Option<Vec<GridSquare>>)]
    pub gunfire: Option<Vec<String>>,
}

/// Joint orders with their measured value.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = CobiTankWarsAnalysisLine)]
pub struct AnalysisLine {
    /// One order per vehicle of the player.
    pub orders: SuggestedOrders,
    /// Mean change of the material balance for the player over its
    /// samples, less the expected cost of the enemy's gunfire where the AI
    /// dodges it, as `value`.
    #[schema(example = 0.5)]
    pub value: f64,
    /// Sampled enemy orders it was played against (the finalists of the
    /// successive halving have the most).
    #[schema(example = 64)]
    pub samples: usize,
}

/// A suggested gunfire square.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(as = CobiTankWarsGunfireTarget)]
pub struct GunfireTargetDto {
    #[schema(example = "e6")]
    pub square: String,
    /// Share of the sampled enemy orders that stopped an enemy vehicle
    /// there.
    #[schema(example = 0.25)]
    pub probability: f64,
}

/// The AI's orders and gunfire squares.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = CobiTankWarsAiMoveResponse)]
pub struct AiSuggestion {
    /// One order per vehicle of the player.
    pub orders: SuggestedOrders,
    /// Squares for the player's gunfire tokens, most promising first; none
    /// where the player's own vehicles stop as often as the enemy's.
    pub gunfire: Vec<GunfireTargetDto>,
    /// Mean change of the material balance for the player over the
    /// samples: armor plus 3 a vehicle, 2 a support card, 100 a won game;
    /// less the expected cost of the enemy's gunfire where the AI dodges
    /// it (full strength and levels 4-8).
    #[schema(example = 0.5)]
    pub value: f64,
    /// Joint orders of the player's vehicles considered.
    #[schema(example = 1331)]
    pub candidates: usize,
    /// Sampled enemy orders the chosen orders were played against.
    #[schema(example = 64)]
    pub samples: usize,
    /// Rounds simulated.
    #[schema(example = 20000)]
    pub simulations: u64,
    /// The best joint orders, best first: `multipv` of them. At a level,
    /// `orders` may be others: the level's choice.
    pub lines: Vec<AnalysisLine>,
}

impl Work for AiSuggestion {
    fn work(&self) -> u64 {
        self.simulations
    }
}
