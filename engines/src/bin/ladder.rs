//! The level ladder: each AI level against the one below, level 1 against
//! a baseline player, and full strength at ten times level 8's budget
//! against level 8, with colours alternating game by game. Prints one table
//! per game: the pair, games, wins-draws-losses of the upper side, its
//! score with a 95% interval, and the Elo difference with its interval.
//!
//! ```sh
//! cargo run --release --bin ladder -- --game tank-battle --games 100
//! cargo run --release --bin ladder -- --game tank-war --games 100 --pairs 4-3,5-4
//! ```
//!
//! Levels search by depth and positions, never time: a run repeats exactly
//! for a `--seed`, on any machine.

#[path = "shared/baselines.rs"]
mod baselines;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use clap::{Parser, ValueEnum};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tank_rules_engines::games::cobi_tank_wars::{self as cobi, Order};
use tank_rules_engines::games::grid::Cell;
use tank_rules_engines::games::tank_battle::{self as tb, TankBattle};
use tank_rules_engines::games::tank_war::{self as war, TankWar};
use tank_rules_engines::games::{Game, Level, SearchLimits, Style};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GameKind {
    TankBattle,
    TankWar,
    CobiTankWars,
}

#[derive(Debug, Parser)]
#[command(about = "Plays each AI level against the next and prints the ladder")]
struct Args {
    #[arg(long, value_enum, default_value_t = GameKind::TankBattle)]
    game: GameKind,
    /// Games per pair.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Only these pairs, upper-lower, comma-separated: `2-1`, `1-base`,
    /// `full-8`. All when absent.
    #[arg(long, value_delimiter = ',')]
    pairs: Vec<String>,
    /// Plies (Tank Battle: the end policy's ply limit, which its AI sees
    /// coming) or rounds (Tank Wars) after which a game is adjudicated by
    /// score.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// Tank Battle: the end policy's repetition rule (a position standing
    /// this many times ends the game); none when absent.
    #[arg(long)]
    repetition: Option<u32>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Agent {
    /// The game's baseline: Tank Battle's greedy player, The Tank War's
    /// destroyer, Tank Wars' sampler.
    Baseline,
    Level(Level),
    /// Full strength at ten times level 8's budget in positions.
    Full,
}

impl Agent {
    fn parse(text: &str) -> Option<Agent> {
        match text {
            "base" => Some(Agent::Baseline),
            "full" => Some(Agent::Full),
            n => n.parse().ok().and_then(Level::new).map(Agent::Level),
        }
    }

    fn label(self) -> String {
        match self {
            Agent::Baseline => "baseline".to_owned(),
            Agent::Level(l) => format!("level {l}"),
            Agent::Full => "full x10".to_owned(),
        }
    }

