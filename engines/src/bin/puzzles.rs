//! The puzzle finder measured: Tank Battle games between levels (fixed
//! seeds), their puzzles by theme and rating, each puzzle's first move
//! checked by a search at ten times the judge's budget, and the finder's
//! time against the review's.
//!
//! ```sh
//! cargo run --release -p tank-rules-engines --bin puzzles -- --games 50
//! ```
//!
//! Game `n` is played by the level pair `PAIRS[n % 8]`, each move the
//! level's choice with seed `(700 + n) * 1000 + ply` (as
//! `scripts/review-check.py` plays its quality games), at most
//! `--max-plies` plies.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Parser;
use tank_rules_engines::games::level::{Level, Style};
use tank_rules_engines::games::review::puzzle::{self, Puzzle, Theme, MARGIN, WINS_ANYWAY};
use tank_rules_engines::games::review::Review;
use tank_rules_engines::games::tank_battle::{
    ai, chance_of, Layout, Move, MoveText, State, TankBattle,
};
use tank_rules_engines::games::{Game, SearchLimits};

/// The level pairs (White, Black) the games are played by, in turn.
const PAIRS: [(u8, u8); 8] = [
    (8, 2),
    (2, 8),
    (6, 3),
    (3, 6),
    (8, 5),
    (5, 8),
    (4, 4),
    (7, 7),
];

#[derive(Debug, Parser)]
#[command(about = "Finds the puzzles of Tank Battle games between levels and checks them")]
struct Args {
    #[arg(long, default_value_t = 50)]
    games: usize,
    #[arg(long, default_value_t = 200)]
    max_plies: usize,
    /// The judge's budget in positions a search (the review's default).
    #[arg(long, default_value_t = TankBattle::JUDGE_NODES)]
    judge_nodes: u64,
    /// How many times the judge's budget the check searches.
    #[arg(long, default_value_t = 10)]
    check_times: u64,
    /// Games looked at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Print every puzzle.
    #[arg(long)]
    verbose: bool,
    /// Only print the two best moves of this position (TBN, standard
    /// layout) at 1, 5, 10 and 20 times the judge's budget, depth by depth.
    #[arg(long)]
    probe: Option<String>,
    /// Only print game N's moves.
    #[arg(long)]
    moves_of: Option<usize>,
}

/// The two best moves of `tbn` at several budgets, depth by depth.
fn probe(tbn: &str, judge_nodes: u64) {
    let layout = Layout::STANDARD;
    let Ok(position) = tank_rules_engines::games::tank_battle::parse_position(tbn, &layout) else {
        eprintln!("not a position: {tbn}");
        return;
    };
    let state = State::new(layout, position);
    let style = Style {
        level: None,
        lines: 2,
    };
    for times in [1, 5, 10, 20] {
        let Some(found) = ai::search_with(&state, limits(judge_nodes * times), 0, style) else {
            return;
        };
        for it in &found.iterations {
            let best = it.pv.first().map(Move::to_notation).unwrap_or_default();
            let second = it
                .runner_up
                .map(|(mv, v)| format!("{} {v}", mv.to_notation()));
            println!(
                "{times}x depth {}: {best} {} ({:.1}) / {} ({:.1})",
                it.depth,
                it.evaluation,
                chance_of(f64::from(it.evaluation)),
                second.unwrap_or_default(),
                it.runner_up
                    .map_or(f64::NAN, |(_, v)| chance_of(f64::from(v)))
            );
        }
    }
}

fn limits(max_nodes: u64) -> SearchLimits<'static> {
    SearchLimits {
        max_time: None,
        max_depth: 64,
        max_nodes,
        stop: None,
    }
}

/// Game `n`'s moves.
fn play(n: usize, max_plies: usize) -> Vec<MoveText> {
    let (white, black) = PAIRS[n % PAIRS.len()];
    let mut state = State::initial(Layout::STANDARD);
    let mut moves = Vec::new();
    for ply in 0..max_plies {
        let level = if ply % 2 == 0 { white } else { black };
        let Some(level) = Level::new(level) else {
            break;
        };
        let seed = (700 + n as u64) * 1000 + ply as u64;
        let Some(found) = ai::search_with(&state, limits(u64::MAX), seed, Style::at(level)) else {
            break;
        };
        moves.push(MoveText::from(found.best));
        state.position.play_unchecked(found.best);
        if state.end_reason().is_some() {
            break;
        }
    }
    moves
}

/// Whether a search at `nodes` agrees that the puzzle's first move is the
/// only one: it is the best, and the second is `MARGIN` worse or the best
/// alone is a forced win and the second does not win anyway.
fn agrees(state: &State, puzzle: &Puzzle<Move>, nodes: u64) -> bool {
    let style = Style {
        level: None,
        lines: 2,
    };
    let Some(found) = ai::search_with(state, limits(nodes), 0, style) else {
        return false;
    };
    let chance = |i: usize| {
        found
            .lines
            .get(i)
            .map(|l| chance_of(f64::from(l.evaluation)))
    };
    match (found.lines.first(), chance(0), chance(1)) {
        (Some(best), Some(first), Some(second)) => {
            puzzle.solution.first() == Some(&best.mv)
                && (first - second >= MARGIN || (first >= 100.0 && second < WINS_ANYWAY))
        }
        _ => false,
    }
}

