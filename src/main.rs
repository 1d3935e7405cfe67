use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use actix_web::HttpServer;
use clap::Parser;
use tank_rules::api::AppState;
use tank_rules::config::{Cli, Command, LogFormat, PerftArgs, ServeArgs};
use tracing_subscriber::fmt::format::FmtSpan;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Openapi) => {
            std::io::stdout().write_all(tank_rules::api::openapi::json().as_bytes())
        }
        Some(Command::Perft(args)) => perft(&args),
        Some(Command::Conformance { game }) => match tank_rules::conformance::corpus(&game) {
            Some(corpus) => std::io::stdout().write_all(corpus.as_bytes()),
            None => Err(std::io::Error::other(format!(
                "no conformance corpus {game:?} (corpora: {})",
                tank_rules::conformance::CORPORA
                    .map(|(name, _)| name)
                    .join(", ")
            ))),
        },
        Some(Command::Serve) | None => serve(cli.serve),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("tank-rules: {err}");
            ExitCode::FAILURE
        }
    }
}

/// `tank-rules perft`: counts and times perft on one thread.
fn perft(args: &PerftArgs) -> std::io::Result<()> {
    use tank_rules::games::tank_battle::{self as tb, perft as tb_perft, Layout, Position};
    let invalid = |e: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, e);
    let layout = Layout::parse(&args.layout).map_err(|e| invalid(e.to_string()))?;
    let position = match &args.position {
        Some(tbn) => tb::parse_position(tbn, &layout).map_err(|e| invalid(e.to_string()))?,
        None => Position::initial(&layout),
    };
    let started = std::time::Instant::now();
    let nodes = if args.divide {
        let parts = tb_perft::divide(&position, &layout, args.depth, u64::MAX)
            .map_err(|e| invalid(e.to_string()))?;
        for (mv, n) in &parts {
            println!("{mv}: {n}");
        }
        if args.depth == 0 {
            1
        } else {
            parts.iter().map(|(_, n)| n).sum()
        }
    } else {
        tb_perft::perft(&position, &layout, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "perft({}) = {nodes} in {seconds:.3} s: {:.1} million leaves/s",
        args.depth,
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}

fn init_logging(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Closing a request span logs its duration (time.busy / time.idle).
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_span_events(FmtSpan::CLOSE)
        .with_ansi(std::io::stdout().is_terminal());
    // actix-http's line about each broken connection is counted, and
    // summarised once an interval, not written (tank_rules::logs).
    let quiet = tank_rules::logs::Quiet;
    match format {
        LogFormat::Json => builder.json().finish().with(quiet).init(),
        LogFormat::Pretty => builder.finish().with(quiet).init(),
    }
    if let Err(err) = tank_rules::logs::spawn_summary(tank_rules::logs::SUMMARY_INTERVAL) {
        tracing::warn!(%err, "no log-summary thread; connections refused are only counted in /metrics");
    }
}

/// File descriptors kept free of connections: the listener, logs, the
/// blocking pool's needs, a scrape of `/metrics`.
const SPARE_FILES: u64 = 256;

/// Raises the soft open-files limit to the hard one where it can, and
/// returns how many connections fit under it: `wanted`, or fewer when the
/// limit is lower (so that accepting never fails for want of a file).
fn connection_cap(wanted: usize) -> usize {
    let raised = rlimit::increase_nofile_limit(u64::MAX);
    let files = rlimit::Resource::NOFILE
        .get_soft()
        .or(raised)
        .unwrap_or(1024);
    let fits = usize::try_from(files.saturating_sub(SPARE_FILES)).unwrap_or(usize::MAX);
    if wanted > fits {
        tracing::warn!(
            wanted,
            open_files_limit = files,
            allowed = fits,
            "--max-connections is over the open-files limit; lowered (raise `ulimit -n`)"
        );
    }
    wanted.min(fits).max(1)
}

/// How glibc's allocator keeps memory, set before any thread starts, and
/// freed heap memory given back to the system every few seconds: glibc
/// keeps it after a spike (a large replay, a burst of searches, batches
/// refused at the answer cap) unless asked. Cheap: a few microseconds when
/// there is little to return.
///
/// A block of 128 KiB or more (an answer, a body, a search's table) is its
/// own mapping, given back the moment it is freed: glibc would otherwise
/// raise that threshold to the largest block freed so far (up to 32 MiB),
/// and keep 2 MB answers in its heap, scattered among small blocks that
/// pin their pages. One arena, not eight a core: `malloc_trim` gives back
/// the free top of the main arena only, so what a burst freed at the top
/// of another arena stays resident (in `scripts/hostile.py`, 40 batches
/// refused at the answer cap left 11 MB so with two arenas, 1.5 MB with
/// one). Threads keep their own caches of small blocks, so they seldom
/// wait for the arena's lock. An operator's `GLIBC_TUNABLES` wins.
fn tune_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // An operator's own settings (glibc's tunables) win.
        if std::env::var_os("GLIBC_TUNABLES").is_none() {
            // SAFETY: mallopt only sets glibc's allocator's parameters.
            unsafe {
                libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
                libc::mallopt(libc::M_ARENA_MAX, 1);
            }
        }
        let spawned = std::thread::Builder::new()
            .name("heap-trim".to_owned())
            .spawn(|| loop {
                std::thread::sleep(Duration::from_secs(5));
                // SAFETY: malloc_trim only walks glibc's own arenas under
                // their locks; it takes no pointers from us.
                unsafe {
                    libc::malloc_trim(64 << 10);
                }
            });
        if let Err(err) = spawned {
            tracing::warn!(%err, "no heap-trim thread; memory freed after spikes stays mapped");
        }
    }
}

