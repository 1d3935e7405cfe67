//! Tank Battle's end-policy corpus (docs/TANK-BATTLE.md, "Ending a game"): the cases of the rules
//! under a `rules` object, apart from the rules-as-written corpus (which
//! they leave unchanged), in `conformance/tank-battle/end-policy.jsonl`.
//!
//! Three kinds: positions at and one move before a ply limit (`legal`:
//! the standing and every move's result, each with its `reason`), random
//! games played to a ply limit (`playthrough`), and shuffles ended by the
//! repetition rule, which only a request carrying the game's moves can see
//! (`replay`). Every answer is the engine's own, through [`TankBattle`]'s
//! `play`, `remember` and `outcome`, as the service's flows call them.

use std::collections::BTreeSet;

use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::positions::{boards, Board, OTHER_LAYOUT};
use super::score;
use crate::conformance::tag::Tag;
use crate::games::tank_battle::{
    EndPolicy, EndReason, Layout, Move, MoveText, Past, Position, Side, State, TankBattle,
    STANDARD_NAME, STANDARD_TEXT,
};
use crate::games::Game;

/// The policy's rule tags.
pub const TAGS: [Tag; 3] = [
    Tag {
        name: "ply-limit",
        source: "docs/TANK-BATTLE.md, Ending a game: the end policy",
        rule: "Once the ply counter of TBN reaches `max_plies`, the game is finished and the \
rule-7 score decides; no move is legal.",
    },
    Tag {
        name: "repetition",
        source: "docs/TANK-BATTLE.md, Ending a game: the end policy",
        rule: "Under `repetition` N, the game is finished when one position (the tanks and the \
side to move) has stood N times in the moves a request carries, the start counted; the rule-7 \
score decides.",
    },
    Tag {
        name: "rules-first",
        source: "docs/TANK-BATTLE.md, Ending a game: the end policy; rule 6",
        rule: "A game the rules as written end says so (`all_in_base`, `no_move`), at the \
limit or not.",
    },
];

/// What `score` (and, with `move` and the rest, `apply`) answers for a
/// state: the standing, with why a finished game ended.
fn standing(state: &State) -> Value {
    let mut standing = end_of(state);
    let scored = json!({"score": score(&state.position, &state.layout)});
    if let (Value::Object(fields), Value::Object(scored)) = (&mut standing, scored) {
        fields.extend(scored);
    }
    standing
}

/// Whether and how the game ended, and why.
fn end_of(state: &State) -> Value {
    let outcome = TankBattle::outcome(state);
    json!({
        "finished": outcome.is_some(),
        "winner": outcome.and_then(|o| o.winner()).map(Side::name),
        "draw": outcome.is_some_and(|o| o.winner().is_none()),
        "reason": state.end_reason().map(EndReason::code),
    })
}

/// The `rules` object of `policy`, as a request writes it.
fn rules(policy: &EndPolicy) -> Value {
    let mut rules = json!({});
    if let Some(max) = policy.max_plies {
        rules["max_plies"] = json!(max);
    }
    if let Some(times) = policy.repetition {
        rules["repetition"] = json!(times);
    }
    rules
}

/// The tags of a state's end.
fn end_tags(state: &State, tags: &mut BTreeSet<&'static str>) {
    match state.end_reason() {
        Some(EndReason::PlyLimit) => {
            tags.insert("ply-limit");
        }
        Some(EndReason::Repetition) => {
            tags.insert("repetition");
        }
        Some(EndReason::AllInBase | EndReason::NoMove) if state.policy.max_plies.is_some() => {
            tags.insert("rules-first");
        }
        _ => {}
    }
}

/// A position under a ply limit: its standing, its legal moves and what
/// each gives.
fn legal_case(id: usize, board: &Board, policy: EndPolicy) -> Value {
    let state = State::new(board.layout, board.position).under(policy);
    let moves = TankBattle::legal_moves(&state);
    let mut tags = BTreeSet::new();
    end_tags(&state, &mut tags);
    let results: Vec<Value> = moves
        .iter()
        .map(|&mv| {
            let mut next = state;
            next.position.play_unchecked(mv);
            end_tags(&next, &mut tags);
            let mut result = standing(&next);
            result["move"] = json!(mv.to_string());
            result["position"] = json!(next.position.to_string());
            result
        })
        .collect();
    json!({
        "id": format!("legal-{id:03}"),
        "kind": "legal",
        "position": board.position.to_string(),
        "layout": board.layout_field(),
        "rules": rules(&policy),
        "tags": tags,
        "standing": standing(&state),
        "moves": moves.iter().map(Move::to_string).collect::<Vec<_>>(),
        "results": results,
    })
}

