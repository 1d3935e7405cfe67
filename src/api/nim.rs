//! `/v1/nim`: the HTTP face of the proof game (tests only), written by
//! following docs/ARCHITECTURE.md's "Adding a game": its own DTOs, its
//! codec (`impl GameApi` with the JSON-state games' shared items,
//! `impl JsonState`), one `game_routes!` call and its `GameEntry`. Every
//! flow (batch, caching, replay, render, limits, errors) is the generic
//! one; nothing here is copied from another game.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::ToSchema;

use super::catalogue::GameEntry;
use super::flows::ask::{AiRequest, AskedLimits, Suggested, Work};
use super::game::{GameApi, UnfitAnswer};
use super::json_state::{self, json_state_api, Docs, JsonState, StateRequest};
use super::transport::problem::RequestError;
use crate::error::Refusal;
use crate::games::nim::{IllegalTake, Nim, Player, State};
use crate::games::Game;
use crate::limits::Limits;

// --------------------------------------------------------------- DTOs ---

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = NimPlayer)]
pub enum PlayerName {
    First,
    Second,
}

/// The pile and whose turn it is.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = NimState)]
pub struct StateDto {
    #[schema(example = 10)]
    pub pile: u32,
    pub turn: PlayerName,
}

pub type InitialResponse = StateDto;

/// How many to take.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, ToSchema)]
#[schema(as = NimTake)]
pub struct Take(pub u32);

/// How many may be taken.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = NimLegalMovesResponse)]
pub struct LegalMovesResponse {
    pub takes: Vec<u32>,
}

/// A take to check or play.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = NimTakeRequest)]
pub struct ValidateRequest {
    pub state: StateDto,
    pub take: u32,
}
pub type ApplyRequest = ValidateRequest;

/// Whether the take is legal, and if not why.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = NimValidateResponse)]
pub struct ValidateResponse {
    pub legal: bool,
    pub reason: Option<String>,
}

/// The state after the take.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = NimApplyResponse)]
pub struct ApplyResponse {
    pub state: StateDto,
    pub taken: u32,
    pub winner: Option<PlayerName>,
}

/// How the game stands.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = NimScoreResponse)]
pub struct ScoreResponse {
    pub pile: u32,
    pub winner: Option<PlayerName>,
}

/// A state to find a take for.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = NimAiMoveRequest)]
pub struct AiMoveRequest {
    pub state: StateDto,
    pub limits: Option<AskedLimits>,
    pub seed: Option<u64>,
    #[schema(minimum = 1, maximum = 8)]
    pub level: Option<u32>,
    /// Also take what the AI suggests, as `apply` would (`applied`).
    #[serde(default)]
    pub play: bool,
}

/// The AI's take.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = NimAiMoveResponse)]
pub struct AiSuggestion {
    pub take: u64,
}

impl Work for AiSuggestion {
    fn work(&self) -> u64 {
        self.take
    }
}

/// Nim requests to run in one round trip.
pub type BatchRequest = json_state::BatchRequest<Nim>;

// -------------------------------------------------------------- codec ---

impl From<Player> for PlayerName {
    fn from(p: Player) -> PlayerName {
        match p {
            Player::First => PlayerName::First,
            Player::Second => PlayerName::Second,
        }
    }
}

impl From<PlayerName> for Player {
    fn from(p: PlayerName) -> Player {
        match p {
            PlayerName::First => Player::First,
            PlayerName::Second => Player::Second,
        }
    }
}

impl JsonState for Nim {
    type StateDto = StateDto;
    type StateSchema = StateDto;
    type PlayerName = PlayerName;
    type PlayerSchema = PlayerName;

    const DOCS: Docs = Docs {
        prefix: "Nim",
        called: "Nim",
        moves: "takes",
        start: "The start state; a pile of 10 when absent.",
    };

    fn encode_state(state: &State) -> StateDto {
        StateDto {
            pile: state.pile,
            turn: state.turn.into(),
        }
    }

    fn step_json(take: &u32) -> serde_json::Value {
        serde_json::Value::from(*take)
    }

