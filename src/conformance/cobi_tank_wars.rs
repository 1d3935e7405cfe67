//! Tank Wars' corpus (docs/TANK-WARS.md): legal-order cases with a sample of rounds'
//! results, illegal-order cases for every reason code, and playthroughs of
//! seeded random games played as joint rounds (OpenSpiel's form). Each
//! round gives its supply drop's square (`supply_drop`) beside the seed
//! that chose it, so no implementation needs the service's generator.
//!
//! States are the engine's notation and the answers the face's JSON, so
//! the cases are made through the game's face (its JSON in, its JSON out). States come from
//! seeded random games from the default start and from starts with tokens
//! (artillery, support, gunfire) and worn armor scattered on them.

use std::collections::BTreeSet;

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};

use super::face;
use crate::conformance::tag::Tag;
use crate::games::cobi_tank_wars::CobiTankWars;
use crate::games::Game;

/// Bumped when an answer of the rules changes (never for the AI's).
pub const RULES_VERSION: u32 = 1;

/// The rule tags: the README's "Rules as implemented" (Tank Wars) and
/// docs/TANK-WARS.md.
pub const TAGS: [Tag; 10] = [
    Tag {
        name: "orders",
        source: "docs/TANK-WARS.md, State and orders",
        rule: "Orders give exactly one command per vehicle of each player: a direction N, E, S or W and a distance of 1, 2 or 3.",
    },
    Tag {
        name: "card-order",
        source: "docs/TANK-WARS.md rule 1",
        rule: "Movement in card order: slot 1 of the first player, slot 1 of the other player, slot 2 of the first, …; a vehicle destroyed earlier in the round does not move.",
    },
    Tag {
        name: "cancel",
        source: "docs/TANK-WARS.md rule 2",
        rule: "A command whose destination is off the board or occupied by another vehicle at that moment is cancelled whole.",
    },
    Tag {
        name: "artillery",
        source: "docs/TANK-WARS.md rule 3",
        rule: "Every entered square holding an artillery token costs 1 armor and removes the token.",
    },
    Tag {
        name: "support",
        source: "docs/TANK-WARS.md rule 3",
        rule: "A survivor stopping on a support token removes it and its owner gains a support card.",
    },
    Tag {
        name: "gunfire",
        source: "docs/TANK-WARS.md rule 4",
        rule: "Each gunfire token costs the vehicle on its square 1 armor; then all gunfire tokens are removed, with the artillery and support tokens on their squares.",
    },
    Tag {
        name: "destroyed",
        source: "docs/TANK-WARS.md rules 3-4",
        rule: "A vehicle at 0 armor is destroyed.",
    },
    Tag {
        name: "supply-drop",
        source: "docs/TANK-WARS.md rule 5",
        rule: "A supply drop places a support token on a free square (SplitMix64's first output for the round's seed, modulo the number of free squares, listed a1, b1, …).",
    },
    Tag {
        name: "end",
        source: "docs/TANK-WARS.md rule 6",
        rule: "A player without vehicles has lost; neither has any: a draw.",
    },
    Tag {
        name: "game-over",
        source: "docs/TANK-WARS.md, refused orders",
        rule: "A finished game accepts no orders (GAME_OVER).",
    },
];

/// The reason codes.
pub const REASONS: [&str; 5] = [
    "GAME_OVER",
    "NO_SUCH_VEHICLE",
    "MISSING_ORDER",
    "BAD_DIRECTION",
    "BAD_DISTANCE",
];

const PLAYERS: [&str; 2] = ["P1", "P2"];
const SEED: u64 = 0x7a2c_5eed_0003;
const STATES: usize = 80;
const RESULTS_A_STATE: usize = 3;
const ILLEGAL_A_CODE: usize = 6;
const PLAYTHROUGHS: usize = 6;
const PLAYTHROUGH_ROUNDS: usize = 60;

fn legal_moves(state: &Value) -> Value {
    face::legal_moves::<CobiTankWars>(json!({"state": state}))
}

fn score(state: &Value) -> Value {
    face::score::<CobiTankWars>(json!({"state": state}))
}

fn apply(state: &Value, orders: &Value, seed: u64) -> Option<Value> {
    face::apply::<CobiTankWars>(json!({"state": state, "orders": orders, "seed": seed}))
}

/// `validate`'s reasons: each fault's player, vehicle and code.
fn reasons(state: &Value, orders: &Value) -> Vec<Value> {
    let answer = face::validate::<CobiTankWars>(json!({"state": state, "orders": orders}));
    let reasons = answer.and_then(|answer| answer["reasons"].as_array().cloned());
    reasons
        .unwrap_or_default()
        .into_iter()
        .map(|reason| {
            json!({"player": reason.get("player"), "vehicle": reason.get("vehicle"), "code": reason["code"]})
        })
        .collect()
}

