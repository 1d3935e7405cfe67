//! Command line and environment configuration.

use clap::{Parser, Subcommand, ValueEnum};

use std::time::Duration;

use crate::api::middleware::cors::CorsOrigins;
use crate::cache::CacheConfig;
use crate::limits::Limits;

mod redis;
pub use redis::{RedisArgs, RedisConfigError, SharedRedis};

// `--help` is the short help, one line an option under its heading: the
// whole of what each option does is docs/OPTIONS.md (checked against this
// command by a test).
#[derive(Debug, Parser)]
#[command(
    name = "tank-rules",
    version,
    about = "A stateless HTTP rules engine for three tank board games: it validates, lists, applies \
             and scores moves, plays the AI's move, reviews played games and draws the board.",
    after_help = "Every option is also an environment variable (shown). What each does, its units and \
                  its default: docs/OPTIONS.md. Deploying (a proxy in front, quotas, keys, Redis): \
                  deploy/README.md.",
    long_about = None,
    disable_help_flag = true
)]
pub struct Cli {
    /// Print help (one line an option; docs/OPTIONS.md says the rest).
    #[arg(short = 'h', long = "help", action = clap::ArgAction::HelpShort, global = true)]
    help: Option<bool>,
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP service (the default).
    Serve,
    /// Print the OpenAPI document (as committed in openapi/openapi.json).
    Openapi,
    /// Count Tank Battle perft (bulk-counted, one thread) and print the
    /// leaf rate.
    Perft(PerftArgs),
    /// Print a conformance corpus (as committed under conformance/: a
    /// game's, conformance/<game>/corpus.jsonl, or Tank Battle's under an
    /// end policy, tank-battle/end-policy).
    Conformance {
        /// The corpus: a game's path name (`tank-battle`), or
        /// `tank-battle/end-policy`.
        game: String,
    },
}

/// Options of the `perft` command.
#[derive(Debug, Parser)]
pub struct PerftArgs {
    /// Depth in plies.
    #[arg(long, default_value_t = 5)]
    pub depth: u32,
    /// Position in TBN (default: the layout's start position).
    #[arg(long)]
    pub position: Option<String>,
    /// `standard` or layout notation.
    #[arg(long, default_value = "standard")]
    pub layout: String,
    /// Also print the count below each legal move.
    #[arg(long)]
    pub divide: bool,
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Pretty,
    /// One JSON object a line.
    Json,
}

