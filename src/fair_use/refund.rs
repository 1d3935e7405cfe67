//! Quotas that give back what was spent on work that never ran: a request
//! answered 503 (`SERVICE_BUSY`: no slot was free) costs nothing. The
//! limiters count in `governor`'s state stores, which have no refund of
//! their own; [`Shared`] is the store a limiter counts in, kept also by
//! the fair use that refunds it, and [`refund`] moves a state's
//! theoretical arrival time back by what was spent (never before its
//! start: a fresh state stays fresh).

use std::hash::Hash;
use std::sync::Arc;

use governor::nanos::Nanos;
use governor::state::keyed::ShrinkableKeyedStateStore;
use governor::state::StateStore;

/// A state store shared by its limiter and its refunds.
pub struct Shared<S>(pub Arc<S>);

impl<S> Clone for Shared<S> {
    fn clone(&self) -> Shared<S> {
        Shared(self.0.clone())
    }
}

impl<S: StateStore> StateStore for Shared<S> {
    type Key = S::Key;

    fn measure_and_replace<T, F, E>(&self, key: &Self::Key, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        self.0.measure_and_replace(key, f)
    }
}

impl<K, S> ShrinkableKeyedStateStore<K> for Shared<S>
where
    K: Hash + Eq + Clone,
    S: ShrinkableKeyedStateStore<K>,
{
    fn retain_recent(&self, drop_below: Nanos) {
        self.0.retain_recent(drop_below);
    }

    fn shrink_to_fit(&self) {
        self.0.shrink_to_fit();
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The time one unit of a quota of `quota` a minute takes to come back
/// (GCRA's emission interval).
pub fn interval(quota: u32) -> Nanos {
    Nanos::from(60_000_000_000 / u64::from(quota.max(1)))
}

/// Gives `back` (the emission interval times the units refunded) to the
/// state of `key`: what a GCRA check that spent them added.
pub fn refund<S: StateStore>(store: &S, key: &S::Key, back: Nanos) {
    let _ = store.measure_and_replace(key, |tat| {
        Ok::<_, ()>(((), tat.unwrap_or_default().saturating_sub(back)))
    });
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU32;

    use governor::clock::{DefaultClock, QuantaInstant};
    use governor::middleware::NoOpMiddleware;
    use governor::state::keyed::DefaultKeyedStateStore;
    use governor::state::{InMemoryState, NotKeyed};
    use governor::{Quota, RateLimiter};

    use super::*;

    const MINUTE: u64 = 60_000_000_000;

    #[test]
    fn a_refund_gives_back_what_a_check_spent() {
        let quota = NonZeroU32::new(3).unwrap();
        let store = Shared(Arc::new(DefaultKeyedStateStore::<u8>::default()));
        let limiter: RateLimiter<u8, _, _, NoOpMiddleware<QuantaInstant>> = RateLimiter::new(
            Quota::per_minute(quota),
            store.clone(),
            DefaultClock::default(),
        );
        let per = Nanos::from(MINUTE / 3);
        for _ in 0..3 {
            assert!(limiter.check_key(&1).is_ok());
        }
        assert!(limiter.check_key(&1).is_err());
        // Another key's refund gives nothing to this one.
        refund(&store, &2, per);
        assert!(limiter.check_key(&1).is_err());
        refund(&store, &1, per);
        assert!(limiter.check_key(&1).is_ok());
        assert!(limiter.check_key(&1).is_err());
        // More given back than was spent leaves the quota whole, no more.
        refund(&store, &1, per * 10);
        for _ in 0..3 {
            assert!(limiter.check_key(&1).is_ok());
        }
        assert!(limiter.check_key(&1).is_err());
        // A direct limiter's state too.
        let own = Shared(Arc::new(InMemoryState::default()));
        let limiter: RateLimiter<NotKeyed, _, _, NoOpMiddleware<QuantaInstant>> = RateLimiter::new(
            Quota::per_minute(quota),
            own.clone(),
            DefaultClock::default(),
        );
        assert!(limiter.check_n(quota).is_ok());
        assert!(limiter.check().is_err());
        refund(&own, &NotKeyed::NonKey, per);
        assert!(limiter.check().is_ok());
    }
}
