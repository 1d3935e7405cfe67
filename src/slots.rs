//! The slots work off the HTTP workers takes, one set a pool
//! ([`crate::operations::Pool`]: live AI searches, long reviews and perft
//! counts, large replays): a request takes one, waiting a bounded time at
//! most, or is refused; no queue grows without bound.

use std::time::Duration;

use crate::error::RequestError;
use crate::limits::Limits;
use crate::metrics::{Metrics, PoolSeries, SlotResult};
use crate::operations::Pool;

/// The slots of one pool of work off the HTTP workers
/// ([`crate::operations::Pool`]: live AI searches, long reviews and perft
/// counts, large replays): a request takes one, waiting a bounded time at
/// most, or is refused; no queue grows without bound. Requests, waits and
/// slots held are counted in the metrics by pool.
#[derive(Clone)]
pub struct SearchSlots {
    semaphore: std::sync::Arc<tokio::sync::Semaphore>,
    pool: Pool,
    series: Option<PoolSeries>,
}

/// A slot, held until it is dropped.
pub struct Slot {
    _permit: tokio::sync::OwnedSemaphorePermit,
    series: Option<PoolSeries>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(series) = &self.series {
            series.held(false);
        }
    }
}

impl SearchSlots {
    /// `slots` slots of `pool`.
    pub fn new(pool: Pool, slots: usize) -> SearchSlots {
        SearchSlots {
            semaphore: std::sync::Arc::new(tokio::sync::Semaphore::new(slots)),
            pool,
            series: None,
        }
    }

    /// The same slots, counted in `metrics`.
    pub fn with_metrics(self, metrics: &Metrics) -> SearchSlots {
        SearchSlots {
            series: Some(metrics.pool(self.pool.name())),
            ..self
        }
    }

    /// The pool these slots are.
    pub fn pool(&self) -> Pool {
        self.pool
    }

    /// A slot, held until it is dropped, waiting at most the configured
    /// time; `SERVICE_BUSY` when none frees up, with a `Retry-After` of
    /// the pool's kind of work: a second for live play and large replays,
    /// the AI time cap for long work (a review holds its slot longer).
    pub async fn take_within(&self, limits: &Limits) -> Result<Slot, RequestError> {
        let retry_after_secs = match self.pool {
            Pool::Long => limits.ai_max_time_ms.div_ceil(1000).max(1),
            Pool::Live | Pool::Work => 1,
        };
        self.take(Duration::from_millis(limits.search_wait_ms))
            .await
            .ok_or(RequestError::Busy { retry_after_secs })
    }

    /// A slot, held until it is dropped; `None` when none frees up within
    /// `wait`.
    pub async fn take(&self, wait: Duration) -> Option<Slot> {
        let started = std::time::Instant::now();
        let (permit, result) = match self.semaphore.clone().try_acquire_owned() {
            Ok(permit) => (Some(permit), SlotResult::Free),
            Err(_) => {
                let waited = tokio::time::timeout(wait, self.semaphore.clone().acquire_owned())
                    .await
                    .ok()
                    .and_then(Result::ok);
                let result = match waited {
                    Some(_) => SlotResult::Waited,
                    None => SlotResult::Busy,
                };
                (waited, result)
            }
        };
        if let Some(series) = &self.series {
            series.requested(result, started.elapsed().as_secs_f64());
            if permit.is_some() {
                series.held(true);
            }
        }
        permit.map(|permit| Slot {
            _permit: permit,
            series: self.series.clone(),
        })
    }
}