/// Options of the service.
#[derive(Debug, Parser)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "TANK_RULES_ADDR", default_value = "127.0.0.1:8080")]
    #[arg(help_heading = "Serving")]
    pub addr: String,
    /// Log format; the level is set by RUST_LOG (default `info`).
    #[arg(long, env = "TANK_RULES_LOG_FORMAT", value_enum, default_value_t = LogFormat::Pretty)]
    #[arg(help_heading = "Logs")]
    pub log_format: LogFormat,
    /// Worker threads (default: one per core).
    #[arg(long, env = "TANK_RULES_WORKERS")]
    #[arg(help_heading = "Serving")]
    pub workers: Option<usize>,
    /// Largest accepted request body, in bytes.
    #[arg(long, env = "TANK_RULES_BODY_LIMIT", default_value_t = Limits::DEFAULT_BODY_BYTES)]
    #[arg(help_heading = "Limits of a request")]
    pub body_limit: usize,
    /// Seconds a client has to send a request's whole body; then it gets
    /// 408 and its connection is closed.
    #[arg(long, env = "TANK_RULES_BODY_TIMEOUT_SECS", default_value_t = Limits::DEFAULT_BODY_TIMEOUT_MS as f64 / 1000.0)]
    #[arg(help_heading = "Limits of a request")]
    pub body_timeout_secs: f64,
    /// Largest answer written, in bytes (larger: 400 LIMIT_EXCEEDED, before
    /// the work where its size can be foreseen).
    #[arg(long, env = "TANK_RULES_ANSWER_MAX_BYTES", default_value_t = Limits::DEFAULT_ANSWER_MAX_BYTES)]
    #[arg(help_heading = "Limits of a request")]
    pub answer_max_bytes: usize,
    /// Most work one replay may simulate: the state's cells (squares, track
    /// squares, vehicles, tokens) times its moves or rounds.
    #[arg(long, env = "TANK_RULES_REPLAY_MAX_WORK", default_value_t = Limits::DEFAULT_REPLAY_MAX_WORK)]
    #[arg(help_heading = "Limits of a request")]
    pub replay_max_work: u64,
    /// Most connections open at once (all workers; default 4096); further
    /// clients wait in the listen backlog. Kept below the open-files limit
    /// (raised to its hard limit at start) and within
    /// --memory-budget-mib: the default is lowered to fit, a value given
    /// that does not fit refuses to start.
    #[arg(long, env = "TANK_RULES_MAX_CONNECTIONS")]
    #[arg(help_heading = "Serving")]
    pub max_connections: Option<usize>,
    /// Memory the process may hold at its worst, MiB: the memory held idle,
    /// the AI cache, the search slots' tables, the bytes in flight (bodies
    /// and answers: a third of what is left) and --max-connections
    /// connections with a head at actix-http's cap (128 KiB) must fit. The default is a 256
    /// MiB pod's less a quarter for what it does not count (the binary's
    /// pages, the allocator's slack).
    #[arg(long, env = "TANK_RULES_MEMORY_BUDGET_MIB", default_value_t = ServeArgs::DEFAULT_MEMORY_BUDGET_MIB)]
    #[arg(help_heading = "Serving")]
    pub memory_budget_mib: u64,
    /// Deepest perft a request may ask for.
    #[arg(long, env = "TANK_RULES_PERFT_MAX_DEPTH", default_value_t = Limits::DEFAULT_PERFT_MAX_DEPTH)]
    #[arg(help_heading = "Limits of a request")]
    pub perft_max_depth: u32,
    /// Most positions one perft request may generate moves for.
    #[arg(long, env = "TANK_RULES_PERFT_MAX_NODES", default_value_t = Limits::DEFAULT_PERFT_MAX_NODES)]
    #[arg(help_heading = "Limits of a request")]
    pub perft_max_nodes: u64,
    /// AI thinking time when a request sets no limit, milliseconds.
    #[arg(long, env = "TANK_RULES_AI_DEFAULT_TIME_MS", default_value_t = Limits::DEFAULT_AI_TIME_MS)]
    #[arg(help_heading = "AI")]
    pub ai_default_time_ms: u64,
    /// Longest AI thinking time any request gets, milliseconds.
    #[arg(long, env = "TANK_RULES_AI_MAX_TIME_MS", default_value_t = Limits::DEFAULT_AI_MAX_TIME_MS)]
    #[arg(help_heading = "AI")]
    pub ai_max_time_ms: u64,
    /// Deepest AI search any request gets, plies.
    #[arg(long, env = "TANK_RULES_AI_MAX_DEPTH", default_value_t = Limits::DEFAULT_AI_MAX_DEPTH)]
    #[arg(help_heading = "AI")]
    pub ai_max_depth: u32,
    /// Most nodes any AI search visits.
    #[arg(long, env = "TANK_RULES_AI_MAX_NODES", default_value_t = Limits::DEFAULT_AI_MAX_NODES)]
    #[arg(help_heading = "AI")]
    pub ai_max_nodes: u64,
    /// Live AI searches (`ai-move`) running at once, the live pool
    /// (default: one per core); more wait --search-wait-ms, then are
    /// answered 503 with Retry-After.
    #[arg(long, env = "TANK_RULES_MAX_CONCURRENT_SEARCHES")]
    #[arg(help_heading = "AI")]
    pub max_concurrent_searches: Option<usize>,
    /// Reviews (`annotate`) and perft counts running at once, the long
    /// pool, apart from the live one (default: one for every two cores, at
    /// least one); more wait --search-wait-ms, then are answered 503.
    #[arg(long, env = "TANK_RULES_MAX_CONCURRENT_REVIEWS")]
    #[arg(help_heading = "Reviews")]
    pub max_concurrent_reviews: Option<usize>,
    /// Milliseconds a request waits for a free slot of its pool before 503.
    #[arg(long, env = "TANK_RULES_SEARCH_WAIT_MS", default_value_t = Limits::DEFAULT_SEARCH_WAIT_MS)]
    #[arg(help_heading = "AI")]
    pub search_wait_ms: u64,
    /// Most moves (Tank Battle) or rounds (The Tank War, Tank Wars) in one
    /// replay.
    #[arg(long, env = "TANK_RULES_REPLAY_MAX_MOVES", default_value_t = Limits::DEFAULT_REPLAY_MAX_MOVES)]
    #[arg(help_heading = "Limits of a request")]
    pub replay_max_moves: usize,
    /// Most moves (Tank Battle) or rounds one `annotate` judges.
    #[arg(long, env = "TANK_RULES_ANNOTATE_MAX_PLIES", default_value_t = Limits::DEFAULT_ANNOTATE_MAX_PLIES)]
    #[arg(help_heading = "Reviews")]
    pub annotate_max_plies: usize,
    /// Longest time one `annotate` may take, milliseconds.
    #[arg(long, env = "TANK_RULES_ANNOTATE_MAX_TIME_MS", default_value_t = Limits::DEFAULT_ANNOTATE_MAX_TIME_MS)]
    #[arg(help_heading = "Reviews")]
    pub annotate_max_time_ms: u64,
    /// Ends every Tank Battle game once this many moves are played, the
    /// higher score winning, for requests that name no `rules` (default:
    /// the rules as written, no limit).
    #[arg(long, env = "TANK_RULES_TANK_BATTLE_MAX_PLIES",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    #[arg(help_heading = "Tank Battle's end policy")]
    pub tank_battle_max_plies: Option<u64>,
    /// Ends a Tank Battle game whose moves a request carries when one
    /// position has stood this many times (2-100), for requests that name
    /// no `rules` (default: no repetition rule).
    #[arg(long, env = "TANK_RULES_TANK_BATTLE_REPETITION",
          value_parser = clap::value_parser!(u32).range(2..=100))]
    #[arg(help_heading = "Tank Battle's end policy")]
    pub tank_battle_repetition: Option<u32>,
    /// Most tanks in a Tank War state.
    #[arg(long, env = "TANK_RULES_TANK_WAR_MAX_TANKS", default_value_t = Limits::DEFAULT_TANK_WAR_MAX_TANKS)]
    #[arg(help_heading = "Limits of a request")]
    pub tank_war_max_tanks: usize,
    /// Longest Tank War track, in squares.
    #[arg(long, env = "TANK_RULES_TANK_WAR_MAX_TRACK", default_value_t = Limits::DEFAULT_TANK_WAR_MAX_TRACK)]
    #[arg(help_heading = "Limits of a request")]
    pub tank_war_max_track: usize,
    /// Most requests in one batch.
    #[arg(long, env = "TANK_RULES_BATCH_MAX_REQUESTS", default_value_t = Limits::DEFAULT_BATCH_MAX_REQUESTS)]
    #[arg(help_heading = "Limits of a request")]
    pub batch_max_requests: usize,
    /// Most searches (`ai-move`, `perft` and `annotate` requests) in one
    /// batch.
    #[arg(long, env = "TANK_RULES_BATCH_MAX_SEARCHES", default_value_t = Limits::DEFAULT_BATCH_MAX_SEARCHES)]
    #[arg(help_heading = "Limits of a request")]
    pub batch_max_searches: usize,
    /// Seconds a client has to send a connection's first request head;
    /// then 408 and the connection closed. (A deadline for every later
    /// head is the proxy's: deploy/README.md; a body's is
    /// --body-timeout-secs.)
    #[arg(long, env = "TANK_RULES_REQUEST_TIMEOUT_SECS", default_value_t = 5)]
    #[arg(help_heading = "Serving")]
    pub request_timeout_secs: u64,
    /// Seconds in-flight requests get to finish after SIGTERM (SIGINT and
    /// SIGQUIT stop at once, dropping requests in flight).
    #[arg(long, env = "TANK_RULES_SHUTDOWN_TIMEOUT_SECS", default_value_t = 30)]
    #[arg(help_heading = "Serving")]
    pub shutdown_timeout_secs: u64,
    /// Size of the AI answer cache, MiB (answers and keys, as stored).
    #[arg(long, env = "TANK_RULES_CACHE_MIB", default_value_t = CacheConfig::DEFAULT_MIB)]
    #[arg(help_heading = "AI")]
    pub cache_mib: u64,
    /// Browser origins allowed to call the service (CORS): `*` for any, or
    /// a comma-separated list such as `https://a.example,https://b.example`.
    #[arg(long, env = "TANK_RULES_CORS_ORIGINS", default_value = "*", value_parser = <CorsOrigins as std::str::FromStr>::from_str)]
    #[arg(help_heading = "Serving")]
    pub cors_origins: CorsOrigins,
    /// Requests a minute each client may make (0: no limit); over it, 429.
    /// A client is its API key when keys are configured, else its address.
    #[arg(long, env = "TANK_RULES_RATE_LIMIT_PER_MINUTE", default_value_t = 0)]
    #[arg(help_heading = "Quotas and keys")]
    pub rate_limit_per_minute: u32,
    /// Search units a minute each client may spend (0: no limit); over it,
    /// 429. `ai-move` and `perft` cost one, a review (`annotate`)
    /// --annotate-max-time-ms ÷ --ai-max-time-ms rounded up, a batch the
    /// sum of its items.
    #[arg(
        long,
        env = "TANK_RULES_SEARCH_RATE_LIMIT_PER_MINUTE",
        default_value_t = 0
    )]
    #[arg(help_heading = "Quotas and keys")]
    pub search_rate_limit_per_minute: u32,
    /// JSON file of API keys: `{"keys":[{"key" or "key_blake3","name",
    /// "requests_per_minute"?,"searches_per_minute"?}]}` (`key_blake3`: the
    /// key's BLAKE3 digest, 64 hex digits). When given, every `/v1` request
    /// needs a known key (`X-Api-Key` or `Authorization: Bearer`), else 401.
    #[arg(long, env = "TANK_RULES_API_KEYS_FILE")]
    #[arg(help_heading = "Quotas and keys")]
    pub api_keys_file: Option<std::path::PathBuf>,
    /// Wrong API keys a minute each client address may present (0: no
    /// limit); beyond, its key attempts are answered 429 for a minute,
    /// right keys included.
    #[arg(
        long,
        env = "TANK_RULES_FAILED_KEY_ATTEMPTS_PER_MINUTE",
        default_value_t = crate::fair_use::FairUseConfig::DEFAULT_FAILED_KEY_ATTEMPTS_PER_MINUTE
    )]
    #[arg(help_heading = "Quotas and keys")]
    pub failed_key_attempts_per_minute: u32,
    /// Proxies (addresses or CIDR blocks, comma-separated) whose
    /// `X-Forwarded-For` names the client.
    #[arg(long, env = "TANK_RULES_TRUSTED_PROXIES", value_delimiter = ',', value_parser = parse_net)]
    #[arg(help_heading = "Quotas and keys")]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Leading bits of an IPv6 client address that name the client: its
    /// quotas are those of its /N network (1..=128).
    #[arg(
        long,
        env = "TANK_RULES_IPV6_PREFIX_LEN",
        default_value_t = crate::fair_use::FairUseConfig::DEFAULT_IPV6_PREFIX_LEN,
        value_parser = clap::value_parser!(u8).range(1..=128)
    )]
    #[arg(help_heading = "Quotas and keys")]
    pub ipv6_prefix_len: u8,
    /// Write an access log: one JSON line per request on standard output
    /// (method, route pattern, status, answer bytes, µs, client, request
    /// id), by a writer thread that drops and counts lines rather than
    /// hold a request up when it falls behind. Off by default: the
    /// balancer usually logs.
    #[arg(long, env = "TANK_RULES_ACCESS_LOG")]
    #[arg(help_heading = "Logs")]
    pub access_log: bool,
    /// Do not serve the board (`/board/`: a page that plays, analyses and
    /// reviews through this API in a browser).
    #[arg(long, env = "TANK_RULES_NO_BOARD")]
    #[arg(help_heading = "Serving")]
    pub no_board: bool,
    /// Address of the operator endpoints (`/metrics`, and `/healthz`,
    /// `/readyz`); when given, `/metrics` leaves the public address.
    #[arg(long, env = "TANK_RULES_ADMIN_ADDR")]
    #[arg(help_heading = "Serving")]
    pub admin_addr: Option<String>,
    /// The Redis tier: where it is and what seals the answers there.
    #[command(flatten)]
    pub redis: RedisArgs,
    /// How long a cached AI answer lives, seconds.
    #[arg(long, env = "TANK_RULES_CACHE_TTL_SECS", default_value_t = 3600)]
    #[arg(help_heading = "AI")]
    pub cache_ttl_secs: u64,
}