/// Every square of the state's board.
fn squares(state: &Value) -> Vec<String> {
    let cols = state["cols"].as_u64().unwrap_or(8);
    let rows = state["rows"].as_u64().unwrap_or(8);
    (1..=rows)
        .flat_map(|row| (0..cols).map(move |col| format!("{}{row}", char::from(b'a' + col as u8))))
        .collect()
}

/// The default start with tokens scattered on free squares and each
/// vehicle's armor worn to 1-3.
fn scattered(rng: &mut ChaCha8Rng) -> Value {
    let mut state = face::initial::<CobiTankWars>();
    let taken: BTreeSet<String> = state["vehicles"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["square"].as_str().map(str::to_owned))
        .collect();
    let mut free: Vec<String> = squares(&state)
        .into_iter()
        .filter(|square| !taken.contains(square))
        .collect();
    for (kind, most) in [("artillery", 8), ("support", 3), ("gunfire", 2)] {
        let count = rng.random_range(1..=most);
        let mut tokens = Vec::new();
        for _ in 0..count {
            if free.is_empty() {
                break;
            }
            let at = rng.random_range(0..free.len());
            tokens.push(free.swap_remove(at));
        }
        state[kind] = json!(tokens);
    }
    if let Some(vehicles) = state["vehicles"].as_array_mut() {
        for vehicle in vehicles {
            vehicle["armor"] = json!(rng.random_range(1..=3));
        }
    }
    // Gunfire aimed at vehicles too, as players place it.
    let aimed = gunfire_at_vehicles(&state, rng);
    if let Some(gunfire) = state["gunfire"].as_array_mut() {
        gunfire.extend(aimed.into_iter().map(Value::from));
    }
    state
}

/// One or two squares of vehicles (none a third of the time): where a
/// round's gunfire tokens go.
fn gunfire_at_vehicles(state: &Value, rng: &mut ChaCha8Rng) -> Vec<String> {
    let occupied: Vec<String> = state["vehicles"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["square"].as_str().map(str::to_owned))
        .collect();
    let count = rng.random_range(0..3);
    let mut squares: Vec<String> = occupied.sample(rng, count).cloned().collect();
    squares.sort();
    squares
}

/// A state whose game is over: one player's vehicles (or both's) gone.
fn ended(state: &Value, rng: &mut ChaCha8Rng) -> Value {
    let mut state = state.clone();
    let gone = *["P1", "P2", "both"].choose(rng).unwrap_or(&"P1");
    if let Some(vehicles) = state["vehicles"].as_array_mut() {
        vehicles.retain(|v| gone != "both" && v["owner"] != gone);
    }
    state
}

/// A random legal order for every vehicle (its list's); `None` when the
/// game is over.
fn random_orders(state: &Value, rng: &mut ChaCha8Rng) -> Option<Value> {
    aimed_orders(state, rng).map(|(orders, _)| orders)
}

/// Random legal orders and the squares they lead to.
fn aimed_orders(state: &Value, rng: &mut ChaCha8Rng) -> Option<(Value, Vec<String>)> {
    if score(state)["finished"] == true {
        return None;
    }
    let lists = legal_moves(state);
    let (mut orders, mut to) = (Map::new(), Vec::new());
    for player in PLAYERS {
        let mut own = Map::new();
        for (vehicle, list) in lists[player].as_object().into_iter().flatten() {
            let order = list.as_array()?.choose(rng)?;
            own.insert(
                vehicle.clone(),
                json!({"dir": order["dir"], "dist": order["dist"]}),
            );
            to.extend(order["to"].as_str().map(str::to_owned));
        }
        orders.insert(player.to_owned(), Value::Object(own));
    }
    Some((Value::Object(orders), to))
}

/// The square the round's supply drop chose, as its events say.
fn supply_drop(answer: &Value) -> Value {
    answer["events"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|event| event["kind"] == "supply_drop")
        .map(|event| event["square"].clone())
        .unwrap_or(Value::Null)
}

/// The tags of a round's result: the rules its events show.
fn result_tags(answer: &Value, tags: &mut BTreeSet<&'static str>) {
    let mut moved = 0;
    for event in answer["events"].as_array().into_iter().flatten() {
        let tag = match event["kind"].as_str() {
            Some("moved") => {
                moved += 1;
                None
            }
            Some("cancelled") => Some("cancel"),
            Some("artillery_hit") => Some("artillery"),
            Some("support_taken") => Some("support"),
            Some("gunfire_hit") => Some("gunfire"),
            Some("destroyed") => Some("destroyed"),
            Some("supply_drop") => Some("supply-drop"),
            _ => None,
        };
        tags.extend(tag);
    }
    if moved >= 2 {
        tags.insert("card-order");
    }
    if answer["finished"] == true {
        tags.insert("end");
    }
}

