//! What a game plugs into the HTTP layer: [`GameApi`], its DTOs (named
//! after their endpoints) and the few steps where its notation differs
//! (games whose state travels as one JSON object share theirs:
//! [`super::json_state`]).
//! The flows that use them are in [`super::flows`]; the routes are
//! declared per game with [`game_routes!`](super::game_routes::game_routes).

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use super::flows::ask::{AiRequest, Suggested, ToJudge, Work};
use super::flows::budget::SharedBudget;
use super::services::Services;
use super::transport::problem::RequestError;
use crate::error::Refusal;
use crate::games::review::Review;
use crate::limits::Limits;
use crate::operations::Operation;

/// A game as the HTTP layer serves it. The associated types are the
/// game's DTOs, named after their endpoint; the methods are the steps
/// where the game's notation differs: decoding requests into engine
/// values, encoding engine values into answers, and naming refusals.
pub trait GameApi: Review {
    type LegalMovesRequest: DeserializeOwned + 'static;
    type LegalMovesResponse: Serialize;
    type ValidateRequest: DeserializeOwned + 'static;
    type ValidateResponse: Serialize;
    type ApplyRequest: DeserializeOwned + 'static;
    type ApplyResponse: Serialize;
    type ScoreRequest: DeserializeOwned + 'static;
    type ScoreResponse: Serialize + utoipa::ToSchema + Send + 'static;
    type ReplayRequest: DeserializeOwned + 'static;
    type ReplayResponse: Serialize + Send + 'static;
    type AiMoveRequest: DeserializeOwned + 'static;
    /// What its AI suggests: `ai-move` answers it as a [`Suggested`].
    type AiSuggestion: Work + Serialize + DeserializeOwned + Clone + Send + Sync + 'static;
    type RenderQuery: DeserializeOwned + 'static;
    /// One step as a replay lists it.
    type ReplayStep: utoipa::ToSchema + Send + 'static;
    /// One state as a replay answers it.
    type ReplayState: Serialize + Send + 'static;
    /// `annotate`'s body: the replay's, and what it asks of the judge.
    type AnnotateRequest: DeserializeOwned + 'static;
    /// A move (pick, orders) as a review names it.
    type PickDto: Serialize + utoipa::ToSchema + Send + 'static;
    /// What `ai-move` with `play` takes beside the AI's answer to make the
    /// step `apply` plays: nothing in Tank Battle; the other player's pick
    /// or orders (and what else a round needs) in the simultaneous games.
    type PlayWith: Send + 'static;

    /// The prefix of the game's schema names in the document.
    const SCHEMA_PREFIX: &'static str;
    /// The players' names, in the order of their index.
    const PLAYER_NAMES: [&'static str; 2];
    /// The players, in the order of their index.
    const PLAYERS: usize = Self::PLAYER_NAMES.len();

    /// The field of a replay request that lists its steps.
    const REPLAY_STEPS: &'static str = "rounds";

    /// The field of a `score` (or `legal-moves`) request that holds the
    /// state.
    const STATE_FIELD: &'static str = "state";

    /// The codes this game's problems carry beyond the service's own
    /// ([`crate::api::transport::http_error::SERVICE_CODES`]): its notations' 400s and its
    /// rules' 422s.
    fn problem_codes() -> Vec<&'static str>;

    /// The game's operations beyond every game's (Tank Battle's `perft`):
    /// those a batch runs are run by [`GameApi::extra_op`].
    const EXTRA_OPS: &'static [Operation] = &[];

    fn run_legal_moves(
        request: Self::LegalMovesRequest,
        limits: &Limits,
    ) -> Result<Self::LegalMovesResponse, RequestError>;

    fn run_validate(
        request: Self::ValidateRequest,
        limits: &Limits,
        lang: crate::i18n::Lang,
    ) -> Result<Self::ValidateResponse, RequestError>;

    /// The picture of `render.svg`, its texts in `lang`.
    fn render(
        query: Self::RenderQuery,
        limits: &Limits,
        lang: crate::i18n::Lang,
    ) -> Result<String, RequestError>;

    fn decode_apply(
        request: Self::ApplyRequest,
        limits: &Limits,
    ) -> Result<(Self::State, Self::Step), RequestError>;

    /// The answer of `apply`: the state after the step and its events.
    fn encode_apply(after: &Self::State, events: Self::Events) -> Self::ApplyResponse;

    fn decode_score(
        request: Self::ScoreRequest,
        limits: &Limits,
    ) -> Result<Self::State, RequestError>;

    fn encode_score(state: &Self::State) -> Self::ScoreResponse;

    /// The start state and the steps of a replay, their number checked
    /// against the server's limit.
    fn decode_replay(
        request: Self::ReplayRequest,
        limits: &Limits,
    ) -> Result<(Self::State, Vec<Self::ReplayStep>), RequestError>;

    /// The step at `ply` of a replay; it may first change the state (Tank
    /// Wars places the round's gunfire tokens).
    fn replay_step(
        state: &mut Self::State,
        step: Self::ReplayStep,
        ply: usize,
        limits: &Limits,
    ) -> Result<Self::Step, RequestError>;

    fn replay_state(state: &Self::State) -> Self::ReplayState;

    /// The decisions a step records that a review does not judge, by name
    /// (Tank Wars: a round's gunfire tokens, recorded without their
    /// owner); none by default.
    fn unjudged(_step: &Self::ReplayStep) -> &'static [&'static str] {
        &[]
    }

