//! Fixed games with known tactics, and what their puzzles must be.

use super::*;
use crate::games::review::puzzle::find_in_game;
use crate::games::review::Review;
use crate::games::tank_battle::{parse_position, MoveText};

/// The judge's budget the tests search with: small, as the positions are.
const NODES: u64 = 4 * TankBattle::JUDGE_MIN_NODES;

fn limits() -> SearchLimits<'static> {
    SearchLimits {
        max_time: None,
        max_depth: 64,
        max_nodes: NODES,
        stop: None,
    }
}

fn state(tbn: &str) -> State {
    let layout = Layout::STANDARD;
    match parse_position(tbn, &layout) {
        Ok(position) => State::new(layout, position),
        Err(e) => panic!("{tbn}: {e}"),
    }
}

fn moves(texts: &[&str]) -> Vec<MoveText> {
    texts
        .iter()
        .map(|t| t.parse().unwrap_or_else(|e| panic!("{t}: {e:?}")))
        .collect()
}

/// The puzzles of a game, each checked: its solution replays legally
/// from its position, the solver's moves first and last, and its id is
/// its position's.
fn puzzles(tbn: &str, played: &[&str]) -> Vec<Puzzle<Move>> {
    let start = state(tbn);
    let steps = moves(played);
    let (found, spent) = find_in_game::<TankBattle>(&start, &steps, limits(), usize::MAX);
    assert!(spent.searches >= steps.len() as u64, "{spent:?}");
    let mut states = vec![start];
    for step in &steps {
        let mut next = states[states.len() - 1];
        TankBattle::play(&mut next, *step).expect("the game is legal");
        states.push(next);
    }
    for puzzle in &found {
        let at = states[puzzle.ply];
        assert_eq!(puzzle.player, at.position.turn().index());
        assert_eq!(puzzle.id, puzzle_id(&at));
        assert_eq!(puzzle.solution.len() % 2, 1, "{puzzle:?}");
        let mut replay = at;
        for mv in &puzzle.solution {
            TankBattle::play(&mut replay, MoveText::from(*mv))
                .unwrap_or_else(|e| panic!("{puzzle:?}: {e}"));
        }
        assert!(puzzle.chance - puzzle.second_chance >= MARGIN || puzzle.chance >= 100.0);
        assert_eq!(Ok(puzzle.source.played), at.validate(steps[puzzle.ply]));
    }
    found
}

fn at_ply(found: &[Puzzle<Move>], ply: usize) -> &Puzzle<Move> {
    found
        .iter()
        .find(|p| p.ply == ply)
        .unwrap_or_else(|| panic!("no puzzle at ply {ply}: {found:?}"))
}

fn first(puzzle: &Puzzle<Move>) -> String {
    puzzle.solution[0].to_notation()
}

/// Black moves a tank where White's tank on k2 takes it along the
/// diagonal, nothing of Black's covering the square: the capture is the
/// puzzle, and the blunder its source's move's predecessor.
#[test]
fn a_capture_that_wins_a_tank() {
    let found = puzzles(
        "c10/8t2/7t3/11/11/11/11/11/11/2T7T/10C b 1",
        &["h9-h5", "k2xh5"],
    );
    let puzzle = at_ply(&found, 1);
    assert_eq!(first(puzzle), "k2xh5");
    assert!(puzzle.themes.contains(&Theme::Capture), "{puzzle:?}");
    assert_eq!(puzzle.source.label, crate::games::review::Label::Best);
}

/// White's commander on Black's commander start and a tank in Black's
/// base; its last tank on d7 is attacked once Black's c8 steps to c7 (a
/// blunder: c8xd7 would have ended the game, Black ahead). White's d7-b9
/// ends it at once, 7 to 6; taking on c7 is answered by a7xc7, a draw.
#[test]
fn a_base_entry_that_ends_the_game() {
    let found = puzzles(
        "C10/T10/11/2t8/t2T7/11/11/11/11/11/5t4c b 40",
        &["c8-c7", "d7-b9"],
    );
    let white = at_ply(&found, 1);
    assert_eq!(first(white), "d7-b9");
    assert_eq!(white.solution.len(), 1);
    for theme in [Theme::BaseEntry, Theme::ForcedWin] {
        assert!(white.themes.contains(&theme), "{white:?}");
    }
    assert_eq!(white.forced.map(|f| f.win), Some(true));
}

/// Shuffles there and back from the start: nothing to find.
#[test]
fn a_game_of_shuffles_has_none() {
    let shuffle = ["k4-k5", "a8-a7", "k5-k4", "a7-a8"];
    let game: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
    let found = puzzles(crate::games::tank_battle::INITIAL_TBN, &game);
    assert!(found.is_empty(), "{found:?}");
}

/// The same game gives the same puzzles, ids and ratings included.
#[test]
fn the_same_game_gives_the_same_puzzles() {
    let game = ["h9-h5", "k2xh5"];
    let tbn = "c10/8t2/7t3/11/11/11/11/11/11/2T7T/10C b 1";
    assert_eq!(puzzles(tbn, &game), puzzles(tbn, &game));
}

/// From a game between levels: Black's commander steps to k2 (k11-k2,
/// the game's ply 45), and White wins by force in five plies, three of
/// its moves, starting with a1xa7: the only move that does.
#[test]
fn a_forced_win_in_three() {
    let found = puzzles(
        "10c/t10/2T8/11/t7T2/11/11/11/11/11/T10 b 45",
        &["k11-k2", "a1xa7"],
    );
    let white = at_ply(&found, 1);
    assert_eq!(first(white), "a1xa7");
    for theme in [Theme::Capture, Theme::ForcedWin] {
        assert!(white.themes.contains(&theme), "{white:?}");
    }
    assert_eq!(
        white.forced,
        Some(crate::games::review::Forced {
            win: true,
            plies: Some(5)
        })
    );
}
