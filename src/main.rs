use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use actix_web::HttpServer;
use clap::Parser;
use tank_rules::api::AppState;
use tank_rules::config::{Cli, Command, LogFormat, ServeArgs};
use tracing_subscriber::fmt::format::FmtSpan;
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Openapi) => {
            std::io::stdout().write_all(tank_rules::api::openapi_json().as_bytes())
        }
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
    let state = AppState::new(limits, cache);
    actix_web::rt::System::new().block_on(async move {
        let mut server = HttpServer::new(move || tank_rules::api::app(state.clone()));
        if let Some(workers) = args.workers {
            server = server.workers(workers.max(1));
        }
        server.bind(&args.addr)?.run().await
    })
}