/// One round: its orders, seed, the supply drop it chose, and `apply`'s
/// answer.
fn round(state: &Value, rng: &mut ChaCha8Rng) -> Option<(Value, u64, Value)> {
    let orders = random_orders(state, rng)?;
    let seed = rng.random_range(0..1_000_000u64);
    let answer = apply(state, &orders, seed)?;
    Some((orders, seed, answer))
}

/// States met in seeded random games (`true`: from a scattered start),
/// each after 0 to 6 rounds.
fn states(rng: &mut ChaCha8Rng) -> Vec<(Value, bool)> {
    let mut states = Vec::new();
    while states.len() < STATES {
        let scatter = states.len() % 2 == 1;
        let mut state = if scatter {
            scattered(rng)
        } else {
            face::initial::<CobiTankWars>()
        };
        for _ in 0..rng.random_range(0..7) {
            match round(&state, rng) {
                Some((_, _, answer)) => state = answer["state"].clone(),
                None => break,
            }
        }
        if states.len() % 10 == 9 {
            state = ended(&state, rng);
        }
        states.push((state, scatter));
    }
    states
}

fn legal_case(id: usize, state: &Value, rng: &mut ChaCha8Rng) -> Value {
    let standing = score(state);
    let mut tags = BTreeSet::from(["orders"]);
    if standing["finished"] == true {
        tags.insert("end");
    }
    let mut results = Vec::new();
    for _ in 0..RESULTS_A_STATE {
        let Some((orders, seed, answer)) = round(state, rng) else {
            break;
        };
        result_tags(&answer, &mut tags);
        let drop = supply_drop(&answer);
        results
            .push(json!({"orders": orders, "seed": seed, "supply_drop": drop, "answer": answer}));
    }
    json!({
        "id": format!("legal-{:03}", id + 1),
        "kind": "legal",
        "state": state,
        "tags": tags,
        "standing": standing,
        "moves": legal_moves(state),
        "results": results,
    })
}

/// `orders` with one fault of `code`'s kind, chosen by `rng`.
fn with_fault(
    state: &Value,
    orders: &Value,
    code: &str,
    player: &str,
    rng: &mut ChaCha8Rng,
) -> Value {
    let mut orders = orders.clone();
    let vehicles: Vec<String> = orders[player]
        .as_object()
        .map(|own| own.keys().cloned().collect())
        .unwrap_or_default();
    let Some(vehicle) = vehicles.choose(rng).cloned() else {
        return orders;
    };
    match code {
        "NO_SUCH_VEHICLE" => {
            let other = if player == "P1" { "P2" } else { "P1" };
            let foreign = state["vehicles"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|v| v["owner"] == other)
                .filter_map(|v| v["id"].as_str())
                .next()
                .unwrap_or("X-9")
                .to_owned();
            let id = if rng.random_range(0..2) == 0 {
                foreign
            } else {
                format!("{player}-9")
            };
            orders[player][id] = json!({"dir": "N", "dist": 1});
        }
        "MISSING_ORDER" => {
            if let Some(own) = orders[player].as_object_mut() {
                own.remove(&vehicle);
            }
        }
        "BAD_DIRECTION" => {
            orders[player][&vehicle]["dir"] =
                json!(*["NE", "n", "up", ""].choose(rng).unwrap_or(&"NE"));
        }
        _ => {
            orders[player][&vehicle]["dist"] = json!(*[0, 4, -1, 7].choose(rng).unwrap_or(&0));
        }
    }
    orders
}

/// Each code's [`ILLEGAL_A_CODE`] situations: a fault put into random
/// legal orders (any orders of a finished state for `GAME_OVER`).
fn illegal_cases(states: &[Value], rng: &mut ChaCha8Rng) -> Vec<Value> {
    let mut cases = Vec::new();
    let finished: Vec<&Value> = states
        .iter()
        .filter(|s| score(s)["finished"] == true)
        .collect();
    let going: Vec<&Value> = states
        .iter()
        .filter(|s| score(s)["finished"] != true)
        .collect();
    for code in REASONS {
        let mut found = 0;
        for attempt in 0..ILLEGAL_A_CODE * 4 {
            if found == ILLEGAL_A_CODE {
                break;
            }
            let (state, orders) = if code == "GAME_OVER" {
                let Some(state) = finished.get(attempt) else {
                    break;
                };
                let mut orders = Map::new();
                for vehicle in state["vehicles"].as_array().into_iter().flatten() {
                    let (Some(owner), Some(id)) =
                        (vehicle["owner"].as_str(), vehicle["id"].as_str())
                    else {
                        continue;
                    };
                    let own = orders.entry(owner).or_insert_with(|| json!({}));
                    own[id] = json!({"dir": "N", "dist": 1});
                }
                (*state, Value::Object(orders))
            } else {
                let Some(state) = going.choose(rng).copied() else {
                    break;
                };
                let Some(legal) = random_orders(state, rng) else {
                    continue;
                };
                // The last two: P1's fault and a second one, P2's order
                // missing (every fault is listed, P1's first).
                let both = found + 2 >= ILLEGAL_A_CODE;
                let player = if both {
                    "P1"
                } else {
                    *PLAYERS.choose(rng).unwrap_or(&"P1")
                };
                let mut orders = with_fault(state, &legal, code, player, rng);
                if both {
                    let p2: Vec<String> = orders["P2"]
                        .as_object()
                        .map(|own| own.keys().cloned().collect())
                        .unwrap_or_default();
                    if let Some(vehicle) = p2.choose(rng).cloned() {
                        if let Some(own) = orders["P2"].as_object_mut() {
                            own.remove(&vehicle);
                        }
                    }
                }
                (state, orders)
            };
            let given = reasons(state, &orders);
            if given.first().map(|r| &r["code"]) != Some(&json!(code)) {
                continue;
            }
            found += 1;
            let tag = if code == "GAME_OVER" {
                "game-over"
            } else {
                "orders"
            };
            cases.push(json!({
                "id": format!("illegal-{}-{found}", code.to_lowercase().replace('_', "-")),
                "kind": "illegal",
                "state": state,
                "tags": [tag],
                "orders": orders,
                "reason": code,
                "reasons": given,
            }));
        }
    }
    cases
}