/// Positions at their ply limit, and one move before it.
fn legal_cases(boards: &[Board]) -> Vec<Value> {
    let mut cases = Vec::new();
    for (i, board) in boards.iter().enumerate().step_by(4).take(24) {
        let ply = board.position.ply();
        let max = if i % 8 == 0 { ply } else { ply + 1 };
        let policy = EndPolicy {
            max_plies: Some(max.clamp(1, EndPolicy::MAX_PLIES)),
            repetition: None,
        };
        cases.push(legal_case(cases.len() + 1, board, policy));
    }
    cases
}

/// Random games from the initial position, played to a ply limit (or an
/// earlier end): each step's move, position and score, then the end.
fn playthroughs(rng: &mut ChaCha8Rng) -> Vec<Value> {
    let mut cases = Vec::new();
    for (i, max) in [12u64, 25, 40, 61, 90, 120].into_iter().enumerate() {
        let layout_text = (i % 3 == 2).then_some(OTHER_LAYOUT);
        let Ok(layout) = Layout::parse(layout_text.unwrap_or(STANDARD_TEXT)) else {
            continue;
        };
        let policy = EndPolicy {
            max_plies: Some(max),
            repetition: None,
        };
        let start = State::initial(layout).under(policy);
        let mut state = start;
        let mut steps = Vec::new();
        while let Some(&mv) = TankBattle::legal_moves(&state).choose(rng) {
            state.position.play_unchecked(mv);
            steps.push(json!({
                "move": mv.to_string(),
                "position": state.position.to_string(),
                "score": score(&state.position, &state.layout),
            }));
        }
        let mut tags = BTreeSet::new();
        end_tags(&state, &mut tags);
        let mut case = json!({
            "id": format!("playthrough-{:03}", cases.len() + 1),
            "kind": "playthrough",
            "start": start.position.to_string(),
            "layout": layout_text.unwrap_or(STANDARD_NAME),
            "rules": rules(&policy),
            "tags": tags,
            "steps": steps,
        });
        if let (Some(case), Value::Object(end)) = (case.as_object_mut(), end_of(&state)) {
            case.extend(end);
        }
        cases.push(case);
    }
    cases
}

/// A quiet move of the side to move that the same side can take back two
/// plies later (`from-to`, then `to-from`), found among `candidates`.
fn reversible(position: &Position, layout: &Layout, candidates: &[Move]) -> Option<Move> {
    candidates.iter().copied().find(|mv| {
        let mut next = *position;
        next.play_unchecked(*mv);
        mv.capture.is_none() && !next.is_finished(layout)
    })
}

