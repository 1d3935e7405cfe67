//! What a quota is and what it decides: the two classes a request may
//! spend ([`Class`]), the quotas a minute ([`Quotas`]) and a decision
//! ([`Verdict`], with the [`Policy`] that made it).

use std::time::Duration;

use serde::Deserialize;

/// What a request spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Everything but searches.
    Cheap,
    /// AI searches and perft (a batch spends one per search it holds).
    Search,
}

impl Class {
    /// The policy's name in the `RateLimit` headers.
    pub const fn name(self) -> &'static str {
        match self {
            Class::Cheap => "requests",
            Class::Search => "searches",
        }
    }
}

/// Quotas a minute (0: unlimited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Quotas {
    #[serde(default)]
    pub requests_per_minute: u32,
    #[serde(default)]
    pub searches_per_minute: u32,
}

impl Quotas {
    pub(crate) fn of(self, class: Class) -> u32 {
        match class {
            Class::Cheap => self.requests_per_minute,
            Class::Search => self.searches_per_minute,
        }
    }
}

/// A quota decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No quota applies.
    Unlimited,
    /// Within the quota: what is left of it, and when it is whole again.
    Allowed {
        policy: Policy,
        remaining: u32,
        reset: Duration,
    },
    /// Over the quota: when to try again (when the quota holds `price`
    /// again).
    Limited {
        policy: Policy,
        price: u32,
        retry_after: Duration,
    },
    /// The request costs more than the whole quota: no wait lets it
    /// through.
    Unaffordable { policy: Policy, price: u32 },
}

/// The `RateLimit-Policy` field of the policy named `name` (a [`Class`]'s
/// name, or the wrong-key allowance's) of `quota` units a `window_secs`
/// window, as draft-ietf-httpapi-ratelimit-headers writes it, its unit
/// said: `qu="requests"` (the draft's unit) for requests and wrong keys;
/// for searches, whose unit is one search at the server's AI time cap
/// (a request may cost several), the service's own parameter
/// `tank-rules-unit="search"` (unknown parameters are ignored by the
/// draft's clients).
pub fn policy_field(name: &str, quota: u32, window_secs: u64) -> String {
    let unit = if name == Class::Search.name() {
        "tank-rules-unit=\"search\""
    } else {
        "qu=\"requests\""
    };
    format!("\"{name}\";q={quota};w={window_secs};{unit}")
}

/// The `RateLimit` field of the policy named `name`: `remaining` units
/// left, whole again (or, refused, able to pay for the request) in
/// `reset_secs`.
pub fn state_field(name: &str, remaining: u32, reset_secs: u64) -> String {
    format!("\"{name}\";r={remaining};t={reset_secs}")
}

/// A quota as the `RateLimit-Policy` header names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub class: Class,
    /// Requests a window.
    pub quota: u32,
    pub window: Duration,
}

impl Verdict {
    /// The refusal of a request over its quota: 429 naming the quota,
    /// the price and when to retry (never sooner than the quota holds the
    /// price again, and never later than its window); 400 for a price over
    /// the whole quota.
    pub fn refusal(&self) -> Option<crate::error::RequestError> {
        match self {
            Verdict::Limited {
                policy,
                price,
                retry_after,
            } => Some(crate::error::RequestError::TooManyRequests {
                class: policy.class.name(),
                quota: policy.quota,
                price: *price,
                retry_after_secs: (*retry_after)
                    .min(policy.window)
                    .as_secs_f64()
                    .ceil()
                    .max(1.0) as u64,
            }),
            Verdict::Unaffordable { policy, price } => {
                Some(crate::error::RequestError::Unaffordable {
                    class: policy.class.name(),
                    quota: policy.quota,
                    price: *price,
                })
            }
            _ => None,
        }
    }

    /// The verdict once `units` it spent are given back: as many more
    /// left (never more than the quota), whole again as much sooner.
    pub fn refunded(&self, units: u32) -> Verdict {
        match self {
            Verdict::Allowed {
                policy,
                remaining,
                reset,
            } => Verdict::Allowed {
                policy: *policy,
                remaining: remaining.saturating_add(units).min(policy.quota),
                reset: reset.saturating_sub(policy.window / policy.quota.max(1) * units),
            },
            other => other.clone(),
        }
    }

    /// The quota that decided, if one did.
    pub fn policy(&self) -> Option<Policy> {
        match self {
            Verdict::Unlimited => None,
            Verdict::Allowed { policy, .. }
            | Verdict::Limited { policy, .. }
            | Verdict::Unaffordable { policy, .. } => Some(*policy),
        }
    }
}