    /// The answer of `replay`: the state after each step and the standing
    /// after the last.
    fn encode_replay(
        states: Vec<Self::ReplayState>,
        last: Self::ScoreResponse,
    ) -> Self::ReplayResponse;

    /// The start state, the steps and the judging of an `annotate`.
    fn decode_annotate(
        request: Self::AnnotateRequest,
        limits: &Limits,
    ) -> Result<ToJudge<Self::State, Self::ReplayStep>, RequestError>;

    /// A move of a review's verdict, in the game's notation (`state` is
    /// the state it was played in).
    fn encode_pick(state: &Self::State, pick: &Self::Pick) -> Self::PickDto;

    /// The player of `index`, as the game names players.
    fn player_name(index: usize) -> &'static str {
        Self::PLAYER_NAMES[index.min(Self::PLAYERS - 1)]
    }

    /// The 422 of a refused step (`ply` in a replay).
    fn refusal(error: Self::Illegal, ply: Option<usize>) -> Refusal;

    /// The 422 of an `ai-move` in a finished game.
    fn game_over(question: &Self::Question) -> Refusal;

    fn decode_ai(
        request: Self::AiMoveRequest,
        limits: &Limits,
    ) -> Result<AiRequest<Self>, RequestError>;

    /// `ai-move`'s `play`: what the request gives beside the AI's answer
    /// to make the step `apply` plays ([`GameApi::PlayWith`]); `None` when
    /// it does not ask to play, a 400 when it asks wrongly.
    fn play_with(request: &Self::AiMoveRequest) -> Result<Option<Self::PlayWith>, RequestError>;

    /// The step `apply` would be given for the AI's `answer` to `question`
    /// in `state`, with what the request gave beside it; it may first
    /// change the state, as `apply` does (Tank Wars places the round's
    /// gunfire).
    fn played_step(
        state: &mut Self::State,
        question: &Self::Question,
        answer: &Suggested<Self::AiSuggestion>,
        with: Self::PlayWith,
    ) -> Result<Self::Step, RequestError>;

    /// Canonical text of a state and a question to the AI: equal
    /// requests, equal text (part of the AI cache key); an error only for
    /// a bug of the server (a state it cannot write).
    fn canonical(state: &Self::State, question: &Self::Question) -> Result<String, RequestError>;

    /// Canonical text of a step played in a state: equal text, equal
    /// verdicts of a review (part of its cache key); an error only for a
    /// bug of the server.
    fn step_text(state: &Self::State, step: &Self::Step) -> Result<String, RequestError>;

    /// The answer of `ai-move`, but for `time_ms` and `cached`, which the
    /// flow fills in.
    fn encode_ai(
        state: &Self::State,
        suggestion: Self::Suggestion,
    ) -> Suggested<Self::AiSuggestion>;

    /// Whether `answer`, read from the shared cache tier, can answer
    /// `question` in `state`: every move (or pick, or order) it names is
    /// legal there. Redis may hold anything, so an answer from it is
    /// served only when this holds.
    fn check_ai_answer(
        state: &Self::State,
        question: &Self::Question,
        answer: &Suggested<Self::AiSuggestion>,
    ) -> Result<(), UnfitAnswer>;

    /// `compare`: the lists of moves in a `legal-moves` answer (as JSON),
    /// each its JSON pointer and whose moves it lists (a player, a player's
    /// vehicle; empty for a game with one list).
    fn move_lists(answer: &Value) -> Vec<(String, String)>;

    /// `compare`: a listed move's identity in its list (Tank Battle: its
    /// entry's `move`); the item itself by default.
    fn move_key(item: &Value) -> Value {
        item.clone()
    }

    /// `compare`: the `validate` body asking about `key`, claimed in the
    /// list `at` of a `legal-moves` answer to `request`.
    fn validate_listed(request: &Value, at: &str, key: &Value) -> Value;

    /// `compare`: the code and message a `validate` answer gives the move
    /// asked about at `at`; `None` when it is legal.
    fn listed_refusal(answer: &Value, at: &str) -> Option<(String, String)>;

    /// Whether the fields of one of [`GameApi::EXTRA_OPS`] decode as its
    /// endpoint's body.
    fn extra_decodes(op: Operation, _fields: &Value) -> Result<(), RequestError> {
        Err(not_dispatched(op))
    }

    /// Runs one of [`GameApi::EXTRA_OPS`] in a batch whose searches share
    /// one time budget.
    #[allow(async_fn_in_trait)] // run on actix's thread-local executor only
    async fn extra_op(
        op: Operation,
        _fields: Value,
        _services: &Services,
        _shared: &SharedBudget,
    ) -> Result<crate::api::flows::items::Written, RequestError> {
        Err(not_dispatched(op))
    }
}

