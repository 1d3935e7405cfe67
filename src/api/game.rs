//! The HTTP layer, written once for every game: each endpoint's flow
//! (decode → limits → engine → encode), `ai-move` with its cache and
//! search slots, `replay`, `batch` and the pictures. A game plugs in
//! through [`GameApi`]: its DTOs and the few steps where its notation
//! differs. The routes themselves (with their OpenAPI documentation) are
//! declared per game by [`game_routes!`](super::routes::game_routes).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::http::header::ContentType;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::ai::{cache_key, AiAnswer, AiLimits};
use super::batch::{self as batching, BatchBody, Ops};
use super::problem::ApiError;
use crate::cache::{AnswerCache, Key, Lookup, SharedTier};
use crate::error::Refusal;
use crate::fair_use::{Class, Client, FairUse, FairUseConfig, Verdict};
use crate::games::{Game, SearchLimits, Style};
use crate::limits::{Limits, SearchSlots};

/// An `ai-move` request, decoded: the state, what the AI is asked, the
/// requested limits, the seed and the style (level, lines).
pub struct AiRequest<G: Game> {
    pub state: G::State,
    pub question: G::Question,
    pub limits: Option<AiLimits>,
    pub seed: u64,
    pub style: Style,
}

impl<G: Game> AiRequest<G> {
    /// The request to search `state` for `question` at full strength for
    /// one line; the seed is 0 when absent.
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
            style: Style::FULL,
        }
    }

    /// The same request, played at the `level` and reporting the
    /// `multipv` best moves the request asks for.
    pub fn styled(
        self,
        level: Option<u32>,
        multipv: Option<u32>,
    ) -> Result<AiRequest<G>, ApiError> {
        Ok(AiRequest {
            style: super::ai::style(level, multipv)?,
            ..self
        })
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
    type ReplayResponse: Serialize + From<Replayed<Self>> + Send + 'static;
    type AiMoveRequest: DeserializeOwned + 'static;
    type AiMoveResponse: Serialize + DeserializeOwned + AiAnswer;
    type RenderQuery: DeserializeOwned + 'static;
    /// One step as a replay lists it.
    type ReplayStep: Send + 'static;
    /// One state as a replay answers it.
    type ReplayState: Serialize + Send + 'static;

    /// The field of a replay request that lists its steps.
    const REPLAY_STEPS: &'static str = "rounds";

    /// The codes this game's problems carry beyond the service's own
    /// ([`crate::error::SERVICE_CODES`]): its notations' 400s and its
    /// rules' 422s.
    fn problem_codes() -> Vec<&'static str>;

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

    /// Whether the fields of one of [`GameApi::EXTRA_OPS`] decode as its
    /// endpoint's body.
    fn extra_decodes(op: &str, _fields: &Value) -> Result<(), ApiError> {
        Err(batching::not_dispatched(op))
    }

    /// Runs one of [`GameApi::EXTRA_OPS`] in a batch whose searches share
    /// one time budget.
    #[allow(async_fn_in_trait)] // run on actix's thread-local executor only
    async fn extra_op(
        op: &str,
        _fields: Value,
        _services: &Services,
        _shared: &SharedBudget,
    ) -> Result<Value, ApiError> {
        Err(batching::not_dispatched(op))
    }
}

/// What every endpoint shares: the limits, the slots for searches and for
/// heavy work, and the AI answer cache (one app-data value).
#[derive(Clone)]
pub struct Services {
    pub limits: Limits,
    /// AI searches and perft counts.
    pub searches: SearchSlots,
    /// Large replays, run off the HTTP workers.
    pub heavy: SearchSlots,
    pub cache: AnswerCache,
    /// The optional shared tier (Redis) behind `cache`.
    pub shared: Option<SharedTier>,
    /// Quotas per client.
    pub fair_use: Arc<FairUse>,
}

impl Services {
    pub fn new(limits: Limits, cache: AnswerCache) -> Services {
        Services {
            limits,
            searches: SearchSlots::new(limits.max_concurrent_searches),
            heavy: SearchSlots::new(limits.max_concurrent_searches),
            cache,
            shared: None,
            fair_use: Arc::new(FairUse::new(FairUseConfig::default())),
        }
    }

    /// The same services with these quotas.
    pub fn with_fair_use(self, fair_use: FairUse) -> Services {
        Services {
            fair_use: Arc::new(fair_use),
            ..self
        }
    }

    /// The same services with a shared cache tier behind the in-process one.
    pub fn with_shared(self, shared: SharedTier) -> Services {
        Services {
            shared: Some(shared),
            ..self
        }
    }
}

