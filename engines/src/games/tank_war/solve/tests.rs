use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::games::grid::{Board, Cell};
use crate::games::tank_war::rules::{outcome, pickable, play_round};
use crate::games::tank_war::state::{default_state, Player, Position, Setup, TankType};
use crate::games::tank_war::{StateData, TankData};
use std::time::Instant;

/// A tank as a state lists it.
fn tank(owner: Player, name: &str, kind: TankType, track: &[&str], at: usize) -> TankData {
    TankData {
        owner,
        name: name.to_owned(),
        kind,
        track: track.iter().map(|s| (*s).to_owned()).collect(),
        at,
    }
}

/// Small custom games: two or three tanks a side, crossing tracks,
/// contested squares, all three gun patterns.
fn small_games() -> Vec<(Setup, Position)> {
    let states = [
        StateData {
            rows: 4,
            cols: 4,
            territory: ["UUUU", "UUUU", "DDDD", "DDDD"].map(str::to_owned).to_vec(),
            tanks: vec![
                tank(Player::U, "A", TankType::A, &["a4", "a3", "a2", "a1"], 1),
                tank(Player::U, "B", TankType::B, &["c4", "c3", "c2", "c1"], 0),
                tank(Player::D, "A", TankType::A, &["b1", "b2", "b3", "b4"], 1),
                tank(Player::D, "C", TankType::C, &["d1", "d2", "d3", "d4"], 0),
            ],
            round: 0,
            clock_ms: [60_000, 60_000],
        },
        StateData {
            rows: 3,
            cols: 4,
            territory: ["UUUU", "UDDU", "DDDD"].map(str::to_owned).to_vec(),
            tanks: vec![
                tank(
                    Player::U,
                    "X",
                    TankType::B,
                    &["a3", "b3", "b2", "c2", "c1"],
                    0,
                ),
                tank(Player::U, "Y", TankType::C, &["d3", "d2", "c2", "b2"], 0),
                tank(Player::U, "Z", TankType::A, &["c3"], 0),
                tank(Player::D, "X", TankType::A, &["a1", "a2", "b2", "b1"], 0),
                tank(Player::D, "Y", TankType::B, &["d1", "d2", "d3"], 0),
            ],
            round: 3,
            clock_ms: [1_000, 2_000],
        },
    ];
    states
        .iter()
        .map(|data| Setup::from_data(data).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// U's result of a finished game.
fn result(setup: &Setup, pos: &Position) -> Option<f64> {
    outcome(setup, pos).map(|o| match o.winner {
        Some(Player::U) => 1.0,
        Some(Player::D) => -1.0,
        None => 0.0,
    })
}

/// The game's value for U by plain recursion over the engine's own
/// positions, without memory or packing: the definition the solver must
/// meet.
fn brute_force(setup: &Setup, pos: &Position) -> f64 {
    if let Some(r) = result(setup, pos) {
        return r;
    }
    let us = pickable(setup, pos, Player::U);
    let ds = pickable(setup, pos, Player::D);
    let mut m = Vec::new();
    for &u in &us {
        for &d in &ds {
            let mut child = pos.clone();
            play_round(setup, &mut child, [u, d], [0, 0]);
            m.push(brute_force(setup, &child));
        }
    }
    lp::solve(&m, us.len(), ds.len()).value
}

fn solve_value(setup: &Setup, pos: &Position) -> f64 {
    let game = Packed::new(setup, pos).unwrap_or_else(|| panic!("packs"));
    let key = game.pack(pos).unwrap_or_else(|| panic!("packs"));
    Solver::new(&game, None, Bounds::NONE)
        .value(key)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// `pos` with each destroyed tank at index 0: the engine keeps a
/// destroyed tank's place, a packed position does not.
fn without_the_dead(pos: &Position) -> Position {
    let mut out = pos.clone();
    for (at, alive) in out.at.iter_mut().zip(&pos.alive) {
        if !alive {
            *at = 0;
        }
    }
    out
}

#[test]
fn the_packed_rules_are_the_engines() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut games = small_games();
    games.push(default_state());
    let mut rounds = 0;
    for (setup, start) in games {
        let game = Packed::new(&setup, &start).unwrap_or_else(|| panic!("packs"));
        for _ in 0..200 {
            let mut pos = start.clone();
            loop {
                let key = game.pack(&pos).unwrap_or_else(|| panic!("packs"));
                assert_eq!(game.unpack(key, &pos), without_the_dead(&pos));
                let mut picks = [Vec::new(), Vec::new()];
                let finished = game.picks(key, &mut picks);
                assert_eq!(finished, result(&setup, &pos), "{pos:?}");
                if finished.is_some() {
                    break;
                }
                for player in Player::ALL {
                    let engine: Vec<u8> = pickable(&setup, &pos, player)
                        .into_iter()
                        .map(|id| id as u8)
                        .collect();
                    assert_eq!(picks[player.index()], engine);
                }
                let (Some(&u), Some(&d)) = (picks[0].choose(&mut rng), picks[1].choose(&mut rng))
                else {
                    panic!("both players can pick");
                };
                let child = game.child(key, u, d);
                play_round(&setup, &mut pos, [usize::from(u), usize::from(d)], [0, 0]);
                assert_eq!(game.unpack(child, &pos), without_the_dead(&pos));
                rounds += 1;
            }
        }
    }
    assert!(rounds > 1_000, "{rounds} rounds compared");
}

#[test]
fn small_games_are_solved_as_by_brute_force() {
    let mut checked = 0;
    for (setup, start) in small_games() {
        // The start and every position one and two rounds on.
        let mut positions = vec![start.clone()];
        let mut from = 0;
        for _ in 0..2 {
            let layer: Vec<Position> = positions[from..].to_vec();
            from = positions.len();
            for pos in layer {
                for u in pickable(&setup, &pos, Player::U) {
                    for d in pickable(&setup, &pos, Player::D) {
                        let mut child = pos.clone();
                        play_round(&setup, &mut child, [u, d], [0, 0]);
                        positions.push(child);
                    }
                }
            }
        }
        for pos in positions {
            let expected = brute_force(&setup, &pos);
            let solved = solve_value(&setup, &pos);
            assert!((solved - expected).abs() < 1e-9, "{solved} vs {expected}");
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked} positions");
}

/// The default game after `rounds` rounds of the rules' illustration.
fn illustration(rounds: usize) -> (Setup, Position) {
    let (setup, mut pos) = default_state();
    for (u, d) in crate::games::tank_war::state::ILLUSTRATION
        .iter()
        .take(rounds)
    {
        let (Some(a), Some(b)) = (
            setup.find(&pos, Player::U, u),
            setup.find(&pos, Player::D, d),
        ) else {
            panic!("{u} and {d} are alive");
        };
        play_round(&setup, &mut pos, [a, b], [0, 0]);
    }
    (setup, pos)
}

#[test]
fn the_illustrations_last_rounds_have_the_values_an_independent_solver_found() {
    // Issue 23's table, from a solver written apart from this one:
    // -1.000 after round 4, -0.622 after round 5 (3 decimals).
    for (rounds, expected) in [(4, -1.0), (5, -0.622)] {
        let (setup, pos) = illustration(rounds);
        let value = solve_value(&setup, &pos);
        assert!(
            (value - expected).abs() < 0.0005,
            "after round {rounds}: {value}"
        );
    }
}

#[test]
fn a_solve_stops_at_its_cap_and_says_so() {
    let (setup, pos) = default_state();
    let game = Packed::new(&setup, &pos).unwrap_or_else(|| panic!("packs"));
    let key = game.pack(&pos).unwrap_or_else(|| panic!("packs"));
    let bounds = Bounds {
        max_positions: 1_000,
        ..Bounds::NONE
    };
    let mut solver = Solver::new(&game, None, bounds);
    assert_eq!(solver.value(key), Err(Unsolved::TooLarge));
    assert!(solver.remembered() <= 1_000);
    let past = Bounds {
        deadline: Some(Instant::now()),
        ..Bounds::NONE
    };
    assert_eq!(
        Solver::new(&game, None, past).value(key),
        Err(Unsolved::OutOfTime)
    );
}

#[test]
fn the_committed_table_is_this_engines_and_agrees_with_the_solver() {
    let table = Table::built_in().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(table.rounds, table::ROUNDS);
    // Every position within the table's rounds, and no other.
    let positions = table::default_positions(table::ROUNDS);
    assert_eq!(table.len(), positions.len());
    let game = table::default_game().unwrap_or_else(|| panic!("packs"));
    // The start is worth 0 (the setup is symmetric).
    let root = positions[0];
    assert!(table.get(root).is_some_and(|v| v.abs() < 1e-6));
    // A sample of the last rounds' positions, solved again without the
    // table: every 97th of the positions whose game is small.
    let mut compared = 0;
    for &key in positions.iter().rev().step_by(97).take(400) {
        let bounds = Bounds {
            max_positions: 20_000,
            ..Bounds::NONE
        };
        let Ok(solved) = Solver::new(game, None, bounds).value(key) else {
            continue;
        };
        let listed = table.get(key).unwrap_or(f64::NAN);
        assert!(
            (solved - listed).abs() < 1e-6,
            "{key:#x}: {solved} vs {listed}"
        );
        compared += 1;
    }
    assert!(compared >= 20, "only {compared} positions compared");
}

#[test]
fn the_table_round_trips_and_refuses_damage() {
    let table = Table::new(vec![(5, 0.5), (1, -1.0), (1 << 90, 0.25)], 2);
    let file = table.encode().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(Table::decode(&file), Ok(table.clone()));
    assert_eq!(table.get(1 << 90), Some(0.25));
    assert_eq!(table.get(2), None);
    let mut payload = zstd::decode_all(file.as_slice()).unwrap_or_default();
    if let Some(b) = payload.get_mut(30) {
        *b ^= 1;
    }
    let damaged = zstd::encode_all(payload.as_slice(), 1).unwrap_or_default();
    assert_eq!(Table::decode(&damaged), Err(table::TableError::Checksum));
}

/// A built-in table that does not decode is the server's refusal to start
/// (`serve` reads it with `Table::built_in`, which reads it with `load`),
/// saying which file and how to make it again: never a search without it.
#[test]
fn a_damaged_table_is_refused_with_the_way_to_rebuild_it() {
    let file = include_bytes!("../../../../../data/tank_war_default.table.zst");
    assert!(table::load(file).is_ok_and(|table| Table::built_in() == Ok(&table)));
    let mut damaged = file.to_vec();
    let middle = damaged.len() / 2;
    if let Some(b) = damaged.get_mut(middle) {
        *b ^= 0x55;
    }
    for (file, why) in [
        (damaged.as_slice(), "a byte changed"),
        (file.get(..file.len() / 2).unwrap_or_default(), "cut short"),
        (b"TWTABLE1".as_slice(), "not zstd"),
    ] {
        let refused = table::load(file)
            .err()
            .unwrap_or_else(|| panic!("{why}: taken"));
        let said = refused.to_string();
        assert!(
            said.contains("data/tank_war_default.table.zst")
                && said.contains("cargo run --release --bin tank_war_table"),
            "{why}: {said}"
        );
    }
}

#[test]
fn the_default_setup_is_recognised_in_any_order_with_tanks_gone() {
    let (setup, pos) = default_state();
    // Tanks listed in reverse, U's LA gone.
    let gone = setup
        .find(&pos, Player::U, "LA")
        .unwrap_or_else(|| panic!("LA"));
    let keep: Vec<usize> = (0..setup.tanks.len())
        .rev()
        .filter(|&i| i != gone)
        .collect();
    let shuffled = Setup {
        board: setup.board,
        tanks: keep.iter().map(|&i| setup.tanks[i].clone()).collect(),
    };
    let moved = Position {
        at: keep.iter().map(|&i| pos.at[i]).collect(),
        alive: vec![true; keep.len()],
        ..pos.clone()
    };
    let Some((ids, default_pos)) = table::on_default_setup(&shuffled, &moved) else {
        panic!("recognised");
    };
    assert_eq!(ids, keep);
    assert!(!default_pos.alive[gone]);
    // Another board or another track is not the default setup.
    let mut other = shuffled.clone();
    other.tanks[0].name = "XX".to_owned();
    assert!(table::on_default_setup(&other, &moved).is_none());
}

/// A setup whose tracks cover more than 128 squares cannot be packed (a
/// position holds a bit a square): it is refused, not overflowed (a fire
/// mask's `1 << id` past 127 panicked in debug builds and wrapped in
/// release ones).
#[test]
fn more_squares_than_bits_are_refused_not_overflowed() {
    let (setup, pos) = default_state();
    let board = Board { rows: 26, cols: 26 };
    // One tank's track over 200 squares of a 26x26 board.
    let long: Vec<Cell> = (0..200u16)
        .map(|i| Cell {
            col: (i % 26) as u8,
            row: (i / 26) as u8,
        })
        .collect();
    let mut tanks = setup.tanks.clone();
    tanks[0].track = long;
    let big = Setup { board, tanks };
    let moved = Position {
        territory: vec![Player::U; board.len()],
        ..pos
    };
    assert!(Packed::new(&big, &moved).is_none());
}
