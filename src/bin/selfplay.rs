//! Self-play harness: the Tank Battle AI against baseline players.
//!
//! ```sh
//! cargo run --release --bin selfplay -- --opponent greedy --games 100 --ms 50
//! ```
//!
//! Colours alternate game by game. A game that reaches `--max-plies` is
//! adjudicated by the current score.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tank_rules::games::tank_battle::ai::{search, SearchLimits};
use tank_rules::games::tank_battle::{Layout, Move, Position, Side};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Opponent {
    /// A uniformly random legal move.
    Random,
    /// The move that maximises own score minus the opponent's after it,
    /// ties broken at random.
    Greedy,
}

#[derive(Debug, Parser)]
#[command(about = "Plays the Tank Battle AI against a baseline player")]
struct Args {
    #[arg(long, value_enum, default_value_t = Opponent::Greedy)]
    opponent: Opponent,
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// AI time per move, milliseconds.
    #[arg(long, default_value_t = 50)]
    ms: u64,
    /// Plies after which a game is adjudicated by score.
    #[arg(long, default_value_t = 400)]
    max_plies: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Print one line per game.
    #[arg(long)]
    verbose: bool,
}

#[derive(Default)]
struct Tally {
    wins: usize,
    draws: usize,
    losses: usize,
    plies: u64,
    ai_moves: u64,
    ai_depth: u64,
    ai_nodes: u64,
    ai_time: Duration,
    slowest: Duration,
}

fn baseline_move(
    pos: &Position,
    layout: &Layout,
    opponent: Opponent,
    rng: &mut ChaCha8Rng,
) -> Option<Move> {
    let moves = pos.legal_moves(layout);
    match opponent {
        Opponent::Random => moves.choose(rng).copied(),
        Opponent::Greedy => {
            let us = pos.turn();
            let value = |mv: &Move| {
                let mut child = *pos;
                child.play_unchecked(*mv);
                let score = child.score(layout);
                score.side(us).total() as i64 - score.side(!us).total() as i64
            };
            let best = moves.iter().map(value).max()?;
            let top: Vec<Move> = moves
                .iter()
                .filter(|mv| value(mv) == best)
                .copied()
                .collect();
            top.choose(rng).copied()
        }
    }
}

/// Plays one game; returns the AI's result (1 win, 0 draw, -1 loss).
fn play(game: usize, args: &Args, tally: &Mutex<Tally>) -> i32 {
    let layout = Layout::STANDARD;
    let ai_side = if game.is_multiple_of(2) {
        Side::White
    } else {
        Side::Black
    };
    let mut rng =
        ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(1_000_003).wrapping_add(game as u64));
    let limits = SearchLimits {
        max_time: Some(Duration::from_millis(args.ms)),
        max_depth: 64,
        max_nodes: u64::MAX,
    };
    let mut pos = Position::initial(&layout);
    let (mut moves, mut depth, mut nodes, mut time, mut slowest) =
        (0u64, 0u64, 0u64, Duration::ZERO, Duration::ZERO);
    while pos.ply() < args.max_plies && !pos.is_finished(&layout) {
        let mv = if pos.turn() == ai_side {
            let started = Instant::now();
            let result = search(&pos, &layout, limits, rng.next_seed());
            let spent = started.elapsed();
            slowest = slowest.max(spent);
            time += spent;
            moves += 1;
            result.map(|r| {
                depth += u64::from(r.depth);
                nodes += r.nodes;
                r.best
            })
        } else {
            baseline_move(&pos, &layout, args.opponent, &mut rng)
        };
        match mv {
            Some(mv) => pos.play_unchecked(mv),
            None => break,
        }
    }
    let score = pos.score(&layout);
    let (ai, other) = (score.side(ai_side).total(), score.side(!ai_side).total());
    let result = (ai as i32 - other as i32).signum();
    if args.verbose {
        println!(
            "game {game:3}: AI as {ai_side:5} {ai:2}-{other:2} after {:3} plies{} ({})",
            pos.ply(),
            if pos.is_finished(&layout) {
                ""
            } else {
                " (adjudicated)"
            },
            ["loss", "draw", "win"][(result + 1) as usize],
        );
    }
    if let Ok(mut t) = tally.lock() {
        match result {
            1 => t.wins += 1,
            0 => t.draws += 1,
            _ => t.losses += 1,
        }
        t.plies += pos.ply();
        t.ai_moves += moves;
        t.ai_depth += depth;
        t.ai_nodes += nodes;
        t.ai_time += time;
        t.slowest = t.slowest.max(slowest);
    }
    result
}

trait NextSeed {
    fn next_seed(&mut self) -> u64;
}

impl NextSeed for ChaCha8Rng {
    fn next_seed(&mut self) -> u64 {
        rand::RngExt::random(self)
    }
}

fn main() {
    let args = Args::parse();
    let tally = Mutex::new(Tally::default());
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| loop {
                let game = next.fetch_add(1, Ordering::Relaxed);
                if game >= args.games {
                    break;
                }
                play(game, &args, &tally);
            });
        }
    });
    let t = tally.into_inner().unwrap_or_default();
    let n = (t.wins + t.draws + t.losses).max(1);
    let moves = t.ai_moves.max(1);
    println!(
        "AI vs {:?} at {} ms/move, {} games: {} wins, {} draws, {} losses ({:.1}% wins)",
        args.opponent,
        args.ms,
        n,
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.wins as f64 / n as f64
    );
    println!(
        "mean plies {:.0}; AI mean depth {:.1}, {:.0} nodes/move, {:.1} ms/move, slowest {:.1} ms; wall {:.0} s",
        t.plies as f64 / n as f64,
        t.ai_depth as f64 / moves as f64,
        t.ai_nodes as f64 / moves as f64,
        t.ai_time.as_secs_f64() * 1000.0 / moves as f64,
        t.slowest.as_secs_f64() * 1000.0,
        started.elapsed().as_secs_f64()
    );
}
