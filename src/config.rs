//! Command line and environment configuration.

use clap::{Parser, Subcommand, ValueEnum};

use crate::limits::Limits;

/// tank-rules: a stateless HTTP rules engine for tank board games.
#[derive(Debug, Parser)]
#[command(name = "tank-rules", version, about)]
pub struct Cli {
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
    pub addr: String,
    /// Log format; the level is set by RUST_LOG (default `info`).
    #[arg(long, env = "TANK_RULES_LOG_FORMAT", value_enum, default_value_t = LogFormat::Pretty)]
    pub log_format: LogFormat,
    /// Worker threads (default: one per core).
    #[arg(long, env = "TANK_RULES_WORKERS")]
    pub workers: Option<usize>,
    /// Largest accepted request body, in bytes.
    #[arg(long, env = "TANK_RULES_BODY_LIMIT", default_value_t = Limits::DEFAULT_BODY_BYTES)]
    pub body_limit: usize,
    /// Deepest perft a request may ask for.
    #[arg(long, env = "TANK_RULES_PERFT_MAX_DEPTH", default_value_t = Limits::DEFAULT_PERFT_MAX_DEPTH)]
    pub perft_max_depth: u32,
    /// Most positions one perft request may generate moves for.
    #[arg(long, env = "TANK_RULES_PERFT_MAX_NODES", default_value_t = Limits::DEFAULT_PERFT_MAX_NODES)]
    pub perft_max_nodes: u64,
}

impl ServeArgs {
    pub fn limits(&self) -> Limits {
        Limits {
            body_bytes: self.body_limit,
            perft_max_depth: self.perft_max_depth,
            perft_max_nodes: self.perft_max_nodes,
        }
    }
}
