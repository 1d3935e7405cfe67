//! The AI cache's bound is in bytes, and the memory budget counts it at
//! that bound: its weigher must count what an entry truly holds (the
//! answer, the key, moka's bookkeeping), or a cache of small answers holds
//! more than the budget sees.

use std::sync::Arc;
use std::time::Duration;

use tank_rules::cache::{AnswerCache, CacheConfig, Key};

/// Entries of answers of `answer_bytes` each, inserted into a fresh cache
/// large enough to keep them all: (bytes the thread holds for them, bytes
/// the weigher counts).
fn held_and_weighed(entries: u32, answer_bytes: usize) -> (usize, u64) {
    let start = crate::allocations::held();
    let cache = AnswerCache::new(CacheConfig {
        max_bytes: 1 << 30,
        ttl: Duration::from_secs(3600),
    });
    for i in 0..entries {
        let answer: Arc<[u8]> = vec![b'x'; answer_bytes].into();
        cache.insert(Key::digest(&i.to_le_bytes()), answer);
    }
    assert_eq!(cache.len(), u64::from(entries));
    let held = crate::allocations::held() - start;
    let weighed = cache.weighted_bytes();
    (usize::try_from(held).unwrap_or(0), weighed)
}

#[test]
fn the_weigher_counts_what_an_entry_holds() {
    // The smallest answers make the bookkeeping count most; the hostile
    // run's are about 150 bytes.
    for answer_bytes in [16, 150, 1_000] {
        let (held, weighed) = held_and_weighed(20_000, answer_bytes);
        assert!(
            held as u64 <= weighed,
            "{answer_bytes}-byte answers: 20,000 entries hold {held} bytes, the weigher counts {weighed} \
             ({} a entry held, {} weighed)",
            held / 20_000,
            weighed / 20_000
        );
    }
}
