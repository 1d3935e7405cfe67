//! Failed API key attempts, limited per client network: a client that
//! presents more wrong keys than its allowance (GCRA: `q` a minute, a
//! burst of `q`) is shut out for a minute, during which its key attempts
//! are refused without being evaluated (so a right guess then is refused
//! too). Shut-out networks are few: a request looks them up only when
//! there are any, after one atomic load.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use governor::clock::DefaultClock;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

/// How long a network that goes over its allowance is shut out.
pub const SHUT_OUT: Duration = Duration::from_secs(60);

type Keyed = RateLimiter<IpAddr, DefaultKeyedStateStore<IpAddr>, DefaultClock>;

/// Failed key attempts per client network, and the networks shut out.
pub struct FailedAttempts {
    /// Wrong keys a minute each network may present, and their limiter
    /// (none: unlimited).
    limiter: Option<(Keyed, u32)>,
    /// The networks shut out, until when.
    shut_out: Mutex<HashMap<IpAddr, Instant>>,
    /// How many networks `shut_out` holds (read without the lock).
    shut_out_count: AtomicUsize,
}

impl FailedAttempts {
    /// `per_minute` wrong keys a minute per network (0: unlimited).
    pub fn new(per_minute: u32) -> FailedAttempts {
        FailedAttempts {
            limiter: NonZeroU32::new(per_minute)
                .map(|q| (RateLimiter::keyed(Quota::per_minute(q)), per_minute)),
            shut_out: Mutex::new(HashMap::new()),
            shut_out_count: AtomicUsize::new(0),
        }
    }

    /// Wrong keys a minute each network may present (0: unlimited).
    pub fn quota(&self) -> u32 {
        self.limiter.as_ref().map_or(0, |(_, q)| *q)
    }

    /// Whether any network is shut out (one atomic load).
    pub fn any_shut_out(&self) -> bool {
        self.shut_out_count.load(Ordering::Acquire) > 0
    }

    /// How long `network` is still shut out, if it is.
    pub fn shut_out_for(&self, network: IpAddr) -> Option<Duration> {
        if !self.any_shut_out() {
            return None;
        }
        let now = Instant::now();
        let mut shut_out = self.lock();
        let until = *shut_out.get(&network)?;
        if until > now {
            return Some(until - now);
        }
        shut_out.remove(&network);
        self.shut_out_count.store(shut_out.len(), Ordering::Release);
        None
    }

    /// Counts a wrong key from `network`; when that is over its allowance,
    /// shuts the network out and says for how long.
    pub fn fail(&self, network: IpAddr) -> Option<Duration> {
        let (limiter, _) = self.limiter.as_ref()?;
        if limiter.check_key(&network).is_ok() {
            return None;
        }
        let mut shut_out = self.lock();
        shut_out.insert(network, Instant::now() + SHUT_OUT);
        self.shut_out_count.store(shut_out.len(), Ordering::Release);
        Some(SHUT_OUT)
    }

    /// Forgets the networks whose allowance is whole again and those no
    /// longer shut out.
    pub fn forget_idle(&self) {
        if let Some((limiter, _)) = &self.limiter {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        let now = Instant::now();
        let mut shut_out = self.lock();
        shut_out.retain(|_, until| *until > now);
        shut_out.shrink_to_fit();
        self.shut_out_count.store(shut_out.len(), Ordering::Release);
    }

    /// How many networks are remembered.
    #[cfg(test)]
    fn remembered(&self) -> usize {
        self.limiter.as_ref().map_or(0, |(l, _)| l.len()) + self.lock().len()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<IpAddr, Instant>> {
        // The map is whole after any panic (one insert or remove).
        self.shut_out.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_network_over_its_allowance_is_shut_out_alone() {
        let attempts = FailedAttempts::new(3);
        let (a, b) = (ip("1.1.1.1"), ip("2.2.2.2"));
        assert!(!attempts.any_shut_out());
        for _ in 0..3 {
            assert_eq!(attempts.fail(a), None);
        }
        assert_eq!(attempts.fail(a), Some(SHUT_OUT));
        assert!(attempts.any_shut_out());
        let left = attempts.shut_out_for(a).unwrap();
        assert!(left <= SHUT_OUT && left > Duration::ZERO, "{left:?}");
        assert_eq!(attempts.shut_out_for(b), None);
        assert_eq!(attempts.fail(b), None);
        // Still shut out after forgetting idle networks.
        attempts.forget_idle();
        assert!(attempts.shut_out_for(a).is_some());
    }

    #[test]
    fn no_allowance_is_unlimited_and_remembers_nothing() {
        let attempts = FailedAttempts::new(0);
        for _ in 0..100 {
            assert_eq!(attempts.fail(ip("1.1.1.1")), None);
        }
        assert!(!attempts.any_shut_out());
        assert_eq!(attempts.remembered(), 0);
        assert_eq!(attempts.quota(), 0);
    }
}
