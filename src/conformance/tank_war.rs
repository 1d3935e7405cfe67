//! The Tank War's corpus (docs/TANK-WAR.md): legal-pick cases with a sample of joint
//! rounds' results, illegal-pick cases for every reason code, and
//! playthroughs of seeded random games played as joint rounds (OpenSpiel's
//! form) with each round's clock charges.
//!
//! States are the engine's notation (docs/TANK-WAR.md, State) and the
//! answers the face's JSON, so the cases are made through the game's face (`api::tank_war`, which the HTTP layer
//! serves): its JSON in, its JSON out. States come from seeded random
//! games from the default setup and from custom setups whose tracks are
//! cut short (tracks are data).

use std::collections::BTreeSet;

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::face;
use crate::conformance::tag::Tag;
use crate::games::tank_war::TankWar;
use crate::games::Game;

/// Bumped when an answer of the rules changes (never for the AI's).
pub const RULES_VERSION: u32 = 1;

/// The rule tags: the README's "Rules as implemented" (The Tank War) and
/// docs/TANK-WAR.md.
pub const TAGS: [Tag; 10] = [
    Tag {
        name: "pick",
        source: "docs/TANK-WAR.md rules 1-2",
        rule: "Each player picks one own tank, which moves one square forward along its track; it can be picked if it is alive, not at the end of its track, and its next square is empty at the start of the round.",
    },
    Tag {
        name: "same-square",
        source: "docs/TANK-WAR.md rule 3",
        rule: "If both picked tanks target the same square, only the player who owns that square enters; the other tank stays put.",
    },
    Tag {
        name: "territory",
        source: "docs/TANK-WAR.md rule 4",
        rule: "A tank entering a square makes its player the square's owner, until an enemy tank enters it.",
    },
    Tag {
        name: "fire-a",
        source: "docs/TANK-WAR.md rule 5",
        rule: "Firing phase: every tank, simultaneously, destroys every enemy tank in its pattern; A: the 4 diagonal neighbours.",
    },
    Tag {
        name: "fire-b",
        source: "docs/TANK-WAR.md rule 5",
        rule: "B: the 4 orthogonal neighbours.",
    },
    Tag {
        name: "fire-c",
        source: "docs/TANK-WAR.md rule 5",
        rule: "C: the 4 squares exactly two away orthogonally.",
    },
    Tag {
        name: "end",
        source: "docs/TANK-WAR.md rule 6",
        rule: "When a player has no tank that can be picked, the game ends: more surviving tanks wins; equal, more owned squares wins; equal, a draw.",
    },
    Tag {
        name: "clock",
        source: "docs/TANK-WAR.md rule 7",
        rule: "Each player has 120 000 ms; a round may charge the time each player spent; a player whose clock falls to 0 or below loses (both at once: a draw), and that round's moves are not executed.",
    },
    Tag {
        name: "track",
        source: "docs/TANK-WAR.md, State",
        rule: "A tank's track is the ordered list of squares it may occupy; tracks are data: custom states may give any tracks.",
    },
    Tag {
        name: "game-over",
        source: "docs/TANK-WAR.md, order of checks",
        rule: "A finished game accepts no pick (GAME_OVER).",
    },
];

/// The reason codes, in the order the rules check them.
pub const REASONS: [&str; 4] = [
    "GAME_OVER",
    "NO_SUCH_TANK",
    "END_OF_TRACK",
    "SQUARE_OCCUPIED",
];

/// Tank names a pick is tried with: every name of the setup, and one that
/// no tank has.
const NAMES: [&str; 7] = ["LA", "LB", "LC", "RA", "RB", "RC", "QQ"];

const SEED: u64 = 0x7a2c_5eed;
const STATES: usize = 90;
const RESULTS_A_STATE: usize = 4;
const ILLEGAL_A_CODE: usize = 6;
const PLAYTHROUGHS: usize = 6;
const PLAYTHROUGH_ROUNDS: usize = 60;

fn legal_moves(state: &Value) -> Value {
    face::legal_moves::<TankWar>(json!({"state": state}))
}

fn score(state: &Value) -> Value {
    face::score::<TankWar>(json!({"state": state}))
}

/// `apply`'s answer, or `None` when the round is refused.
fn apply(state: &Value, moves: &Value, elapsed: &Value) -> Option<Value> {
    face::apply::<TankWar>(json!({"state": state, "moves": moves, "elapsed_ms": elapsed}))
}

/// The code `validate` gives `player`'s pick of `name`, `None` when legal.
fn refusal(state: &Value, player: &str, name: &str) -> Option<String> {
    let answer = face::validate::<TankWar>(json!({"state": state, "moves": {player: name}}))?;
    Some(answer["reasons"][player]["code"].as_str()?.to_owned())
}

fn initial() -> Value {
    face::initial::<TankWar>()
}

