//! Checks a running server's Tank War `ai-move` against the solved game
//! (issue 23's acceptance): from the default start, after each of the
//! rules' illustration rounds, and from positions of random playouts of
//! every length, it asks `ai-move` at the default limits for both players
//! (or with `--max-time-ms`) and checks that each answer is
//! `"exact": true`, that its
//! `expected_result` is the game's value and that no reply of the
//! opponent gains more than `--tolerance` against its strategy, by the
//! values of a solve of the whole default game made here, without the
//! server's table. Then (issue 52) it reviews `--games` random games to
//! their end with `annotate` and checks every entry exact (its `value` the
//! solved value within 1e-6), `best` the support of the strategy
//! `ai-move` plays for the player there and `against` the strategy it
//! plays for the opponent. Prints the latency of the first request and
//! p50/p99/max of all, and one summary line. Loopback HTTP/1.1, one
//! connection.
//!
//! ```sh
//! scripts/tank-war-exact.sh          # starts a server and runs this
//! cargo run --release --bin tank_war_exact_check -- --addr 127.0.0.1:8080
//! ```

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use tank_rules_engines::games::tank_war::solve::table::default_game;
use tank_rules_engines::games::tank_war::solve::{Bounds, Solver};
use tank_rules_engines::games::tank_war::{
    default_state, pickable, play_round, Player, Position, Setup, ILLUSTRATION,
};

#[derive(Debug, Parser)]
#[command(about = "Checks a server's Tank War ai-move against the solved game")]
struct Args {
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Positions from random playouts besides the start and the
    /// illustration's.
    #[arg(long, default_value_t = 1_000)]
    positions: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random games reviewed, each entry checked against `ai-move`.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// What a reply may gain, and how far `expected_result` may be from
    /// the value.
    #[arg(long, default_value_t = 0.001)]
    tolerance: f64,
    /// `ai-move`'s `max_time_ms` instead of the server's default: an
    /// answer is exact when the game from its position is solved in half
    /// the time, so a slower build (or machine) needs more for the same
    /// answers.
    #[arg(long)]
    max_time_ms: Option<u64>,
}

/// One keep-alive HTTP/1.1 connection.
struct Client {
    reader: BufReader<TcpStream>,
    addr: String,
}

impl Client {
    fn connect(addr: &str) -> std::io::Result<Client> {
        let stream = TcpStream::connect(addr)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(Client {
            reader: BufReader::new(stream),
            addr: addr.to_owned(),
        })
    }

    /// POSTs `body` as JSON; the status and the parsed answer.
    fn post(&mut self, path: &str, body: &Value) -> std::io::Result<(u16, Value)> {
        let body = body.to_string();
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.reader.get_mut().write_all(request.as_bytes())?;
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let mut length = 0;
        loop {
            line.clear();
            self.reader.read_line(&mut line)?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
        }
        let mut buf = vec![0; length];
        self.reader.read_exact(&mut buf)?;
        Ok((status, serde_json::from_slice(&buf).unwrap_or(Value::Null)))
    }
}

/// The state as the API writes it.
fn state_json(setup: &Setup, pos: &Position) -> Value {
    let data = setup.to_data(pos);
    let kind = |k| format!("{k:?}");
    json!({
        "rows": data.rows,
        "cols": data.cols,
        "territory": data.territory,
        "tanks": data.tanks.iter().map(|t| json!({
            "owner": t.owner.to_string(),
            "name": t.name,
            "type": kind(t.kind),
            "track": t.track,
            "at": t.at,
        })).collect::<Vec<_>>(),
        "round": data.round,
        "clock_ms": {"U": data.clock_ms[0], "D": data.clock_ms[1]},
    })
}

/// The start, the illustration's rounds, then distinct unfinished
/// positions of random playouts (every round of each game) until
/// `wanted` more.
fn positions(setup: &Setup, start: &Position, wanted: usize, seed: u64) -> Vec<Position> {
    let mut out = vec![start.clone()];
    let mut pos = start.clone();
    for (u, d) in ILLUSTRATION {
        if let (Some(a), Some(b)) = (
            setup.find(&pos, Player::U, u),
            setup.find(&pos, Player::D, d),
        ) {
            play_round(setup, &mut pos, [a, b], [0, 0]);
            out.push(pos.clone());
        }
    }
    let fixed = out.len();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    while out.len() < fixed + wanted {
        let mut pos = start.clone();
        loop {
            let us = pickable(setup, &pos, Player::U);
            let ds = pickable(setup, &pos, Player::D);
            let (Some(&u), Some(&d)) = (us.choose(&mut rng), ds.choose(&mut rng)) else {
                break;
            };
            play_round(setup, &mut pos, [u, d], [0, 0]);
            let over = pickable(setup, &pos, Player::U).is_empty()
                || pickable(setup, &pos, Player::D).is_empty();
            if !over && seen.insert((pos.at.clone(), pos.alive.clone(), pos.territory.clone())) {
                out.push(pos.clone());
                if out.len() == fixed + wanted {
                    break;
                }
            }
        }
    }
    out
}