    fn decode_state(dto: &StateDto, field: &str, _: &Limits) -> Result<State, RequestError> {
        if dto.pile > 1000 {
            return Err(RequestError::invalid_position(
                crate::text::Text::new("invalid-nim-pile").with("max", 1000u32),
                field,
            ));
        }
        Ok(State {
            pile: dto.pile,
            turn: dto.turn.into(),
        })
    }

    fn draw(state: &State, _: crate::i18n::Lang) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>{}</text></svg>",
            state.pile
        )
    }
}

impl GameApi for Nim {
    json_state_api!();
    type LegalMovesRequest = StateRequest<Self>;
    type LegalMovesResponse = LegalMovesResponse;
    type ValidateRequest = ValidateRequest;
    type ValidateResponse = ValidateResponse;
    type ApplyRequest = ApplyRequest;
    type ApplyResponse = ApplyResponse;
    type ScoreResponse = ScoreResponse;
    type AiMoveRequest = AiMoveRequest;
    type AiSuggestion = AiSuggestion;
    type ReplayStep = Take;
    type PickDto = Take;
    type PlayWith = ();

    fn encode_pick(_: &State, take: &u32) -> Take {
        Take(*take)
    }

    const PLAYER_NAMES: [&'static str; 2] = Player::NAMES;

    fn problem_codes() -> Vec<&'static str> {
        vec![IllegalTake::BadTake.code(), IllegalTake::GameOver.code()]
    }

    fn move_lists(_: &Value) -> Vec<(String, String)> {
        vec![("/takes".to_owned(), String::new())]
    }

    fn validate_listed(request: &Value, _: &str, key: &Value) -> Value {
        let state = request.get("state").cloned().unwrap_or_default();
        serde_json::json!({"state": state, "take": key})
    }

    fn listed_refusal(answer: &Value, _: &str) -> Option<(String, String)> {
        let code = answer.get("reason")?.as_str()?;
        Some((code.to_owned(), code.to_owned()))
    }

    fn run_legal_moves(
        request: StateRequest<Self>,
        limits: &Limits,
    ) -> Result<LegalMovesResponse, RequestError> {
        let state = Self::decode_state(&request.state, "state", limits)?;
        Ok(LegalMovesResponse {
            takes: Nim::legal_moves(&state),
        })
    }

    fn run_validate(
        request: ValidateRequest,
        limits: &Limits,
        _: crate::i18n::Lang,
    ) -> Result<ValidateResponse, RequestError> {
        let state = Self::decode_state(&request.state, "state", limits)?;
        let checked = Nim::check(&state, &request.take);
        Ok(ValidateResponse {
            legal: checked.is_ok(),
            reason: checked.err().map(|e| e.code().to_owned()),
        })
    }

    fn decode_apply(request: ApplyRequest, limits: &Limits) -> Result<(State, u32), RequestError> {
        Ok((
            Self::decode_state(&request.state, "state", limits)?,
            request.take,
        ))
    }

    fn encode_apply(after: &State, taken: u32) -> ApplyResponse {
        ApplyResponse {
            state: Self::encode_state(after),
            taken,
            winner: Nim::outcome(after).map(Into::into),
        }
    }

    fn encode_score(state: &State) -> ScoreResponse {
        ScoreResponse {
            pile: Nim::score(state),
            winner: Nim::outcome(state).map(Into::into),
        }
    }

    fn replay_step(_: &mut State, take: Take, _: usize, _: &Limits) -> Result<u32, RequestError> {
        Ok(take.0)
    }

    fn refusal(illegal: IllegalTake, ply: Option<usize>) -> Refusal {
        Refusal::new(illegal.code(), "take").at_ply(ply)
    }

    fn game_over(_: &()) -> Refusal {
        Self::refusal(IllegalTake::GameOver, None)
    }

    fn canonical(state: &State, (): &()) -> Result<String, RequestError> {
        Self::state_text(state)
    }

    fn decode_ai(request: AiMoveRequest, limits: &Limits) -> Result<AiRequest<Self>, RequestError> {
        let state = Self::decode_state(&request.state, "state", limits)?;
        AiRequest::new(state, (), request.limits, request.seed).styled(request.level, None)
    }

    fn play_with(request: &AiMoveRequest) -> Result<Option<()>, RequestError> {
        Ok(request.play.then_some(()))
    }

