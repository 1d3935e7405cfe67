//! Tank Wars' side of `compare`: its legal orders are listed a vehicle at
//! a time, under each player, and a claimed order is checked as that
//! vehicle's one order.

use serde_json::{json, Map, Value};

use crate::api::flows::compare::{code_and_message, token};

const PLAYERS: [&str; 2] = ["P1", "P2"];

/// Each vehicle's list: its pointer (`/P1/P1-2`) and `P1/P1-2`.
pub fn move_lists(answer: &Value) -> Vec<(String, String)> {
    PLAYERS
        .into_iter()
        .filter_map(|player| Some((player, answer.get(player)?.as_object()?)))
        .flat_map(|(player, vehicles)| {
            vehicles.keys().map(move |vehicle| {
                (
                    format!("/{player}/{}", token(vehicle)),
                    format!("{player}/{vehicle}"),
                )
            })
        })
        .collect()
}

/// An order is its direction and distance (`to` and `blocked_now`
/// follow from them).
pub fn move_key(item: &Value) -> Value {
    match item {
        Value::Object(fields) => {
            let key: Map<String, Value> = ["dir", "dist"]
                .into_iter()
                .filter_map(|name| Some((name.to_owned(), fields.get(name)?.clone())))
                .collect();
            Value::Object(key)
        }
        other => other.clone(),
    }
}

/// The vehicle's order alone (`null`: no order for it).
pub fn validate_listed(request: &Value, at: &str, key: &Value) -> Value {
    let state = request.get("state").cloned().unwrap_or_default();
    let (player, vehicle) = at.split_once('/').unwrap_or((at, ""));
    let orders = match key {
        Value::Null => json!({}),
        order => json!({ vehicle: order }),
    };
    json!({"state": state, "orders": { player: orders }})
}

/// The reason given the vehicle's order (or the game's: `GAME_OVER`).
pub fn listed_refusal(answer: &Value, at: &str) -> Option<(String, String)> {
    let (_, vehicle) = at.split_once('/')?;
    let reasons = answer.get("reasons")?.as_array()?;
    let of_vehicle = reasons
        .iter()
        .find(|reason| reason.get("vehicle").and_then(Value::as_str) == Some(vehicle));
    let of_game = || {
        reasons
            .iter()
            .find(|reason| reason.get("vehicle").is_none())
    };
    code_and_message(of_vehicle.or_else(of_game)?)
}
