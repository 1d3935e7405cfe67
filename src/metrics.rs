//! Prometheus metrics (the `prometheus` crate): request counts and latency
//! histograms per route pattern, method and status (recorded by the HTTP
//! layer's middleware, `api::middleware::metrics`); AI searches, nodes and
//! times; cache lookups and sizes; fleet quota checks. One registry per
//! service instance, served at `GET /metrics` in the text format. Nothing
//! here knows HTTP.
//!
//! `actix-web-prom` was tried first: its per-request work (path copies, a
//! pattern template rendered per request, a wrapped body) cost a fifth of
//! the throughput of the cheap endpoints; recording one histogram and one
//! counter from the matched pattern costs a few per cent.

use std::sync::{Arc, RwLock};

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge,
    IntGaugeVec, Opts, Registry, TextEncoder,
};

/// Prefix of every metric name.
const NAMESPACE: &str = "tank_rules";

/// Latency buckets, seconds: from 50 µs (a cheap JSON call) to 10 s (the
/// longest AI search the caps allow, with its queueing).
const BUCKETS: &[f64] = &[
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
    2.5, 5.0, 10.0,
];

/// Every metric of one service instance. Cloning shares them.
#[derive(Clone)]
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    request_seconds: HistogramVec,
    ai_searches: IntCounterVec,
    ai_nodes: IntCounterVec,
    ai_seconds: HistogramVec,
    cache_lookups: IntCounterVec,
    /// The in-process cache's hit and miss counters of each game asked
    /// about so far (a look-up for every AI request: resolved once, not
    /// by their labels each time).
    memory_lookups: Arc<RwLock<Vec<MemoryLookups>>>,
    cache_entries: IntGauge,
    cache_bytes: IntGauge,
    /// Fleet quota checks Redis answered, and those it did not (decided
    /// by the replica alone).
    quota_in_fleet: IntCounter,
    quota_fallbacks: IntCounter,
    /// Access log lines dropped because the writer fell behind.
    access_log_dropped: IntCounter,
    /// The pools of slots, and the reviews.
    work: WorkMetrics,
}

/// A game's hit and miss counters of the in-process cache.
#[derive(Clone)]
struct MemoryLookups {
    game: &'static str,
    hit: IntCounter,
    miss: IntCounter,
}

/// The pools of slots (requests for a slot by result, slots in use, the
/// waits) and the reviews (by game and how they ended).
#[derive(Clone)]
struct WorkMetrics {
    slot_requests: IntCounterVec,
    slots_in_use: IntGaugeVec,
    slot_wait_seconds: HistogramVec,
    reviews: IntCounterVec,
}

/// A counter of `labels` named `name` (under [`NAMESPACE`]), registered in
/// `registry`.
///
/// # Panics
/// Only if its constant name or labels were invalid or repeated (every
/// test that builds the service would show it).
fn counter(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    let vec = IntCounterVec::new(Opts::new(name, help).namespace(NAMESPACE), labels)
        .expect("valid counter");
    registry
        .register(Box::new(vec.clone()))
        .expect("counter registers once");
    vec
}

