//! Games whose state travels as one JSON object (The Tank War, Tank Wars,
//! Nim): [`JsonState`], the state's codec and what the document says of
//! the game; the DTOs such games share, generic over the game
//! ([`StateRequest`], [`LegalMovesRequest`], [`ReplayRequest`],
//! [`AnnotateRequest`], [`ReplayResponse`], [`RenderQuery`],
//! [`BatchRequest`]); and the part of `impl GameApi` they share
//! ([`json_state_api!`]): `score`, `replay`, `annotate` and `render.svg`
//! decoded and answered once.

mod codec;
mod dto;
pub use codec::{Docs, Examples, JsonState};
pub use dto::*;

/// The [`GameApi`](super::game::GameApi) items every [`JsonState`] game
/// shares, written inside its `impl GameApi` block: the DTOs of `score`,
/// `replay` and `render.svg` are the shared ones, a replay answers the
/// states' DTOs, and their steps are written here once.
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

        /// The start, the rounds and the judging of an `annotate` (its
        /// `limits` are the request's, `server` the server's).
        fn decode_annotate(
            request: Self::AnnotateRequest,
            server: &$crate::limits::Limits,
        ) -> Result<
            (
                Self::State,
                Vec<Self::ReplayStep>,
                $crate::api::flows::ask::Judging,
            ),
            $crate::api::transport::problem::RequestError,
        > {
            let replay = $crate::api::json_state::ReplayRequest {
                game: request.game,
                start: request.start,
                rounds: request.rounds,
                result: request.result,
            };
            let (state, rounds) = Self::decode_replay(replay, server)?;
            let (limits, level) = (request.limits, request.level);
            Ok((
                state,
                rounds,
                $crate::api::flows::ask::Judging { limits, level },
            ))
        }

        /// The state's JSON text and the step's, both canonical.
        fn step_text(
            state: &Self::State,
            step: &Self::Step,
        ) -> Result<String, $crate::api::transport::problem::RequestError> {
            let state = <Self as $crate::api::json_state::JsonState>::state_text(state)?;
            let step = <Self as $crate::api::json_state::JsonState>::step_json(step);
            Ok(format!("{state}|{step}"))
        }

        fn decode_score(
            request: Self::ScoreRequest,
            limits: &$crate::limits::Limits,
        ) -> Result<Self::State, $crate::api::transport::problem::RequestError> {
            <Self as $crate::api::json_state::JsonState>::decode_state(
                &request.state,
                "state",
                limits,
            )
        }

        /// `start` (the default start when absent) and its steps, their
        /// number checked against the server's limit.
        fn decode_replay(
            request: Self::ReplayRequest,
            limits: &$crate::limits::Limits,
        ) -> Result<
            (Self::State, Vec<Self::ReplayStep>),
            $crate::api::transport::problem::RequestError,
        > {
            $crate::api::flows::record::check_game::<Self>(request.game.as_deref())?;
            limits.check_replay(request.rounds.len(), Self::REPLAY_STEPS)?;
            let start = match &request.start {
                Some(start) => <Self as $crate::api::json_state::JsonState>::decode_state(
                    start, "start", limits,
                )?,
                None => <Self as $crate::games::Game>::initial(),
            };
            Ok((start, request.rounds))
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

        /// The picture of the state sent as JSON in the query parameter
        /// `state`, or of the default start; its texts in `lang`.
        fn render(
            query: Self::RenderQuery,
            limits: &$crate::limits::Limits,
            lang: $crate::i18n::Lang,
        ) -> Result<String, $crate::api::transport::problem::RequestError> {
            use $crate::api::json_state::JsonState;
            let state = match query.state.as_deref() {
                Some(text) => {
                    let max = $crate::limits::Limits::QUERY_STATE_MAX_CHARS;
                    $crate::limits::Limits::check_query(text, max, "state")?;
                    let dto = $crate::api::transport::json::parse_param(text, "state")?;
                    Self::decode_state(&dto, "state", limits)?
                }
                None => <Self as $crate::games::Game>::initial(),
            };
            Ok(Self::draw(&state, lang))
        }
    };
}
pub(crate) use json_state_api;

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::JsonState;
    use crate::games::cobi_tank_wars::CobiTankWars;
    use crate::games::tank_war::TankWar;
    use crate::games::Game;
    use crate::limits::Limits;

    /// `value` with every object's fields in reverse order.
    fn reordered(value: &Value) -> Value {
        match value {
            Value::Object(fields) => Value::Object(
                fields
                    .iter()
                    .rev()
                    .map(|(k, v)| (k.clone(), reordered(v)))
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(reordered).collect()),
            other => other.clone(),
        }
    }

    /// The state `text` sends, decoded.
    fn state<G: JsonState>(text: &str) -> G::State {
        let dto: G::StateDto = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}"));
        G::decode_state(&dto, "state", &Limits::default()).unwrap_or_else(|e| panic!("{e:?}"))
    }

    /// The step `round` sends in `state`, as a replay reads it.
    fn step<G: JsonState>(state: &G::State, round: &Value) -> G::Step
    where
        G::ReplayStep: serde::de::DeserializeOwned,
    {
        let round: G::ReplayStep =
            serde_json::from_value(round.clone()).unwrap_or_else(|e| panic!("{e}"));
        let mut state = state.clone();
        G::replay_step(&mut state, round, 0, &Limits::default()).unwrap_or_else(|e| panic!("{e:?}"))
    }

    /// Equal requests give equal key texts whatever their fields' order
    /// and spacing; another state or step, another text.
    fn keys_are_canonical<G: JsonState>(question: G::Question, rounds: [Value; 2])
    where
        G::ReplayStep: serde::de::DeserializeOwned,
    {
        let sent = serde_json::to_value(G::encode_state(&<G as Game>::initial()))
            .unwrap_or_else(|e| panic!("{e}"));
        let compact = sent.to_string();
        let spaced =
            serde_json::to_string_pretty(&reordered(&sent)).unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(compact, spaced);
        let (a, b) = (state::<G>(&compact), state::<G>(&spaced));
        let key =
            |state: &G::State| G::canonical(state, &question).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(key(&a), key(&b));
        let [round, other] = rounds;
        let step_key = |state: &G::State, round: &Value| {
            G::step_text(state, &step::<G>(state, round)).unwrap_or_else(|e| panic!("{e:?}"))
        };
        assert_eq!(step_key(&a, &round), step_key(&b, &reordered(&round)));
        assert_ne!(step_key(&a, &round), step_key(&a, &other));
        // Another state: the one after the round.
        let mut after = a.clone();
        <G as Game>::play(&mut after, step::<G>(&a, &round)).unwrap_or_else(|e| panic!("{e:?}"));
        assert_ne!(key(&a), key(&after));
        assert_ne!(step_key(&a, &round), step_key(&after, &round));
    }

    #[test]
    fn tank_war_keys_are_canonical() {
        keys_are_canonical::<TankWar>(
            crate::games::tank_war::Player::U,
            [
                json!({"U": "LA", "D": "RC", "elapsed_ms": {"U": 5, "D": 7}}),
                json!({"U": "LA", "D": "RC", "elapsed_ms": {"U": 7, "D": 5}}),
            ],
        );
    }

    #[test]
    fn tank_wars_keys_are_canonical() {
        let orders = |p1_dist: u32| {
            json!({"orders": {
                "P1": {"P1-1": {"dir": "N", "dist": p1_dist}, "P1-2": {"dir": "N", "dist": 1}, "P1-3": {"dir": "W", "dist": 1}},
                "P2": {"P2-1": {"dir": "S", "dist": 3}, "P2-2": {"dir": "S", "dist": 1}, "P2-3": {"dir": "E", "dist": 1}}
            }, "seed": 3})
        };
        keys_are_canonical::<CobiTankWars>(
            crate::games::cobi_tank_wars::Question {
                player: crate::games::cobi_tank_wars::Player::P1,
                gunfire_tokens: 1,
            },
            [orders(2), orders(1)],
        );
    }
}
