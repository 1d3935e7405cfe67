//! The review quality games (`scripts/review-check.py quality`'s), as the
//! engines' bins play them: game `n` by a level pair, each move the
//! level's choice with seed `(700 + n) * 1000 + ply`.

use tank_rules_engines::games::level::{Level, Style};
use tank_rules_engines::games::tank_battle::{ai, Layout, MoveText, State};
use tank_rules_engines::games::SearchLimits;

/// The level pairs (the first player's, the second's) the games between
/// levels are played by, in turn.
pub const PAIRS: [(u8, u8); 8] = [
    (8, 2),
    (2, 8),
    (6, 3),
    (3, 6),
    (8, 5),
    (5, 8),
    (4, 4),
    (7, 7),
];

/// The pairs of the games between equal levels (`EQUAL=1`).
#[allow(dead_code)]
pub const EQUAL_PAIRS: [(u8, u8); 4] = [(8, 8), (7, 7), (6, 6), (5, 5)];

/// Tank Battle game `n`'s moves, played by `pair`, at most `max_plies`.
pub fn tank_battle_moves(pair: (u8, u8), n: usize, max_plies: usize) -> Vec<MoveText> {
    let unlimited = SearchLimits {
        max_time: None,
        max_depth: 64,
        max_nodes: u64::MAX,
        stop: None,
    };
    let mut state = State::initial(Layout::STANDARD);
    let mut moves = Vec::new();
    for ply in 0..max_plies {
        let level = if ply % 2 == 0 { pair.0 } else { pair.1 };
        let Some(level) = Level::new(level) else {
            break;
        };
        let seed = (700 + n as u64) * 1000 + ply as u64;
        let Some(found) = ai::search_with(&state, unlimited, seed, Style::at(level)) else {
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
