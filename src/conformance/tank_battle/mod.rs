//! Tank Battle's corpus (docs/TANK-BATTLE.md): legal-move cases with each move's
//! result, illegal-move cases for every reason code, perft counts and
//! playthroughs of seeded random games.
//!
//! Positions come from two seeded sources: random games from the initial
//! position (what play reaches) and random placements (what play rarely
//! reaches: commanders in the contaminated centre, tanks locked in a
//! base, finished games); some on a layout other than the standard one.
//! A case's tags are the rules that shape its answer: for a position, the
//! reasons its side's tanks' lines are refused and what its legal moves
//! do (capture, cross the centre, end the game).

pub mod end_policy;
mod positions;
mod tags;

use std::collections::BTreeSet;

use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use crate::conformance::tag::Tag;
use crate::games::tank_battle::{
    perft, Layout, Move, MoveText, Position, Reason, Side, Square, STANDARD_NAME, STANDARD_TEXT,
};
use positions::{boards, lines, placement, Board, Placing, OTHER_LAYOUT};
use tags::tag_of;
pub use tags::TAGS;

/// Bumped when an answer of the rules changes (never for the AI's): the
/// engine's, which a puzzle's id carries too.
pub use crate::games::tank_battle::RULES_VERSION;

/// What `apply` answers after `mv` (the position, the capture, the end
/// and the score), as the service writes it.
fn result(board: &Board, mv: Move) -> Value {
    let mut next = board.position;
    next.play_unchecked(mv);
    let captured = mv.capture.map(|role| {
        json!({"square": mv.to.to_string(), "kind": role.name(), "side": (!board.position.turn()).name()})
    });
    json!({
        "move": mv.to_string(),
        "position": next.to_string(),
        "captured": captured,
        "finished": next.is_finished(&board.layout),
        "winner": next.outcome(&board.layout).and_then(|o| o.winner()).map(Side::name),
        "draw": next.outcome(&board.layout).is_some_and(|o| o.winner().is_none()),
        "score": score(&next, &board.layout),
    })
}

fn score(position: &Position, layout: &Layout) -> Value {
    let score = position.score(layout);
    json!({"white": score.white.total(), "black": score.black.total()})
}

fn legal_case(id: usize, board: &Board) -> Value {
    let moves = board.position.legal_moves_file_major(&board.layout);
    let mut tags = board.tags();
    // The position's standing and each result carry the score.
    tags.insert("scoring");
    let (position, layout) = (&board.position, &board.layout);
    let outcome = position.outcome(layout);
    json!({
        "id": format!("legal-{id:03}"),
        "kind": "legal",
        "position": position.to_string(),
        "layout": board.layout_field(),
        "tags": tags,
        "standing": {
            "finished": outcome.is_some(),
            "winner": outcome.and_then(|o| o.winner()).map(Side::name),
            "draw": outcome.is_some_and(|o| o.winner().is_none()),
            "score": score(position, layout),
        },
        "moves": moves.iter().map(Move::to_string).collect::<Vec<_>>(),
        "results": moves.iter().map(|&mv| result(board, mv)).collect::<Vec<_>>(),
    })
}

/// Illegal moves, [`ILLEGAL_EACH`] a reason code, each from another
/// position: every line of the side to move, then moves from squares
/// without its tanks and moves off a line.
fn illegal_cases(boards: &[Board]) -> Vec<Value> {
    let mut cases = Vec::new();
    for reason in Reason::ALL {
        let mut found = 0;
        for board in boards {
            if found == ILLEGAL_EACH {
                break;
            }
            // Each case takes another of the position's matching moves (a
            // NOT_A_LINE case is off a line or to the same square).
            let matching: Vec<_> = attempts(&board.position)
                .into_iter()
                .filter_map(|text| {
                    let illegal = board.position.validate(&board.layout, text).err()?;
                    (illegal.reason == reason).then_some((text, illegal))
                })
                .collect();
            let Some(&(text, illegal)) = matching.get(found % matching.len().max(1)) else {
                continue;
            };
            found += 1;
            let mut tags = BTreeSet::from([tag_of(reason)]);
            if board.layout_text.is_some() {
                tags.insert("layout");
            }
            cases.push(json!({
                "id": format!("illegal-{}-{found}", reason.code().to_ascii_lowercase().replace('_', "-")),
                "kind": "illegal",
                "position": board.position.to_string(),
                "layout": board.layout_field(),
                "tags": tags,
                "move": notation(&board.position, text),
                "reason": reason.code(),
                "square": illegal.square.map(|s| s.to_string()),
            }));
        }
    }
    cases
}