/// An address or a CIDR block.
fn parse_net(text: &str) -> Result<ipnet::IpNet, String> {
    let text = text.trim();
    text.parse::<ipnet::IpNet>()
        .or_else(|_| text.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|e| format!("{text:?} is not an address or CIDR block: {e}"))
}

impl ServeArgs {
    /// Quotas per client, API keys (loaded as digests), trusted proxies
    /// and how clients are counted.
    pub fn fair_use(&self) -> Result<crate::fair_use::FairUseConfig, String> {
        let keys = match &self.api_keys_file {
            Some(path) => Some(
                crate::fair_use::KeysFile::load(path)
                    .map_err(|e| format!("API keys file {}: {e}", path.display()))?,
            ),
            None => None,
        };
        Ok(crate::fair_use::FairUseConfig {
            defaults: crate::fair_use::Quotas {
                requests_per_minute: self.rate_limit_per_minute,
                searches_per_minute: self.search_rate_limit_per_minute,
            },
            keys,
            trusted_proxies: self.trusted_proxies.clone(),
            ipv6_prefix_len: self.ipv6_prefix_len,
            failed_key_attempts_per_minute: self.failed_key_attempts_per_minute,
        })
    }

    pub const DEFAULT_MAX_CONNECTIONS: usize = 4_096;
    /// The pod's memory limit (deploy/k8s/deployment.yaml).
    pub const DEFAULT_MEMORY_BUDGET_MIB: u64 = 192;

