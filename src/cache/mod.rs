//! The cache of AI answers, shared by every game: a moka cache bounded in
//! bytes (its weigher counts each answer's encoded size and its key), keyed
//! by a fixed-size digest of everything the answer depends on, its
//! look-ups and size counted in the metrics. Answers are kept encoded
//! (compact JSON), so an entry costs what its answer weighs, whatever the
//! request that asked for it. [`SharedTier`] is the optional tier behind
//! it, in Redis, shared by the replicas; what it stores there is sealed
//! ([`Seal`], a keyed MAC under the fleet's [`Secret`]).

use std::sync::Arc;
use std::time::Duration;

use crate::metrics::Metrics;

mod key;
mod seal;
mod shared;

pub use key::Key;
pub use seal::{Broken, Seal, Secret, TooShort, WeakSecret};
pub use shared::{Lookup, SharedTier, MAX_ANSWER_BYTES};

/// Capacity and lifetime of a cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheConfig {
    /// Most bytes of answers (and their keys) kept.
    pub max_bytes: u64,
    /// How long an entry lives.
    pub ttl: Duration,
}

impl CacheConfig {
    pub const DEFAULT_MIB: u64 = 32;
}

impl Default for CacheConfig {
    fn default() -> CacheConfig {
        CacheConfig {
            max_bytes: CacheConfig::DEFAULT_MIB << 20,
            ttl: Duration::from_secs(3600),
        }
    }
}

/// What one entry costs besides its answer's bytes: the answer's own
/// allocation, the key, moka's bookkeeping (its map's bucket, its two
/// queues' nodes, the entry's timestamps and counters), and the allocator's
/// header on each of those allocations. The test crate counts what the
/// entries truly hold (`tests/it/cache_weight.rs`): the memory budget
/// counts the cache at its bound, so this must not be less.
const ENTRY_OVERHEAD: u64 = 384;

/// A bounded cache of encoded answers.
#[derive(Clone)]
pub struct AnswerCache {
    entries: moka::sync::Cache<Key, Arc<[u8]>>,
    metrics: Option<Metrics>,
}

impl AnswerCache {
    pub fn new(config: CacheConfig) -> AnswerCache {
        AnswerCache {
            entries: moka::sync::Cache::builder()
                .max_capacity(config.max_bytes)
                .weigher(|_: &Key, answer: &Arc<[u8]>| {
                    u32::try_from(answer.len() as u64 + ENTRY_OVERHEAD).unwrap_or(u32::MAX)
                })
                .time_to_live(config.ttl)
                .build(),
            metrics: None,
        }
    }

    /// Also reports look-ups and the cache's size to `metrics`.
    pub fn with_metrics(mut self, metrics: Metrics) -> AnswerCache {
        self.metrics = Some(metrics);
        self
    }

    /// The cached answer for `key`, counting the hit or miss for `game`.
    pub fn get(&self, game: &'static str, key: Key) -> Option<Arc<[u8]>> {
        let found = self.entries.get(&key);
        if let Some(metrics) = &self.metrics {
            metrics.cache_lookup(
                game,
                found.is_some(),
                self.entries.entry_count(),
                self.entries.weighted_size(),
            );
        }
        found
    }

    pub fn insert(&self, key: Key, answer: Arc<[u8]>) {
        self.entries.insert(key, answer);
    }

    /// Entries currently held (approximate while writes are pending).
    pub fn len(&self) -> u64 {
        self.entries.run_pending_tasks();
        self.entries.entry_count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes currently held, by the weigher's count.
    pub fn weighted_bytes(&self) -> u64 {
        self.entries.run_pending_tasks();
        self.entries.weighted_size()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_it_holds_and_stays_within_its_bytes() {
        let cache = AnswerCache::new(CacheConfig {
            max_bytes: 64 * 1024,
            ttl: Duration::from_secs(60),
        });
        let a = Key::digest(b"a");
        assert_eq!(cache.get("test", a), None);
        cache.insert(a, Arc::from(&b"1"[..]));
        assert_eq!(cache.get("test", a).as_deref(), Some(&b"1"[..]));
        // A thousand 1 KiB answers are 16 times what it may hold.
        for i in 0..1000u32 {
            cache.insert(Key::digest(&i.to_le_bytes()), Arc::from(vec![0u8; 1024]));
        }
        assert!(
            cache.weighted_bytes() <= 64 * 1024,
            "{}",
            cache.weighted_bytes()
        );
        assert!(cache.len() < 64, "{} entries", cache.len());
    }

    #[test]
    fn keys_are_digests() {
        assert_eq!(Key::digest(b"x"), Key::digest(b"x"));
        assert_ne!(Key::digest(b"x"), Key::digest(b"y"));
        assert_eq!(Key::digest(&[0u8; 100_000]).to_hex().len(), 32);
    }
}