#[derive(Default)]
struct Tally {
    games: usize,
    plies: usize,
    puzzles: usize,
    agreed: usize,
    themes: BTreeMap<&'static str, usize>,
    ratings: BTreeMap<u32, usize>,
    review: Duration,
    finder: Duration,
}

fn look(n: usize, args: &Args, tally: &Mutex<Tally>) {
    let moves = play(n, args.max_plies);
    let start = State::initial(Layout::STANDARD);
    let judge = limits(args.judge_nodes);
    // The review alone, then the review with the finder.
    let started = Instant::now();
    let mut review = TankBattle::judge_for(moves.len());
    let mut state = start;
    for step in &moves {
        TankBattle::judge(&mut review, &state, step, judge, Style::FULL);
        if TankBattle::play(&mut state, *step).is_err() {
            break;
        }
    }
    let reviewed = started.elapsed();
    let started = Instant::now();
    let (found, _) = puzzle::find_in_game::<TankBattle>(&start, &moves, judge, usize::MAX);
    let finder = started.elapsed();
    let mut agreed = 0;
    let mut states = vec![start];
    for step in &moves {
        let mut next = *states.last().unwrap_or(&start);
        if TankBattle::play(&mut next, *step).is_err() {
            break;
        }
        states.push(next);
    }
    for p in &found {
        let Some(at) = states.get(p.ply) else {
            continue;
        };
        let ok = agrees(at, p, args.judge_nodes * args.check_times);
        agreed += usize::from(ok);
        if args.verbose {
            let solution: Vec<String> = p.solution.iter().map(Move::to_notation).collect();
            let themes: Vec<&str> = p.themes.iter().map(|t| t.name()).collect();
            println!(
                "game {n} ply {} {} [{}] {:?} {:?} rating {} chance {:.1}/{:.1} played {} ({}) {}",
                p.ply,
                at.position,
                solution.join(" "),
                themes,
                p.forced.and_then(|f| f.plies),
                p.rating,
                p.chance,
                p.second_chance,
                p.source.played.to_notation(),
                p.source.label.name(),
                if ok { "agreed" } else { "DISAGREED" }
            );
        }
    }
    let Ok(mut tally) = tally.lock() else {
        return;
    };
    tally.games += 1;
    tally.plies += moves.len();
    tally.puzzles += found.len();
    tally.agreed += agreed;
    for p in &found {
        for theme in &p.themes {
            *tally.themes.entry(theme.name()).or_default() += 1;
        }
        *tally.ratings.entry(p.rating).or_default() += 1;
    }
    tally.review += reviewed;
    tally.finder += finder;
    println!(
        "game {n}: {} plies, {} puzzles ({agreed} agreed), review {:.1} s, review and finder {:.1} s",
        moves.len(),
        found.len(),
        reviewed.as_secs_f64(),
        finder.as_secs_f64()
    );
}

fn main() {
    let args = Args::parse();
    if let Some(tbn) = &args.probe {
        return probe(tbn, args.judge_nodes);
    }
    if let Some(n) = args.moves_of {
        let moves: Vec<String> = play(n, args.max_plies)
            .iter()
            .map(|m| format!("\"{}-{}\"", m.from.name(), m.to.name()))
            .collect();
        return println!("[{}]", moves.join(", "));
    }
    let tally = Mutex::new(Tally::default());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| loop {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if n >= args.games {
                    break;
                }
                look(n, &args, &tally);
            });
        }
    });
    let Ok(tally) = tally.into_inner() else {
        return;
    };
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "{} games, {} plies: {} puzzles; the first move agreed by a search at {}x the judge's budget: {} ({:.1} %)",
        tally.games,
        tally.plies,
        tally.puzzles,
        args.check_times,
        tally.agreed,
        pct(tally.agreed, tally.puzzles)
    );
    println!("| theme | puzzles |\n|---|---:|");
    for theme in Theme::ALL {
        println!(
            "| `{}` | {} |",
            theme.name(),
            tally.themes.get(theme.name()).unwrap_or(&0)
        );
    }
    println!("| rating | puzzles |\n|---:|---:|");
    for (rating, count) in &tally.ratings {
        println!("| {rating} | {count} |");
    }
    println!(
        "time: the reviews {:.1} s, the reviews with the finder {:.1} s ({:.2}x)",
        tally.review.as_secs_f64(),
        tally.finder.as_secs_f64(),
        tally.finder.as_secs_f64() / tally.review.as_secs_f64().max(1e-9)
    );
}
