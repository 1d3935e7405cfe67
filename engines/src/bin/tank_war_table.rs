//! Solves the default game of The Tank War exactly and writes the table
//! the server answers its first rounds from (`engines/src/games/tank_war/solve/
//! table.rs` says what it holds). Deterministic: the same engine writes
//! the same bytes. Rebuild it whenever the rules or the solver change
//! (then bump the engine version: the tests refuse a table of another):
//!
//! ```sh
//! cargo run --release --bin tank_war_table
//! ```
//!
//! It takes about 5 GB of memory and some minutes on one core.

use std::time::Instant;

use clap::Parser;
use tank_rules_engines::games::tank_war::default_state;
use tank_rules_engines::games::tank_war::solve::table::{default_game, default_positions, ROUNDS};
use tank_rules_engines::games::tank_war::solve::{Bounds, Solver, Table};

#[derive(Debug, Parser)]
#[command(about = "Solves the default Tank War game and writes its table")]
struct Args {
    /// Where to write the table.
    #[arg(long, default_value = "data/tank_war_default.table.zst")]
    out: String,
    /// Rounds the table covers.
    #[arg(long, default_value_t = ROUNDS)]
    rounds: u32,
}

/// The process's peak resident memory, in MB.
fn peak_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb / 1024)
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let Some(game) = default_game() else {
        eprintln!("the default setup does not pack");
        return std::process::ExitCode::FAILURE;
    };
    let (_, start) = default_state();
    let Some(root) = game.pack(&start) else {
        eprintln!("the default start does not pack");
        return std::process::ExitCode::FAILURE;
    };
    let began = Instant::now();
    let mut solver = Solver::new(game, None, Bounds::NONE);
    let value = match solver.value(root) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("the solve stopped: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!(
        "default game solved in {:.1} s: value for U {value:+.6}, {} unfinished positions, {} positions looked at, peak {} MB",
        began.elapsed().as_secs_f64(),
        solver.remembered(),
        solver.visited(),
        peak_mb()
    );
    let listed = Instant::now();
    let keys = default_positions(args.rounds);
    let memo = solver.memo();
    let mut entries = Vec::with_capacity(keys.len());
    for key in keys {
        let Some(&v) = memo.get(&key) else {
            eprintln!("position {key:#x} was not solved");
            return std::process::ExitCode::FAILURE;
        };
        entries.push((key, v as f32));
    }
    let table = Table::new(entries, args.rounds);
    let file = match table.encode() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("compression failed: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::write(&args.out, &file) {
        eprintln!("cannot write {}: {e}", args.out);
        return std::process::ExitCode::FAILURE;
    }
    println!(
        "table: {} unfinished positions within {} rounds, {} bytes compressed, checksum {}, written to {} ({:.1} s); total {:.1} s, peak {} MB",
        table.len(),
        args.rounds,
        file.len(),
        table.checksum(),
        args.out,
        listed.elapsed().as_secs_f64(),
        began.elapsed().as_secs_f64(),
        peak_mb()
    );
    std::process::ExitCode::SUCCESS
}
