//! The HTTP layer, written once for every game: each endpoint's flow
//! (decode → limits → engine → encode), `ai-move` with its cache and
//! search slots, `replay`, `batch` and the pictures. A game plugs in
//! through [`GameApi`]: its DTOs and the few steps where its notation
//! differs. The routes themselves (with their OpenAPI documentation) are
//! declared per game by [`game_routes!`](super::routes::game_routes).

use std::future::{ready, Ready};
use std::time::Instant;

use actix_web::dev::Payload;
use actix_web::http::header::ContentType;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::ai::{cache_key, AiAnswer, AiLimits};
use super::batch::{self as batching, BatchBody, Ops};
use super::problem::ApiError;
use crate::cache::AnswerCache;
use crate::error::Refusal;
use crate::games::{Game, SearchLimits};
use crate::limits::{Limits, SearchSlots};

/// An `ai-move` request, decoded: the state, what the AI is asked, the
/// requested limits and the seed.
pub struct AiRequest<G: Game> {
    pub state: G::State,
    pub question: G::Question,
    pub limits: Option<AiLimits>,
    pub seed: u64,
}

impl<G: Game> AiRequest<G> {
    /// The request to search `state` for `question`; the seed is 0 when
    /// absent.
    pub fn new(
        state: G::State,
        question: G::Question,
        limits: Option<AiLimits>,
        seed: Option<u64>,
    ) -> AiRequest<G> {
        AiRequest {
            state,
            question,
            limits,
            seed: seed.unwrap_or(0),
        }
    }
}

/// What a replay found: the state after each step and the standing after
/// the last, turned into the game's answer by [`replay_answer!`].
pub struct Replayed<G: GameApi> {
    pub states: Vec<G::ReplayState>,
    pub last: G::ScoreResponse,
}

/// Builds a game's `ReplayResponse` (with `final_state` and the named list
/// of states) from [`Replayed`].
macro_rules! replay_answer {
    ($answer:ident, $states:ident) => {
        impl<G> From<$crate::api::game::Replayed<G>> for $answer
        where
            G: $crate::api::game::GameApi<ReplayState = ReplayState, ScoreResponse = ScoreResponse>,
        {
            fn from(replayed: $crate::api::game::Replayed<G>) -> $answer {
                $answer {
                    $states: replayed.states,
                    final_state: replayed.last,
                }
            }
        }
    };
}
pub(crate) use replay_answer;

/// A game as the HTTP layer serves it. The associated types are the
/// game's DTOs, named after their endpoint; the methods are the steps
/// where the game's notation differs: decoding requests into engine
/// values, encoding engine values into answers, and naming refusals.
pub trait GameApi: Game {
    type LegalMovesRequest: DeserializeOwned + 'static;
    type LegalMovesResponse: Serialize;
    type ValidateRequest: DeserializeOwned + 'static;
    type ValidateResponse: Serialize;
    type ApplyRequest: DeserializeOwned + 'static;
    type ApplyResponse: Serialize;
    type ScoreRequest: DeserializeOwned + 'static;
    type ScoreResponse: Serialize;
    type ReplayRequest: DeserializeOwned + 'static;
    type ReplayResponse: Serialize + From<Replayed<Self>>;
    type AiMoveRequest: DeserializeOwned + 'static;
    type AiMoveResponse: Serialize + AiAnswer;
    type RenderQuery: DeserializeOwned + 'static;
    /// One step as a replay lists it.
    type ReplayStep;
    /// One state as a replay answers it.
    type ReplayState: Serialize;