/// The name of `player`'s living tank `id`.
fn name_of(setup: &Setup, pos: &Position, player: Player, id: usize) -> Option<String> {
    setup
        .to_data(pos)
        .tanks
        .into_iter()
        .map(|t| t.name)
        .find(|name| setup.find(pos, player, name) == Some(id))
}

/// A random game to its end: its rounds (as `annotate` takes them) and
/// the position before each.
fn random_game(
    setup: &Setup,
    start: &Position,
    rng: &mut ChaCha8Rng,
) -> (Vec<Value>, Vec<Position>) {
    let (mut rounds, mut before) = (Vec::new(), Vec::new());
    let mut pos = start.clone();
    loop {
        let us = pickable(setup, &pos, Player::U);
        let ds = pickable(setup, &pos, Player::D);
        let (Some(&u), Some(&d)) = (us.choose(rng), ds.choose(rng)) else {
            break;
        };
        let (Some(un), Some(dn)) = (
            name_of(setup, &pos, Player::U, u),
            name_of(setup, &pos, Player::D, d),
        ) else {
            break;
        };
        rounds.push(json!({"U": un, "D": dn}));
        before.push(pos.clone());
        play_round(setup, &mut pos, [u, d], [0, 0]);
    }
    (rounds, before)
}

/// A strategy's picks with their probabilities, by name (those above
/// 1e-9), sorted.
fn support(entries: &Value, name: &str, probability: &str) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = entries
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| Some((e[name].as_str()?.to_owned(), e[probability].as_f64()?)))
        .filter(|(_, p)| *p > 1e-9)
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or(f64::NAN)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let (setup, start) = default_state();
    let mut client = match Client::connect(&args.addr) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot connect to {}: {e}", args.addr);
            return ExitCode::FAILURE;
        }
    };
    // The first request after start, before anything warms the server.
    let first_started = Instant::now();
    let first = client.post(
        "/v1/tank-war/ai-move",
        &json!({"state": state_json(&setup, &start), "player": "U"}),
    );
    let first_ms = first_started.elapsed().as_secs_f64() * 1e3;
    if !matches!(first, Ok((200, _))) {
        eprintln!("the first ai-move failed: {first:?}");
        return ExitCode::FAILURE;
    }
    let Some(game) = default_game() else {
        eprintln!("the default setup does not pack");
        return ExitCode::FAILURE;
    };
    let solved_at = Instant::now();
    let mut solver = Solver::new(game, None, Bounds::NONE);
    let value_of = |solver: &mut Solver, pos: &Position| -> f64 {
        game.pack(pos)
            .and_then(|key| solver.value(key).ok())
            .unwrap_or(f64::NAN)
    };
    let root_value = value_of(&mut solver, &start);
    println!(
        "whole game solved here without the table in {:.1} s: value {root_value:+.6}, {} unfinished positions",
        solved_at.elapsed().as_secs_f64(),
        solver.remembered()
    );
    let positions = positions(&setup, &start, args.positions, args.seed);
    // The first connection idled through the solve: a new one.
    client = match Client::connect(&args.addr) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot connect to {}: {e}", args.addr);
            return ExitCode::FAILURE;
        }
    };
    // An ai-move request, at the default limits or `--max-time-ms`.
    let ai_move = |pos: &Position, player: Player, seed: u64| {
        let mut request =
            json!({"state": state_json(&setup, pos), "player": player.to_string(), "seed": seed});
        if let Some(ms) = args.max_time_ms {
            request["limits"] = json!({ "max_time_ms": ms });
        }
        request
    };
    let mut latencies = Vec::new();
    let (mut answers, mut failures, mut worst_gain, mut worst_gap) = (0, 0, 0.0f64, 0.0f64);
    for (n, pos) in positions.iter().enumerate() {
        let value_u = value_of(&mut solver, pos);
        for player in Player::ALL {
            let request = ai_move(pos, player, n as u64);
            let started = Instant::now();
            let reply = client.post("/v1/tank-war/ai-move", &request);
            latencies.push(started.elapsed().as_secs_f64() * 1e3);
            answers += 1;
            let body = match reply {
                Ok((200, body)) => body,
                other => {
                    failures += 1;
                    eprintln!("position {n}, {player}: {other:?}");
                    continue;
                }
            };
            let sign = if player == Player::U { 1.0 } else { -1.0 };
            let expected = body["expected_result"].as_f64().unwrap_or(f64::NAN);
            let gap = (expected - sign * value_u).abs();
            // Against each reply, what the strategy earns by the solver's
            // values of the positions after the round.
            let strategy: Vec<(usize, f64)> = body["strategy"]
                .as_array()
                .map(|entries| {
                    entries
                        .iter()
                        .filter_map(|e| {
                            let id = setup.find(pos, player, e["move"].as_str()?)?;
                            Some((id, e["probability"].as_f64()?))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let mut gain = 0.0f64;
            for reply in pickable(&setup, pos, player.other()) {
                let mut earned = 0.0;
                for &(mine, p) in &strategy {
                    let picks = match player {
                        Player::U => [mine, reply],
                        Player::D => [reply, mine],
                    };
                    let mut child = pos.clone();
                    play_round(&setup, &mut child, picks, [0, 0]);
                    earned += p * sign * value_of(&mut solver, &child);
                }
                let d = sign * value_u - earned;
                gain = if d.is_nan() {
                    f64::INFINITY
                } else {
                    gain.max(d)
                };
            }
            let exact = body["exact"] == json!(true);
            let within = |x: f64| x.is_finite() && x <= args.tolerance;
            if !exact || !within(gap) || !within(gain) {
                failures += 1;
                if failures <= 10 {
                    eprintln!(
                        "position {n}, {player}: exact {exact}, expected {expected} vs value {}, a reply gains {gain}",
                        sign * value_u
                    );
                }
            }
            worst_gain = worst_gain.max(gain);
            worst_gap = worst_gap.max(gap);
        }
    }
    // Issue 52: every entry of a review is exact and judged against the
    // strategies `ai-move` plays.
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_add(1));
    let (mut entries, mut review_failures) = (0usize, 0usize);
    for g in 0..args.games {
        let (rounds, before) = random_game(&setup, &start, &mut rng);
        let review = match client.post("/v1/tank-war/annotate", &json!({"rounds": rounds})) {
            Ok((200, body)) => body,
            other => {
                review_failures += 1;
                eprintln!("game {g}: annotate {other:?}");
                continue;
            }
        };
        for entry in review["plies"].as_array().into_iter().flatten() {
            entries += 1;
            let ply = entry["ply"].as_u64().unwrap_or(u64::MAX) as usize;
            let player = match entry["player"].as_str() {
                Some("U") => Player::U,
                _ => Player::D,
            };
            let Some(pos) = before.get(ply) else {
                review_failures += 1;
                continue;
            };
            let sign = if player == Player::U { 1.0 } else { -1.0 };
            let value = entry["value"].as_f64().unwrap_or(f64::NAN);
            let gap = (value - sign * value_of(&mut solver, pos)).abs();
            let strategy = |who: Player, client: &mut Client| match client
                .post("/v1/tank-war/ai-move", &ai_move(pos, who, g as u64))
            {
                Ok((200, body)) => Some(support(&body["strategy"], "move", "probability")),
                _ => None,
            };
            let own = strategy(player, &mut client);
            let theirs = strategy(player.other(), &mut client);
            let mut best: Vec<String> = entry["best"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str().map(str::to_owned))
                .collect();
            best.sort();
            let against = support(&entry["against"], "move", "probability");
            let same_best = own
                .as_ref()
                .is_some_and(|own| own.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>() == best);
            let same_against = theirs.as_ref().is_some_and(|theirs| {
                theirs.len() == against.len()
                    && theirs
                        .iter()
                        .zip(&against)
                        .all(|((m, p), (n, q))| m == n && (p - q).abs() <= 1e-6)
            });
            let exact = entry["exact"] == json!(true);
            if !exact || gap.is_nan() || gap > 1e-6 || !same_best || !same_against {
                review_failures += 1;
                if review_failures <= 10 {
                    eprintln!(
                        "game {g}, round {ply}, {player}: exact {exact}, value off by {gap:.2e}, best {best:?} vs ai-move {own:?}, against {against:?} vs {theirs:?}"
                    );
                }
            }
        }
    }
    println!(
        "{} random games reviewed, {entries} entries: {review_failures} not exact within 1e-6 or not judged against ai-move's strategies",
        args.games
    );
    failures += review_failures;
    let mut sorted = latencies.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "{} positions ({} from random playouts), {answers} answers: largest gain of a reply {worst_gain:.2e}, largest |expected_result - value| {worst_gap:.2e}",
        positions.len(),
        positions.len().saturating_sub(1 + ILLUSTRATION.len()),
    );
    println!(
        "latency ms: first request {first_ms:.1}; p50 {:.1}, p90 {:.1}, p99 {:.1}, max {:.1}",
        percentile(&sorted, 0.5),
        percentile(&sorted, 0.9),
        percentile(&sorted, 0.99),
        sorted.last().copied().unwrap_or(f64::NAN)
    );
    let ok = failures == 0;
    println!(
        "tank-war-exact: {} — {answers} answers, {failures} not exact or not an equilibrium within {}",
        if ok { "PASS" } else { "FAIL" },
        args.tolerance
    );
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
