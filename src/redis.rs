//! The one link to Redis (or Valkey) that every shared piece uses: the AI
//! cache tier and the fleet-wide quotas.
//!
//! Redis may never fail or slow a request: every call has the link's
//! deadline (`--redis-timeout-ms`); its I/O runs on a runtime thread of its
//! own, so a slow Redis holds no HTTP worker; the connection (redis-rs's
//! `ConnectionManager`, created lazily) reconnects by itself. After a
//! failure the link rests for a moment ([`Link::REST`]): calls in that time
//! fail at once, so the callers' fallbacks answer without waiting, and the
//! first call after it tries Redis again. An outage is logged once when it
//! starts and once when it ends.

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

/// Where Redis is and how long a call may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkConfig {
    /// `redis://host:port/db` (or `rediss://`, `redis+unix://`).
    pub url: String,
    /// Longest a call may take before it is given up.
    pub timeout: Duration,
}

/// Why a call did not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The link is resting after a failure: Redis was not asked.
    Resting,
    /// Redis did not answer within the deadline.
    TimedOut,
    /// Redis (or the connection) answered an error.
    Error(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Resting => f.write_str("resting after a failure"),
            Failure::TimedOut => f.write_str("timed out"),
            Failure::Error(e) => f.write_str(e),
        }
    }
}

/// A handle to the link; clones share it.
#[derive(Clone)]
pub struct Link {
    runtime: tokio::runtime::Handle,
    connection: ConnectionManager,
    config: LinkConfig,
    health: Arc<Health>,
}

/// Whether Redis answers, and since when it does not.
struct Health {
    started: Instant,
    /// Until when (ms since `started`) calls fail at once; 0 when healthy.
    resting_until_ms: AtomicU64,
    /// Whether an outage is going on (it was logged).
    down: AtomicBool,
}

impl Link {
    /// How long the link rests after a failure.
    pub const REST: Duration = Duration::from_secs(1);

    /// Starts the link's runtime thread and a lazily connecting client:
    /// Redis need not be up yet. Fails only on a URL that does not parse or
    /// a thread that cannot start.
    pub fn start(config: LinkConfig) -> Result<Link, String> {
        let client = redis::Client::open(config.url.as_str())
            .map_err(|e| format!("Redis URL {:?}: {e}", config.url))?;
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("redis".to_owned())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        let _ = sender.send(Err(format!("Redis runtime: {e}")));
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
            .map_err(|e| format!("Redis thread: {e}"))?;
        let (runtime, connection) = receiver
            .recv()
            .map_err(|e| format!("Redis thread: {e}"))??;
        Ok(Link {
            runtime,
            connection,
            config,
            health: Arc::new(Health {
                started: Instant::now(),
                resting_until_ms: AtomicU64::new(0),
                down: AtomicBool::new(false),
            }),
        })
    }

    /// The link's Redis URL.
    pub fn url(&self) -> &str {
        &self.config.url
    }

    /// Runs `call` on the link's runtime with a connection, within the
    /// deadline; `what` names it in the outage's log line.
    pub async fn call<T, F, Fut>(&self, what: &'static str, call: F) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce(ConnectionManager) -> Fut,
        Fut: Future<Output = redis::RedisResult<T>> + Send + 'static,
    {
        if self.health.resting() {
            return Err(Failure::Resting);
        }
        let task = self.runtime.spawn(call(self.connection.clone()));
        let result = match tokio::time::timeout(self.config.timeout, task).await {
            Ok(Ok(Ok(value))) => Ok(value),
            Ok(Ok(Err(e))) => Err(Failure::Error(e.to_string())),
            Ok(Err(e)) => Err(Failure::Error(e.to_string())),
            Err(_) => Err(Failure::TimedOut),
        };
        match &result {
            Ok(_) => self.health.answered(&self.config.url),
            Err(failure) => self.health.failed(&self.config.url, what, failure),
        }
        result
    }

    /// Runs `call` in the background within the deadline; a failure only
    /// counts towards the outage.
    pub fn spawn<F, Fut>(&self, what: &'static str, call: F)
    where
        F: FnOnce(ConnectionManager) -> Fut + Send + 'static,
        Fut: Future<Output = redis::RedisResult<()>> + Send + 'static,
    {
        let link = self.clone();
        self.runtime.spawn(async move {
            let _ = link.call(what, call).await;
        });
    }
}

impl Health {
    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn resting(&self) -> bool {
        let until = self.resting_until_ms.load(Ordering::Relaxed);
        until != 0 && self.now_ms() < until
    }

    fn answered(&self, url: &str) {
        self.resting_until_ms.store(0, Ordering::Relaxed);
        if self.down.swap(false, Ordering::Relaxed) {
            tracing::info!(url, "Redis answers again");
        }
    }

    fn failed(&self, url: &str, what: &str, failure: &Failure) {
        let until = self.now_ms() + Link::REST.as_millis() as u64;
        self.resting_until_ms.store(until.max(1), Ordering::Relaxed);
        if !self.down.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                url,
                what,
                why = %failure,
                "Redis failed: the AI cache answers from each replica's own tier and quotas \
                 are counted per replica until it answers again"
            );
        }
    }
}
