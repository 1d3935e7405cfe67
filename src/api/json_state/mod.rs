//! Games whose state travels as one JSON object (The Tank War, Tank Wars,
//! Nim): [`JsonState`], the state's codec, and what such a game's
//! `score`, `replay` and `render.svg` share: the start of a replay
//! ([`json_start`]) and the picture of a state sent as JSON
//! ([`json_state_picture`]).

use serde::de::DeserializeOwned;

use super::game::GameApi;
use super::transport::json::parse_param;
use super::transport::problem::ApiError;
use crate::games::Game;
use crate::limits::Limits;

/// A game whose state travels as one JSON object (The Tank War, Tank
/// Wars): what its endpoints share beyond [`GameApi`].
pub trait JsonState: GameApi {
    type StateDto: DeserializeOwned;

    /// The state's DTO.
    fn encode_state(state: &Self::State) -> Self::StateDto;

    /// Checks a state's DTO (`field` names it in errors).
    fn decode_state(
        dto: &Self::StateDto,
        field: &str,
        limits: &Limits,
    ) -> Result<Self::State, ApiError>;

    /// The picture of a state.
    fn draw(state: &Self::State) -> String;

    /// The state's JSON text: equal states, equal text.
    fn state_text(state: &Self::State) -> String {
        serde_json::to_string(&Self::replay_state(state)).unwrap_or_default()
    }
}

/// The start and steps of a game whose state travels as JSON: `start` (the
/// default start when absent) and its steps, their number checked against
/// the server's limit.
pub fn json_start<G: JsonState>(
    start: Option<&G::StateDto>,
    steps: Vec<G::ReplayStep>,
    limits: &Limits,
) -> Result<(G::State, Vec<G::ReplayStep>), ApiError> {
    limits.check_replay(steps.len(), G::REPLAY_STEPS)?;
    let start = match start {
        Some(start) => G::decode_state(start, "start", limits)?,
        None => <G as Game>::initial(),
    };
    Ok((start, steps))
}

/// The picture of a game whose state travels as JSON: of the state sent as
/// JSON in the query parameter `state`, or of the default start.
pub fn json_state_picture<G: JsonState>(
    text: Option<&str>,
    limits: &Limits,
) -> Result<String, ApiError> {
    let state = match text {
        Some(text) => {
            let dto = parse_param(text, "state")?;
            G::decode_state(&dto, "state", limits)?
        }
        None => <G as Game>::initial(),
    };
    Ok(G::draw(&state))
}
