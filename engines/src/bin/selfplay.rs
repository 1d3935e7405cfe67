//! Self-play harness: a game's AI against baseline players.
//!
//! ```sh
//! cargo run --release --bin selfplay -- --opponent greedy --games 100 --ms 50
//! cargo run --release --bin selfplay -- --game tank-war --opponent destroyer --games 100 --ms 100
//! cargo run --release --bin selfplay -- --game cobi-tank-wars --opponent random --games 100 --ms 50
//! ```
//!
//! Sides alternate game by game. A Tank Battle game that reaches
//! `--max-plies` is adjudicated by the current score; Tank War games always
//! end (tracks are finite).

#[path = "shared/baselines.rs"]
mod baselines;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tank_rules_engines::games::tank_battle::ai::{search, SearchLimits};
use tank_rules_engines::games::tank_battle::{Layout, Move, Position, Side};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Game {
    TankBattle,
    TankWar,
    CobiTankWars,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Opponent {
    /// A uniformly random legal move (every game; in Tank Wars a random
    /// order per vehicle and a random gunfire square).
    Random,
    /// Tank Battle: the move that maximises own score minus the
    /// opponent's after it, ties broken at random.
    Greedy,
    /// Tank War: the pick that destroys the most enemy tanks this round,
    /// averaged over the opponent's picks, ties broken at random.
    Destroyer,
}

#[derive(Debug, Parser)]
#[command(about = "Plays the Tank Battle AI against a baseline player")]
struct Args {
    #[arg(long, value_enum, default_value_t = Game::TankBattle)]
    game: Game,
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
    ai: AiStats,
}

/// What the AI's searches took, over one game or many.
#[derive(Default)]
struct AiStats {
    moves: u64,
    depth: u64,
    nodes: u64,
    time: Duration,
    slowest: Duration,
}

impl AiStats {
    /// Runs one search, timing it and adding its depth and nodes.
    fn search<R>(
        &mut self,
        run: impl FnOnce() -> Option<R>,
        figures: impl Fn(&R) -> (u32, u64),
    ) -> Option<R> {
        let started = Instant::now();
        let result = run();
        let spent = started.elapsed();
        self.slowest = self.slowest.max(spent);
        self.time += spent;
        self.moves += 1;
        if let Some(r) = &result {
            let (depth, nodes) = figures(r);
            self.depth += u64::from(depth);
            self.nodes += nodes;
        }
        result
    }

    fn add(&mut self, other: &AiStats) {
        self.moves += other.moves;
        self.depth += other.depth;
        self.nodes += other.nodes;
        self.time += other.time;
        self.slowest = self.slowest.max(other.slowest);
    }
}

fn baseline_move(
    pos: &Position,
    layout: &Layout,
    opponent: Opponent,
    rng: &mut ChaCha8Rng,
) -> Option<Move> {
    let moves = pos.legal_moves(layout);
    match opponent {
        Opponent::Random | Opponent::Destroyer => moves.choose(rng).copied(),
        Opponent::Greedy => baselines::greedy(pos, layout, rng),
    }
}

/// Plays one game of Tank War; returns the AI's result (1 win, 0 draw, -1 loss).
fn play_tank_war(game: usize, args: &Args, tally: &Mutex<Tally>) -> i32 {
    use tank_rules_engines::games::tank_war::{self as war, ai as war_ai, Player};
    let (setup, mut pos) = war::default_state();
    let ai_player = if game.is_multiple_of(2) {
        Player::U
    } else {
        Player::D
    };
    let mut rng =
        ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(1_000_003).wrapping_add(game as u64));
    let limits = war_ai::SearchLimits {
        max_time: Some(Duration::from_millis(args.ms)),
        max_depth: 16,
        max_nodes: u64::MAX,
        stop: None,
    };
    let mut stats = AiStats::default();
    while war::outcome(&setup, &pos).is_none() {
        let mut picks = [0usize; 2];
        for player in Player::ALL {
            let choices = war::pickable(&setup, &pos, player);
            let pick = if player == ai_player {
                let seed = rng.next_seed();
                stats
                    .search(
                        || war_ai::search(&setup, &pos, player, limits, seed),
                        |r| (r.depth, r.nodes),
                    )
                    .map(|r| r.pick)
            } else if args.opponent == Opponent::Destroyer {
                baselines::destroyer(&setup, &pos, player, &mut rng)
            } else {
                choices.choose(&mut rng).copied()
            };
            match pick {
                Some(p) => picks[player.index()] = p,
                None => break,
            }
        }
        war::play_round(&setup, &mut pos, picks, [0, 0]);
    }
    let outcome = war::outcome(&setup, &pos);
    let result = match outcome.and_then(|o| o.winner) {
        Some(w) if w == ai_player => 1,
        Some(_) => -1,
        None => 0,
    };
    if args.verbose {
        println!(
            "game {game:3}: AI as {ai_player} tanks {}-{} squares {}-{} after {} rounds ({})",
            war::surviving(&setup, &pos, ai_player),
            war::surviving(&setup, &pos, ai_player.other()),
            war::territory(&pos, ai_player),
            war::territory(&pos, ai_player.other()),
            pos.round,
            ["loss", "draw", "win"][(result + 1) as usize],
        );
    }
    record(tally, result, u64::from(pos.round), &stats);
    result
}

fn record(tally: &Mutex<Tally>, result: i32, plies: u64, stats: &AiStats) {
    if let Ok(mut t) = tally.lock() {
        match result {
            1 => t.wins += 1,
            0 => t.draws += 1,
            _ => t.losses += 1,
        }
        t.plies += plies;
        t.ai.add(stats);
    }
}

