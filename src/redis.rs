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
//!
//! A Redis URL may hold a password: it is shown only as [`redacted`]
//! writes it, without user or password, in every log line and error.
//! Every key the service uses is laid out by [`Link::key`], under the
//! link's prefix (`--redis-prefix`).

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

/// A Redis URL as configured: `redis://[user][:password@]host:port/db`
/// (or `rediss://`, `redis+unix://`, `valkey://` ...). It may hold a
/// password, so it shows itself only [`redacted`] (its `Debug`, and
/// [`RedisUrl::shown`]); [`RedisUrl::secret`] is the whole text, for the
/// client alone.
#[derive(Clone, PartialEq, Eq)]
pub struct RedisUrl(String);

impl RedisUrl {
    /// The URL without its credentials, fit for a log line or an error.
    pub fn shown(&self) -> String {
        redacted(&self.0)
    }

    /// The whole URL, credentials included: for connecting, never for
    /// showing.
    pub fn secret(&self) -> &str {
        &self.0
    }
}

impl From<&str> for RedisUrl {
    fn from(url: &str) -> RedisUrl {
        RedisUrl(url.to_owned())
    }
}

/// As a command-line or environment value.
impl std::str::FromStr for RedisUrl {
    type Err = std::convert::Infallible;

    fn from_str(url: &str) -> Result<RedisUrl, Self::Err> {
        Ok(RedisUrl::from(url))
    }
}

impl std::fmt::Debug for RedisUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.shown())
    }
}

/// Where Redis is, how long a call may take and what every key starts
/// with. Its `Debug` shows the URL [`redacted`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkConfig {
    pub url: RedisUrl,
    /// Longest a call may take before it is given up.
    pub timeout: Duration,
    /// What every key starts with ([`LinkConfig::DEFAULT_PREFIX`] unless
    /// configured), so that services sharing one Redis keep apart.
    pub prefix: String,
}

impl LinkConfig {
    /// The prefix of every key unless configured.
    pub const DEFAULT_PREFIX: &'static str = "tank-rules:";

    /// The link to `url`, its calls given `timeout`, its keys under the
    /// default prefix.
    pub fn new(url: impl Into<RedisUrl>, timeout: Duration) -> LinkConfig {
        LinkConfig {
            url: url.into(),
            timeout,
            prefix: LinkConfig::DEFAULT_PREFIX.to_owned(),
        }
    }

    /// The same link, its keys under `prefix`.
    pub fn with_prefix(self, prefix: impl Into<String>) -> LinkConfig {
        LinkConfig {
            prefix: prefix.into(),
            ..self
        }
    }
}

/// What [`redacted`] shows for a text it cannot take apart: nothing of it.
const UNREADABLE: &str = "(a Redis URL that does not parse)";

/// Query parameters of a Redis URL kept by [`redacted`]: the others
/// (`user`, `pass` of the `redis+unix://` form, anything unknown) may be
/// credentials.
const SHOWN_PARAMETERS: [&str; 2] = ["db", "protocol"];