/// A histogram of `labels` named `name` (under [`NAMESPACE`]), with the
/// latency [`BUCKETS`], registered in `registry`.
///
/// # Panics
/// As [`counter`].
fn histogram(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> HistogramVec {
    let opts = HistogramOpts::new(name, help)
        .namespace(NAMESPACE)
        .buckets(BUCKETS.to_vec());
    let vec = HistogramVec::new(opts, labels).expect("valid histogram");
    registry
        .register(Box::new(vec.clone()))
        .expect("histogram registers once");
    vec
}

/// A gauge named `name` (under [`NAMESPACE`]), registered in `registry`.
///
/// # Panics
/// As [`counter`].
fn gauge(registry: &Registry, name: &str, help: &str) -> IntGauge {
    let gauge =
        IntGauge::with_opts(Opts::new(name, help).namespace(NAMESPACE)).expect("valid gauge");
    registry
        .register(Box::new(gauge.clone()))
        .expect("gauge registers once");
    gauge
}

impl WorkMetrics {
    /// # Panics
    /// Only if a constant name or label were invalid or repeated (every
    /// test that builds the service would show it).
    fn register(registry: &Registry) -> WorkMetrics {
        let counter =
            |name: &str, help: &str, labels: &[&str]| counter(registry, name, help, labels);
        let slot_requests = counter(
            "slot_requests_total",
            "Requests for a slot of a pool (live: ai-move; long: annotate, perft; work: large replays), \
by result: `free` (taken at once), `waited` (taken within --search-wait-ms) or `busy` (none freed \
in time: answered 503 SERVICE_BUSY)",
            &["pool", "result"],
        );
        let reviews = counter(
            "reviews_total",
            "Reviews (annotate) judged, by game and how they ended: `finished`, `cut` (past their \
time cap or their batch's budget), `left` (the client went away) or `failed`",
            &["game", "result"],
        );
        let slots_in_use = IntGaugeVec::new(
            Opts::new("slots_in_use", "Slots of each pool held now").namespace(NAMESPACE),
            &["pool"],
        )
        .expect("valid gauge");
        registry
            .register(Box::new(slots_in_use.clone()))
            .expect("gauge registers once");
        let slot_wait_seconds = histogram(
            registry,
            "slot_wait_seconds",
            "Time a request waited for a slot of a pool, slot taken or not",
            &["pool"],
        );
        WorkMetrics {
            slot_requests,
            slots_in_use,
            slot_wait_seconds,
            reviews,
        }
    }
}

/// The series of one pool of slots, resolved once.
#[derive(Clone)]
pub struct PoolSeries {
    free: IntCounter,
    waited: IntCounter,
    busy: IntCounter,
    in_use: IntGauge,
    wait_seconds: Histogram,
}

/// How a request for a slot ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotResult {
    /// Taken at once.
    Free,
    /// Taken after waiting.
    Waited,
    /// None freed in time (503).
    Busy,
}

impl PoolSeries {
    /// Records a request for a slot that ended as `result` after
    /// `seconds`.
    pub fn requested(&self, result: SlotResult, seconds: f64) {
        match result {
            SlotResult::Free => self.free.inc(),
            SlotResult::Waited => self.waited.inc(),
            SlotResult::Busy => self.busy.inc(),
        }
        if result != SlotResult::Free {
            self.wait_seconds.observe(seconds);
        }
    }

    /// A slot was taken (`true`) or given back.
    pub fn held(&self, taken: bool) {
        if taken {
            self.in_use.inc();
        } else {
            self.in_use.dec();
        }
    }
}

/// The request count and latency of one route pattern, method and status:
/// resolved once, then recorded without looking the labels up again.
#[derive(Clone)]
pub struct RequestSeries {
    count: IntCounter,
    seconds: Histogram,
}

impl RequestSeries {
    /// Records one answered request.
    pub fn observe(&self, seconds: f64) {
        self.count.inc();
        self.seconds.observe(seconds);
    }
}