/// A 200 JSON answer, no larger than the answer limit.
pub fn json_response(
    body: serde_json::Result<Vec<u8>>,
    limits: &Limits,
) -> Result<HttpResponse, ApiError> {
    let body = body.map_err(|e| ApiError::Internal(format!("writing the answer failed: {e}")))?;
    limits.check_answer(body.len(), false)?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}

/// Raises its flag when dropped: the future that owns it was completed or
/// abandoned (its client went away).
struct RaiseOnDrop(Arc<AtomicBool>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `work` on the blocking pool in one of `slots`, handing it a stop
/// flag that is raised when the calling future is dropped (the client went
/// away) or at `deadline`. Answers `work`'s result and whether the flag
/// was raised before it ended (its result is then partial).
pub async fn run_stoppable<T: Send + 'static>(
    slots: &SearchSlots,
    limits: &Limits,
    deadline: Option<Instant>,
    work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> Result<(T, bool), ApiError> {
    let slot = slots.take_within(limits).await?;
    let stop = Arc::new(AtomicBool::new(false));
    let _raise_when_abandoned = RaiseOnDrop(stop.clone());
    let flag = stop.clone();
    let task = web::block(move || {
        let _slot = slot;
        let result = work(&flag);
        (result, flag.load(Ordering::Relaxed))
    });
    let finished = match deadline {
        None => task.await,
        Some(deadline) => {
            let mut task = std::pin::pin!(task);
            let timer = std::pin::pin!(tokio::time::sleep_until(deadline.into()));
            match futures_util::future::select(task.as_mut(), timer).await {
                futures_util::future::Either::Left((finished, _)) => finished,
                futures_util::future::Either::Right(((), _)) => {
                    stop.store(true, Ordering::Relaxed);
                    task.await
                }
            }
        }
    };
    finished.map_err(|e| ApiError::Internal(format!("search worker failed: {e}")))
}

/// The search time a batch's searches share: the server's AI time cap,
/// counted from the start of its first search, each search getting at
/// most an equal share of what is left.
pub struct SharedBudget {
    cap: Duration,
    deadline: std::cell::Cell<Option<Instant>>,
    searches_left: std::cell::Cell<usize>,
}

impl SharedBudget {
    /// The budget of a batch of `searches` searches.
    pub fn new(cap: Duration, searches: usize) -> SharedBudget {
        SharedBudget {
            cap,
            deadline: std::cell::Cell::new(None),
            searches_left: std::cell::Cell::new(searches.max(1)),
        }
    }

    /// When the batch's searches must all be done, fixed by the first one
    /// to ask (at `now`).
    pub fn deadline(&self, now: Instant) -> Instant {
        let deadline = self.deadline.get().unwrap_or(now + self.cap);
        self.deadline.set(Some(deadline));
        deadline
    }

    /// When the next search (starting `now`) must be done: an equal share
    /// of the time left among the searches left.
    pub fn next_search(&self, now: Instant) -> Instant {
        let left = self.deadline(now).saturating_duration_since(now);
        let searches = self.searches_left.get().max(1);
        self.searches_left.set(searches - 1);
        now + left / searches as u32
    }
}

/// `legal-moves`.
pub fn legal_moves<G: GameApi>(
    request: G::LegalMovesRequest,
    services: &Services,
) -> Result<G::LegalMovesResponse, ApiError> {
    G::run_legal_moves(request, &services.limits)
}

/// `validate`.
pub fn validate<G: GameApi>(
    request: G::ValidateRequest,
    services: &Services,
) -> Result<G::ValidateResponse, ApiError> {
    G::run_validate(request, &services.limits)
}

/// `apply`: one step played, or its refusal.
pub fn apply<G: GameApi>(
    request: G::ApplyRequest,
    services: &Services,
) -> Result<G::ApplyResponse, ApiError> {
    let (mut state, step) = G::decode_apply(request, &services.limits)?;
    let events = G::play(&mut state, step).map_err(|e| G::refusal(e, None))?;
    Ok(G::encode_apply(&state, events))
}

/// `score`.
pub fn score<G: GameApi>(
    request: G::ScoreRequest,
    services: &Services,
) -> Result<G::ScoreResponse, ApiError> {
    let state = G::decode_score(request, &services.limits)?;
    Ok(G::encode_score(&state))
}

/// `replay`: the state after each step, each step checked; the first
/// refused one is the answer, with its `ply`. The work (cells times steps)
/// and the answer's size are checked before anything is played; a large
/// replay runs on the blocking pool in a work slot, so the HTTP workers
/// stay free.
pub async fn replay<G: GameApi>(
    request: G::ReplayRequest,
    services: &Services,
) -> Result<G::ReplayResponse, ApiError> {
    let limits = services.limits;
    let (state, steps) = G::decode_replay(request, &limits)?;
    let work = limits.check_replay_work(G::size(&state), steps.len(), G::REPLAY_STEPS)?;
    let per_state = serde_json::to_vec(&G::replay_state(&state)).map_or(0, |s| s.len() + 1);
    limits.check_answer(per_state.saturating_mul(steps.len()), true)?;
    if work <= Limits::INLINE_REPLAY_WORK {
        return simulate::<G>(state, steps, &limits);
    }
    let (replayed, _) = run_stoppable(&services.heavy, &limits, None, move |stop| {
        simulate::<G>(state, steps, &limits).and_then(|answer| {
            // A client that went away gets nothing; stop writing states.
            if stop.load(Ordering::Relaxed) {
                Err(ApiError::Internal("the client went away".to_owned()))
            } else {
                Ok(answer)
            }
        })
    })
    .await?;
    replayed
}

/// Plays a replay's steps from `state`.
fn simulate<G: GameApi>(
    mut state: G::State,
    steps: Vec<G::ReplayStep>,
    limits: &Limits,
) -> Result<G::ReplayResponse, ApiError> {
    let mut states = Vec::with_capacity(steps.len());
    for (ply, step) in steps.into_iter().enumerate() {
        let step = G::replay_step(&mut state, step, ply, limits)?;
        G::play(&mut state, step).map_err(|e| G::refusal(e, Some(ply)))?;
        states.push(G::replay_state(&state));
    }
    let last = G::encode_score(&state);
    Ok(Replayed { states, last }.into())
}

/// `ai-move`: the answer from the cache, or a search run on the blocking
/// pool in a search slot and then cached. The search stops when the
/// client goes away, or when a batch's `shared` budget runs out; an answer
/// cut short by either (or given less time than asked) is not cached.
pub async fn ai_move<G: GameApi>(
    request: G::AiMoveRequest,
    services: &Services,
    shared: Option<&SharedBudget>,
) -> Result<G::AiMoveResponse, ApiError> {
    let limits = &services.limits;
    let AiRequest {
        state,
        question,
        limits: asked,
        seed,
        style,
    } = G::decode_ai(request, limits)?;
    if G::is_over(&state) {
        return Err(G::game_over(&question).into());
    }
    let budget = asked.unwrap_or_default().budget(limits, &style);
    let canonical = format!(
        "{}|{question:?}|{}|{:?}|{}",
        G::ID,
        G::canonical(&state),
        style.level.map(|l| l.get()),
        style.lines
    );
    let key = Key::digest(cache_key(G::AI_VERSION, &canonical, &budget, seed).as_bytes());
    if let Some(mut hit) = cached::<G>(services, key).await {
        hit.mark_cached();
        return Ok(hit);
    }
    let started = Instant::now();
    let deadline = shared.map(|shared| shared.next_search(started));
    let time_ms = match deadline {
        Some(deadline) => {
            let left = deadline.saturating_duration_since(started).as_millis() as u64;
            if left == 0 {
                return Err(ApiError::limit_exceeded(
                    "the batch has spent its search time (the server's AI time cap)",
                    "",
                ));
            }
            budget.time_ms.min(left)
        }
        None => budget.time_ms,
    };
    let max_time = Some(Duration::from_millis(time_ms));
    let asked = question.clone();
    let (answer, stopped) = run_stoppable(&services.searches, limits, deadline, move |stop| {
        let limits = SearchLimits {
            max_time,
            max_depth: budget.depth,
            max_nodes: budget.nodes,
            stop: Some(stop),
        };
        G::suggest(&state, &asked, limits, seed, style).map(|found| G::encode_ai(&state, found))
    })
    .await?;
    let mut answer = answer.ok_or_else(|| ApiError::from(G::game_over(&question)))?;
    answer.set_time_ms(started.elapsed().as_millis() as u64);
    let cache = &services.cache;
    cache.record_search(G::ID, answer.work(), started.elapsed().as_secs_f64());
    // An answer is cached when it is the one the request would get alone:
    // not stopped, and not cut by a batch's shorter time. A search that
    // ended before half its time was not cut: each engine stops early
    // only past half its time (between iterations) or at its limit.
    let cut = time_ms < budget.time_ms && started.elapsed().as_millis() as u64 * 2 >= time_ms;
    if !stopped && !cut {
        if let Ok(encoded) = serde_json::to_vec(&answer) {
            let encoded: Arc<[u8]> = Arc::from(encoded);
            if let Some(shared) = &services.shared {
                shared.put(key, encoded.clone());
            }
            cache.insert(key, encoded);
        }
    }
    Ok(answer)
}

/// The cached answer for `key`, if a tier has one that decodes: the
/// in-process tier first, then the shared one (whose answers are then kept
/// in-process too).
async fn cached<G: GameApi>(services: &Services, key: Key) -> Option<G::AiMoveResponse> {
    if let Some(bytes) = services.cache.get(G::ID, key) {
        match serde_json::from_slice(&bytes) {
            Ok(answer) => return Some(answer),
            Err(e) => tracing::warn!(game = G::ID, error = %e, "undecodable cached answer"),
        }
    }
    let shared = services.shared.as_ref()?;
    let Lookup::Hit(bytes) = shared.get(G::ID, key).await else {
        return None;
    };
    match serde_json::from_slice(&bytes) {
        Ok(answer) => {
            services.cache.insert(key, bytes);
            Some(answer)
        }
        Err(_) => {
            shared.undecodable(G::ID);
            None
        }
    }
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
    services: &Services,
) -> Result<HttpResponse, ApiError> {
    Ok(super::svg::respond(
        request,
        G::render(query, &services.limits)?,
    ))
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

/// `batch`: every request through its endpoint's flow, in order. Its
/// searches share one time budget, the server's AI time cap, and each
/// spends one of the client's search quota.
pub async fn batch<G: GameApi, T>(
    body: BatchBody<T>,
    services: &Services,
    client: Option<Client>,
) -> Result<HttpResponse, ApiError> {
    let ops = batch_ops::<G>();
    if let Some(client) = client {
        let searches = u32::try_from(body.searches(&ops)).unwrap_or(u32::MAX);
        if let Verdict::Limited {
            policy,
            retry_after,
        } = services
            .fair_use
            .check(&client, Class::Search, searches)
            .await
        {
            return Err(ApiError::TooManyRequests {
                class: policy.class.name(),
                quota: policy.quota,
                retry_after_secs: retry_after.as_secs_f64().ceil() as u64,
            });
        }
    }
    let cap = Duration::from_millis(services.limits.ai_max_time_ms);
    let shared = SharedBudget::new(cap, body.searches(&ops));
    let schemas = batching::item_schemas(G::ID);
    // An item is refused as its endpoint's body extractor would refuse it,
    // and as its schema says (patterns, ranges).
    let check = |op: &'static str, item: &Value| {
        if let Some(schemas) = schemas {
            schemas.check(op, item)?;
        }
        let mut fields = item.clone();
        if let Some(fields) = fields.as_object_mut() {
            fields.remove("op");
        }
        decodes::<G>(op, &fields)
    };
    batching::run(body, &services.limits, &ops, check, |op, fields| {
        dispatch::<G>(op, fields, services, &shared)
    })
    .await
}

/// Whether a batched request's fields decode as its endpoint's body.
fn decodes<G: GameApi>(op: &str, fields: &Value) -> Result<(), ApiError> {
    use batching::check;
    match op {
        "legal-moves" => check::<G::LegalMovesRequest>(fields),
        "validate" => check::<G::ValidateRequest>(fields),
        "apply" => check::<G::ApplyRequest>(fields),
        "score" => check::<G::ScoreRequest>(fields),
        "replay" => check::<G::ReplayRequest>(fields),
        "ai-move" => check::<G::AiMoveRequest>(fields),
        _ => G::extra_decodes(op, fields),
    }
}

/// Runs one batched request through its endpoint's flow.
async fn dispatch<G: GameApi>(
    op: &str,
    fields: Value,
    services: &Services,
    shared: &SharedBudget,
) -> Result<Value, ApiError> {
    use batching::{decode, to_json};
    match op {
        "legal-moves" => to_json(legal_moves::<G>(decode(fields)?, services)),
        "validate" => to_json(validate::<G>(decode(fields)?, services)),
        "apply" => to_json(apply::<G>(decode(fields)?, services)),
        "score" => to_json(score::<G>(decode(fields)?, services)),
        "replay" => to_json(replay::<G>(decode(fields)?, services).await),
        "ai-move" => to_json(ai_move::<G>(decode(fields)?, services, Some(shared)).await),
        _ => G::extra_op(op, fields, services, shared).await,
    }
}