/// `url` without its credentials, fit for a log line or an error: the user
/// and password of `redis://`, `rediss://`, `valkey://` and `valkeys://`
/// URLs (everything between `://` and the last `@`) and every query
/// parameter but `db` and `protocol` (the `user` and `pass` of
/// `redis+unix://`, `valkey+unix://` and `unix://`) are left out. A text
/// with no `scheme://` is not shown at all.
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return UNREADABLE.to_owned();
    };
    let plain_scheme = !scheme.is_empty()
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    if !plain_scheme {
        return UNREADABLE.to_owned();
    }
    // A password may hold `@`, `/`, `?` or `#` unencoded: everything up to
    // the last `@` goes, whatever it is.
    let rest = rest.rsplit_once('@').map_or(rest, |(_, after)| after);
    let (rest, fragment) = match rest.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (rest, None),
    };
    let mut shown = String::with_capacity(url.len());
    shown.push_str(scheme);
    shown.push_str("://");
    match rest.split_once('?') {
        None => shown.push_str(rest),
        Some((place, query)) => {
            shown.push_str(place);
            let kept: Vec<&str> = query
                .split('&')
                .filter(|pair| {
                    let name = pair.split_once('=').map_or(*pair, |(name, _)| name);
                    SHOWN_PARAMETERS.contains(&name)
                })
                .collect();
            if !kept.is_empty() {
                shown.push('?');
                shown.push_str(&kept.join("&"));
            }
        }
    }
    if let Some(fragment) = fragment {
        shown.push('#');
        shown.push_str(fragment);
    }
    shown
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
    /// The URL as log lines show it ([`redacted`]).
    shown: Arc<str>,
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
    /// a thread that cannot start (the error shows the URL [`redacted`]).
    pub fn start(config: LinkConfig) -> Result<Link, String> {
        let shown: Arc<str> = Arc::from(config.url.shown());
        let client = redis::Client::open(config.url.secret())
            .map_err(|e| format!("Redis URL {shown}: {e}"))?;
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
            shown,
            health: Arc::new(Health {
                started: Instant::now(),
                resting_until_ms: AtomicU64::new(0),
                down: AtomicBool::new(false),
            }),
        })
    }

    /// The link's Redis URL without its credentials ([`redacted`]).
    pub fn shown_url(&self) -> &str {
        &self.shown
    }

    /// The Redis key of a `kind` of entry (`ai`, `quota`) named by
    /// `parts`: `<prefix><kind>:<part>:<part>...`. Every key the service
    /// uses is laid out here.
    pub fn key(&self, kind: &str, parts: &[&str]) -> String {
        let length = self.config.prefix.len()
            + kind.len()
            + parts.iter().map(|part| part.len() + 1).sum::<usize>();
        let mut key = String::with_capacity(length);
        key.push_str(&self.config.prefix);
        key.push_str(kind);
        for part in parts {
            key.push(':');
            key.push_str(part);
        }
        key
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
            Ok(_) => self.health.answered(&self.shown),
            Err(failure) => self.health.failed(&self.shown, what, failure),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacted_urls_keep_the_place_and_lose_the_credentials() {
        for (url, shown) in [
            ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
            ("redis://:s3cret@10.0.0.5:6379/2", "redis://10.0.0.5:6379/2"),
            ("redis://user:s3cret@cache:6379", "redis://cache:6379"),
            ("redis://user@cache", "redis://cache"),
            (
                "rediss://default:s3cret@cache:6380/#insecure",
                "rediss://cache:6380/#insecure",
            ),
            ("valkey://:s3cret@valkey:6379/1", "valkey://valkey:6379/1"),
            ("valkeys://u:s3cret@valkey", "valkeys://valkey"),
            // Unencoded `@`, `/`, `?` and `#` in a password.
            ("redis://:p@ss/w?rd#x@cache:6379/0", "redis://cache:6379/0"),
            (
                "redis+unix:///run/redis.sock?db=3&user=me&pass=s3cret",
                "redis+unix:///run/redis.sock?db=3",
            ),
            (
                "valkey+unix:///run/valkey.sock?pass=s3cret",
                "valkey+unix:///run/valkey.sock",
            ),
            (
                "unix:///run/redis.sock?p%61ss=s3cret&protocol=3",
                "unix:///run/redis.sock?protocol=3",
            ),
        ] {
            assert_eq!(redacted(url), shown, "{url}");
        }
    }

    #[test]
    fn a_url_that_does_not_parse_is_not_echoed() {
        for url in [
            ":s3cret@cache:6379",
            "cache:6379",
            "s3cret",
            "",
            "redis:/:s3cret@cache",
            "red is://:s3cret@cache",
            "://:s3cret@cache",
        ] {
            let shown = redacted(url);
            assert!(!shown.contains("s3cret"), "{url:?} -> {shown:?}");
            assert_eq!(shown, UNREADABLE, "{url:?}");
        }
    }

    #[test]
    fn the_config_debugs_redacted() {
        let config = LinkConfig::new("redis://:s3cret@cache:6379/0", Duration::from_millis(5));
        let debug = format!("{config:?}");
        assert!(!debug.contains("s3cret"), "{debug}");
        assert!(debug.contains("cache:6379"), "{debug}");
    }

    /// A link to a closed port: it connects lazily, so it starts.
    fn link(prefix: &str) -> Link {
        Link::start(
            LinkConfig::new("redis://:s3cret@127.0.0.1:9/0", Duration::from_millis(5))
                .with_prefix(prefix),
        )
        .unwrap()
    }

    #[test]
    fn keys_are_laid_out_under_the_prefix() {
        let default = link(LinkConfig::DEFAULT_PREFIX);
        assert_eq!(default.key("ai", &["00ff"]), "tank-rules:ai:00ff");
        assert_eq!(
            default.key("quota", &["requests", "a:203.0.113.7"]),
            "tank-rules:quota:requests:a:203.0.113.7"
        );
        assert_eq!(link("staging/").key("ai", &["00ff"]), "staging/ai:00ff");
        assert_eq!(link("").key("ai", &[]), "ai");
        assert_eq!(default.shown_url(), "redis://127.0.0.1:9/0");
    }

    #[test]
    fn a_url_refused_is_not_echoed_in_the_error() {
        let refused = Link::start(LinkConfig::new(
            "http://:s3cret@cache:6379",
            Duration::from_millis(5),
        ));
        let Err(error) = refused else {
            panic!("an http:// URL was taken");
        };
        assert!(!error.contains("s3cret"), "{error}");
        assert!(error.contains("http://cache:6379"), "{error}");
    }
}