    /// The style and limits of a searching agent; `None` for the baseline.
    fn search(self, level8_nodes: u64) -> Option<(Style, SearchLimits<'static>)> {
        let unbounded = SearchLimits {
            max_time: None,
            max_depth: 64,
            max_nodes: u64::MAX,
            stop: None,
        };
        match self {
            Agent::Baseline => None,
            Agent::Level(level) => Some((Style::at(level), unbounded)),
            Agent::Full => Some((
                Style::FULL,
                SearchLimits {
                    max_nodes: level8_nodes * 10,
                    ..unbounded
                },
            )),
        }
    }
}

/// A game's result for the first agent: 1 a win, 0.5 a draw, 0 a loss.
type Result01 = f64;

/// Tank Battle under the end policy `--max-plies` and `--repetition` make,
/// `a` as White when `a_first`; the result and what ended the game.
fn play_tank_battle(
    a: Agent,
    b: Agent,
    a_first: bool,
    seed: u64,
    args: &Args,
) -> (Result01, &'static str) {
    let level8 = tb::ai::levels::RECIPES[7].nodes;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = TankBattle::initial().under(tb::EndPolicy {
        max_plies: Some(u64::from(args.max_plies)),
        repetition: args.repetition,
    });
    let mut past = tb::Past::default();
    TankBattle::remember(&mut past, &mut state);
    let a_side = if a_first {
        tb::Side::White
    } else {
        tb::Side::Black
    };
    while !TankBattle::is_over(&state) {
        let agent = if state.position.turn() == a_side {
            a
        } else {
            b
        };
        let mv = match agent.search(level8) {
            Some((style, limits)) => {
                TankBattle::suggest(&state, &(), limits, rng.random(), style).map(|r| r.best)
            }
            None => baselines::greedy(&state.position, &state.layout, &mut rng),
        };
        let Some(mv) = mv else { break };
        state.position.play_unchecked(mv);
        TankBattle::remember(&mut past, &mut state);
    }
    let score = TankBattle::score(&state);
    let (mine, theirs) = (score.side(a_side).total(), score.side(!a_side).total());
    let end = state.end_reason().map_or("unfinished", tb::EndReason::code);
    (result01(mine.cmp(&theirs)), end)
}

/// The Tank War from the default setup, `a` as U when `a_first`.
fn play_tank_war(a: Agent, b: Agent, a_first: bool, seed: u64) -> Result01 {
    let level8 = war::ai::RECIPES[7].nodes;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = TankWar::initial();
    let a_player = if a_first {
        war::Player::U
    } else {
        war::Player::D
    };
    while !TankWar::is_over(&state) {
        let mut picks = [0usize; 2];
        for player in war::Player::ALL {
            let agent = if player == a_player { a } else { b };
            let pick = match agent.search(level8) {
                Some((style, limits)) => {
                    TankWar::suggest(&state, &player, limits, rng.random(), style).map(|r| r.pick)
                }
                None => baselines::destroyer(&state.setup, &state.position, player, &mut rng),
            };
            let Some(pick) = pick else { break };
            picks[player.index()] = pick;
        }
        war::play_round(&state.setup, &mut state.position, picks, [0, 0]);
    }
    match TankWar::outcome(&state).and_then(|o| o.winner) {
        Some(w) => result01(if w == a_player {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Less
        }),
        None => 0.5,
    }
}

/// Tank Wars from the default state with eight random artillery tokens on
/// rows 3-6; each round each player places the one gunfire token its AI
/// suggests (the baseline: its sampler's). `a` is P1 when `a_first`.
fn play_cobi(
    a: Agent,
    b: Agent,
    a_first: bool,
    seed: u64,
    args: &Args,
) -> (Result01, &'static str) {
    let level8 = cobi::ai::RECIPES[7].simulations;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = cobi::State::initial();
    while state.artillery.len() < 8 {
        let cell = Cell {
            col: rng.random_range(0..8),
            row: rng.random_range(2..6),
        };
        if !state.artillery.contains(&cell) {
            state.artillery.push(cell);
        }
    }
    let a_player = if a_first {
        cobi::Player::P1
    } else {
        cobi::Player::P2
    };
    while state.round < args.max_plies && cobi::outcome(&state).is_none() {
        let mut orders: BTreeMap<String, Order> = BTreeMap::new();
        let mut gunfire = Vec::new();
        for player in [cobi::Player::P1, cobi::Player::P2] {
            let agent = if player == a_player { a } else { b };
            let (style, limits) = agent
                .search(level8)
                .unwrap_or_else(|| (Style::FULL, baselines::sampler_limits()));
            let limits = SearchLimits {
                max_time: None,
                ..limits
            };
            let Some(answer) =
                cobi::ai::suggest_with(&state, player, 1, limits, rng.random(), style)
            else {
                break;
            };
            orders.extend(answer.orders);
            gunfire.extend(answer.gunfire.into_iter().map(|t| t.square));
        }
        for square in gunfire {
            if !state.gunfire.contains(&square) {
                state.gunfire.push(square);
            }
        }
        cobi::resolve(&mut state, &orders, rng.random());
    }
    match cobi::outcome(&state) {
        Some(Some(w)) => (
            result01(if w == a_player {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Less
            }),
            "finished",
        ),
        Some(None) => (0.5, "finished"),
        None => {
            let m = cobi::ai::material(&state, a_player);
            (
                result01(m.partial_cmp(&0.0).unwrap_or(std::cmp::Ordering::Equal)),
                "round limit",
            )
        }
    }
}

fn result01(order: std::cmp::Ordering) -> Result01 {
    match order {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

/// The results of one pair, for its upper side, and what ended its games
/// (Tank Battle's end reasons; `finished` or `unfinished` elsewhere).
#[derive(Default)]
struct Tally {
    results: Vec<Result01>,
    ends: BTreeMap<&'static str, usize>,
}

impl Tally {
    fn count(&self, r: Result01) -> usize {
        self.results.iter().filter(|&&x| x == r).count()
    }

    /// Mean score and the half-width of its 95% interval.
    fn score(&self) -> (f64, f64) {
        let n = self.results.len().max(1) as f64;
        let mean = self.results.iter().sum::<f64>() / n;
        let var = self.results.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / n;
        (mean, 1.96 * (var / n).sqrt())
    }
}

/// Elo difference of a mean score, kept finite at 0% and 100%.
fn elo(score: f64, games: usize) -> f64 {
    let edge = 0.5 / games.max(1) as f64;
    let s = score.clamp(edge, 1.0 - edge);
    -400.0 * (1.0 / s - 1.0).log10()
}

fn main() {
    let args = Args::parse();
    let levels: Vec<Level> = Level::all().collect();
    let mut pairs: Vec<(Agent, Agent)> = vec![(Agent::Level(levels[0]), Agent::Baseline)];
    pairs.extend(
        levels
            .windows(2)
            .map(|w| (Agent::Level(w[1]), Agent::Level(w[0]))),
    );
    pairs.push((Agent::Full, Agent::Level(levels[7])));
    if !args.pairs.is_empty() {
        let wanted: Vec<(Agent, Agent)> = args
            .pairs
            .iter()
            .filter_map(|p| {
                let (a, b) = p.split_once('-')?;
                Some((Agent::parse(a)?, Agent::parse(b)?))
            })
            .collect();
        if wanted.len() != args.pairs.len() {
            eprintln!("ladder: pairs are upper-lower: 2-1, 1-base, full-8");
            std::process::exit(2);
        }
        pairs = wanted;
    }
    println!(
        "{:?}: {} games a pair, colours alternating, seed {}",
        args.game, args.games, args.seed
    );
    println!("| pair | games | W-D-L | score (95%) | Elo difference (95%) | ended by | wall |");
    println!("|---|---|---|---|---|---|---|");
    for (a, b) in pairs {
        let started = Instant::now();
        let tally = Mutex::new(Tally::default());
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..args.threads.max(1) {
                scope.spawn(|| loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= args.games {
                        break;
                    }
                    let seed = args
                        .seed
                        .wrapping_mul(1_000_003)
                        .wrapping_add(game as u64 / 2);
                    // Both colours play from the same seed: a pair of games.
                    let a_first = game.is_multiple_of(2);
                    let (r, end) = match args.game {
                        GameKind::TankBattle => play_tank_battle(a, b, a_first, seed, &args),
                        GameKind::TankWar => (play_tank_war(a, b, a_first, seed), "finished"),
                        GameKind::CobiTankWars => play_cobi(a, b, a_first, seed, &args),
                    };
                    if let Ok(mut t) = tally.lock() {
                        t.results.push(r);
                        *t.ends.entry(end).or_default() += 1;
                    }
                });
            }
        });
        let t = tally.into_inner().unwrap_or_default();
        let n = t.results.len();
        let (score, half) = t.score();
        let e = elo(score, n);
        let (lo, hi) = (elo(score - half, n), elo(score + half, n));
        let ends: Vec<String> = t
            .ends
            .iter()
            .map(|(end, count)| format!("{end} {count}"))
            .collect();
        println!(
            "| {} vs {} | {n} | {}-{}-{} | {:.1}% ± {:.1} | {e:+.0} ({lo:+.0} to {hi:+.0}) | {} | {:.0} s |",
            a.label(),
            b.label(),
            t.count(1.0),
            t.count(0.5),
            t.count(0.0),
            100.0 * score,
            100.0 * half,
            ends.join(", "),
            started.elapsed().as_secs_f64()
        );
    }
}