/// An attempted move as a client writes it: `x` between the squares
/// when an enemy tank stands on the destination, `-` otherwise.
fn notation(position: &Position, text: MoveText) -> String {
    let enemy = position
        .piece_at(text.to)
        .is_some_and(|p| p.side != position.turn());
    let separator = if enemy { 'x' } else { '-' };
    format!("{}{separator}{}", text.from, text.to)
}

/// Illegal-move cases a reason code.
const ILLEGAL_EACH: usize = 6;

/// The moves tried for illegal cases: the side's lines, then a move from
/// each square without one of its tanks, then off-line moves and a move
/// to the same square.
fn attempts(position: &Position) -> Vec<MoveText> {
    let mut attempts: Vec<MoveText> = lines(position)
        .into_iter()
        .map(|(from, to)| MoveText { from, to })
        .collect();
    for from in Square::all() {
        let own = position
            .piece_at(from)
            .is_some_and(|p| p.side == position.turn());
        if !own {
            if let Some(to) = from.offset(0, 1).or_else(|| from.offset(0, -1)) {
                attempts.push(MoveText { from, to });
            }
        } else {
            if let Some(to) = from.offset(1, 2).or_else(|| from.offset(-1, -2)) {
                attempts.push(MoveText { from, to });
            }
            attempts.push(MoveText { from, to: from });
        }
    }
    attempts
}

fn perft_cases(boards: &[Board]) -> Vec<Value> {
    let mut cases = Vec::new();
    let standard = Layout::STANDARD;
    let initial = Board {
        position: Position::initial(&standard),
        layout: standard,
        layout_text: None,
    };
    let mut chosen: Vec<(&Board, u32)> = (1..=3).map(|depth| (&initial, depth)).collect();
    chosen.extend(boards.iter().step_by(7).map(|board| (board, 2)));
    chosen.extend(boards.iter().skip(3).step_by(13).map(|board| (board, 3)));
    for (id, (board, depth)) in chosen.into_iter().enumerate() {
        let nodes = perft::perft(&board.position, &board.layout, depth);
        cases.push(json!({
            "id": format!("perft-{:03}", id + 1),
            "kind": "perft",
            "position": board.position.to_string(),
            "layout": board.layout_field(),
            "tags": board.tags(),
            "depth": depth,
            "nodes": nodes,
        }));
    }
    cases
}

