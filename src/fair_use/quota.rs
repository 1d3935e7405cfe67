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
    /// Over the quota: when to try again.
    Limited {
        policy: Policy,
        retry_after: Duration,
    },
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
    /// The 429 of a request over its quota: which quota, and when to retry.
    pub fn refusal(&self) -> Option<crate::error::RequestError> {
        match self {
            Verdict::Limited {
                policy,
                retry_after,
            } => Some(crate::error::RequestError::TooManyRequests {
                class: policy.class.name(),
                quota: policy.quota,
                retry_after_secs: retry_after.as_secs_f64().ceil() as u64,
            }),
            _ => None,
        }
    }

    /// The quota that decided, if one did.
    pub fn policy(&self) -> Option<Policy> {
        match self {
            Verdict::Unlimited => None,
            Verdict::Allowed { policy, .. } | Verdict::Limited { policy, .. } => Some(*policy),
        }
    }
}
