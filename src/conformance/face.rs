//! A game's operations asked through its face, JSON in and JSON out, as
//! the HTTP layer asks them (without HTTP): how the corpora of the
//! JSON-state games, whose answers are their face's JSON, are answered.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::api::game::GameApi;
use crate::limits::Limits;

/// A request's JSON decoded as its endpoint's body.
fn body<T: DeserializeOwned>(request: Value) -> Option<T> {
    serde_json::from_value(request).ok()
}

/// `legal-moves`' answer (`null` when refused).
pub fn legal_moves<G: GameApi>(request: Value) -> Value {
    body(request)
        .and_then(|request| G::run_legal_moves(request, &Limits::default()).ok())
        .and_then(|answer| serde_json::to_value(answer).ok())
        .unwrap_or_default()
}

/// `score`'s answer (`null` when refused).
pub fn score<G: GameApi>(request: Value) -> Value {
    body(request)
        .and_then(|request| G::decode_score(request, &Limits::default()).ok())
        .and_then(|state| serde_json::to_value(G::encode_score(&state)).ok())
        .unwrap_or_default()
}

/// `apply`'s answer, `None` when the step is refused.
pub fn apply<G: GameApi>(request: Value) -> Option<Value> {
    let (mut state, step) = G::decode_apply(body(request)?, &Limits::default()).ok()?;
    let events = G::play(&mut state, step).ok()?;
    serde_json::to_value(G::encode_apply(&state, events)).ok()
}

/// `validate`'s answer, `None` when the request is refused.
pub fn validate<G: GameApi>(request: Value) -> Option<Value> {
    let answer = G::run_validate(body(request)?, &Limits::default(), crate::i18n::Lang::En).ok()?;
    serde_json::to_value(answer).ok()
}

/// The game's start, as the service writes a state.
pub fn initial<G: GameApi>() -> Value {
    serde_json::to_value(G::replay_state(&G::initial())).unwrap_or_default()
}