/// The default setup with each tank's track cut after a random number of
/// squares (at least its current one and the next).
fn cut_tracks(rng: &mut ChaCha8Rng) -> Value {
    let mut state = initial();
    if let Some(tanks) = state["tanks"].as_array_mut() {
        for tank in tanks {
            if let Some(track) = tank["track"].as_array_mut() {
                let keep = rng.random_range(2..=track.len().max(2));
                track.truncate(keep);
            }
        }
    }
    state
}

/// A round's clock charges: mostly a few seconds, now and then a
/// player's whole clock.
fn elapsed(rng: &mut ChaCha8Rng) -> Value {
    let mut charge = || {
        if rng.random_range(0..40) == 0 {
            70_000
        } else {
            rng.random_range(0..3_000)
        }
    };
    json!({"U": charge(), "D": charge()})
}

/// Random legal picks of both players; `None` when the game is over.
fn random_round(state: &Value, rng: &mut ChaCha8Rng) -> Option<Value> {
    let moves = legal_moves(state);
    let of = |player: &str| moves[player].as_array().cloned().unwrap_or_default();
    let (u, d) = (of("U"), of("D"));
    Some(json!({"U": u.choose(rng)?, "D": d.choose(rng)?}))
}

/// The tags of a round's result: the rules its events show.
fn result_tags(before: &Value, elapsed: &Value, answer: &Value, tags: &mut BTreeSet<&'static str>) {
    let type_of = |player: &Value, name: &Value| {
        before["tanks"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|tank| tank["owner"] == *player && tank["name"] == *name)
            .and_then(|tank| tank["type"].as_str())
            .map(str::to_owned)
    };
    for event in answer["events"].as_array().into_iter().flatten() {
        match event["kind"].as_str() {
            Some("blocked") => {
                tags.insert("same-square");
            }
            Some("timeout") => {
                tags.insert("clock");
            }
            Some("destroyed") => {
                for by in event["by"].as_array().into_iter().flatten() {
                    match type_of(&by["player"], &by["tank"]).as_deref() {
                        Some("A") => tags.insert("fire-a"),
                        Some("B") => tags.insert("fire-b"),
                        Some("C") => tags.insert("fire-c"),
                        _ => false,
                    };
                }
            }
            _ => {}
        }
    }
    if answer["state"]["territory"] != before["territory"] {
        tags.insert("territory");
    }
    if elapsed["U"].as_u64().unwrap_or(0) + elapsed["D"].as_u64().unwrap_or(0) > 0 {
        tags.insert("clock");
    }
    if answer["reason"] == "no_moves" {
        tags.insert("end");
    }
}

/// States met in seeded random games: from the default setup and from
/// setups with cut tracks (`true`), each after 0 to 12 rounds.
fn states(rng: &mut ChaCha8Rng) -> Vec<(Value, bool)> {
    let mut states = Vec::new();
    while states.len() < STATES {
        let custom = states.len() % 3 == 2;
        let mut state = if custom { cut_tracks(rng) } else { initial() };
        for _ in 0..rng.random_range(0..13) {
            let Some(moves) = random_round(&state, rng) else {
                break;
            };
            let charge = json!({"U": rng.random_range(0..2_000), "D": rng.random_range(0..2_000)});
            match apply(&state, &moves, &charge) {
                Some(answer) => state = answer["state"].clone(),
                None => break,
            }
        }
        if states.len() % 7 == 6 {
            // A clock nearly spent: a round of ordinary thinking runs it out.
            let player = *["U", "D"].choose(rng).unwrap_or(&"U");
            state["clock_ms"][player] = json!(rng.random_range(500..4_000));
        }
        states.push((state, custom));
    }
    states
}

fn legal_case(id: usize, state: &Value, custom: bool, rng: &mut ChaCha8Rng) -> Value {
    let standing = score(state);
    let moves = legal_moves(state);
    let mut tags = BTreeSet::from(["pick"]);
    if custom {
        tags.insert("track");
    }
    if standing["finished"] == true {
        tags.insert("end");
    }
    let mut results = Vec::new();
    let mut tried = BTreeSet::new();
    for _ in 0..RESULTS_A_STATE * 3 {
        if results.len() == RESULTS_A_STATE {
            break;
        }
        let Some(round) = random_round(state, rng) else {
            break;
        };
        if !tried.insert(round.to_string()) {
            continue;
        }
        let charge = elapsed(rng);
        if let Some(answer) = apply(state, &round, &charge) {
            result_tags(state, &charge, &answer, &mut tags);
            results.push(json!({"moves": round, "elapsed_ms": charge, "answer": answer}));
        }
    }
    json!({
        "id": format!("legal-{:03}", id + 1),
        "kind": "legal",
        "state": state,
        "tags": tags,
        "standing": standing,
        "moves": moves,
        "results": results,
    })
}

