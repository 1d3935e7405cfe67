//! Tests of the search: legal answers, tactics at small depth, limits and
//! determinism.

use std::time::Duration;

use proptest::prelude::*;

use super::super::{parse_position, Layout, MoveText, Position, Side, State, SCORING_EXAMPLE_TBN};
use super::{search, search_with, SearchLimits, WIN};
use crate::games::{Level, Style};

fn depth_limited(depth: u32) -> SearchLimits<'static> {
    SearchLimits {
        max_time: None,
        max_depth: depth,
        max_nodes: u64::MAX,
        stop: None,
    }
}

fn best(tbn: &str, depth: u32) -> (String, i32) {
    let layout = Layout::STANDARD;
    let pos = parse_position(tbn, &layout).unwrap();
    let result = search(&State::new(layout, pos), depth_limited(depth), 0).unwrap();
    (result.best.to_string(), result.evaluation)
}

#[test]
fn ends_a_won_game_at_once() {
    // White: a tank in Black's base (2) and one on a5 that can enter it;
    // Black: one tank on the field, f1 (1). a5-a8 puts every white tank in
    // Black's base: the game ends 4-1.
    let tbn = "11/11/1T9/11/11/11/T10/11/11/11/5t5 w 20";
    let (mv, eval) = best(tbn, 2);
    assert!(mv == "a5-a8" || mv == "a5-a9", "{mv}");
    assert_eq!(eval, WIN - 1);
    let layout = Layout::STANDARD;
    let pos = parse_position(tbn, &layout).unwrap();
    let (after, _) = pos.play(&layout, mv.parse().unwrap()).unwrap();
    assert_eq!(
        after.outcome(&layout),
        Some(super::super::Outcome::Winner(Side::White))
    );
}

#[test]
fn captures_the_last_enemy_tank_to_win() {
    // Capturing Black's last tank ends the game with White ahead.
    let (mv, eval) = best("11/11/11/11/11/c10/11/11/11/T10/10C w 8", 1);
    assert_eq!(mv, "a2xa6");
    assert!(eval > WIN - 10, "{eval}");
}

#[test]
fn avoids_ending_a_lost_game() {
    // White's only tank could enter Black's base and end the game 2-3
    // (Black's three tanks wait in their own base); every other move keeps
    // it going.
    let (mv, eval) = best("2t8/1t9/1t9/11/11/11/T10/11/11/11/11 w 4", 2);
    assert_ne!(mv, "a5-a8");
    assert!(eval < WIN - 1000 && eval > -WIN + 1000, "{eval}");
}

#[test]
fn respects_the_node_limit_and_is_deterministic() {
    let layout = Layout::STANDARD;
    let pos = Position::initial(&layout);
    let limits = SearchLimits {
        max_time: None,
        max_depth: 64,
        max_nodes: 5_000,
        stop: None,
    };
    let a = search(&State::new(layout, pos), limits, 7).unwrap();
    let mut b = search(&State::new(layout, pos), limits, 7).unwrap();
    assert!(a.nodes <= 5_000, "{} nodes", a.nodes);
    // Identical but for the time taken.
    b.elapsed = a.elapsed;
    assert_eq!(a, b);
    assert!(a.depth >= 1);
    assert_eq!(a.pv.first(), Some(&a.best));
}

#[test]
fn stops_on_time() {
    let layout = Layout::STANDARD;
    let pos = Position::initial(&layout);
    let limits = SearchLimits {
        max_time: Some(Duration::from_millis(30)),
        max_depth: 64,
        max_nodes: u64::MAX,
        stop: None,
    };
    let result = search(&State::new(layout, pos), limits, 0).unwrap();
    assert!(result.depth >= 1 && result.depth < 64);
}

#[test]
fn a_finished_position_has_no_move() {
    let layout = Layout::STANDARD;
    let pos = parse_position(SCORING_EXAMPLE_TBN, &layout).unwrap();
    assert_eq!(search(&State::new(layout, pos), depth_limited(3), 0), None);
}

