//! The Tank War AI's tests: the search, the levels and exact play.

use super::search::{deepen, Leaves};
use super::*;
use crate::games::tank_war::rules::{outcome, play_round};
use crate::games::tank_war::solve;
use crate::games::tank_war::state::{default_state, ILLUSTRATION};
use crate::games::Level;

/// Limits of depth `d` alone.
pub(super) fn depth(d: u32) -> SearchLimits<'static> {
    SearchLimits {
        max_time: None,
        max_depth: d,
        max_nodes: u64::MAX,
        stop: None,
    }
}

/// The search alone, as it plays where the game cannot be solved: the
/// root's solution, payoffs, depth and positions.
fn searched(setup: &Setup, pos: &Position, limits: SearchLimits) -> (u32, u64) {
    let picks = [
        pickable(setup, pos, Player::U),
        pickable(setup, pos, Player::D),
    ];
    let found = deepen(setup, pos, &picks, limits, Instant::now(), None);
    (found.depth, found.nodes)
}

/// Plays a round of each player's first pickable tank; its picks.
fn play_first_picks(setup: &Setup, pos: &mut Position) -> [usize; 2] {
    let first = |p| pickable(setup, pos, p).first().copied();
    let (Some(u), Some(d)) = (first(Player::U), first(Player::D)) else {
        panic!("the game goes on");
    };
    play_round(setup, pos, [u, d], [0, 0]);
    [u, d]
}

#[test]
fn the_line_keeping_levels_move_their_rearmost_tanks() {
    let (setup, mut pos) = default_state();
    let [u, _] = play_first_picks(&setup, &mut pos);
    let level = |n| Style::at(Level::new(n).unwrap_or_else(|| panic!("level {n}")));
    let share = |result: &SearchResult, id: usize| {
        result
            .strategy
            .iter()
            .find(|(tank, _)| *tank == id)
            .map_or(0.0, |(_, p)| *p)
    };
    for seed in 0..20 {
        let Some(line) = search_with(&setup, &pos, Player::U, depth(64), seed, level(1)) else {
            panic!("the game goes on");
        };
        // U's tank that moved is ahead of the line; the other five share it.
        assert_ne!(line.pick, u);
        assert_eq!(share(&line, u), 0.0);
        for &(id, p) in &line.strategy {
            assert!(id == u || (p - 0.2).abs() < 1e-12, "{:?}", line.strategy);
        }
        let Some(equilibrium) = search_with(&setup, &pos, Player::U, depth(64), seed, level(5))
        else {
            panic!("the game goes on");
        };
        let Some(mixed) = search_with(&setup, &pos, Player::U, depth(64), seed, level(4)) else {
            panic!("the game goes on");
        };
        let formation = recipe(Level::new(4).unwrap_or_else(|| panic!("level 4"))).formation;
        for &(id, p) in &mixed.strategy {
            let expected =
                (1.0 - formation) * share(&equilibrium, id) + formation * share(&line, id);
            assert!((p - expected).abs() < 1e-9, "{id}: {p} vs {expected}");
        }
    }
}

#[test]
fn a_tree_played_to_its_end_is_not_searched_deeper() {
    // The rules' illustration, then each player's first pick for three
    // rounds: every line ends within ten rounds.
    let (setup, mut pos) = default_state();
    for (u, d) in ILLUSTRATION {
        let (Some(u), Some(d)) = (
            setup.find(&pos, Player::U, u),
            setup.find(&pos, Player::D, d),
        ) else {
            panic!("{u} and {d} are alive");
        };
        play_round(&setup, &mut pos, [u, d], [0, 0]);
    }
    for _ in 0..3 {
        play_first_picks(&setup, &mut pos);
    }
    let (solved_depth, solved_nodes) = searched(&setup, &pos, depth(64));
    // Deepening stops where every line has ended instead of searching
    // the same tree again up to depth 64.
    assert!(solved_depth < 64, "depth {solved_depth}");
    let (shallower_depth, shallower_nodes) = searched(&setup, &pos, depth(solved_depth - 1));
    assert_eq!(shallower_depth, solved_depth - 1, "a line goes on");
    assert!(shallower_nodes < solved_nodes);
}

#[test]
fn transpositions_are_searched_once() {
    let (setup, pos) = default_state();
    let (searched_depth, nodes) = searched(&setup, &pos, depth(3));
    assert_eq!(searched_depth, 3);
    // Iterative deepening to depth 3 evaluates, without a table, every
    // sequence of picks: 36, then 36 + 36^2, then 36 + 36^2 + 36^3
    // positions (49,356). The start has 36 positions after one round
    // and 441 after two, so with the table depth 3 needs 36 + 441
    // positions inside the tree and 441 x 36 leaves at most (fewer
    // when a blocked move makes a position after two rounds one the
    // table holds already).
    let without_table = 36 + (36 + 1_296) + (36 + 1_296 + 46_656);
    let with_table = 36 + (36 + 1_296) + (36 + 441 + 441 * 36);
    assert!(
        nodes <= with_table && nodes < without_table / 2,
        "{nodes} nodes"
    );
}