impl Metrics {
    /// A fresh registry with every metric registered.
    ///
    /// # Panics
    /// Only if a metric's constant name or labels were invalid or repeated,
    /// which every test that builds the service would show.
    pub fn new() -> Metrics {
        let registry = Registry::new();
        let ai_searches = counter(
            &registry,
            "ai_searches_total",
            "AI searches run (ai-move's cache misses, and reviews' searches), by game",
            &["game"],
        );
        let ai_nodes = counter(
            &registry,
            "ai_nodes_total",
            "Positions (Tank Battle, Tank War) or simulated rounds (Tank Wars) the AI searched, by game",
            &["game"],
        );
        let cache_lookups = counter(
            &registry,
            "ai_cache_lookups_total",
            "AI answer cache lookups, by game, tier (memory, redis) and result (hit, miss, rejected, error)",
            &["game", "tier", "result"],
        );
        let ai_seconds = histogram(
            &registry,
            "ai_search_seconds",
            "Time of each AI search, by game",
            &["game"],
        );
        let requests = counter(
            &registry,
            "http_requests_total",
            "HTTP requests answered, by route pattern (UNMATCHED for unknown paths), method and status",
            &["endpoint", "method", "status"],
        );
        let request_seconds = histogram(
            &registry,
            "http_request_duration_seconds",
            "Time from a request's arrival to its response, by route pattern, method and status",
            &["endpoint", "method", "status"],
        );
        let quota_checks = counter(
            &registry,
            "quota_checks_total",
            "Quota checks sent to Redis (fleet-wide quotas), by result: `fleet` (Redis decided) or `fallback` (Redis slow, down or resting after a failure: the replica decided alone)",
            &["result"],
        );
        let access_log_dropped = IntCounter::with_opts(
            Opts::new(
                "access_log_dropped_total",
                "Access log lines dropped because the writer fell behind (with --access-log)",
            )
            .namespace(NAMESPACE),
        )
        .expect("valid counter");
        registry
            .register(Box::new(access_log_dropped.clone()))
            .expect("counter registers once");
        let cache_entries = gauge(
            &registry,
            "ai_cache_entries",
            "AI answers in the cache (all games)",
        );
        let cache_bytes = gauge(
            &registry,
            "ai_cache_bytes",
            "Bytes of AI answers in the cache, as its weigher counts them (all games)",
        );
        let work = WorkMetrics::register(&registry);
        Metrics {
            registry,
            requests,
            request_seconds,
            ai_searches,
            ai_nodes,
            ai_seconds,
            cache_lookups,
            memory_lookups: Arc::default(),
            cache_entries,
            cache_bytes,
            quota_in_fleet: quota_checks.with_label_values(&["fleet"]),
            quota_fallbacks: quota_checks.with_label_values(&["fallback"]),
            access_log_dropped,
            work,
        }
    }

    /// The series of the pool named `pool`.
    pub fn pool(&self, pool: &str) -> PoolSeries {
        let work = &self.work;
        let result = |name: &str| work.slot_requests.with_label_values(&[pool, name]);
        PoolSeries {
            free: result("free"),
            waited: result("waited"),
            busy: result("busy"),
            in_use: work.slots_in_use.with_label_values(&[pool]),
            wait_seconds: work.slot_wait_seconds.with_label_values(&[pool]),
        }
    }

    /// Records one review of `game` that ended as `result` (`finished`,
    /// `cut`, `left`, `failed`), having run `searches` searches over
    /// `nodes` positions (counted with `ai-move`'s searches).
    pub fn review(&self, game: &str, result: &str, searches: u64, nodes: u64) {
        self.work.reviews.with_label_values(&[game, result]).inc();
        self.ai_searches.with_label_values(&[game]).inc_by(searches);
        self.ai_nodes.with_label_values(&[game]).inc_by(nodes);
    }

    /// The registry, for tests and other exporters.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Every metric in the Prometheus text format, with its content type.
    pub fn render(&self) -> Result<(String, String), prometheus::Error> {
        let encoder = TextEncoder::new();
        let text = encoder.encode_to_string(&self.registry.gather())?;
        Ok((text, encoder.format_type().to_owned()))
    }

    /// Records one answered request: its route pattern, method (a known
    /// one's name, else `OTHER`, so that clients cannot grow the label
    /// set) and status.
    pub fn observe_request(&self, endpoint: &str, method: &str, status: &str, seconds: f64) {
        self.request_series(endpoint, method, status)
            .observe(seconds);
    }

    /// The series of one route pattern, method and status, to record into
    /// many times.
    pub fn request_series(&self, endpoint: &str, method: &str, status: &str) -> RequestSeries {
        let labels = [endpoint, method, status];
        RequestSeries {
            count: self.requests.with_label_values(&labels),
            seconds: self.request_seconds.with_label_values(&labels),
        }
    }

    /// Counts an access log line dropped.
    pub fn access_log_dropped(&self) {
        self.access_log_dropped.inc();
    }

