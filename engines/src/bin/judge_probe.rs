//! Each position of the review quality games (`scripts/review-check.py
//! quality`'s, played here as the puzzles bin plays them) probed by Tank
//! Battle's judge at its own budget and at the reference's, one JSON line
//! a position: what each search reads (the chances, the doubt, whether
//! the larger budget reads further, positions, depth, milliseconds).
//! `scripts/judge-policy.py` replays the judge's verification policy over
//! them, so that a policy is measured in seconds rather than in the hour
//! the reference's reviews take (the figures that count are still
//! `review-check.py quality`'s, over HTTP).
//!
//! ```sh
//! cargo run --release -p tank-rules-engines --bin judge_probe -- --games 20 > levels.jsonl
//! cargo run --release -p tank-rules-engines --bin judge_probe -- --games 20 --equal > equal.jsonl
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

#[path = "shared/quality_games.rs"]
mod quality_games;

use clap::Parser;
use tank_rules_engines::games::tank_battle::{
    chance_of, probe, Layout, MoveText, Probe, State, TankBattle,
};
use tank_rules_engines::games::{Game, SearchLimits};

#[derive(Debug, Parser)]
#[command(about = "Probes each position of the review quality games at two budgets")]
struct Args {
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Games between equal levels.
    #[arg(long)]
    equal: bool,
    #[arg(long, default_value_t = 80)]
    max_plies: usize,
    /// The judge's positions a search.
    #[arg(long, default_value_t = 200_000)]
    base: u64,
    /// The reference's (and a verification's) positions a search.
    #[arg(long, default_value_t = 2_000_000)]
    reference: u64,
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

fn limits(max_nodes: u64) -> SearchLimits<'static> {
    SearchLimits {
        max_time: None,
        max_depth: 64,
        max_nodes,
        stop: None,
    }
}

/// Game `n`: each step with the state it was played in.
fn play(pair: (u8, u8), n: usize, max_plies: usize) -> Vec<(State, MoveText)> {
    let mut state = State::initial(Layout::STANDARD);
    let mut plies = Vec::new();
    for step in quality_games::tank_battle_moves(pair, n, max_plies) {
        plies.push((state, step));
        if TankBattle::play(&mut state, step).is_err() {
            break;
        }
    }
    plies
}

/// One probe as a JSON object.
fn json(p: &Probe, ms: f64) -> String {
    let chances = |(v, p): (f64, f64)| [chance_of(v), chance_of(p)];
    format!(
        "{{\"numbers\":{:?},\"chances\":{:?},\"doubted\":{:?},\"doubted_chances\":{:?},\
         \"further\":{},\"nodes\":{},\"depth\":{},\"ms\":{ms:.2}}}",
        [p.numbers.0, p.numbers.1],
        chances(p.numbers),
        [p.doubted.0, p.doubted.1],
        chances(p.doubted),
        p.further,
        p.nodes,
        p.depth,
    )
}

fn main() {
    let args = Args::parse();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= args.games {
                    break;
                }
                let pair = if args.equal {
                    quality_games::EQUAL_PAIRS[n % quality_games::EQUAL_PAIRS.len()]
                } else {
                    quality_games::PAIRS[n % quality_games::PAIRS.len()]
                };
                let mut lines = Vec::new();
                for (ply, (state, step)) in play(pair, n, args.max_plies).into_iter().enumerate() {
                    let timed = |nodes| {
                        let start = Instant::now();
                        let found = probe(&state, step, limits(nodes), args.reference);
                        found.map(|p| json(&p, start.elapsed().as_secs_f64() * 1000.0))
                    };
                    if let (Some(base), Some(reference)) = (timed(args.base), timed(args.reference)) {
                        lines.push(format!(
                            "{{\"game\":{n},\"pair\":[{},{}],\"ply\":{ply},\"base\":{base},\"reference\":{reference}}}",
                            pair.0, pair.1
                        ));
                    }
                }
                // A game's lines together, whichever thread ends first.
                println!("{}", lines.join("\n"));
            });
        }
    });
}
