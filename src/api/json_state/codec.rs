//! [`JsonState`]: a JSON-state game's state codec, and what the document
//! says of its shared DTOs ([`Docs`], [`Examples`]).

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::api::game::GameApi;
use crate::api::transport::problem::RequestError;
use crate::limits::Limits;

/// A game whose state travels as one JSON object (The Tank War, Tank
/// Wars, Nim): what its endpoints share beyond [`GameApi`].
pub trait JsonState: GameApi {
    /// The state as it travels.
    type StateDto: Serialize + DeserializeOwned + Send + 'static;
    /// The state's schema, as the document names it.
    type StateSchema: ToSchema;
    /// A player, as a request names one.
    type PlayerName: DeserializeOwned + 'static;
    /// A player's schema.
    type PlayerSchema: ToSchema;

    /// What the document says of the shared DTOs beyond their shape.
    const DOCS: Docs;

    /// The document's examples of the shared DTOs (none by default).
    fn examples() -> Option<Examples> {
        None
    }

    /// The state's DTO.
    fn encode_state(state: &Self::State) -> Self::StateDto;

    /// Checks a state's DTO (`field` names it in errors).
    fn decode_state(
        dto: &Self::StateDto,
        field: &str,
        limits: &Limits,
    ) -> Result<Self::State, RequestError>;

    /// The picture of a state, its texts in `lang`.
    fn draw(state: &Self::State, lang: crate::i18n::Lang) -> String;

    /// A step (a round's picks or orders) as JSON written from its fields
    /// in a fixed order (objects only where their keys are sorted): equal
    /// steps, equal text, whatever the order and spacing of the request
    /// that sent it (part of a review's cache key, with
    /// [`JsonState::state_text`]).
    fn step_json(step: &Self::Step) -> Value;

    /// The state's JSON text: equal states, equal text. (A state that
    /// could not be written is a bug of the server: an error, never an
    /// empty text that every such state would share as a cache key.)
    fn state_text(state: &Self::State) -> Result<String, RequestError> {
        serde_json::to_string(&Self::encode_state(state)).map_err(|err| {
            RequestError::Internal(format!("a state that serde cannot write: {err}"))
        })
    }
}

/// What the document says of a game's shared DTOs beyond their shape.
pub struct Docs {
    /// The prefix of their schemas' names: `TankWar` names
    /// `TankWarStateRequest`, ….
    pub prefix: &'static str,
    /// The game as a batch's description names it (`Tank War requests to
    /// run in one round trip, in order.`).
    pub called: &'static str,
    /// What `legal-moves` lists for a player (`picks`, `orders`).
    pub moves: &'static str,
    /// The description of a replay's `start`.
    pub start: &'static str,
}

/// The document's examples of a game's shared DTOs.
pub struct Examples {
    /// A state (of `StateRequest`, `LegalMovesRequest`).
    pub state: Value,
    /// A player (of `LegalMovesRequest`).
    pub player: Value,
    /// A `replay` body.
    pub replay: Value,
    /// A `batch` body.
    pub batch: Value,
    /// A state as `render.svg`'s query parameter writes it.
    pub render: &'static str,
}