    /// Records one AI search.
    pub fn ai_search(&self, game: &str, nodes: u64, seconds: f64) {
        self.ai_searches.with_label_values(&[game]).inc();
        self.ai_nodes.with_label_values(&[game]).inc_by(nodes);
        self.ai_seconds.with_label_values(&[game]).observe(seconds);
    }

    /// Records a fleet quota check: decided by Redis, or by the replica
    /// alone because Redis did not answer.
    pub fn quota_check(&self, in_fleet: bool) {
        if in_fleet {
            self.quota_in_fleet.inc();
        } else {
            self.quota_fallbacks.inc();
        }
    }

    /// Records a look-up in a cache tier: `hit`, `miss`, `rejected` (a
    /// value the shared tier held but did not serve) or `error`.
    pub fn tier_lookup(&self, game: &str, tier: &str, result: &str) {
        self.cache_lookups
            .with_label_values(&[game, tier, result])
            .inc();
    }

    /// Records a look-up in the in-process cache and the cache's size.
    pub fn cache_lookup(&self, game: &'static str, hit: bool, entries: u64, bytes: u64) {
        let count = |lookups: &MemoryLookups| {
            if hit {
                lookups.hit.inc();
            } else {
                lookups.miss.inc();
            }
        };
        // A poisoned lock only means a panic elsewhere while it was held:
        // the counters it guards are whole.
        let known = self
            .memory_lookups
            .read()
            .unwrap_or_else(|e| e.into_inner());
        match known.iter().find(|lookups| lookups.game == game) {
            Some(lookups) => count(lookups),
            None => {
                drop(known);
                let lookups = MemoryLookups {
                    game,
                    hit: self
                        .cache_lookups
                        .with_label_values(&[game, "memory", "hit"]),
                    miss: self
                        .cache_lookups
                        .with_label_values(&[game, "memory", "miss"]),
                };
                count(&lookups);
                let mut known = self
                    .memory_lookups
                    .write()
                    .unwrap_or_else(|e| e.into_inner());
                if !known.iter().any(|known| known.game == game) {
                    known.push(lookups);
                }
            }
        }
        self.cache_entries
            .set(i64::try_from(entries).unwrap_or(i64::MAX));
        self.cache_bytes
            .set(i64::try_from(bytes).unwrap_or(i64::MAX));
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_the_text_format() {
        let metrics = Metrics::new();
        metrics.observe_request("/x", "POST", "200", 0.002);
        metrics.ai_search("tank-battle", 42, 0.1);
        let (text, content_type) = metrics.render().unwrap();
        assert!(content_type.starts_with("text/plain"));
        assert!(text.contains(
            "tank_rules_http_requests_total{endpoint=\"/x\",method=\"POST\",status=\"200\"} 1"
        ));
        assert!(text.contains("tank_rules_ai_nodes_total{game=\"tank-battle\"} 42"));
    }

    /// The in-process cache's counters, resolved once a game, count each
    /// game's hits and misses apart, in every clone of the metrics.
    #[test]
    fn memory_lookups_are_counted_by_game_and_result() {
        let metrics = Metrics::new();
        let clone = metrics.clone();
        for (game, hit) in [("a", true), ("b", false), ("a", true), ("a", false)] {
            metrics.cache_lookup(game, hit, 1, 2);
        }
        clone.cache_lookup("b", false, 3, 4);
        let (text, _) = metrics.render().unwrap();
        let series = |game: &str, result: &str| {
            format!("tank_rules_ai_cache_lookups_total{{game=\"{game}\",result=\"{result}\",tier=\"memory\"}}")
        };
        for (game, result, n) in [
            ("a", "hit", 2),
            ("a", "miss", 1),
            ("b", "miss", 2),
            ("b", "hit", 0),
        ] {
            assert!(
                text.contains(&format!("{} {n}", series(game, result))),
                "{game} {result}:\n{text}"
            );
        }
        assert!(text.contains("tank_rules_ai_cache_entries 3"));
    }
}