fn playthrough(id: usize, rng: &mut ChaCha8Rng) -> (Value, Vec<Value>) {
    // Worn armor and tokens: games that end within the rounds played.
    let start = scattered(rng);
    let mut tags = BTreeSet::from(["orders"]);
    let (mut state, mut steps, mut last, mut met) =
        (start.clone(), Vec::new(), Value::Null, Vec::new());
    while steps.len() < PLAYTHROUGH_ROUNDS {
        // Gunfire placed before the round where one or two vehicles are
        // ordered to go, as players aim it.
        let Some((orders, to)) = aimed_orders(&state, rng) else {
            break;
        };
        let count = rng.random_range(1..=2);
        let mut gunfire: Vec<String> = to.sample(rng, count).cloned().collect();
        gunfire.sort();
        gunfire.dedup();
        let mut before = state.clone();
        before["gunfire"] = json!(gunfire);
        let seed = rng.random_range(0..1_000_000u64);
        let Some(answer) = apply(&before, &orders, seed) else {
            break;
        };
        result_tags(&answer, &mut tags);
        state = answer["state"].clone();
        met.push(state.clone());
        steps.push(json!({
            "gunfire": gunfire,
            "orders": orders,
            "seed": seed,
            "supply_drop": supply_drop(&answer),
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
    });
    (case, met)
}

fn header() -> Value {
    json!({"header": {
        "game": CobiTankWars::ID,
        "rules_version": RULES_VERSION,
        "notation": {
            "state": "the service's state JSON: cols, rows, first, vehicles (id, owner, square, armor, slot), artillery, support, gunfire, support_cards, round",
            "orders": "{\"P1\": {vehicle id: {\"dir\": N|E|S|W, \"dist\": 1-3}}, \"P2\": {…}}: one order per vehicle",
            "round": "orders, the seed of its supply drop and the square it chose (supply_drop, null for none): an implementation places the token at supply_drop"
        },
        "kinds": {
            "legal": "standing: what score answers; moves: each vehicle's legal orders as legal-moves lists them; results: for a sample of rounds, what apply answers (state, events, finished, winner, draw, reason, score)",
            "illegal": "orders are refused: reasons lists every fault as validate does (player, vehicle, code; P1's first, by vehicle id), reason the first one's code",
            "playthrough": "from start, each step places its gunfire tokens, then plays its orders with its supply drop, reaching the step's state with the step's events, and the state's score is the step's score; after the last step, the game's finished, winner and draw"
        },
        "reasons": REASONS,
        "tags": TAGS.map(Tag::header),
    }})
}

/// The corpus: the header, then its cases.
pub fn corpus() -> Vec<Value> {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let states = states(&mut rng);
    let mut lines = vec![header()];
    for (id, (state, _)) in states.iter().enumerate() {
        lines.push(legal_case(id, state, &mut rng));
    }
    let mut playthroughs = Vec::new();
    let mut met: Vec<Value> = states.into_iter().map(|(state, _)| state).collect();
    // Results that ended the game: where GAME_OVER is met.
    met.extend(
        lines
            .iter()
            .flat_map(|case| case["results"].as_array().cloned().unwrap_or_default())
            .map(|result| result["answer"]["state"].clone()),
    );
    for id in 0..PLAYTHROUGHS {
        let (case, states) = playthrough(id, &mut rng);
        playthroughs.push(case);
        met.extend(states);
    }
    lines.extend(illegal_cases(&met, &mut rng));
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
    }
}