    /// `batch` ops beyond the common ones (Tank Battle's `perft`), each
    /// with whether it is a search; run by [`GameApi::extra_op`].
    const EXTRA_OPS: &'static [(&'static str, bool)] = &[];

    fn run_legal_moves(
        request: Self::LegalMovesRequest,
        limits: &Limits,
    ) -> Result<Self::LegalMovesResponse, ApiError>;

    /// The body of a `legal-moves` answer (a game may write it faster than
    /// serde does, byte for byte the same).
    fn legal_moves_json(answer: &Self::LegalMovesResponse) -> serde_json::Result<Vec<u8>> {
        serde_json::to_vec(answer)
    }

    fn run_validate(
        request: Self::ValidateRequest,
        limits: &Limits,
    ) -> Result<Self::ValidateResponse, ApiError>;

    /// The picture of `render.svg`.
    fn render(query: Self::RenderQuery, limits: &Limits) -> Result<String, ApiError>;

    fn decode_apply(
        request: Self::ApplyRequest,
        limits: &Limits,
    ) -> Result<(Self::State, Self::Step), ApiError>;

    /// The answer of `apply`: the state after the step and its events.
    fn encode_apply(after: &Self::State, events: Self::Events) -> Self::ApplyResponse;

    fn decode_score(request: Self::ScoreRequest, limits: &Limits) -> Result<Self::State, ApiError>;

    fn encode_score(state: &Self::State) -> Self::ScoreResponse;

    /// The start state and the steps of a replay, their number checked
    /// against the server's limit.
    fn decode_replay(
        request: Self::ReplayRequest,
        limits: &Limits,
    ) -> Result<(Self::State, Vec<Self::ReplayStep>), ApiError>;

    /// The step at `ply` of a replay; it may first change the state (Tank
    /// Wars places the round's gunfire tokens).
    fn replay_step(
        state: &mut Self::State,
        step: Self::ReplayStep,
        ply: usize,
        limits: &Limits,
    ) -> Result<Self::Step, ApiError>;

    fn replay_state(state: &Self::State) -> Self::ReplayState;

    /// The 422 of a refused step (`ply` in a replay).
    fn refusal(error: Self::Illegal, ply: Option<usize>) -> Refusal;

    /// The 422 of an `ai-move` in a finished game.
    fn game_over(question: &Self::Question) -> Refusal;

    fn decode_ai(
        request: Self::AiMoveRequest,
        limits: &Limits,
    ) -> Result<AiRequest<Self>, ApiError>;

    /// Canonical text of a state: equal states, equal text (part of the
    /// AI cache key). By default the JSON of the state as a replay answers
    /// it.
    fn canonical(state: &Self::State) -> String {
        serde_json::to_string(&Self::replay_state(state)).unwrap_or_default()
    }

    /// The answer of `ai-move`, but for `time_ms` and `cached`, which the
    /// flow fills in.
    fn encode_ai(state: &Self::State, suggestion: Self::Suggestion) -> Self::AiMoveResponse;

    /// Runs one of [`GameApi::EXTRA_OPS`] in a batch.
    #[allow(async_fn_in_trait)] // run on actix's thread-local executor only
    async fn extra_op(op: &str, _fields: Value, _ctx: &Ctx<Self>) -> Result<Value, ApiError> {
        Err(batching::not_dispatched(op))
    }
}

/// What a game's endpoints share: the limits, the search slots and the
/// game's AI cache, extracted from the app data in one go.
pub struct Ctx<G: GameApi> {
    pub limits: web::Data<Limits>,
    pub slots: web::Data<SearchSlots>,
    pub cache: web::Data<AnswerCache<G::AiMoveResponse>>,
}

impl<G: GameApi> FromRequest for Ctx<G> {
    type Error = ApiError;
    type Future = Ready<Result<Ctx<G>, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let ctx = (|| {
            Some(Ctx {
                limits: req.app_data::<web::Data<Limits>>()?.clone(),
                slots: req.app_data::<web::Data<SearchSlots>>()?.clone(),
                cache: req
                    .app_data::<web::Data<AnswerCache<G::AiMoveResponse>>>()?
                    .clone(),
            })
        })();
        ready(ctx.ok_or_else(|| ApiError::Internal(format!("{} is not configured", G::ID))))
    }
}

/// A 200 JSON answer.
pub fn json_response(body: serde_json::Result<Vec<u8>>) -> Result<HttpResponse, ApiError> {
    let body = body.map_err(|e| ApiError::Internal(format!("writing the answer failed: {e}")))?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}

