use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use actix_web::HttpServer;
use clap::Parser;
use tank_rules::api::AppState;
use tank_rules::config::{Cli, Command, LogFormat, PerftArgs, ServeArgs};
use tracing_subscriber::fmt::format::FmtSpan;
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Openapi) => {
            std::io::stdout().write_all(tank_rules::api::openapi_json().as_bytes())
        }
        Some(Command::Perft(args)) => perft(&args),
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
    match format {
        LogFormat::Json => builder.json().init(),
        LogFormat::Pretty => builder.init(),
    }
}

fn serve(args: ServeArgs) -> std::io::Result<()> {
    init_logging(args.log_format);
    let limits = args.limits();
    let cache = args.cache();
    tracing::info!(addr = %args.addr, ?limits, ?cache, "tank-rules starting");
    tracing::info!(cors = ?args.cors_origins, "CORS origins");
    let state = AppState::new(limits, cache).with_cors(args.cors_origins.clone());
    actix_web::rt::System::new().block_on(async move {
        // SIGTERM and SIGINT stop accepting connections and let in-flight
        // requests finish for up to the shutdown timeout.
        let mut server = HttpServer::new(move || tank_rules::api::app(state.clone()))
            .client_request_timeout(Duration::from_secs(args.request_timeout_secs))
            .client_disconnect_timeout(Duration::from_secs(1))
            .shutdown_timeout(args.shutdown_timeout_secs);
        if let Some(workers) = args.workers {
            server = server.workers(workers.max(1));
        }
        server.bind(&args.addr)?.run().await
    })
}