/// Whole games of seeded random legal moves: each step's move, the
/// position after it and the score; the end and its winner. Three start
/// from the initial position (a random game rarely ends: they stop after
/// [`PLAYTHROUGH_PLIES`]), three from sparse placements, played to the
/// end; one of each pair of the latter on [`OTHER_LAYOUT`].
fn playthroughs(rng: &mut ChaCha8Rng) -> Vec<Value> {
    let mut cases = Vec::new();
    let starts = [
        (None, false),
        (None, false),
        (Some(OTHER_LAYOUT), false),
        (None, true),
        (None, true),
        (Some(OTHER_LAYOUT), true),
    ];
    for (layout_text, sparse) in starts {
        let Ok(layout) = Layout::parse(layout_text.unwrap_or(STANDARD_TEXT)) else {
            continue;
        };
        let start = if sparse {
            let mut drawn = None;
            while drawn.is_none() {
                drawn =
                    placement(rng, &layout, Placing::Sparse).filter(|p| !p.is_finished(&layout));
            }
            drawn
        } else {
            Some(Position::initial(&layout))
        };
        let Some(start) = start else {
            continue;
        };
        let mut position = start;
        let mut tags = BTreeSet::from(["slide", "scoring"]);
        if layout_text.is_some() {
            tags.insert("layout");
        }
        let most = if sparse {
            10 * PLAYTHROUGH_PLIES
        } else {
            PLAYTHROUGH_PLIES
        };
        let mut steps = Vec::new();
        while steps.len() < most {
            let moves = position.legal_moves(&layout);
            let Some(&mv) = moves.choose(rng) else {
                break;
            };
            if mv.capture.is_some() {
                tags.insert("capture");
            }
            position.play_unchecked(mv);
            steps.push(json!({
                "move": mv.to_string(),
                "position": position.to_string(),
                "score": score(&position, &layout),
            }));
        }
        let outcome = position.outcome(&layout);
        if outcome.is_some() {
            tags.insert("end");
        }
        cases.push(json!({
            "id": format!("playthrough-{:03}", cases.len() + 1),
            "kind": "playthrough",
            "start": start.to_string(),
            "layout": layout_text.unwrap_or(STANDARD_NAME),
            "tags": tags,
            "steps": steps,
            "finished": outcome.is_some(),
            "winner": outcome.and_then(|o| o.winner()).map(Side::name),
            "draw": outcome.is_some_and(|o| o.winner().is_none()),
        }));
    }
    cases
}

/// The most moves of a playthrough from the initial position (a tenth of
/// a sparse one's).
const PLAYTHROUGH_PLIES: usize = 160;

/// The corpus: the header, then the cases.
pub fn corpus() -> Vec<Value> {
    let mut rng = ChaCha8Rng::seed_from_u64(53);
    let boards = boards(&mut rng);
    let mut lines = vec![json!({"header": {
        "game": "tank-battle",
        "rules_version": RULES_VERSION,
        "notation": {
            "position": "TBN (docs/TANK-BATTLE.md, Notations), canonical",
            "move": "<from>-<to> or <from>x<to> (docs/TANK-BATTLE.md, Notations), canonical",
            "layout": "\"standard\" or a layout string (docs/TANK-BATTLE.md, The standard layout)",
        },
        "kinds": {
            "legal": "standing: what score answers for the position (finished, winner, draw, score); moves: the legal moves, sorted by from square (file, then rank) then to; results: what apply answers after each (position, captured, finished, winner, draw, score)",
            "illegal": "move is refused with reason (a code of docs/TANK-BATTLE.md, Rules as implemented) at square (null when none)",
            "perft": "nodes: perft(depth) of position (docs/TANK-BATTLE.md, Rules as implemented: perft)",
            "playthrough": "steps from start: each move, the position and the score after it; finished, winner and draw after the last",
        },
        "reasons": Reason::ALL.map(Reason::code),
        "tags": TAGS.map(Tag::header),
    }})];
    lines.extend(boards.iter().enumerate().map(|(i, b)| legal_case(i + 1, b)));
    lines.extend(illegal_cases(&boards));
    lines.extend(perft_cases(&boards));
    lines.extend(playthroughs(&mut rng));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tag and every reason code is exercised by at least 5 cases.
    #[test]
    fn every_tag_and_reason_has_five_cases() {
        let cases = corpus();
        crate::conformance::assert_covered(&cases, &TAGS, &Reason::ALL.map(Reason::code));
        let perft: u64 = cases.iter().filter_map(|c| c["nodes"].as_u64()).sum();
        assert!(perft < 20_000_000, "{perft} perft nodes");
    }

    /// The tags are the closed list.
    #[test]
    fn tags_are_the_listed_ones() {
        for case in corpus().iter().skip(1) {
            for tag in case["tags"].as_array().into_iter().flatten() {
                assert!(TAGS.iter().any(|t| tag == t.name), "{tag} in {case}");
            }
        }
    }
}