/// Gives freed heap memory back to the system now (glibc), so that what
/// the process holds can be read.
fn trim_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: as in `tune_heap`.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The connections and the bytes in flight the memory budget holds
/// (`--memory-budget-mib`), once `state` is built: the default number of
/// connections lowered to fit, a figure given that does not fit refused.
fn connection_budget(
    args: &ServeArgs,
    state: &AppState,
    limits: &tank_rules::limits::Limits,
    workers: usize,
) -> std::io::Result<(usize, u64)> {
    use tank_rules::memory;
    // The application once: the document made (the workers' applications
    // share it; the Tank War table is decoded already).
    drop(tank_rules::api::app(state.clone()));
    trim_heap();
    // Every slot of the live and long pools may search with a table at
    // its largest (a review's searches too); large replays hold none.
    let searches = (limits.max_concurrent_searches + limits.max_concurrent_reviews) as u64
        * tank_rules::games::tank_battle::ai::MAX_TABLE_BYTES as u64;
    let spending = memory::Spending {
        budget: args.memory_budget_mib.saturating_mul(1 << 20),
        idle: memory::resident_bytes()
            .unwrap_or(0)
            .saturating_add(workers as u64 * memory::WORKER_BYTES),
        cache: args.cache().max_bytes,
        searches,
        per_connection: memory::per_connection_bytes(),
    };
    let (wanted, explicit) = args.max_connections();
    let fits = memory::connections(&spending, wanted, explicit)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    if fits < wanted {
        // The default is sized to the budget: said, not warned.
        tracing::info!(
            wanted,
            allowed = fits,
            "--max-connections lowered to fit --memory-budget-mib: {spending}"
        );
    } else {
        tracing::info!(max_connections = wanted, "memory budget: {spending}");
    }
    Ok((fits, spending.in_flight()))
}