fn random_position() -> impl Strategy<Value = Position> {
    prop::collection::vec(any::<prop::sample::Index>(), 0..80).prop_map(|picks| {
        let layout = Layout::STANDARD;
        let mut pos = Position::initial(&layout);
        for pick in picks {
            let moves = pos.legal_moves(&layout);
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(*pick.get(&moves));
        }
        pos
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn always_answers_a_legal_move(pos in random_position(), seed in any::<u64>(), depth in 1u32..4) {
        let layout = Layout::STANDARD;
        match search(&State::new(layout, pos), depth_limited(depth), seed) {
            None => prop_assert!(pos.is_finished(&layout)),
            Some(result) => {
                let text = MoveText { from: result.best.from, to: result.best.to };
                prop_assert_eq!(pos.validate(&layout, text), Ok(result.best));
                // The principal variation is a legal line.
                let mut line = pos;
                for mv in &result.pv {
                    let (next, played) = line
                        .play(&layout, MoveText { from: mv.from, to: mv.to })
                        .map_err(|e| TestCaseError::fail(format!("pv move {mv} illegal: {e}")))?;
                    prop_assert_eq!(played, *mv);
                    line = next;
                }
            }
        }
    }

    /// Analysis is the same search: its first line is the move and value
    /// of a single-line search, its lines are legal, exact and sorted.
    #[test]
    fn analysis_starts_with_the_best_move(pos in random_position(), seed in any::<u64>(), depth in 1u32..4, lines in 2usize..6) {
        let layout = Layout::STANDARD;
        let single = search(&State::new(layout, pos), depth_limited(depth), seed);
        let style = Style { level: None, lines };
        let analysis = search_with(&State::new(layout, pos), depth_limited(depth), seed, style);
        match (single, analysis) {
            (None, None) => prop_assert!(pos.is_finished(&layout)),
            (Some(single), Some(analysis)) => {
                prop_assert_eq!(analysis.best, single.best, "single {:?} analysis {:?} lines {:?}", single.evaluation, analysis.evaluation, analysis.lines.iter().map(|l| (l.mv.to_string(), l.evaluation)).collect::<Vec<_>>());
                prop_assert_eq!(analysis.evaluation, single.evaluation);
                let count = pos.legal_moves(&layout).len().min(lines);
                prop_assert_eq!(analysis.lines.len(), count);
                prop_assert_eq!(analysis.lines.first().map(|l| l.mv), Some(single.best));
                prop_assert!(analysis.lines.windows(2).all(|w| w[0].evaluation >= w[1].evaluation));
                for line in &analysis.lines {
                    prop_assert_eq!(line.pv.first(), Some(&line.mv));
                    let text = MoveText { from: line.mv.from, to: line.mv.to };
                    prop_assert!(pos.validate(&layout, text).is_ok());
                }
            }
            (single, analysis) => prop_assert!(false, "{single:?} vs {analysis:?}"),
        }
    }

    /// A level is a function of position and seed, within its recipe.
    #[test]
    fn a_level_repeats_with_its_seed(pos in random_position(), seed in any::<u64>(), level in 1u8..=6) {
        let layout = Layout::STANDARD;
        let unbounded = depth_limited(64);
        let Some(level) = Level::new(level) else { return Ok(()) };
        let a = search_with(&State::new(layout, pos), unbounded, seed, Style::at(level));
        let b = search_with(&State::new(layout, pos), unbounded, seed, Style::at(level));
        let strip = |r: Option<super::SearchResult>| r.map(|r| (r.best, r.evaluation, r.depth, r.nodes, r.pv));
        let recipe = super::levels::recipe(level);
        if let Some(result) = &a {
            prop_assert!(result.nodes <= recipe.nodes + 1);
            prop_assert!(result.depth <= recipe.depth);
        }
        prop_assert_eq!(strip(a), strip(b));
    }
}

/// Plays `pos` out between `white` and `black` searches (depths), at most
/// `plies` moves; the final position and the moves played.
fn play_out(mut pos: Position, white: u32, black: u32, plies: usize) -> (Position, usize) {
    let layout = Layout::STANDARD;
    for played in 0..plies {
        let depth = if pos.turn() == Side::White {
            white
        } else {
            black
        };
        let Some(result) = search(
            &State::new(layout, pos),
            depth_limited(depth),
            played as u64,
        ) else {
            return (pos, played);
        };
        pos.play_unchecked(result.best);
    }
    (pos, plies)
}

#[test]
fn runs_down_the_last_enemy_tank() {
    // From a game between levels 8 and 2: Black's last tank (d11) runs
    // about the open board, White has eleven. White could bank its tanks in
    // Black's base for many moves; closing in on the runner (which must move
    // every turn) takes it sooner, and taking it ends the game.
    let layout = Layout::STANDARD;
    let pos = parse_position("3t7/11/11/11/8T2/11/10T/10T/10T/8T1T/T2T4TTC b 47", &layout).unwrap();
    let (end, plies) = play_out(pos, 3, 2, 40);
    assert!(
        end.tanks(Side::Black).is_empty(),
        "after {plies} plies: {}",
        end.to_setup()
    );
}
