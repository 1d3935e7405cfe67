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
/// interval (µs), the burst (the quota), the cost of this request (a
/// negative cost gives back what was spent, never more than a whole
/// quota) and the most digits a state may have ([`MAX_STATE_DIGITS`]).
/// Answers `{1, remaining, µs until whole, repaired}` or
/// `{0, 0, µs until allowed, repaired}`.
///
/// The state is trusted only as far as one window: anyone who reaches
/// Redis may write it. A value that is not a string of at most
/// [`MAX_STATE_DIGITS`] digits (checked by `TYPE` and `STRLEN` before it
/// is read, so a long one is never read) is taken as absent; a time
/// further ahead than one window (burst × interval) as exactly one window
/// ahead, written back so (with its expiry), so that a forged far-future
/// state costs its client at most one window. `repaired` is 1 when the
/// state was either. The state is written as plain digits.
const GCRA: &str = r"
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000000 + tonumber(now[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local digits = tonumber(ARGV[4])
local horizon = now + burst * interval
local tat = now
local repaired = 0
local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'string' and redis.call('STRLEN', KEYS[1]) <= digits then
  local stored = redis.call('GET', KEYS[1])
  if string.match(stored, '^%d+$') then
    tat = tonumber(stored)
  else
    repaired = 1
  end
elseif kind ~= 'none' then
  repaired = 1
end
if tat < now then tat = now end
if tat > horizon then
  tat = horizon
  repaired = 1
end
local new_tat = tat + cost * interval
if new_tat < now then new_tat = now end
local allowed_at = new_tat - burst * interval
if allowed_at > now then
  if repaired == 1 then
    redis.call('SET', KEYS[1], string.format('%d', tat), 'PX', math.ceil((tat - now) / 1000) + 1)
  end
  return {0, 0, allowed_at - now, repaired}
end
redis.call('SET', KEYS[1], string.format('%d', new_tat), 'PX', math.ceil((new_tat - now) / 1000) + 1)
return {1, math.floor((horizon - new_tat) / interval), new_tat - now, repaired}
";

/// The most digits of a stored state the script reads: a time in µs
/// since 1970 has 16 until the year 2286.
const MAX_STATE_DIGITS: usize = 20;

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
        self.run(id, class, quota, i64::from(cost)).await
    }

    /// Gives back `units` of the client `id`'s `class` quota, spent on
    /// work that never ran.
    pub async fn refund(
        &self,
        id: &str,
        class: Class,
        quota: u32,
        units: u32,
    ) -> Result<Decision, Failure> {
        self.run(id, class, quota, -i64::from(units)).await
    }

    /// The script, for a cost (negative: a refund).
    async fn run(
        &self,
        id: &str,
        class: Class,
        quota: u32,
        cost: i64,
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
                    .arg(MAX_STATE_DIGITS)
                    .invoke_async::<(u8, u64, u64, u8)>(&mut connection)
                    .await
            })
            .await;
        if let Some(metrics) = &self.metrics {
            metrics.quota_check(answer.is_ok());
        }
        let (allowed, remaining, micros, repaired) = answer?;
        if repaired == 1 {
            tracing::debug!(
                class = class.name(),
                "a quota state in Redis was not one the service writes; taken as at most one window"
            );
        }
        Ok(decision(
            allowed == 1,
            remaining,
            micros,
            quota,
            interval_us,
        ))
    }
}

/// What the script answered, clamped as the script clamps the state (no
/// wait beyond one window, `quota` × `interval_us`; no more left than the
/// quota), whatever Redis answers.
fn decision(allowed: bool, remaining: u64, micros: u64, quota: u32, interval_us: u64) -> Decision {
    let window_us = interval_us.saturating_mul(u64::from(quota.max(1)));
    let wait = Duration::from_micros(micros.min(window_us));
    if allowed {
        Decision::Allowed {
            remaining: u32::try_from(remaining.min(u64::from(quota))).unwrap_or(u32::MAX),
            reset: wait,
        }
    } else {
        Decision::Limited { retry_after: wait }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_redis_answers_is_clamped_to_one_window() {
        // 60 a minute: one every second, a window of a minute.
        let (quota, interval_us) = (60, 1_000_000);
        let far = 9_223_372_036_855 * 1_000_000;
        assert_eq!(
            decision(false, 0, far, quota, interval_us),
            Decision::Limited {
                retry_after: Duration::from_secs(60)
            }
        );
        assert_eq!(
            decision(true, u64::MAX, u64::MAX, quota, interval_us),
            Decision::Allowed {
                remaining: 60,
                reset: Duration::from_secs(60)
            }
        );
        // Within the window, what Redis said.
        assert_eq!(
            decision(false, 0, 1_500_000, quota, interval_us),
            Decision::Limited {
                retry_after: Duration::from_millis(1500)
            }
        );
        assert_eq!(
            decision(true, 7, 2_000_000, quota, interval_us),
            Decision::Allowed {
                remaining: 7,
                reset: Duration::from_secs(2)
            }
        );
    }
}
