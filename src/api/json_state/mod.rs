//! Games whose state travels as one JSON object (The Tank War, Tank Wars,
//! Nim): [`JsonState`], the state's codec and what the document says of
//! the game; the DTOs such games share, generic over the game
//! ([`StateRequest`], [`LegalMovesRequest`], [`ReplayRequest`],
//! [`ReplayResponse`], [`RenderQuery`], [`BatchRequest`]); and the part of
//! `impl GameApi` they share ([`json_state_api!`]): `score`, `replay` and
//! `render.svg` decoded and answered once.

mod codec;
mod dto;
pub use codec::{Docs, Examples, JsonState};
pub use dto::*;

use super::flows::ask::{Judging, ToJudge};
use super::transport::json::parse_param;
use super::transport::problem::ApiError;
use crate::games::Game;
use crate::limits::Limits;

/// The [`GameApi`](super::game::GameApi) items every [`JsonState`] game
/// shares, written inside its `impl GameApi` block: the DTOs of `score`,
/// `replay` and `render.svg` are the shared ones, a replay answers the
/// states' DTOs, and their steps are the functions of this module.
macro_rules! json_state_api {
    () => {
        type ScoreRequest = $crate::api::json_state::StateRequest<Self>;
        type ReplayRequest = $crate::api::json_state::ReplayRequest<Self>;
        type ReplayResponse = $crate::api::json_state::ReplayResponse<Self>;
        type RenderQuery = $crate::api::json_state::RenderQuery<Self>;
        type ReplayState = <Self as $crate::api::json_state::JsonState>::StateDto;
        type AnnotateRequest = $crate::api::json_state::AnnotateRequest<Self>;
        const SCHEMA_PREFIX: &'static str =
            <Self as $crate::api::json_state::JsonState>::DOCS.prefix;

        fn decode_annotate(
            request: Self::AnnotateRequest,
            limits: &$crate::limits::Limits,
        ) -> Result<
            (
                Self::State,
                Vec<Self::ReplayStep>,
                $crate::api::flows::ask::Judging,
            ),
            $crate::api::transport::problem::ApiError,
        > {
            $crate::api::json_state::decode_annotate::<Self>(request, limits)
        }

        /// The state's JSON text and the step's every field.
        fn step_text(
            state: &Self::State,
            step: &Self::Step,
        ) -> Result<String, $crate::api::transport::problem::ApiError> {
            let state = <Self as $crate::api::json_state::JsonState>::state_text(state)?;
            Ok(format!("{state}|{step:?}"))
        }

        fn decode_score(
            request: Self::ScoreRequest,
            limits: &$crate::limits::Limits,
        ) -> Result<Self::State, $crate::api::transport::problem::ApiError> {
            $crate::api::json_state::decode_score::<Self>(request, limits)
        }

        fn decode_replay(
            request: Self::ReplayRequest,
            limits: &$crate::limits::Limits,
        ) -> Result<(Self::State, Vec<Self::ReplayStep>), $crate::api::transport::problem::ApiError>
        {
            $crate::api::json_state::decode_replay::<Self>(request, limits)
        }

        fn replay_state(state: &Self::State) -> Self::ReplayState {
            <Self as $crate::api::json_state::JsonState>::encode_state(state)
        }

        fn encode_replay(
            states: Vec<Self::ReplayState>,
            last: Self::ScoreResponse,
        ) -> Self::ReplayResponse {
            $crate::api::json_state::ReplayResponse {
                states,
                final_state: last,
            }
        }

        fn render(
            query: Self::RenderQuery,
            limits: &$crate::limits::Limits,
        ) -> Result<String, $crate::api::transport::problem::ApiError> {
            $crate::api::json_state::render::<Self>(query, limits)
        }
    };
}
pub(crate) use json_state_api;

/// The state of a `score` request.
pub fn decode_score<G: JsonState>(
    request: StateRequest<G>,
    limits: &Limits,
) -> Result<G::State, ApiError> {
    G::decode_state(&request.state, "state", limits)
}

/// The start and steps of a replay: `start` (the default start when
/// absent) and its steps, their number checked against the server's
/// limit.
pub fn decode_replay<G: JsonState>(
    request: ReplayRequest<G>,
    limits: &Limits,
) -> Result<(G::State, Vec<G::ReplayStep>), ApiError> {
    limits.check_replay(request.rounds.len(), G::REPLAY_STEPS)?;
    let start = match &request.start {
        Some(start) => G::decode_state(start, "start", limits)?,
        None => <G as Game>::initial(),
    };
    Ok((start, request.rounds))
}

/// The start, the rounds and the judging of an `annotate`.
pub fn decode_annotate<G: JsonState>(
    request: AnnotateRequest<G>,
    limits: &Limits,
) -> Result<ToJudge<G::State, G::ReplayStep>, ApiError> {
    let AnnotateRequest {
        start,
        rounds,
        limits: asked,
        level,
    } = request;
    let (state, rounds) = decode_replay::<G>(ReplayRequest { start, rounds }, limits)?;
    Ok((
        state,
        rounds,
        Judging {
            limits: asked,
            level,
        },
    ))
}

/// The picture of `render.svg`: of the state sent as JSON in the query
/// parameter `state`, or of the default start.
pub fn render<G: JsonState>(query: RenderQuery<G>, limits: &Limits) -> Result<String, ApiError> {
    let state = match query.state.as_deref() {
        Some(text) => {
            Limits::check_query(text, Limits::QUERY_STATE_MAX_CHARS, "state")?;
            let dto = parse_param(text, "state")?;
            G::decode_state(&dto, "state", limits)?
        }
        None => <G as Game>::initial(),
    };
    Ok(G::draw(&state))
}