/// Plays one game of Tank Wars from the default state with eight random
/// artillery tokens on rows 3-6; each round both players place one gunfire
/// token. A game still going after `--max-plies` rounds is adjudicated by
/// the material the AI counts (armor plus 3 a vehicle, 2 a support card).
fn play_cobi(game: usize, args: &Args, tally: &Mutex<Tally>) -> i32 {
    use std::collections::BTreeMap;
    use tank_rules_engines::games::cobi_tank_wars::{
        self as cobi, ai as cobi_ai, Order, Player, State,
    };
    use tank_rules_engines::games::grid::Cell;

    let ai_player = if game.is_multiple_of(2) {
        Player::P1
    } else {
        Player::P2
    };
    let mut rng =
        ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(1_000_003).wrapping_add(game as u64));
    let mut state = State::initial();
    while state.artillery.len() < 8 {
        let cell = Cell {
            col: rand::RngExt::random_range(&mut rng, 0..8),
            row: rand::RngExt::random_range(&mut rng, 2..6),
        };
        if !state.artillery.contains(&cell) {
            state.artillery.push(cell);
        }
    }
    let limits = cobi_ai::SearchLimits {
        max_time: Some(Duration::from_millis(args.ms)),
        max_depth: 64,
        max_nodes: u64::MAX,
        stop: None,
    };
    let mut stats = AiStats::default();
    while u64::from(state.round) < args.max_plies && cobi::outcome(&state).is_none() {
        let seed = rng.next_seed();
        let Some(answer) = stats.search(
            || cobi_ai::suggest(&state, ai_player, 1, limits, seed),
            |r| (r.rounds, r.simulations),
        ) else {
            break;
        };
        let mut orders: BTreeMap<String, Order> = answer.orders.into_iter().collect();
        for v in state.vehicles.iter().filter(|v| v.owner != ai_player) {
            if let Some(order) = Order::ALL.choose(&mut rng) {
                orders.insert(v.id.clone(), *order);
            }
        }
        let random_fire = Cell {
            col: rand::RngExt::random_range(&mut rng, 0..state.board.cols),
            row: rand::RngExt::random_range(&mut rng, 0..state.board.rows),
        };
        for square in answer.gunfire.iter().map(|t| t.square).chain([random_fire]) {
            if !state.gunfire.contains(&square) {
                state.gunfire.push(square);
            }
        }
        cobi::resolve(&mut state, &orders, rng.next_seed());
    }
    let result = match cobi::outcome(&state) {
        Some(Some(winner)) => {
            if winner == ai_player {
                1
            } else {
                -1
            }
        }
        Some(None) => 0,
        None => match cobi_ai::material(&state, ai_player) {
            m if m > 0.0 => 1,
            m if m < 0.0 => -1,
            _ => 0,
        },
    };
    if args.verbose {
        println!(
            "game {game:3}: AI as {ai_player} after {:3} rounds: {} ({})",
            state.round,
            ["loss", "draw", "win"][(result + 1) as usize],
            if cobi::outcome(&state).is_some() {
                "finished"
            } else {
                "adjudicated"
            },
        );
    }
    record(tally, result, u64::from(state.round), &stats);
    result
}

/// Plays one game of Tank Battle; returns the AI's result (1 win, 0 draw, -1 loss).
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
        stop: None,
    };
    let mut pos = Position::initial(&layout);
    let mut stats = AiStats::default();
    while pos.ply() < args.max_plies && !pos.is_finished(&layout) {
        let mv = if pos.turn() == ai_side {
            let seed = rng.next_seed();
            stats
                .search(
                    || {
                        search(
                            &tank_rules_engines::games::tank_battle::State::new(layout, pos),
                            limits,
                            seed,
                        )
                    },
                    |r| (r.depth, r.nodes),
                )
                .map(|r| r.best)
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
    record(tally, result, pos.ply(), &stats);
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
    let fits = matches!(
        (args.game, args.opponent),
        (_, Opponent::Random)
            | (Game::TankBattle, Opponent::Greedy)
            | (Game::TankWar, Opponent::Destroyer)
    );
    if !fits {
        eprintln!(
            "selfplay: {:?} is not an opponent for {:?}",
            args.opponent, args.game
        );
        std::process::exit(2);
    }
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
                match args.game {
                    Game::TankBattle => play(game, &args, &tally),
                    Game::TankWar => play_tank_war(game, &args, &tally),
                    Game::CobiTankWars => play_cobi(game, &args, &tally),
                };
            });
        }
    });
    let t = tally.into_inner().unwrap_or_default();
    let n = (t.wins + t.draws + t.losses).max(1);
    let moves = t.ai.moves.max(1);
    println!(
        "{:?}: AI vs {:?} at {} ms/move, {} games: {} wins, {} draws, {} losses ({:.1}% wins)",
        args.game,
        args.opponent,
        args.ms,
        n,
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.wins as f64 / n as f64
    );
    println!(
        "mean plies/rounds {:.0}; AI mean depth {:.1}, {:.0} nodes/move, {:.1} ms/move, slowest {:.1} ms; wall {:.0} s",
        t.plies as f64 / n as f64,
        t.ai.depth as f64 / moves as f64,
        t.ai.nodes as f64 / moves as f64,
        t.ai.time.as_secs_f64() * 1000.0 / moves as f64,
        t.ai.slowest.as_secs_f64() * 1000.0,
        started.elapsed().as_secs_f64()
    );
}