    /// The connections wanted, and whether they were asked for (not the
    /// default).
    pub fn max_connections(&self) -> (usize, bool) {
        match self.max_connections {
            Some(n) => (n, true),
            None => (ServeArgs::DEFAULT_MAX_CONNECTIONS, false),
        }
    }

    pub fn limits(&self) -> Limits {
        Limits {
            body_bytes: self.body_limit,
            body_timeout_ms: (self.body_timeout_secs.max(0.001) * 1000.0) as u64,
            answer_max_bytes: self.answer_max_bytes,
            replay_max_work: self.replay_max_work,
            perft_max_depth: self.perft_max_depth,
            perft_max_nodes: self.perft_max_nodes,
            ai_default_time_ms: self.ai_default_time_ms,
            ai_max_time_ms: self.ai_max_time_ms,
            ai_max_depth: self.ai_max_depth,
            ai_max_nodes: self.ai_max_nodes,
            max_concurrent_searches: self
                .max_concurrent_searches
                .unwrap_or_else(Limits::default_concurrent_searches),
            max_concurrent_reviews: self
                .max_concurrent_reviews
                .unwrap_or_else(Limits::default_concurrent_reviews),
            search_wait_ms: self.search_wait_ms,
            replay_max_moves: self.replay_max_moves,
            annotate_max_plies: self.annotate_max_plies,
            annotate_max_time_ms: self.annotate_max_time_ms,
            tank_battle_rules: crate::games::tank_battle::EndPolicy {
                max_plies: self.tank_battle_max_plies,
                repetition: self.tank_battle_repetition,
            },
            tank_war_max_tanks: self.tank_war_max_tanks,
            tank_war_max_track: self.tank_war_max_track,
            batch_max_requests: self.batch_max_requests,
            batch_max_searches: self.batch_max_searches,
        }
    }

