//! The cache of AI answers, shared by every game: a bounded moka cache with
//! hit and miss counters. Each game keeps its own instance, keyed by a
//! string that spells out everything the answer depends on.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::metrics::Metrics;

/// Capacity and lifetime of a cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheConfig {
    /// Most entries kept.
    pub capacity: u64,
    /// How long an entry lives.
    pub ttl: Duration,
}

impl Default for CacheConfig {
    fn default() -> CacheConfig {
        CacheConfig {
            capacity: 10_000,
            ttl: Duration::from_secs(3600),
        }
    }
}

/// Hit and miss counts so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
}

/// A bounded cache of computed answers of type `V`.
#[derive(Clone)]
pub struct AnswerCache<V: Clone + Send + Sync + 'static> {
    name: &'static str,
    entries: moka::sync::Cache<String, V>,
    hits: Arc<AtomicU64>,
    misses: Arc<AtomicU64>,
    metrics: Option<Metrics>,
}

impl<V: Clone + Send + Sync + 'static> AnswerCache<V> {
    pub fn new(name: &'static str, config: CacheConfig) -> AnswerCache<V> {
        AnswerCache {
            name,
            entries: moka::sync::Cache::builder()
                .max_capacity(config.capacity)
                .time_to_live(config.ttl)
                .build(),
            hits: Arc::default(),
            misses: Arc::default(),
            metrics: None,
        }
    }

    /// Also reports lookups, the cache's size and the searches that fill
    /// it to `metrics`, labelled with this cache's name.
    pub fn with_metrics(mut self, metrics: Metrics) -> AnswerCache<V> {
        self.metrics = Some(metrics);
        self
    }

    /// Records one search whose answer is about to be inserted.
    pub fn record_search(&self, nodes: u64, seconds: f64) {
        if let Some(metrics) = &self.metrics {
            metrics.ai_search(self.name, nodes, seconds);
        }
    }

    /// The cached answer for `key`, counting the hit or miss.
    pub fn get(&self, key: &str) -> Option<V> {
        let found = self.entries.get(key);
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        if let Some(metrics) = &self.metrics {
            metrics.cache_lookup(self.name, found.is_some(), self.entries.entry_count());
        }
        let stats = self.stats();
        // A miss costs a search, so its log line is cheap by comparison;
        // hits are the hot path.
        if found.is_some() {
            tracing::debug!(
                cache = self.name,
                hits = stats.hits,
                misses = stats.misses,
                "answer cache hit"
            );
        } else {
            tracing::info!(
                cache = self.name,
                hits = stats.hits,
                misses = stats.misses,
                "answer cache miss"
            );
        }
        found
    }

    pub fn insert(&self, key: String, value: V) {
        self.entries.insert(key, value);
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
        }
    }

    /// Entries currently held (approximate while writes are pending).
    pub fn len(&self) -> u64 {
        self.entries.run_pending_tasks();
        self.entries.entry_count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_hits_and_misses_and_respects_capacity() {
        let cache = AnswerCache::new(
            "test",
            CacheConfig {
                capacity: 10,
                ttl: Duration::from_secs(60),
            },
        );
        assert_eq!(cache.get("a"), None);
        cache.insert("a".to_owned(), 1);
        assert_eq!(cache.get("a"), Some(1));
        assert_eq!(cache.stats(), CacheStats { hits: 1, misses: 1 });
        for i in 0..100 {
            cache.insert(i.to_string(), i);
        }
        assert!(cache.len() <= 10, "{} entries", cache.len());
    }
}
