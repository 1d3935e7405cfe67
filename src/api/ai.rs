//! Request pieces shared by every game's `ai-move`.

use serde::Deserialize;
use utoipa::ToSchema;

use crate::limits::{AiBudget, Limits};

/// Limits of one AI search. Each is clamped to the server's cap; with none
/// given the search thinks for the default time (200 ms unless configured).
/// With `max_depth` or `max_nodes` (and no `max_time_ms`) the answer is a
/// deterministic function of the request.
#[derive(Clone, Copy, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AiLimits {
    /// Thinking time, milliseconds (capped by the server, 5000 by default).
    #[serde(default)]
    #[schema(example = 200)]
    pub max_time_ms: Option<u64>,
    /// Deepest iteration, plies (capped by the server, 64 by default).
    #[serde(default)]
    #[schema(example = 4)]
    pub max_depth: Option<u32>,
    /// Most positions visited (capped by the server).
    #[serde(default)]
    #[schema(example = 100000)]
    pub max_nodes: Option<u64>,
}

impl AiLimits {
    /// The limits after the server's defaults and caps.
    pub fn budget(&self, limits: &Limits) -> AiBudget {
        limits.ai_budget(self.max_time_ms, self.max_depth, self.max_nodes)
    }
}