/// The document's name of `G`'s schema `what`: `TankWar` +
/// `StateRequest`. (utoipa would name a generic type after its
/// parameters.)
pub fn schema_name<G: GameApi>(what: &str) -> std::borrow::Cow<'static, str> {
    std::borrow::Cow::Owned(format!("{}{what}", G::SCHEMA_PREFIX))
}

/// `ToSchema` for a DTO generic over the game `G` (bound by `$bound`),
/// whose `PartialSchema` is written by hand: named after the game
/// ([`schema_name`]: `TankWar` + the type's name, or `as`), its
/// components the schemas it refers to (each with theirs).
macro_rules! game_schema {
    (@name $type:ident) => { stringify!($type) };
    (@name $type:ident $name:literal) => { $name };
    ($bound:path, $type:ident $(as $name:literal)?: $($part:ty),* $(,)?) => {
        impl<G: $bound> utoipa::ToSchema for $type<G> {
            fn name() -> std::borrow::Cow<'static, str> {
                $crate::api::game::schema_name::<G>(game_schema!(@name $type $($name)?))
            }

            #[allow(unused_variables)] // (a DTO that refers to none)
            fn schemas(
                schemas: &mut Vec<(
                    String,
                    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
                )>,
            ) {
                $($crate::api::game::push_schema::<$part>(schemas);)*
            }
        }
    };
}
pub(crate) use game_schema;

/// Adds `T`'s schema, by its name, and those it refers to.
pub fn push_schema<T: ToSchema>(schemas: &mut Vec<(String, RefOr<Schema>)>) {
    schemas.push((T::name().into_owned(), T::schema()));
    T::schemas(schemas);
}

/// Stand-ins for the schemas a game gives, in the schemas derived once for
/// every game (`#[schema(value_type = Pick)]`): [`ForGame`] points them at
/// the game's [`GameApi::PickDto`] and [`GameApi::ScoreResponse`].
pub struct Pick;
/// See [`Pick`].
pub struct Score;