/// Each code's first [`ILLEGAL_A_CODE`] situations among `states` (a
/// finished state's for `GAME_OVER`).
fn illegal_cases(states: &[(Value, bool)]) -> Vec<Value> {
    let mut cases = Vec::new();
    for code in REASONS {
        let mut found = 0;
        'states: for (state, custom) in states {
            for player in ["U", "D"] {
                for name in NAMES {
                    if found == ILLEGAL_A_CODE {
                        break 'states;
                    }
                    if refusal(state, player, name).as_deref() != Some(code) {
                        continue;
                    }
                    found += 1;
                    let mut tags = BTreeSet::new();
                    tags.insert(if code == "GAME_OVER" {
                        "game-over"
                    } else {
                        "pick"
                    });
                    if *custom {
                        tags.insert("track");
                    }
                    cases.push(json!({
                        "id": format!("illegal-{}-{found}", code.to_lowercase().replace('_', "-")),
                        "kind": "illegal",
                        "state": state,
                        "tags": tags,
                        "player": player,
                        "pick": name,
                        "reason": code,
                    }));
                    // One situation a state and code.
                    continue 'states;
                }
            }
        }
    }
    cases
}

fn playthrough(id: usize, rng: &mut ChaCha8Rng) -> (Value, Value) {
    let custom = id % 2 == 1;
    let start = if custom { cut_tracks(rng) } else { initial() };
    let mut tags = BTreeSet::from(["pick"]);
    if custom {
        tags.insert("track");
    }
    let (mut state, mut steps, mut last) = (start.clone(), Vec::new(), Value::Null);
    while steps.len() < PLAYTHROUGH_ROUNDS {
        let Some(round) = random_round(&state, rng) else {
            break;
        };
        let charge = elapsed(rng);
        let Some(answer) = apply(&state, &round, &charge) else {
            break;
        };
        result_tags(&state, &charge, &answer, &mut tags);
        state = answer["state"].clone();
        steps.push(json!({
            "moves": round,
            "elapsed_ms": charge,
            "state": state,
            "events": answer["events"],
            "score": score(&state),
        }));
        last = answer;
        if last["finished"] == true {
            break;
        }
    }
    let case = json!({
        "id": format!("playthrough-{}", id + 1),
        "kind": "playthrough",
        "start": start,
        "tags": tags,
        "steps": steps,
        "finished": last["finished"],
        "winner": last["winner"],
        "draw": last["draw"],
        "reason": last["reason"],
    });
    (case, state)
}

fn header() -> Value {
    json!({"header": {
        "game": TankWar::ID,
        "rules_version": RULES_VERSION,
        "notation": {
            "state": "the service's state JSON (docs/TANK-WAR.md, State): rows, cols, territory (rows from the top), tanks (owner, name, type, track, at), round, clock_ms",
            "pick": "a tank's name (LA, LB, LC, RA, RB, RC), side-relative",
            "round": "both players' picks, {\"U\", \"D\"}, and the time each spent, elapsed_ms {\"U\", \"D\"} (charged first)"
        },
        "kinds": {
            "legal": "standing: what score answers for the state; moves: each player's legal picks (sorted); results: for a sample of rounds, what apply answers (state, events, finished, winner, draw, reason, score)",
            "illegal": "player's pick is refused with reason (a code of docs/TANK-WAR.md)",
            "playthrough": "from start, each step's round (moves and elapsed_ms) reaches the step's state with the step's events, and the state's score is the step's score; after the last step, the game's finished, winner, draw and reason"
        },
        "reasons": REASONS,
        "tags": TAGS.map(Tag::header),
    }})
}

/// The corpus: the header, then its cases.
pub fn corpus() -> Vec<Value> {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut states = states(&mut rng);
    let mut lines = vec![header()];
    for (id, (state, custom)) in states.iter().enumerate() {
        lines.push(legal_case(id, state, *custom, &mut rng));
    }
    // Where a round ended the game is where GAME_OVER is met.
    let ended: Vec<(Value, bool)> = lines
        .iter()
        .flat_map(|case| case["results"].as_array().cloned().unwrap_or_default())
        .filter(|result| result["answer"]["finished"] == true)
        .map(|result| (result["answer"]["state"].clone(), false))
        .collect();
    let mut playthroughs = Vec::new();
    for id in 0..PLAYTHROUGHS {
        let (case, end) = playthrough(id, &mut rng);
        playthroughs.push(case);
        states.push((end, id % 2 == 1));
    }
    states.extend(ended);
    lines.extend(illegal_cases(&states));
    lines.extend(playthroughs);
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tag_and_code_has_at_least_five_cases() {
        let cases = corpus();
        crate::conformance::assert_covered(&cases, &TAGS, &REASONS);
        // Every legal case's results are rounds its moves allow.
        for case in cases.iter().filter(|case| case["kind"] == "legal") {
            for result in case["results"].as_array().into_iter().flatten() {
                for player in ["U", "D"] {
                    let listed = case["moves"][player]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                    assert!(listed.contains(&result["moves"][player]), "{}", case["id"]);
                }
            }
        }
    }
}