    fn played_step(
        _: &mut State,
        (): &(),
        answer: &Suggested<AiSuggestion>,
        (): (),
    ) -> Result<u32, RequestError> {
        u32::try_from(answer.suggestion.take)
            .map_err(|_| RequestError::Internal("the AI took past u32".to_owned()))
    }

    fn encode_ai(_: &State, take: u32) -> Suggested<AiSuggestion> {
        Suggested::new(AiSuggestion {
            take: u64::from(take),
        })
    }

    /// `take` is a legal take from the pile.
    fn check_ai_answer(
        state: &State,
        (): &(),
        answer: &Suggested<AiSuggestion>,
    ) -> Result<(), UnfitAnswer> {
        let answer = &answer.suggestion;
        let legal =
            u32::try_from(answer.take).is_ok_and(|take| Nim::legal_moves(state).contains(&take));
        UnfitAnswer::unless_legal(legal, "take", &answer.take.to_string())
    }
}

// ------------------------------------------------------------- routes ---

super::game_routes::game_routes! {
    game: Nim,
    operation_prefix: "nim",
    initial: {
        /// A pile of 10, the first player to take.
        ok: "The start",
    },
    legal_moves: {
        /// How many the player to move may take.
        ok: "The takes",
        bad_request: "`BAD_REQUEST` or `INVALID_POSITION`",
    },
    validate: {
        /// Whether a take is legal.
        ok: "Legal, or why not",
        bad_request: "`BAD_REQUEST` or `INVALID_POSITION`",
    },
    apply: {
        /// Plays a take.
        ok: "The state after it",
        bad_request: "`BAD_REQUEST` or `INVALID_POSITION`",
        refused: "`BAD_TAKE` or `GAME_OVER`",
    },
    score: {
        /// How the game stands.
        ok: "The pile and the winner",
        bad_request: "`BAD_REQUEST` or `INVALID_POSITION`",
    },
    replay: {
        /// Plays takes in a row.
        ok: "Each state and the last standing",
        bad_request: "`BAD_REQUEST` or `INVALID_POSITION`",
        refused: "`BAD_TAKE` or `GAME_OVER`, with `ply`",
    },
    ai_move: {
        /// The winning take.
        ok: "The take",
        bad_request: "`BAD_REQUEST` or `INVALID_POSITION`",
        refused: "`GAME_OVER`",
        examples: [("full_strength", "The winning take", json!({"state": {"pile": 10, "turn": "first"}}))],
    },
    render: {
        /// The pile as a picture.
        bad_request: "`BAD_REQUEST` or `INVALID_POSITION`",
    },
    extra: [],
}

/// Nim as an application mounts a game: its entry, as
/// [`catalogue::SERVED`](super::catalogue::SERVED) lists the others.
pub const NIM: GameEntry = GameEntry {
    id: Nim::ID,
    name: "Nim",
    description: "One pile; each player in turn takes 1 to 3; whoever takes the last wins.",
    players: &Player::NAMES,
    kind: "alternating moves",
    section: "Nim (tests only): one pile, 1 to 3 taken a move. States are JSON (`pile`, `turn`); \
a move is a take.",
    configure,
    problem_codes: Nim::problem_codes,
};

#[cfg(test)]
mod tests {
    use actix_web::body::MessageBody;
    use actix_web::dev::{Service, ServiceResponse};
    use actix_web::test::{self, TestRequest};
    use serde_json::{json, Value};

    use super::NIM;
    use crate::api::catalogue::{self, GameEntry};
    use crate::api::{app_of, AppState};
    use crate::cache::CacheConfig;
    use crate::limits::Limits;

    /// The games of Nim's application: Nim alone.
    const GAMES: &[GameEntry] = &[NIM];