/// Shuffles the repetition rule ends: from a position of a random game,
/// each side moves a tank out and back until one position has stood
/// `repetition` times; `moves` is the game a `replay` carries.
fn repetitions(rng: &mut ChaCha8Rng) -> Vec<Value> {
    let mut cases = Vec::new();
    for (i, times) in [2u32, 3, 2, 4, 3, 2].into_iter().enumerate() {
        let layout_text = (i % 3 == 1).then_some(OTHER_LAYOUT);
        let Ok(layout) = Layout::parse(layout_text.unwrap_or(STANDARD_TEXT)) else {
            continue;
        };
        // A start a few random moves in.
        let mut position = Position::initial(&layout);
        for _ in 0..(4 + 2 * i) {
            let moves = position.legal_moves(&layout);
            let Some(&mv) = moves
                .iter()
                .filter(|m| m.capture.is_none())
                .collect::<Vec<_>>()
                .choose(rng)
                .copied()
            else {
                break;
            };
            position.play_unchecked(mv);
        }
        let policy = EndPolicy {
            max_plies: None,
            repetition: Some(times),
        };
        let Some(shuffle) = shuffle(&position, &layout) else {
            continue;
        };
        let start = State::new(layout, position).under(policy);
        let mut state = start;
        let mut past = Past::default();
        TankBattle::remember(&mut past, &mut state);
        let mut moves = Vec::new();
        while !TankBattle::is_over(&state) && moves.len() < 4 * EndPolicy::MAX_REPETITION as usize {
            let Some(&text) = shuffle.get(moves.len() % shuffle.len()) else {
                break;
            };
            let Ok(mv) = TankBattle::play(&mut state, text) else {
                break;
            };
            TankBattle::remember(&mut past, &mut state);
            moves.push(mv.to_string());
        }
        let mut tags = BTreeSet::new();
        end_tags(&state, &mut tags);
        let mut case = json!({
            "id": format!("replay-{:03}", cases.len() + 1),
            "kind": "replay",
            "start": start.position.to_string(),
            "layout": layout_text.unwrap_or(STANDARD_NAME),
            "rules": rules(&policy),
            "tags": tags,
            "moves": moves,
        });
        if let (Some(case), Value::Object(end)) = (case.as_object_mut(), standing(&state)) {
            case.extend(end);
        }
        cases.push(case);
    }
    cases
}

/// Four moves that bring `position` back: a tank of each side out and
/// back.
fn shuffle(position: &Position, layout: &Layout) -> Option<[MoveText; 4]> {
    let first = reversible(position, layout, &position.legal_moves(layout))?;
    let mut after = *position;
    after.play_unchecked(first);
    let replies: Vec<Move> = after
        .legal_moves(layout)
        .into_iter()
        .filter(|reply| {
            // Neither tank stands in the other's way back.
            let mut back = after;
            back.play_unchecked(*reply);
            let undo = MoveText {
                from: first.to,
                to: first.from,
            };
            back.validate(layout, undo).is_ok_and(|undo| {
                back.play_unchecked(undo);
                back.validate(
                    layout,
                    MoveText {
                        from: reply.to,
                        to: reply.from,
                    },
                )
                .is_ok()
            })
        })
        .collect();
    let second = reversible(&after, layout, &replies)?;
    let text = |from, to| MoveText { from, to };
    Some([
        text(first.from, first.to),
        text(second.from, second.to),
        text(first.to, first.from),
        text(second.to, second.from),
    ])
}

/// The end-policy corpus: the header, then the cases.
pub fn corpus() -> Vec<Value> {
    let mut rng = ChaCha8Rng::seed_from_u64(28);
    let boards = boards(&mut rng);
    let mut lines = vec![json!({"header": {
        "game": "tank-battle",
        "rules_version": super::RULES_VERSION,
        "extends": "corpus.jsonl: the same notation, kinds and fields, each case with `rules` (docs/TANK-BATTLE.md, Ending a game)",
        "kinds": {
            "legal": "under rules: standing (finished, winner, draw, reason, score); moves: none once the policy ended the game; results: after each move, its position, finished, winner, draw, reason and score",
            "playthrough": "under rules: steps from start (each move, the position and the score after it); finished, winner, draw and reason after the last",
            "replay": "the moves played from start under rules, as one request carries them (the repetition rule counts the start): finished, winner, draw, reason and score after the last",
        },
        "reasons": EndReason::ALL.map(EndReason::code),
        "tags": TAGS.map(Tag::header),
    }})];
    lines.extend(legal_cases(&boards));
    lines.extend(playthroughs(&mut rng));
    lines.extend(repetitions(&mut rng));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tag is in at least five cases; each repetition case ends by
    /// the repetition rule and each playthrough at its limit or earlier.
    #[test]
    fn every_tag_has_five_cases_and_each_case_ends_as_it_says() {
        let cases = corpus();
        crate::conformance::assert_covered(&cases[1..], &TAGS, &[]);
        let replays: Vec<_> = cases.iter().filter(|c| c["kind"] == "replay").collect();
        assert!(replays.len() >= 5, "{} replays", replays.len());
        for case in replays {
            assert_eq!(case["reason"], "repetition", "{case}");
        }
        for case in cases.iter().filter(|c| c["kind"] == "playthrough") {
            assert_eq!(case["finished"], true, "{case}");
        }
    }
}
