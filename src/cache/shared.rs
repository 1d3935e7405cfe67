//! The shared tier of the AI answer cache: Redis (or Valkey), behind each
//! replica's in-process tier, so that an answer one replica computed is
//! served by the others and survives restarts.
//!
//! The tier may never fail or slow a request: it calls Redis through the
//! [`Link`](crate::redis::Link), within its deadline. Nor is it trusted:
//! whatever Redis holds could have been written by anyone who reaches it.
//! So every answer it writes is sealed ([`Seal`]: a keyed MAC over the key
//! name and the answer, under the fleet's secret), no value longer than
//! [`MAX_ANSWER_BYTES`] (and its tag) is read to its end, and a value is
//! served only when its seal holds and then the caller's check (see
//! [`SharedTier::get`]) takes it. A value refused at any step is ignored,
//! logged at debug level with why, counted (`result="rejected"`) and
//! searched again as on a miss.

use std::sync::Arc;
use std::time::Duration;

use super::key::Key;
use super::seal::{Broken, Seal};
use crate::metrics::Metrics;
use crate::redis::Link;

/// The largest answer the tier stores or reads, in bytes (without its
/// tag). The answers the server writes for the games' own states are a
/// few KB (measured on a debug build, 2026-11): Tank Battle with
/// `multipv` 16 1.4 KB at depth 5, and at most about 12 KB (17 lines of
/// `--ai-max-depth` 64 plies of 10 bytes); The Tank War's strategy 1.9 KB
/// for 26 movable tanks of a 128-tank state (73 bytes a tank: 4.7 KB for
/// 64); Cobi
/// Tank Wars with `multipv` 16 3.1 KB. Only names a client chooses make
/// an answer larger (a Cobi line repeats each vehicle id: a 60 KB request
/// of long ids was answered 512 KB). 256 KiB is twenty times the largest
/// of the first, room for raised caps; an answer over it is not shared
/// (it stays in its replica's own tier). A look-up reads at most this and
/// its tag, whatever Redis holds.
pub const MAX_ANSWER_BYTES: usize = 256 * 1024;

/// The longest value the tier stores: a tag and the largest answer.
const MAX_STORED_BYTES: usize = Seal::TAG_BYTES + MAX_ANSWER_BYTES;

/// What a look-up found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// A value the check took: serve it.
    Hit(Arc<[u8]>),
    Miss,
    /// A value refused (its seal broken, too long, not a string, or
    /// refused by the check); the caller searches as on a miss.
    Rejected,
    /// Redis did not answer in time, or answered an error, or rests after
    /// a failure; the caller searches as on a miss.
    Error,
}

/// The shared tier: the link to Redis, the seal of what it stores and how
/// long answers live there.
#[derive(Clone)]
pub struct SharedTier {
    link: Link,
    seal: Seal,
    /// How long a stored answer lives in Redis.
    ttl: Duration,
    metrics: Option<Metrics>,
}

/// The kind of the tier's keys: `<prefix>ai:<key in hex>`.
const KIND: &str = "ai";

/// What Redis held under a key, as far as the tier reads it.
enum Held {
    /// The value's first bytes: all of it when it is no longer than
    /// [`MAX_STORED_BYTES`], else one byte more (so it is known to be
    /// longer). Empty when there is no such key.
    Bytes(Vec<u8>),
    /// Something else than a string.
    NotAString,
}

