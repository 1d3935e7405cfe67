//! The puzzle finder measured: games between levels (fixed seeds), their
//! puzzles by theme and rating, each puzzle's first move checked by a
//! search at ten times the judge's budget, and the finder's time against
//! the review's.
//!
//! ```sh
//! cargo run --release -p tank-rules-engines --bin puzzles -- --games 50
//! cargo run --release -p tank-rules-engines --bin puzzles -- --game cobi-tank-wars --games 50
//! ```
//!
//! Game `n` is played by the level pair `PAIRS[n % 8]`, each move the
//! level's choice with seed `(700 + n) * 1000 + ply` (as
//! `scripts/review-check.py` plays its quality games: Tank Wars' with no
//! gunfire tokens), at most `--max-plies` plies.

#[path = "shared/quality_games.rs"]
mod quality_games;
#[path = "shared/tank_wars_puzzles.rs"]
mod tank_wars_puzzles;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Parser;
use tank_rules_engines::games::cobi_tank_wars::CobiTankWars;
use tank_rules_engines::games::level::Style;
use tank_rules_engines::games::review::puzzle::{
    self, Puzzle, Puzzles, Theme, MARGIN, WINS_ANYWAY,
};
use tank_rules_engines::games::review::Review;
use tank_rules_engines::games::tank_battle::{
    ai, chance_of, Layout, Move, MoveText, State, TankBattle,
};
use tank_rules_engines::games::{Game, SearchLimits};

pub use quality_games::PAIRS;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum GameName {
    TankBattle,
    CobiTankWars,
}

#[derive(Debug, Parser)]
#[command(about = "Finds the puzzles of games between levels and checks them")]
struct Args {
    #[arg(long, value_enum, default_value_t = GameName::TankBattle)]
    game: GameName,
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// The most plies (Tank Wars: rounds) a game.
    #[arg(long)]
    max_plies: Option<usize>,
    /// The judge's budget in positions a search (Tank Wars: simulated
    /// rounds); the review's default when absent.
    #[arg(long)]
    judge_nodes: Option<u64>,
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

/// What the script asks of a game.
trait Measured: Puzzles {
    /// The most plies a game when none is asked.
    const MAX_PLIES: usize;
    /// Game `n`, at most `max_plies`: each step with the state it was
    /// played in.
    fn game(n: usize, max_plies: usize) -> Vec<(Self::State, Self::Step)>;
    /// Whether a search at `nodes` agrees that the puzzle's first move is
    /// the only one.
    fn agrees(state: &Self::State, puzzle: &Puzzle<Self::Pick>, nodes: u64) -> bool;
    /// The puzzle, as a line prints it.
    fn describe(state: &Self::State, puzzle: &Puzzle<Self::Pick>) -> String;

    /// How near the game came to a puzzle: the widest lead of a move (a
    /// vehicle's order) over its others' best that a search at `nodes`
    /// finds in any of its positions, in chance points; `None` where the
    /// script does not measure it.
    fn widest_lead(_plies: &[(Self::State, Self::Step)], _nodes: u64) -> Option<f64> {
        None
    }
}

impl Measured for TankBattle {
    const MAX_PLIES: usize = 200;

    fn game(n: usize, max_plies: usize) -> Vec<(State, MoveText)> {
        let mut state = State::initial(Layout::STANDARD);
        let mut plies = Vec::new();
        for step in play(n, max_plies) {
            plies.push((state, step));
            if TankBattle::play(&mut state, step).is_err() {
                break;
            }
        }
        plies
    }

    fn agrees(state: &State, puzzle: &Puzzle<Move>, nodes: u64) -> bool {
        agrees(state, puzzle, nodes)
    }

    fn describe(state: &State, p: &Puzzle<Move>) -> String {
        let solution: Vec<String> = p.solution.iter().map(Move::to_notation).collect();
        format!(
            "{} [{}] played {}",
            state.position,
            solution.join(" "),
            p.source.played.to_notation()
        )
    }
}

/// Game `n`'s moves.
fn play(n: usize, max_plies: usize) -> Vec<MoveText> {
    quality_games::tank_battle_moves(PAIRS[n % PAIRS.len()], n, max_plies)
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
    widest: Option<f64>,
}

fn look<G: Measured>(n: usize, args: &Args, tally: &Mutex<Tally>) {
    let plies = G::game(n, args.max_plies.unwrap_or(G::MAX_PLIES));
    let judge_nodes = args.judge_nodes.unwrap_or(G::JUDGE_NODES);
    let judge = limits(judge_nodes);
    // The review alone, then the review with the finder.
    let started = Instant::now();
    let mut review = G::judge_for(plies.len());
    for (state, step) in &plies {
        G::judge(&mut review, state, step, judge, Style::FULL);
    }
    let reviewed = started.elapsed();
    let started = Instant::now();
    let (found, _) = puzzle::find_in_plies::<G>(&plies, judge, usize::MAX);
    let finder = started.elapsed();
    let mut agreed = 0;
    for p in &found {
        let Some((at, _)) = plies.get(p.ply) else {
            continue;
        };
        let ok = G::agrees(at, p, judge_nodes * args.check_times);
        agreed += usize::from(ok);
        if args.verbose {
            let themes: Vec<&str> = p.themes.iter().map(|t| t.name()).collect();
            println!(
                "game {n} ply {} player {} {} {:?} {:?} rating {} chance {:.1}/{:.1} ({}) {}",
                p.ply,
                p.player,
                G::describe(at, p),
                themes,
                p.forced.and_then(|f| f.plies),
                p.rating,
                p.chance,
                p.second_chance,
                p.source.label.name(),
                if ok { "agreed" } else { "DISAGREED" }
            );
        }
    }
    let Ok(mut tally) = tally.lock() else {
        return;
    };
    tally.games += 1;
    tally.plies += plies.len();
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
    let widest = G::widest_lead(&plies, judge_nodes * puzzle::VERIFY_TIMES);
    tally.widest = match (tally.widest, widest) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    if let Some(widest) = widest {
        println!("game {n}: the widest lead of an order over its others {widest:.1} points");
    }
    println!(
        "game {n}: {} plies, {} puzzles ({agreed} agreed), review {:.1} s, review and finder {:.1} s",
        plies.len(),
        found.len(),
        reviewed.as_secs_f64(),
        finder.as_secs_f64()
    );
}

fn main() {
    let args = Args::parse();
    if let Some(tbn) = &args.probe {
        return probe(tbn, args.judge_nodes.unwrap_or(TankBattle::JUDGE_NODES));
    }
    if let Some(n) = args.moves_of {
        let moves: Vec<String> = play(n, args.max_plies.unwrap_or(TankBattle::MAX_PLIES))
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
                match args.game {
                    GameName::TankBattle => look::<TankBattle>(n, &args, &tally),
                    GameName::CobiTankWars => look::<CobiTankWars>(n, &args, &tally),
                }
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
    if let Some(widest) = tally.widest {
        println!(
            "the widest lead of a move over its others in any position, at {}x the judge's budget: {widest:.1} chance points (a puzzle's: {MARGIN})",
            puzzle::VERIFY_TIMES
        );
    }
    println!(
        "time: the reviews {:.1} s, the reviews with the finder {:.1} s ({:.2}x)",
        tally.review.as_secs_f64(),
        tally.finder.as_secs_f64(),
        tally.finder.as_secs_f64() / tally.review.as_secs_f64().max(1e-9)
    );
}