macro_rules! stand_ins {
    ($($stand_in:ident),*) => {$(
        impl utoipa::PartialSchema for $stand_in {
            fn schema() -> RefOr<Schema> {
                RefOr::T(Schema::default())
            }
        }
        impl utoipa::ToSchema for $stand_in {}
    )*};
}
stand_ins!(Pick, Score);

/// The schemas derived once for every game (from their doc comments,
/// with [`Pick`] and [`Score`] where a game's own schema goes), which the
/// document names after each game.
pub(crate) const PER_GAME: &[&str] = &["Annotation", "AnnotateResponse"];

/// The derived schema `T` (one of [`PER_GAME`]) as game `G`'s: named
/// after the game (`TankBattleAnnotation`), its stand-ins and the other
/// per-game schemas it refers to pointing at the game's. utoipa names a
/// generic type once for all its parameters, so the game's name is given
/// here.
pub struct ForGame<G, T>(PhantomData<fn() -> (G, T)>);

impl<G: GameApi, T> ForGame<G, T> {
    /// The game's name of a schema the derived ones refer to, if it is
    /// the game's own.
    fn game_name(name: &str) -> Option<Cow<'static, str>> {
        if name == Pick::name() {
            Some(G::PickDto::name())
        } else if name == Score::name() {
            Some(G::ScoreResponse::name())
        } else {
            PER_GAME.contains(&name).then(|| schema_name::<G>(name))
        }
    }

    /// `schema` with its references pointed at the game's schemas.
    fn pointed(schema: RefOr<Schema>) -> RefOr<Schema> {
        let Ok(mut json) = serde_json::to_value(&schema) else {
            return schema;
        };
        crate::api::transport::schema::each_object(&mut json, &mut |object| {
            if let Some(Value::String(to)) = object.get_mut("$ref") {
                let at = crate::api::transport::schema::SCHEMAS;
                if let Some(game) = to.strip_prefix(at).and_then(Self::game_name) {
                    *to = format!("{at}{game}");
                }
            }
        });
        serde_json::from_value(json).unwrap_or(schema)
    }
}

impl<G: GameApi, T: ToSchema> PartialSchema for ForGame<G, T> {
    fn schema() -> RefOr<Schema> {
        Self::pointed(T::schema())
    }
}

impl<G: GameApi, T: ToSchema> ToSchema for ForGame<G, T> {
    fn name() -> Cow<'static, str> {
        schema_name::<G>(&T::name())
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        let mut derived = Vec::new();
        T::schemas(&mut derived);
        for (name, schema) in derived {
            if name == Pick::name() {
                push_schema::<G::PickDto>(schemas);
            } else if name == Score::name() {
                push_schema::<G::ScoreResponse>(schemas);
            } else if PER_GAME.contains(&name.as_str()) {
                schemas.push((schema_name::<G>(&name).into_owned(), Self::pointed(schema)));
            } else {
                schemas.push((name, schema));
            }
        }
    }
}

/// Why an `ai-move` answer (read from the shared cache) does not answer
/// its request: the field at fault and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct UnfitAnswer {
    /// Where in the answer, as a JSON path (`move`, `lines[2].move`).
    pub field: String,
    /// What is wrong there.
    pub problem: String,
}

impl UnfitAnswer {
    /// Unless `legal`: `field` names `what`, which is not legal in the
    /// request's state (shown cut to 64 characters: it came from outside).
    pub fn unless_legal(legal: bool, field: impl Into<String>, what: &str) -> Result<(), Self> {
        if legal {
            return Ok(());
        }
        let shown: String = what.chars().take(64).collect();
        Err(UnfitAnswer {
            field: field.into(),
            problem: format!("{shown:?} is not legal here"),
        })
    }
}

/// What `dispatch` answers for an operation a batch runs that it does not
/// handle: a bug of the server, never of the request.
pub fn not_dispatched(op: Operation) -> RequestError {
    RequestError::Internal(format!("the batch op `{}` has no dispatch", op.name()))
}
