//! Request pieces shared by every game's `ai-move`.

use std::fmt::Display;

use serde::Deserialize;
use utoipa::ToSchema;

use super::problem::ApiError;
use crate::games::{Level, Style};
use crate::limits::{AiBudget, Limits};

/// The most best moves (lines) one `ai-move` may ask for with `multipv`.
pub const MAX_LINES: u32 = 16;

/// The style of an `ai-move` from its `level` and `multipv` fields: a
/// level 1 to 8 (full strength when absent) and 1 to [`MAX_LINES`] lines
/// (1 when absent).
pub fn style(level: Option<u32>, multipv: Option<u32>) -> Result<Style, ApiError> {
    let level = match level {
        None => None,
        Some(n) => Some(u8::try_from(n).ok().and_then(Level::new).ok_or_else(|| {
            ApiError::bad_request(
                format!("level must be 1 to 8, not {n}"),
                Some("level".to_owned()),
            )
        })?),
    };
    let lines = multipv.unwrap_or(1);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(ApiError::bad_request(
            format!("multipv must be 1 to {MAX_LINES}, not {lines}"),
            Some("multipv".to_owned()),
        ));
    }
    Ok(Style {
        level,
        lines: lines as usize,
    })
}

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
    /// The limits after the server's defaults and caps. A level brings its
    /// own budgets in depth and positions: unless a time is asked, it gets
    /// the server's time cap (which its budgets keep it far inside), so
    /// that its play does not depend on the machine's speed.
    pub fn budget(&self, limits: &Limits, style: &Style) -> AiBudget {
        let time_ms = match (self.max_time_ms, style.level) {
            (None, Some(_)) => Some(limits.ai_max_time_ms),
            (asked, _) => asked,
        };
        limits.ai_budget(time_ms, self.max_depth, self.max_nodes)
    }
}

/// The cache key of an AI request: everything its answer depends on.
pub fn cache_key(
    engine_version: u32,
    subject: &dyn Display,
    budget: &AiBudget,
    seed: u64,
) -> String {
    format!(
        "v{engine_version}|{subject}|{}|{}|{}|{seed}",
        budget.time_ms, budget.depth, budget.nodes
    )
}

/// An `ai-move` answer as the cache keeps it: the game's fields, and the
/// bookkeeping the generic flow fills in.
pub trait AiAnswer: Clone + Send + Sync + 'static {
    /// Marks the answer as served from the cache.
    fn mark_cached(&mut self);
    /// Records how long the search took.
    fn set_time_ms(&mut self, time_ms: u64);
    /// The work its search did (positions or simulated rounds), for the
    /// metrics.
    fn work(&self) -> u64;
}

/// Implements [`AiAnswer`] for an answer type with `cached` and `time_ms`
/// fields and the named work counter.
macro_rules! ai_answer {
    ($answer:ident, work = $field:ident) => {
        impl $crate::api::ai::AiAnswer for $answer {
            fn mark_cached(&mut self) {
                self.cached = true;
            }

            fn set_time_ms(&mut self, time_ms: u64) {
                self.time_ms = time_ms;
            }

            fn work(&self) -> u64 {
                self.$field
            }
        }
    };
}
pub(crate) use ai_answer;
