//! Searches every position of the Tank Battle games on stdin at each
//! budget given and writes what each finished iteration found, so that
//! judges (which depth's value a review takes, how it verifies) can be
//! compared offline on the same searches (`scripts/judge-sim.py`;
//! BENCHMARKS, "Reviewing a game"). Deterministic: searches are bounded
//! by positions only, each with a fresh table, as a review's are.
//!
//! ```sh
//! cargo run --release --bin judge_probe -- 100000 1000000 < games.jsonl > probe.jsonl
//! ```
//!
//! A game is a line `{"start": TBN or null, "moves": [...]}` (as
//! `scripts/review-check.py games` writes them); each position a line
//! `{"game", "k", "over", "rows": [{"budget", "depth", "iterations":
//! [[depth, centipoints, best, nodes], ...]}]}`, `over` the finished game's
//! result for the side to move (1, 0, -1) and then no rows' searches.

use std::io::{BufRead, Write};
use std::sync::Mutex;

use clap::Parser;
use serde_json::{json, Value};
use tank_rules::games::tank_battle::{ai, parse_position, Layout, MoveText, Position};
use tank_rules::games::{SearchLimits, Style};

#[derive(Debug, Parser)]
#[command(about = "Searches every position of Tank Battle games at the budgets given")]
struct Args {
    /// Positions a search (one search a budget and position).
    #[arg(required = true)]
    budgets: Vec<u64>,
    /// Searches run at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

fn positions(line: &str, layout: &Layout) -> Result<Vec<Position>, Failure> {
    let game: Value = serde_json::from_str(line)?;
    let mut pos = match game["start"].as_str() {
        Some(text) => parse_position(text, layout)?,
        None => Position::initial(layout),
    };
    let mut all = vec![pos];
    for mv in game["moves"].as_array().ok_or("a game without moves")? {
        let text: MoveText = mv.as_str().ok_or("a move that is not text")?.parse()?;
        pos = pos.play(layout, text)?.0;
        all.push(pos);
    }
    Ok(all)
}

fn probe(pos: &Position, layout: &Layout, budgets: &[u64]) -> (Option<i8>, Vec<Value>) {
    let over = pos.outcome(layout).map(|outcome| match outcome.winner() {
        Some(side) if side == pos.turn() => 1,
        Some(_) => -1,
        None => 0,
    });
    if over.is_some() {
        return (over, Vec::new());
    }
    let rows = budgets
        .iter()
        .map(|&budget| {
            let limits = SearchLimits {
                max_time: None,
                max_depth: 64,
                max_nodes: budget,
                stop: None,
            };
            let searched = ai::search_with(pos, layout, limits, 0, Style::FULL);
            let iterations: Vec<Value> = searched
                .iter()
                .flat_map(|s| &s.iterations)
                .map(|it| {
                    let best = it.pv.first().map(|mv| mv.to_notation());
                    json!([it.depth, it.evaluation, best, it.nodes])
                })
                .collect();
            json!({"budget": budget, "depth": searched.map(|s| s.depth), "iterations": iterations})
        })
        .collect();
    (over, rows)
}

fn main() -> Result<(), Failure> {
    let args = Args::parse();
    let layout = Layout::STANDARD;
    let mut jobs = Vec::new();
    for (game, line) in std::io::stdin().lock().lines().enumerate() {
        for (k, pos) in positions(&line?, &layout)?.into_iter().enumerate() {
            jobs.push((game, k, pos));
        }
    }
    let jobs = Mutex::new(jobs.into_iter());
    let out = Mutex::new(std::io::stdout());
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| {
                let next = || jobs.lock().ok().and_then(|mut jobs| jobs.next());
                while let Some((game, k, pos)) = next() {
                    let (over, rows) = probe(&pos, &layout, &args.budgets);
                    let line = json!({"game": game, "k": k, "over": over, "rows": rows});
                    if let Ok(mut out) = out.lock() {
                        let _ = writeln!(out, "{line}");
                    }
                }
            });
        }
    });
    Ok(())
}
