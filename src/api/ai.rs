//! Request pieces shared by every game's `ai-move`.

use std::fmt::Display;

use actix_web::web;
use serde::Deserialize;
use utoipa::ToSchema;

use super::problem::ApiError;
use crate::cache::AnswerCache;
use crate::limits::{AiBudget, Limits, SearchSlots};

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

/// An AI answer that can say it came from the cache.
pub trait CachedAnswer: Clone + Send + Sync + 'static {
    fn mark_cached(&mut self);
    /// The work the search did (positions or simulated rounds), for the
    /// metrics.
    fn nodes(&self) -> u64;
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

/// Answers from the cache, or runs `search` on the blocking pool in a
/// search slot and caches its answer. `search` answers `None` when there is
/// nothing to search (the game is over).
pub async fn cached_search<A: CachedAnswer>(
    cache: &AnswerCache<A>,
    key: String,
    slots: &SearchSlots,
    limits: &Limits,
    search: impl FnOnce() -> Option<A> + Send + 'static,
) -> Result<Option<A>, ApiError> {
    if let Some(mut hit) = cache.get(&key) {
        hit.mark_cached();
        return Ok(Some(hit));
    }
    let slot = ApiError::take_slot(slots, limits).await?;
    let started = std::time::Instant::now();
    let answer = web::block(move || {
        let _slot = slot;
        search()
    })
    .await
    .map_err(|e| ApiError::Internal(format!("AI worker failed: {e}")))?;
    if let Some(answer) = &answer {
        cache.record_search(answer.nodes(), started.elapsed().as_secs_f64());
        cache.insert(key, answer.clone());
    }
    Ok(answer)
}
