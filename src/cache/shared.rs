//! The shared tier of the AI answer cache: Redis (or Valkey), behind each
//! replica's in-process tier, so that an answer one replica computed is
//! served by the others and survives restarts.
//!
//! The tier may never fail or slow a request: every look-up and store has
//! a short deadline, a value that does not decode is ignored (and
//! counted), and the connection (redis-rs's `ConnectionManager`, created
//! lazily) reconnects by itself. Its I/O runs on a runtime thread of its
//! own, so a slow Redis holds no HTTP worker.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::Key;
use crate::metrics::Metrics;

/// Where and how the shared tier runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedConfig {
    /// `redis://host:port/db` (or `rediss://`, `redis+unix://`).
    pub url: String,
    /// Longest a look-up or a store may take before it is given up.
    pub timeout: Duration,
    /// How long a stored answer lives in Redis.
    pub ttl: Duration,
}

/// What a look-up found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    Hit(Arc<[u8]>),
    Miss,
    /// Redis did not answer in time, or answered nonsense; the caller
    /// searches as on a miss.
    Error,
}

/// The shared tier: a handle to the Redis connection and the runtime that
/// drives it.
#[derive(Clone)]
pub struct SharedTier {
    runtime: tokio::runtime::Handle,
    connection: ConnectionManager,
    config: SharedConfig,
    metrics: Option<Metrics>,
    /// When the last warning was logged (ms since `started`), so a Redis
    /// that is down is logged every few seconds, not at every request.
    last_warning_ms: Arc<AtomicU64>,
    started: Instant,
}

/// Every key of the tier starts with this.
const PREFIX: &str = "tank-rules:ai:";

/// Warnings about the tier at most this often.
const WARN_EVERY: Duration = Duration::from_secs(10);

impl SharedTier {
    /// Starts the tier's runtime thread and a lazily connecting client:
    /// Redis need not be up yet. Fails only on a URL that does not parse or
    /// a thread that cannot start.
    pub fn start(config: SharedConfig) -> Result<SharedTier, String> {
        let client = redis::Client::open(config.url.as_str())
            .map_err(|e| format!("Redis URL {:?}: {e}", config.url))?;
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("shared-cache".to_owned())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        let _ = sender.send(Err(format!("shared cache runtime: {e}")));
                        return;
                    }
                };
                // The manager must be made inside the runtime it runs on.
                let manager = runtime.block_on(async {
                    let manager_config = ConnectionManagerConfig::new()
                        .set_connection_timeout(Some(Duration::from_secs(1)))
                        .set_number_of_retries(1)
                        .set_max_delay(Duration::from_millis(500));
                    ConnectionManager::new_lazy_with_config(client, manager_config)
                        .map_err(|e| format!("Redis client: {e}"))
                });
                let _ = sender.send(manager.map(|m| (runtime.handle().clone(), m)));
                // Drive the connection for the life of the process.
                runtime.block_on(std::future::pending::<()>());
            })
            .map_err(|e| format!("shared cache thread: {e}"))?;
        let (runtime, connection) = receiver
            .recv()
            .map_err(|e| format!("shared cache thread: {e}"))??;
        Ok(SharedTier {
            runtime,
            connection,
            config,
            metrics: None,
            last_warning_ms: Arc::default(),
            started: Instant::now(),
        })
    }

    /// Also counts look-ups in `metrics`.
    pub fn with_metrics(mut self, metrics: Metrics) -> SharedTier {
        self.metrics = Some(metrics);
        self
    }

    /// The stored answer for `key` (of `game`), within the deadline.
    pub async fn get(&self, game: &str, key: Key) -> Lookup {
        let mut connection = self.connection.clone();
        let name = format!("{PREFIX}{}", key.to_hex());
        let task = self.runtime.spawn(async move {
            redis::cmd("GET")
                .arg(name)
                .query_async::<Option<Vec<u8>>>(&mut connection)
                .await
        });
        let found = match tokio::time::timeout(self.config.timeout, task).await {
            Ok(Ok(Ok(Some(bytes)))) => Lookup::Hit(Arc::from(bytes)),
            Ok(Ok(Ok(None))) => Lookup::Miss,
            Ok(Ok(Err(e))) => self.failed("look-up", &e.to_string()),
            Ok(Err(e)) => self.failed("look-up", &e.to_string()),
            Err(_) => self.failed("look-up", "timed out"),
        };
        self.count(game, &found);
        found
    }

    /// Counts a hit whose value did not decode: Redis held something that
    /// is not an answer.
    pub fn undecodable(&self, game: &str) {
        self.warn("look-up", "a stored value is not an answer; ignored");
        if let Some(metrics) = &self.metrics {
            metrics.tier_lookup(game, "redis", "error");
        }
    }

    /// Stores `answer` under `key` in the background, within the deadline;
    /// a failure is only logged.
    pub fn put(&self, key: Key, answer: Arc<[u8]>) {
        let mut connection = self.connection.clone();
        let name = format!("{PREFIX}{}", key.to_hex());
        let ttl = self.config.ttl.as_secs().max(1);
        let timeout = self.config.timeout;
        let tier = self.clone();
        self.runtime.spawn(async move {
            let mut command = redis::cmd("SET");
            command.arg(name).arg(&*answer).arg("EX").arg(ttl);
            let store = command.query_async::<()>(&mut connection);
            match tokio::time::timeout(timeout, store).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tier.warn("store", &e.to_string()),
                Err(_) => tier.warn("store", "timed out"),
            }
        });
    }

    fn failed(&self, what: &str, why: &str) -> Lookup {
        self.warn(what, why);
        Lookup::Error
    }

    fn count(&self, game: &str, found: &Lookup) {
        if let Some(metrics) = &self.metrics {
            let result = match found {
                Lookup::Hit(_) => "hit",
                Lookup::Miss => "miss",
                Lookup::Error => "error",
            };
            metrics.tier_lookup(game, "redis", result);
        }
    }

    /// Logs a failure of the tier, at most every few seconds.
    fn warn(&self, what: &str, why: &str) {
        let now = self.started.elapsed().as_millis() as u64;
        let last = self.last_warning_ms.load(Ordering::Relaxed);
        let due = last == 0 || now.saturating_sub(last) >= WARN_EVERY.as_millis() as u64;
        if due
            && self
                .last_warning_ms
                .compare_exchange(last, now.max(1), Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            tracing::warn!(
                url = %self.config.url,
                what,
                why,
                "shared cache (Redis) failed; answering from the search"
            );
        }
    }
}