#[test]
fn full_strength_and_level_8_play_the_exact_equilibrium_and_level_7_does_not() {
    // The illustration's first five rounds: a position the table does
    // not hold (solved on demand).
    let (setup, mut pos) = default_state();
    for (u, d) in ILLUSTRATION {
        let (Some(u), Some(d)) = (
            setup.find(&pos, Player::U, u),
            setup.find(&pos, Player::D, d),
        ) else {
            panic!("{u} and {d} are alive");
        };
        play_round(&setup, &mut pos, [u, d], [0, 0]);
    }
    let game = solve::Packed::new(&setup, &pos).unwrap_or_else(|| panic!("packs"));
    let key = game.pack(&pos).unwrap_or_else(|| panic!("packs"));
    let mut solver = solve::Solver::new(&game, None, solve::Bounds::NONE);
    let value_for_u = solver.value(key).unwrap_or_else(|e| panic!("{e}"));
    for player in Player::ALL {
        let sign = if player == Player::U { 1.0 } else { -1.0 };
        for style in [
            Style::FULL,
            Style::at(Level::new(8).unwrap_or_else(|| panic!("level 8"))),
        ] {
            let Some(answer) = search_with(&setup, &pos, player, depth(64), 3, style) else {
                panic!("the game goes on");
            };
            assert!(answer.exact, "{style:?}");
            let expected = answer.expected_result.unwrap_or(f64::NAN);
            // (The table keeps values as f32.)
            assert!((expected - sign * value_for_u).abs() < 1e-6, "{expected}");
            assert!((answer.value - expected * WIN).abs() < 1e-6);
            // No reply of the opponent gains anything against the
            // strategy: each of its replies leaves the player at least
            // the game's value, by the solver's values of the children.
            let theirs = pickable(&setup, &pos, player.other());
            for &reply in &theirs {
                let mut earned = 0.0;
                for &(mine, p) in &answer.strategy {
                    let picks = match player {
                        Player::U => [mine, reply],
                        Player::D => [reply, mine],
                    };
                    let mut child = pos.clone();
                    play_round(&setup, &mut child, picks, [0, 0]);
                    let child_key = game.pack(&child).unwrap_or_else(|| panic!("packs"));
                    let v = solver.value(child_key).unwrap_or_else(|e| panic!("{e}"));
                    earned += p * sign * v;
                }
                assert!(earned >= expected - 1e-6, "{reply}: {earned} < {expected}");
            }
            for &(_, worst) in &answer.worst_case {
                assert!((-1.0..=1.0).contains(&worst), "{worst}");
            }
        }
        let level_7 = Style::at(Level::new(7).unwrap_or_else(|| panic!("level 7")));
        let Some(answer) = search_with(&setup, &pos, player, depth(64), 3, level_7) else {
            panic!("the game goes on");
        };
        assert!(!answer.exact && answer.expected_result.is_none());
    }
}

#[test]
fn the_search_solves_its_leaves_where_their_games_are_small() {
    // The illustration's five rounds: a game of about 56,000 positions,
    // whose children are smaller.
    let (setup, mut pos) = default_state();
    for (u, d) in ILLUSTRATION {
        let (Some(u), Some(d)) = (
            setup.find(&pos, Player::U, u),
            setup.find(&pos, Player::D, d),
        ) else {
            panic!("{u} and {d} are alive");
        };
        play_round(&setup, &mut pos, [u, d], [0, 0]);
    }
    let picks = [
        pickable(&setup, &pos, Player::U),
        pickable(&setup, &pos, Player::D),
    ];
    let compiled = solve::Compiled::new(&setup, &pos).unwrap_or_else(|| panic!("packs"));
    let leaves = || {
        let solver = compiled
            .solver(solve::Bounds::NONE)
            .unwrap_or_else(|| panic!("a solver"));
        Some(Leaves::new(&compiled, solver))
    };
    let with = deepen(&setup, &pos, &picks, depth(1), Instant::now(), leaves());
    let without = deepen(&setup, &pos, &picks, depth(1), Instant::now(), None);
    // Each child whose game fits in a leaf's solve is worth its exact
    // value; the others (and all without the solver) their material.
    let game = compiled.game().unwrap_or_else(|| panic!("compiled"));
    let mut solver = solve::Solver::new(game, None, solve::Bounds::NONE);
    let (mut solved, mut by_material) = (0, 0);
    let mut pairs = with.matrix.iter().zip(&without.matrix);
    for &u in &picks[0] {
        for &d in &picks[1] {
            let Some((&leaf, &material)) = pairs.next() else {
                panic!("a value for every pair");
            };
            let mut child = pos.clone();
            play_round(&setup, &mut child, [u, d], [0, 0]);
            if outcome(&setup, &child).is_some() {
                assert_eq!(leaf, material);
                continue;
            }
            let key = compiled.key(&child).unwrap_or_else(|| panic!("packs"));
            let small = solve::Solver::new(
                game,
                None,
                solve::Bounds {
                    max_positions: 4_096,
                    ..solve::Bounds::NONE
                },
            )
            .value(key)
            .is_ok();
            let exact = solver.value(key).unwrap_or_else(|e| panic!("{e}"));
            // A leaf small on its own is solved; a larger one may be too,
            // with what the leaves before it solved. (The table keeps its
            // values as f32.)
            if (leaf / WIN - exact).abs() < 1e-6 {
                solved += 1;
            } else {
                assert!(!small, "{leaf} vs {exact}");
                assert_eq!(leaf, material);
                by_material += 1;
            }
        }
    }
    assert!(solved > 0, "no leaf was solved ({by_material} too large)");
}
