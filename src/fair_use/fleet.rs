//! Quotas counted for the whole fleet, in Redis: each client's state of
//! each class is one key holding its GCRA "theoretical arrival time",
//! updated by a Lua script in one round trip (atomic in Redis, timed by
//! Redis's clock, so replicas' clocks do not matter). The same algorithm as
//! the replicas' own limiters (`governor`): a quota of `q` a minute lets a
//! burst of `q` through, then one every `60/q` seconds.

use std::time::Duration;

use super::Class;
use crate::metrics::Metrics;
use crate::redis::{Failure, Link};

/// GCRA in Redis. `KEYS[1]`: the client's state; `ARGV`: the emission
/// interval (µs), the burst (the quota) and the cost of this request.
/// Answers `{1, remaining, µs until whole}` or `{0, 0, µs until allowed}`.
const GCRA: &str = r"
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000000 + tonumber(now[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local new_tat = tat + cost * interval
local allowed_at = new_tat - burst * interval
if allowed_at > now then
  return {0, 0, allowed_at - now}
end
redis.call('SET', KEYS[1], new_tat, 'PX', math.ceil((new_tat - now) / 1000) + 1)
return {1, math.floor((now + burst * interval - new_tat) / interval), new_tat - now}
";

/// The kind of the quotas' keys: `<prefix>quota:<class>:<client>`.
const KIND: &str = "quota";

/// What Redis decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Within the quota: what is left, and when it is whole again.
    Allowed { remaining: u32, reset: Duration },
    /// Over it: when the request would be allowed.
    Limited { retry_after: Duration },
}

/// The fleet's quota counter.
pub struct Fleet {
    link: Link,
    script: redis::Script,
    metrics: Option<Metrics>,
}

impl Fleet {
    pub fn new(link: Link, metrics: Option<Metrics>) -> Fleet {
        Fleet {
            link,
            script: redis::Script::new(GCRA),
            metrics,
        }
    }

    /// Spends `cost` of the client `id`'s `class` quota of `quota` a
    /// minute, or says when it can; a failure (Redis slow, down, resting)
    /// is counted, and the caller decides alone.
    pub async fn check(
        &self,
        id: &str,
        class: Class,
        quota: u32,
        cost: u32,
    ) -> Result<Decision, Failure> {
        // At least 1 µs: the script divides by it.
        let interval_us = (60_000_000 / u64::from(quota.max(1))).max(1);
        let key = self.link.key(KIND, &[class.name(), id]);
        let script = self.script.clone();
        let answer = self
            .link
            .call("quota check", move |mut connection| async move {
                script
                    .key(key)
                    .arg(interval_us)
                    .arg(quota)
                    .arg(cost)
                    .invoke_async::<(u8, u64, u64)>(&mut connection)
                    .await
            })
            .await;
        if let Some(metrics) = &self.metrics {
            metrics.quota_check(answer.is_ok());
        }
        let (allowed, remaining, micros) = answer?;
        let wait = Duration::from_micros(micros);
        Ok(if allowed == 1 {
            Decision::Allowed {
                remaining: u32::try_from(remaining).unwrap_or(u32::MAX),
                reset: wait,
            }
        } else {
            Decision::Limited { retry_after: wait }
        })
    }
}