/// `legal-moves`.
pub fn legal_moves<G: GameApi>(
    request: G::LegalMovesRequest,
    ctx: &Ctx<G>,
) -> Result<G::LegalMovesResponse, ApiError> {
    G::run_legal_moves(request, &ctx.limits)
}

/// `validate`.
pub fn validate<G: GameApi>(
    request: G::ValidateRequest,
    ctx: &Ctx<G>,
) -> Result<G::ValidateResponse, ApiError> {
    G::run_validate(request, &ctx.limits)
}

/// `apply`: one step played, or its refusal.
pub fn apply<G: GameApi>(
    request: G::ApplyRequest,
    ctx: &Ctx<G>,
) -> Result<G::ApplyResponse, ApiError> {
    let (mut state, step) = G::decode_apply(request, &ctx.limits)?;
    let events = G::play(&mut state, step).map_err(|e| G::refusal(e, None))?;
    Ok(G::encode_apply(&state, events))
}

/// `score`.
pub fn score<G: GameApi>(
    request: G::ScoreRequest,
    ctx: &Ctx<G>,
) -> Result<G::ScoreResponse, ApiError> {
    let state = G::decode_score(request, &ctx.limits)?;
    Ok(G::encode_score(&state))
}

/// `replay`: the state after each step, each step checked; the first
/// refused one is the answer, with its `ply`.
pub fn replay<G: GameApi>(
    request: G::ReplayRequest,
    ctx: &Ctx<G>,
) -> Result<G::ReplayResponse, ApiError> {
    let (mut state, steps) = G::decode_replay(request, &ctx.limits)?;
    let mut states = Vec::with_capacity(steps.len());
    for (ply, step) in steps.into_iter().enumerate() {
        let step = G::replay_step(&mut state, step, ply, &ctx.limits)?;
        G::play(&mut state, step).map_err(|e| G::refusal(e, Some(ply)))?;
        states.push(G::replay_state(&state));
    }
    let last = G::encode_score(&state);
    Ok(Replayed { states, last }.into())
}

/// `ai-move`: the answer from the cache, or a search run on the blocking
/// pool in a search slot and then cached.
pub async fn ai_move<G: GameApi>(
    request: G::AiMoveRequest,
    ctx: &Ctx<G>,
) -> Result<G::AiMoveResponse, ApiError> {
    let AiRequest {
        state,
        question,
        limits,
        seed,
    } = G::decode_ai(request, &ctx.limits)?;
    if G::is_over(&state) {
        return Err(G::game_over(&question).into());
    }
    let budget = limits.unwrap_or_default().budget(&ctx.limits);
    let key = cache_key(
        G::AI_VERSION,
        &format_args!("{}|{question:?}|{}", G::ID, G::canonical(&state)),
        &budget,
        seed,
    );
    if let Some(mut hit) = ctx.cache.get(&key) {
        hit.mark_cached();
        return Ok(hit);
    }
    let slot = ctx.slots.take_within(&ctx.limits).await?;
    let started = Instant::now();
    let search_limits = SearchLimits {
        max_time: Some(std::time::Duration::from_millis(budget.time_ms)),
        max_depth: budget.depth,
        max_nodes: budget.nodes,
    };
    let asked = question.clone();
    let mut answer = web::block(move || {
        let _slot = slot;
        G::suggest(&state, &asked, search_limits, seed).map(|found| G::encode_ai(&state, found))
    })
    .await
    .map_err(|e| ApiError::Internal(format!("AI worker failed: {e}")))?
    .ok_or_else(|| ApiError::from(G::game_over(&question)))?;
    answer.set_time_ms(started.elapsed().as_millis() as u64);
    ctx.cache
        .record_search(answer.work(), started.elapsed().as_secs_f64());
    ctx.cache.insert(key, answer.clone());
    Ok(answer)
}

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

    /// `render.svg`'s picture: of the state sent as JSON in the query
    /// parameter `state`, or of the default start.
    fn draw_param(text: Option<&str>, limits: &Limits) -> Result<String, ApiError> {
        let state = match text {
            Some(text) => {
                let dto = super::json::parse_param(text, "state")?;
                Self::decode_state(&dto, "state", limits)?
            }
            None => Self::initial(),
        };
        Ok(Self::draw(&state))
    }
}