/// Why a value was not served.
#[derive(Debug, thiserror::Error)]
enum Refused<E> {
    #[error("not a string")]
    NotAString,
    #[error("longer than {} bytes", MAX_STORED_BYTES)]
    TooLong,
    #[error("its seal is broken: {0}")]
    Seal(#[from] Broken),
    #[error("{0}")]
    Check(E),
}

impl SharedTier {
    /// The tier on `link`, its answers sealed by `seal` and living `ttl`
    /// in Redis.
    pub fn new(link: Link, seal: Seal, ttl: Duration) -> SharedTier {
        SharedTier {
            link,
            seal,
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
    /// its seal holds and `check` takes it: a value refused is logged (at
    /// debug level, with why) and counted as `rejected`, and is no hit.
    /// At most [`MAX_STORED_BYTES`] and one byte are read of a value.
    pub async fn get<E: std::fmt::Display>(
        &self,
        game: &str,
        key: Key,
        check: impl FnOnce(&[u8]) -> Result<(), E>,
    ) -> Lookup {
        let hex = key.to_hex();
        let name = self.link.key(KIND, &[&hex]);
        let asked = name.clone();
        let found = self
            .link
            .call("AI cache look-up", |mut connection| async move {
                // `GETRANGE` is inclusive: at most MAX_STORED_BYTES + 1
                // bytes cross the wire. A missing key is "".
                let read = redis::cmd("GETRANGE")
                    .arg(asked)
                    .arg(0)
                    .arg(MAX_STORED_BYTES)
                    .query_async::<Vec<u8>>(&mut connection)
                    .await;
                match read {
                    Ok(bytes) => Ok(Held::Bytes(bytes)),
                    // An answer of Redis, not a failure of the link.
                    Err(e) if e.code() == Some("WRONGTYPE") => Ok(Held::NotAString),
                    Err(e) => Err(e),
                }
            })
            .await;
        let found = match found {
            Ok(Held::Bytes(bytes)) if bytes.is_empty() => Ok(None),
            Ok(Held::Bytes(bytes)) => self.take(&name, &bytes, check).map(Some),
            Ok(Held::NotAString) => Err(Refused::NotAString),
            Err(_) => {
                self.count(game, &Lookup::Error);
                return Lookup::Error;
            }
        };
        let found = match found {
            Ok(Some(answer)) => Lookup::Hit(answer),
            Ok(None) => Lookup::Miss,
            Err(why) => {
                tracing::debug!(
                    game,
                    key = %hex,
                    %why,
                    "a value in the shared cache is not this request's answer; ignored"
                );
                Lookup::Rejected
            }
        };
        self.count(game, &found);
        found
    }

    /// The answer `value` (read from under `name`) holds, when it is no
    /// longer than the tier stores, its seal holds and `check` takes it.
    fn take<E>(
        &self,
        name: &str,
        value: &[u8],
        check: impl FnOnce(&[u8]) -> Result<(), E>,
    ) -> Result<Arc<[u8]>, Refused<E>> {
        if value.len() > MAX_STORED_BYTES {
            return Err(Refused::TooLong);
        }
        let answer = self.seal.open(name, value)?;
        check(answer).map_err(Refused::Check)?;
        Ok(Arc::from(answer))
    }

    /// Stores `answer` under `key`, sealed, in the background, within the
    /// deadline; a failure only counts towards an outage. An answer longer
    /// than [`MAX_ANSWER_BYTES`] is not stored.
    pub fn put(&self, key: Key, answer: Arc<[u8]>) {
        if answer.len() > MAX_ANSWER_BYTES {
            tracing::debug!(
                bytes = answer.len(),
                "an answer longer than the shared cache takes; kept in this replica only"
            );
            return;
        }
        let name = self.link.key(KIND, &[&key.to_hex()]);
        let ttl = self.ttl.as_secs().max(1);
        let seal = self.seal.clone();
        self.link
            .spawn("AI cache store", move |mut connection| async move {
                let value = seal.seal(&name, &answer);
                let mut command = redis::cmd("SET");
                command.arg(name).arg(value).arg("EX").arg(ttl);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::Secret;
    use crate::redis::LinkConfig;

    /// A tier on a link to a closed port (it connects lazily, so it
    /// starts), sealing with `secret`.
    fn tier(secret: &str) -> SharedTier {
        let link = Link::start(LinkConfig::new(
            "redis://127.0.0.1:9/0",
            Duration::from_millis(5),
        ))
        .unwrap();
        let seal = Seal::new(&Secret::new(secret), None).unwrap();
        SharedTier::new(link, seal, Duration::from_secs(60))
    }

    fn take(tier: &SharedTier, name: &str, value: &[u8]) -> Result<Vec<u8>, String> {
        let check = |answer: &[u8]| {
            if answer.starts_with(b"{") {
                Ok(())
            } else {
                Err("not an object")
            }
        };
        tier.take(name, value, check)
            .map(|answer| answer.to_vec())
            .map_err(|why| why.to_string())
    }

    #[test]
    fn a_value_is_taken_when_its_seal_holds_and_the_check_takes_it() {
        let tier = tier("0123456789abcdef-tier");
        let name = tier.link.key(KIND, &["00ff"]);
        let answer = br#"{"take":1}"#;
        let value = tier.seal.seal(&name, answer);
        assert_eq!(take(&tier, &name, &value), Ok(answer.to_vec()));
        // The seal first, then the check.
        let other = self::tier("0123456789abcdef-other");
        let refused = take(&other, &name, &value);
        assert!(refused.is_err_and(|why| why.contains("seal is broken")));
        let not_an_object = tier.seal.seal(&name, b"[1]");
        assert_eq!(
            take(&tier, &name, &not_an_object),
            Err("not an object".into())
        );
    }

    #[test]
    fn a_value_longer_than_the_tier_stores_is_refused_before_its_seal() {
        let tier = tier("0123456789abcdef-tier");
        let name = tier.link.key(KIND, &["00ff"]);
        let largest = [b"{".as_slice(), &vec![b' '; MAX_ANSWER_BYTES - 1]].concat();
        let value = tier.seal.seal(&name, &largest);
        assert_eq!(value.len(), MAX_STORED_BYTES);
        assert_eq!(
            take(&tier, &name, &value).map(|a| a.len()),
            Ok(MAX_ANSWER_BYTES)
        );
        // One byte more, as `GETRANGE` reads of a longer value, sealed or
        // not: too long.
        let longer = [b"{".as_slice(), &vec![b' '; MAX_ANSWER_BYTES]].concat();
        let value = tier.seal.seal(&name, &longer);
        assert_eq!(
            take(&tier, &name, &value),
            Err(format!("longer than {MAX_STORED_BYTES} bytes"))
        );
    }
}
