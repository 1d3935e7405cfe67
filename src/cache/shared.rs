//! The shared tier of the AI answer cache: Redis (or Valkey), behind each
//! replica's in-process tier, so that an answer one replica computed is
//! served by the others and survives restarts.
//!
//! The tier may never fail or slow a request: it calls Redis through the
//! [`Link`](crate::redis::Link), within its deadline. Nor is it trusted:
//! whatever Redis holds could have been written by anyone who reaches it,
//! so a value is served only when the caller's check (see
//! [`SharedTier::get`]) takes it; a value it refuses is ignored, counted
//! (`result="rejected"`) and searched again as on a miss.

use std::sync::Arc;
use std::time::Duration;

use super::key::Key;
use crate::metrics::Metrics;
use crate::redis::Link;

/// What a look-up found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// A value the check took: serve it.
    Hit(Arc<[u8]>),
    Miss,
    /// A value the check refused; the caller searches as on a miss.
    Rejected,
    /// Redis did not answer in time, or answered an error, or rests after
    /// a failure; the caller searches as on a miss.
    Error,
}

/// The shared tier: the link to Redis and how long answers live there.
#[derive(Clone)]
pub struct SharedTier {
    link: Link,
    /// How long a stored answer lives in Redis.
    ttl: Duration,
    metrics: Option<Metrics>,
}

/// The kind of the tier's keys: `<prefix>ai:<key in hex>`.
const KIND: &str = "ai";

impl SharedTier {
    /// The tier on `link`, its answers living `ttl` in Redis.
    pub fn new(link: Link, ttl: Duration) -> SharedTier {
        SharedTier {
            link,
            ttl,
            metrics: None,
        }
    }

    /// Also counts look-ups in `metrics`.
    pub fn with_metrics(mut self, metrics: Metrics) -> SharedTier {
        self.metrics = Some(metrics);
        self
    }

    /// The stored answer for `key` (of `game`), within the deadline, if
    /// `check` takes it: a value it refuses is logged (at debug level,
    /// with why) and counted as `rejected`, and is no hit.
    pub async fn get<E: std::fmt::Display>(
        &self,
        game: &str,
        key: Key,
        check: impl FnOnce(&[u8]) -> Result<(), E>,
    ) -> Lookup {
        let hex = key.to_hex();
        let name = self.link.key(KIND, &[&hex]);
        let found = self
            .link
            .call("AI cache look-up", |mut connection| async move {
                redis::cmd("GET")
                    .arg(name)
                    .query_async::<Option<Vec<u8>>>(&mut connection)
                    .await
            })
            .await;
        let found = match found {
            Ok(Some(bytes)) => match check(&bytes) {
                Ok(()) => Lookup::Hit(Arc::from(bytes)),
                Err(why) => {
                    tracing::debug!(
                        game,
                        key = %hex,
                        %why,
                        "a value in the shared cache is not this request's answer; ignored"
                    );
                    Lookup::Rejected
                }
            },
            Ok(None) => Lookup::Miss,
            Err(_) => Lookup::Error,
        };
        self.count(game, &found);
        found
    }

    /// Stores `answer` under `key` in the background, within the deadline;
    /// a failure only counts towards an outage.
    pub fn put(&self, key: Key, answer: Arc<[u8]>) {
        let name = self.link.key(KIND, &[&key.to_hex()]);
        let ttl = self.ttl.as_secs().max(1);
        self.link
            .spawn("AI cache store", move |mut connection| async move {
                let mut command = redis::cmd("SET");
                command.arg(name).arg(&*answer).arg("EX").arg(ttl);
                command.query_async::<()>(&mut connection).await
            });
    }

    fn count(&self, game: &str, found: &Lookup) {
        if let Some(metrics) = &self.metrics {
            let result = match found {
                Lookup::Hit(_) => "hit",
                Lookup::Miss => "miss",
                Lookup::Rejected => "rejected",
                Lookup::Error => "error",
            };
            metrics.tier_lookup(game, "redis", result);
        }
    }
}