/// The [`GameApi`] methods every [`JsonState`] game shares, for its
/// `impl GameApi`: `score` takes `{"state"}`, `replay` takes
/// `{"start"?, "rounds"}` and answers states, `render.svg` takes the state
/// as JSON in the query.
macro_rules! json_state_methods {
    () => {
        fn decode_score(
            request: Self::ScoreRequest,
            limits: &$crate::limits::Limits,
        ) -> Result<Self::State, $crate::api::problem::ApiError> {
            use $crate::api::game::JsonState;
            Self::decode_state(&request.state, "state", limits)
        }

        fn decode_replay(
            request: Self::ReplayRequest,
            limits: &$crate::limits::Limits,
        ) -> Result<(Self::State, Vec<Self::ReplayStep>), $crate::api::problem::ApiError> {
            use $crate::api::game::JsonState;
            limits.check_replay(request.rounds.len(), "rounds")?;
            let start = match &request.start {
                Some(start) => Self::decode_state(start, "start", limits)?,
                None => <Self as $crate::games::Game>::initial(),
            };
            Ok((start, request.rounds))
        }

        fn replay_state(state: &Self::State) -> Self::ReplayState {
            <Self as $crate::api::game::JsonState>::encode_state(state)
        }

        fn render(
            query: Self::RenderQuery,
            limits: &$crate::limits::Limits,
        ) -> Result<String, $crate::api::problem::ApiError> {
            <Self as $crate::api::game::JsonState>::draw_param(query.state.as_deref(), limits)
        }
    };
}
pub(crate) use json_state_methods;

/// `render.svg`: the picture, with its entity tag.
pub fn render<G: GameApi>(
    request: &HttpRequest,
    query: G::RenderQuery,
    ctx: &Ctx<G>,
) -> Result<HttpResponse, ApiError> {
    Ok(super::svg::respond(request, G::render(query, &ctx.limits)?))
}

/// The ops of a game's `batch`: every JSON endpoint, searches last.
pub fn batch_ops<G: GameApi>() -> Ops {
    let extra = G::EXTRA_OPS.iter();
    let mut all = vec!["legal-moves", "validate", "apply", "score", "replay"];
    all.extend(extra.clone().map(|(op, _)| *op));
    all.push("ai-move");
    let mut searches: Vec<_> = extra
        .filter(|(_, search)| *search)
        .map(|(op, _)| *op)
        .collect();
    searches.push("ai-move");
    Ops { all, searches }
}

/// `batch`: every request through its endpoint's flow, in order.
pub async fn batch<G: GameApi, T>(
    body: BatchBody<T>,
    ctx: &Ctx<G>,
) -> Result<HttpResponse, ApiError> {
    let ops = batch_ops::<G>();
    batching::run(body, &ctx.limits, &ops, |op, fields| {
        dispatch::<G>(op, fields, ctx)
    })
    .await
}

/// Runs one batched request through its endpoint's flow.
async fn dispatch<G: GameApi>(op: &str, fields: Value, ctx: &Ctx<G>) -> Result<Value, ApiError> {
    use batching::{decode, to_json};
    match op {
        "legal-moves" => to_json(legal_moves(decode(fields)?, ctx)),
        "validate" => to_json(validate(decode(fields)?, ctx)),
        "apply" => to_json(apply(decode(fields)?, ctx)),
        "score" => to_json(score(decode(fields)?, ctx)),
        "replay" => to_json(replay(decode(fields)?, ctx)),
        "ai-move" => to_json(ai_move(decode(fields)?, ctx).await),
        _ => G::extra_op(op, fields, ctx).await,
    }
}
