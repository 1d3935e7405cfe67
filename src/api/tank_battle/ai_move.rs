//! The DTOs of `POST /v1/tank-battle/ai-move`: the request (a level, the
//! limits, lines for analysis) and the answer with its lines.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::flows::ask::{AskedLimits, Work};
use crate::games::tank_battle as engine;
use crate::games::SearchLimits;

super::dto::position_request! {
    /// A position to find a move for; the search plays toward the ply limit
    /// of its `rules`.
    #[schema(example = json!({
        "position": engine::INITIAL_TBN,
        "layout": "standard",
        "limits": {"max_depth": 4},
        "seed": 1
    }))]
    #[schema(as = TankBattleAiMoveRequest)]
    AiMoveRequest {
        pub limits: Option<AskedLimits>,
        /// Breaks ties between equally good moves, and draws a level's choice;
        /// 0 when absent.
        #[schema(example = 1)]
        pub seed: Option<u64>,
        /// Plays at a level instead of full strength: 1 (a beginner: shallow,
        /// often picks a worse move) to 8 (full strength at 300,000
        /// positions). A level is a fixed recipe in plies and positions, so it
        /// plays the same on any machine, and repeats exactly with a `seed`;
        /// `limits` can only lower its budgets.
        #[schema(minimum = 1, maximum = 8, example = 3)]
        pub level: Option<u32>,
        /// How many of the best moves `lines` lists with their evaluations and
        /// principal variations (analysis), 1 to 16; 1 when absent. From the
        /// same search: `lines[0]` is `move` at full strength.
        #[schema(minimum = 1, maximum = 16, example = 3)]
        pub multipv: Option<u32>,
        /// Also play the move, as `apply` would: the answer then carries
        /// `applied`, exactly `apply`'s answer for it (the position after it,
        /// the side to move, whether and why the game ended), so the AI's
        /// turn is one call.
        #[serde(default)]
        pub play: bool,
    }
}

/// One of the best moves, with its value and line.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = TankBattleAnalysisLine)]
pub struct AnalysisLine {
    #[serde(rename = "move")]
    #[schema(example = "k4-k9")]
    pub notation: String,
    /// Centipoints for the side to move, as `evaluation`; exact at the
    /// searched depth.
    #[schema(example = 38)]
    pub evaluation: i32,
    /// The principal variation, starting with `move`.
    #[schema(example = json!(["k4-k9", "b8-b7"]))]
    pub pv: Vec<String>,
}

/// The AI's move and what the search saw.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = TankBattleAiMoveResponse)]
pub struct AiSuggestion {
    /// The chosen move, canonical notation.
    #[serde(rename = "move")]
    #[schema(example = "k4-k9")]
    pub notation: String,
    /// Value for the side to move in centipoints (100 = one point of the
    /// rule-8 score, with progress towards the enemy base counted in
    /// fractions). Near ±1000000: a forced win or loss, 1000000 minus the
    /// plies to the end.
    #[schema(example = 38)]
    pub evaluation: i32,
    /// The last depth (plies) the search finished.
    #[schema(example = 4)]
    pub depth: u32,
    /// Positions visited.
    #[schema(example = 23817)]
    pub nodes: u64,
    /// The principal variation, starting with `move`.
    #[schema(example = json!(["k4-k9", "b8-b7", "j4-j5", "a8-a7"]))]
    pub pv: Vec<String>,
    /// The best moves, best first, with exact evaluations: `multipv` of
    /// them (or all the position has). At a level, `move` may be another
    /// one: the level's choice.
    pub lines: Vec<AnalysisLine>,
}

impl Work for AiSuggestion {
    fn work(&self) -> u64 {
        self.nodes
    }

    /// Its depth or positions reached, or a forced win or loss found.
    fn ended_within(&self, limits: &SearchLimits) -> bool {
        self.depth >= limits.max_depth
            || self.nodes >= limits.max_nodes
            || self.evaluation.abs() > engine::ai::WIN - 1000
    }
}