    async fn call<B: MessageBody>(
        app: &impl Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let request = TestRequest::with_uri(path).method(method.parse().unwrap_or_default());
        let request = match body {
            Some(body) => request.set_json(body),
            None => request,
        };
        let reply = test::call_service(app, request.to_request()).await;
        let status = reply.status().as_u16();
        let bytes = test::read_body(reply).await;
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// Nim mounted alone, as `api::app` mounts the served games.
    async fn nim() -> impl Service<
        actix_http::Request,
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
    > {
        let state = AppState::new(Limits::default(), CacheConfig::default());
        test::init_service(app_of(state, GAMES)).await
    }

    /// The catalogue, the document (routes, tag, section) and the problem
    /// codes all come from Nim's entry.
    #[actix_web::test]
    async fn its_entry_makes_the_catalogue_the_document_and_the_problem_codes() {
        let app = nim().await;
        let (status, body) = call(&app, "GET", "/v1/games", None).await;
        assert_eq!(status, 200);
        let games = body["games"].as_array().cloned().unwrap_or_default();
        assert_eq!(games.len(), 1, "{body}");
        assert_eq!(
            (&games[0]["id"], &games[0]["name"], &games[0]["players"]),
            (&json!("nim"), &json!("Nim"), &json!(["first", "second"]))
        );
        let every_games = crate::operations::Operation::ALL
            .into_iter()
            .filter(|op| op.of_every_game())
            .count();
        let endpoints = games[0]["endpoints"].as_array().map_or(0, Vec::len);
        assert_eq!(endpoints, every_games, "{}", games[0]);

        let (status, doc) = call(&app, "GET", "/openapi.json", None).await;
        assert_eq!(status, 200);
        let paths = doc["paths"].as_object().cloned().unwrap_or_default();
        let nims: Vec<&String> = paths.keys().filter(|p| p.starts_with("/v1/nim/")).collect();
        assert_eq!(nims.len(), every_games, "{nims:?}");
        assert!(
            !paths.keys().any(|p| p.starts_with("/v1/tank")),
            "{paths:?}"
        );
        for path in nims {
            for op in paths[path].as_object().into_iter().flat_map(|o| o.values()) {
                assert_eq!(op["tags"], json!(["nim"]), "{path}");
            }
        }
        let tags = doc["tags"].as_array().cloned().unwrap_or_default();
        assert!(
            tags.contains(&json!({"name": "nim", "description": NIM.section})),
            "{tags:?}"
        );
        let codes = &doc["components"]["schemas"]["ProblemCode"]["enum"];
        assert_eq!(codes, &json!(catalogue::problem_codes(GAMES)));
        for code in ["BAD_TAKE", "GAME_OVER", "BAD_REQUEST", "INVALID_POSITION"] {
            assert!(
                codes.as_array().is_some_and(|c| c.contains(&json!(code))),
                "{code}"
            );
        }
    }

    #[actix_web::test]
    async fn a_fourth_game_gets_every_endpoint_from_the_generic_layer() {
        let app = nim().await;
        let state = json!({"pile": 6, "turn": "first"});
        assert_eq!(
            call(&app, "GET", "/v1/nim/initial", None).await,
            (200, json!({"pile": 10, "turn": "first"}))
        );
        let (status, body) = call(
            &app,
            "POST",
            "/v1/nim/legal-moves",
            Some(json!({"state": state})),
        )
        .await;
        assert_eq!((status, body), (200, json!({"takes": [1, 2, 3]})));
        // `validate` answers the rule's code without playing.
        let (status, body) = call(
            &app,
            "POST",
            "/v1/nim/validate",
            Some(json!({"state": state, "take": 5})),
        )
        .await;
        assert_eq!(
            (status, body),
            (200, json!({"legal": false, "reason": "BAD_TAKE"}))
        );
        let (status, body) = call(
            &app,
            "POST",
            "/v1/nim/apply",
            Some(json!({"state": state, "take": 2})),
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(body["state"], json!({"pile": 4, "turn": "second"}));
        // A refusal is the generic 422 problem, with the game's code, one
        // the document lists.
        let (status, body) = call(
            &app,
            "POST",
            "/v1/nim/apply",
            Some(json!({"state": state, "take": 5})),
        )
        .await;
        assert_eq!((status, body["code"].clone()), (422, json!("BAD_TAKE")));
        let (status, body) = call(
            &app,
            "POST",
            "/v1/nim/replay",
            Some(json!({"rounds": [3, 3, 3, 1]})),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["final"], json!({"pile": 0, "winner": "second"}));
        let (status, body) = call(
            &app,
            "POST",
            "/v1/nim/replay",
            Some(json!({"rounds": [3, 9]})),
        )
        .await;
        assert_eq!((status, body["ply"].clone()), (422, json!(1)));
        // Its texts are its own catalogue's (src/i18n/nim.*.ftl), which
        // the languages' catalogues take in tests only.
        let (status, body) = call(
            &app,
            "POST",
            "/v1/nim/score",
            Some(json!({"state": {"pile": 1001, "turn": "first"}})),
        )
        .await;
        assert_eq!(status, 400, "{body}");
        let detail = body["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("a pile holds at most 1000"), "{body}");
        // A review, judged exactly: from 10, taking 3 leaves 7, a won pile
        // for the opponent (a blunder: 2 would leave 8); then each take
        // leaves a multiple of 4 or cannot help it (best).
        let (status, body) = call(
            &app,
            "POST",
            "/v1/nim/annotate",
            Some(json!({"rounds": [3, 3, 2]})),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let labels: Vec<&Value> = body["plies"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| &e["label"])
            .collect();
        assert_eq!(
            labels,
            [&json!("blunder"), &json!("best"), &json!("best")],
            "{body}"
        );
        assert_eq!(body["plies"][0]["best"], json!([2]), "{body}");
        assert_eq!(body["players"][0]["labels"]["blunder"], 1, "{body}");
        assert_eq!(body["players"][1]["accuracy"], 100.0, "{body}");
        assert_eq!(body["final"], json!({"pile": 2, "winner": null}));
        // The AI, then the same request from the cache.
        let ask = json!({"state": state});
        let (status, body) = call(&app, "POST", "/v1/nim/ai-move", Some(ask.clone())).await;
        assert_eq!(
            (status, body["take"].clone(), body["cached"].clone()),
            (200, json!(2), json!(false))
        );
        let (status, body) = call(&app, "POST", "/v1/nim/ai-move", Some(ask)).await;
        assert_eq!(
            (status, body["take"].clone(), body["cached"].clone()),
            (200, json!(2), json!(true))
        );
        let (status, body) = call(
            &app,
            "POST",
            "/v1/nim/ai-move",
            Some(json!({"state": state, "level": 9})),
        )
        .await;
        assert_eq!((status, body["field"].clone()), (400, json!("level")));
        let batch = json!({"requests": [
            {"op": "score", "state": state},
            {"op": "validate", "state": state, "take": 3},
            {"op": "ai-move", "state": state, "level": 1},
            {"op": "apply", "state": state, "take": 0}
        ]});
        let (status, body) = call(&app, "POST", "/v1/nim/batch", Some(batch)).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body["results"][0],
            json!({"op": "score", "pile": 6, "winner": null})
        );
        assert_eq!(
            body["results"][1],
            json!({"op": "validate", "legal": true, "reason": null})
        );
        assert_eq!(body["results"][2]["take"], 1);
        assert_eq!(body["results"][3]["op"], "problem");
        assert_eq!(body["results"][3]["code"], "BAD_TAKE");
        // Its items are checked against the schemas compiled from Nim's
        // document: a level the schema does not allow (but the body's type
        // takes) refuses the whole batch.
        let batch = json!({"requests": [
            {"op": "score", "state": state},
            {"op": "ai-move", "state": state, "level": 9}
        ]});
        let (status, body) = call(&app, "POST", "/v1/nim/batch", Some(batch)).await;
        assert_eq!(
            (status, body["field"].clone()),
            (400, json!("requests[1].level")),
            "{body}"
        );
        // Its ops are the common ones: Tank Battle's `perft` is not one.
        let batch = json!({"requests": [{"op": "perft", "state": state}]});
        let (status, body) = call(&app, "POST", "/v1/nim/batch", Some(batch)).await;
        assert_eq!(
            (status, body["field"].clone()),
            (400, json!("requests[0].op"))
        );
        let (status, _) = call(
            &app,
            "GET",
            "/v1/nim/render.svg?state=%7B%22pile%22%3A3%2C%22turn%22%3A%22first%22%7D",
            None,
        )
        .await;
        assert_eq!(status, 200);
        let (status, _) = call(
            &app,
            "POST",
            "/v1/nim/score",
            Some(json!({"state": {"pile": 5000, "turn": "first"}})),
        )
        .await;
        assert_eq!(status, 400);
    }
}