    pub fn cache(&self) -> CacheConfig {
        CacheConfig {
            max_bytes: self.cache_mib.saturating_mul(1 << 20),
            ttl: Duration::from_secs(self.cache_ttl_secs),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "0123456789abcdef-s3cret";

    fn args(flags: &[&str]) -> ServeArgs {
        let parsed =
            ServeArgs::try_parse_from(std::iter::once("tank-rules").chain(flags.iter().copied()));
        let Ok(args) = parsed else {
            panic!("{parsed:?}");
        };
        args
    }

    /// The options as a whole may be shown (a debug line, a panic): the
    /// Redis password and secrets are not in them.
    #[test]
    fn the_options_shown_hold_no_redis_password_or_secret() {
        let url = "redis://user:s3cret@cache.internal:6380/2";
        let args = args(&[
            "--redis-url",
            url,
            "--redis-secret",
            SECRET,
            "--redis-previous-secret",
            "previous-0123456789abcdef",
        ]);
        let shown = format!("{args:?}");
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(!shown.contains("previous-"), "{shown}");
        assert!(shown.contains("cache.internal:6380/2"), "{shown}");
        let redis = args.redis.shared().unwrap().unwrap();
        let shown = format!("{redis:?}");
        assert!(
            !shown.contains("s3cret") && !shown.contains("previous-"),
            "{shown}"
        );
        assert!(redis.seal.has_previous());
        // The client still gets the whole URL.
        assert_eq!(redis.link.url.secret(), url);
    }

    /// What the error of `flags` says, checked to hold no secret.
    fn refused(flags: &[&str]) -> String {
        let error = args(flags).redis.shared().err().map(|e| e.to_string());
        let Some(error) = error else {
            panic!("{flags:?} were taken");
        };
        assert!(
            !error.contains("s3cret") && !error.contains("short-one"),
            "{error}"
        );
        error
    }

    #[test]
    fn a_redis_url_without_a_secret_is_refused_and_says_which_flag_to_add() {
        let error = refused(&["--redis-url", "redis://127.0.0.1:6379/0"]);
        assert!(error.contains("--redis-secret-file"), "{error}");
        assert!(error.contains("--redis-secret,"), "{error}");
        // A previous secret alone is no secret.
        refused(&[
            "--redis-url",
            "redis://127.0.0.1:6379/0",
            "--redis-previous-secret",
            SECRET,
        ]);
        // Without Redis no secret is needed, and one given is unused.
        assert!(args(&[]).redis.shared().is_ok_and(|redis| redis.is_none()));
        assert!(!args(&[]).redis.secret_unused());
        assert!(args(&["--redis-secret", SECRET]).redis.secret_unused());
    }

    #[test]
    fn a_short_secret_is_refused_without_being_shown() {
        let error = refused(&[
            "--redis-url",
            "redis://127.0.0.1:6379/0",
            "--redis-secret",
            "short-one",
        ]);
        assert!(
            error.contains("--redis-secret ") && error.contains("9 bytes"),
            "{error}"
        );
        let error = refused(&[
            "--redis-url",
            "redis://127.0.0.1:6379/0",
            "--redis-secret",
            SECRET,
            "--redis-previous-secret",
            "short-one",
        ]);
        assert!(error.contains("--redis-previous-secret "), "{error}");
        // An empty previous secret is none.
        let empty = args(&[
            "--redis-url",
            "redis://127.0.0.1:6379/0",
            "--redis-secret",
            SECRET,
            "--redis-previous-secret",
            "",
        ]);
        assert!(empty
            .redis
            .shared()
            .is_ok_and(|redis| redis.is_some_and(|r| !r.seal.has_previous())));
        // Sixteen bytes are enough.
        let sixteen = args(&[
            "--redis-url",
            "redis://127.0.0.1:6379/0",
            "--redis-secret",
            "0123456789abcdef",
        ]);
        assert!(sixteen.redis.shared().is_ok_and(|redis| redis.is_some()));
    }

    #[test]
    fn a_secret_and_its_file_are_one_or_the_other() {
        let dir = std::env::temp_dir().join(format!("config-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("secret");
        std::fs::write(&file, format!("{SECRET}\n")).unwrap();
        let file = file.to_str().unwrap();
        let url = "redis://127.0.0.1:6379/0";
        let error = refused(&[
            "--redis-url",
            url,
            "--redis-secret",
            SECRET,
            "--redis-secret-file",
            file,
        ]);
        assert!(
            error.contains("--redis-secret and --redis-secret-file"),
            "{error}"
        );
        // The file's secret is the flag's: what one seals, the other opens.
        let from_file = args(&["--redis-url", url, "--redis-secret-file", file]);
        let from_flag = args(&["--redis-url", url, "--redis-secret", SECRET]);
        let sealed = from_file
            .redis
            .shared()
            .unwrap()
            .unwrap()
            .seal
            .seal("k", b"{}");
        let opened = from_flag
            .redis
            .shared()
            .unwrap()
            .unwrap()
            .seal
            .open("k", &sealed)
            .map(<[u8]>::to_vec);
        assert_eq!(opened, Ok(b"{}".to_vec()));
        let previous = args(&[
            "--redis-url",
            url,
            "--redis-secret",
            "another-0123456789abcdef",
            "--redis-previous-secret-file",
            file,
        ]);
        let opened = previous
            .redis
            .shared()
            .unwrap()
            .unwrap()
            .seal
            .open("k", &sealed)
            .map(<[u8]>::to_vec);
        assert_eq!(opened, Ok(b"{}".to_vec()));
        // A file that is not there is named, and so is its flag.
        let missing = dir.join("missing");
        let error = refused(&[
            "--redis-url",
            url,
            "--redis-secret-file",
            missing.to_str().unwrap(),
        ]);
        assert!(error.contains("missing (--redis-secret-file)"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
