//! Prometheus metrics: the HTTP middleware's request counts and latency
//! histograms (per route pattern, method and status, from
//! `actix-web-prom`), and the service's own AI and cache figures, all in
//! one registry served at `GET /metrics`.

use actix_web_prom::{PrometheusMetrics, PrometheusMetricsBuilder};
use prometheus::{HistogramOpts, HistogramVec, IntCounterVec, IntGaugeVec, Opts, Registry};

/// Where the metrics are served.
pub const METRICS_PATH: &str = "/metrics";

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
    http: PrometheusMetrics,
    ai_searches: IntCounterVec,
    ai_nodes: IntCounterVec,
    ai_seconds: HistogramVec,
    cache_lookups: IntCounterVec,
    cache_entries: IntGaugeVec,
}

impl Metrics {
    /// A fresh registry with every metric registered.
    ///
    /// # Panics
    /// Only if a metric's constant name or labels were invalid or repeated,
    /// which every test that builds the service would show.
    pub fn new() -> Metrics {
        let registry = Registry::new();
        let http = PrometheusMetricsBuilder::new(NAMESPACE)
            .endpoint(METRICS_PATH)
            .registry(registry.clone())
            .buckets(BUCKETS)
            // Unknown paths share one label value, so hostile clients
            // cannot grow the label set.
            .mask_unmatched_patterns("UNMATCHED")
            .build()
            .expect("HTTP metrics register");
        let counter = |name: &str, help: &str, labels: &[&str]| {
            let vec = IntCounterVec::new(Opts::new(name, help).namespace(NAMESPACE), labels)
                .expect("valid counter");
            registry
                .register(Box::new(vec.clone()))
                .expect("counter registers once");
            vec
        };
        let ai_searches = counter(
            "ai_searches_total",
            "AI searches run (cache misses), by game",
            &["game"],
        );
        let ai_nodes = counter(
            "ai_nodes_total",
            "Positions (Tank Battle, Tank War) or simulated rounds (Tank Wars) the AI searched, by game",
            &["game"],
        );
        let cache_lookups = counter(
            "ai_cache_lookups_total",
            "AI answer cache lookups, by game and result (hit or miss)",
            &["game", "result"],
        );
        let ai_seconds = HistogramVec::new(
            HistogramOpts::new("ai_search_seconds", "Time of each AI search, by game")
                .namespace(NAMESPACE)
                .buckets(BUCKETS.to_vec()),
            &["game"],
        )
        .expect("valid histogram");
        registry
            .register(Box::new(ai_seconds.clone()))
            .expect("histogram registers once");
        let cache_entries = IntGaugeVec::new(
            Opts::new("ai_cache_entries", "AI answers in the cache, by game").namespace(NAMESPACE),
            &["game"],
        )
        .expect("valid gauge");
        registry
            .register(Box::new(cache_entries.clone()))
            .expect("gauge registers once");
        Metrics {
            registry,
            http,
            ai_searches,
            ai_nodes,
            ai_seconds,
            cache_lookups,
            cache_entries,
        }
    }

    /// The middleware that counts and times requests and serves
    /// [`METRICS_PATH`].
    pub fn http(&self) -> PrometheusMetrics {
        self.http.clone()
    }

    /// The registry, for tests and other exporters.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Records one AI search.
    pub fn ai_search(&self, game: &str, nodes: u64, seconds: f64) {
        self.ai_searches.with_label_values(&[game]).inc();
        self.ai_nodes.with_label_values(&[game]).inc_by(nodes);
        self.ai_seconds.with_label_values(&[game]).observe(seconds);
    }

    /// Records a cache lookup and the cache's size.
    pub fn cache_lookup(&self, game: &str, hit: bool, entries: u64) {
        let result = if hit { "hit" } else { "miss" };
        self.cache_lookups.with_label_values(&[game, result]).inc();
        self.cache_entries
            .with_label_values(&[game])
            .set(i64::try_from(entries).unwrap_or(i64::MAX));
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}