fn serve(args: ServeArgs) -> std::io::Result<()> {
    // Redis without a secret (or with a short one) refuses to start before
    // anything else is said.
    let redis = args
        .redis
        .shared()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    // The solved Tank War table built into the binary, decoded now (not in
    // the first ai-move); one that does not decode is a refusal to start,
    // never a default game searched without it.
    tank_rules::games::tank_war::solve::Table::built_in()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    init_logging(args.log_format);
    let limits = args.limits();
    let cache = args.cache();
    tracing::info!(addr = %args.addr, ?limits, ?cache, "tank-rules starting");
    tracing::info!(cors = ?args.cors_origins, "CORS origins");
    let board = match args.no_board {
        true => String::new(),
        false => format!("the board at http://{}/board/, ", args.addr),
    };
    tracing::info!(
        "{board}Swagger UI at http://{}/swagger-ui/ (and at /, which redirects there); OpenAPI at /openapi.json",
        args.addr
    );
    tune_heap();
    let state = AppState::new(limits, cache);
    let state = app_state(&args, state, redis)?;
    let workers = args
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);
    let (connections, in_flight) = connection_budget(&args, &state, &limits, workers)?;
    let state = state.with_in_flight(in_flight);
    let max_connections = connection_cap(connections);
    // SIGTERM stops accepting connections and lets in-flight requests
    // finish for up to the shutdown timeout (SIGINT and SIGQUIT stop at
    // once).
    let settings = tank_rules::server::Settings {
        workers,
        max_connections,
        request_timeout: Duration::from_secs(args.request_timeout_secs),
        shutdown_timeout_secs: args.shutdown_timeout_secs,
        body_limit: limits.body_bytes,
    };
    run(&args, state, &settings)
}

/// What every worker shares: `state` (the limits and the cache) with what
/// the flags add: CORS, fair use (its settings logged), Redis when `redis`
/// is given, where `/metrics` is served, the access log.
fn app_state(
    args: &ServeArgs,
    state: AppState,
    redis: Option<tank_rules::config::SharedRedis>,
) -> std::io::Result<AppState> {
    let fair_use = args
        .fair_use()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    tracing::info!(
        requests_per_minute = args.rate_limit_per_minute,
        searches_per_minute = args.search_rate_limit_per_minute,
        api_keys = fair_use.keys.as_ref().map_or(0, |k| k.len()),
        failed_key_attempts_per_minute = args.failed_key_attempts_per_minute,
        trusted_proxies = ?args.trusted_proxies,
        ipv6_prefix_len = args.ipv6_prefix_len,
        "fair use"
    );
    for name in fair_use.keys.iter().flat_map(|k| k.short_keys()) {
        tracing::warn!(
            key = name,
            "API key shorter than {} bytes: easy to guess, give it a longer one",
            tank_rules::fair_use::keys::SHORT_KEY_BYTES
        );
    }
    let mut state = AppState {
        cors: args.cors_origins.clone(),
        metrics_public: args.admin_addr.is_none(),
        board: !args.no_board,
        ..state
    }
    .with_fair_use(tank_rules::fair_use::FairUse::new(fair_use));
    if let Some(redis) = redis {
        tracing::info!(url = %redis.link.url.shown(), prefix = %redis.link.prefix,
            timeout = ?redis.link.timeout, ttl = ?redis.ttl,
            previous_secret = redis.seal.has_previous(),
            "Redis: shared AI cache tier (answers sealed with the Redis secret) and fleet-wide quotas");
        let link = tank_rules::redis::Link::start(redis.link)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
        state = state.with_redis(link, redis.seal, redis.ttl);
    } else if args.redis.secret_unused() {
        tracing::warn!("a Redis secret is given without --redis-url: it is not used");
    }
    if args.access_log {
        let log = tank_rules::access_log::AccessLog::to_stdout(state.metrics.clone())?;
        tracing::info!("access log: one JSON line per request on standard output");
        state.access_log = Some(log);
    }
    Ok(state)
}

/// Serves `state` with `settings` until a signal stops the server, and the
/// operator endpoints on the admin address when there is one.
fn run(
    args: &ServeArgs,
    state: AppState,
    settings: &tank_rules::server::Settings,
) -> std::io::Result<()> {
    let admin_state = state.clone();
    actix_web::rt::System::new().block_on(async move {
        // The operator endpoints on their own address, one worker.
        let admin = match &args.admin_addr {
            Some(addr) => {
                tracing::info!(%addr, "admin address: /metrics, /healthz, /readyz");
                let server = HttpServer::new(move || tank_rules::api::admin_app(&admin_state))
                    .workers(1)
                    .shutdown_timeout(args.shutdown_timeout_secs)
                    .bind(addr)?
                    .run();
                Some(actix_web::rt::spawn(server))
            }
            None => None,
        };
        let served = tank_rules::server::public(&args.addr, state, settings)?.await;
        if let Some(admin) = admin {
            admin.abort();
        }
        served
    })
}
