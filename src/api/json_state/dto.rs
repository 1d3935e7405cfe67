//! The DTOs every game whose state travels as JSON shares, generic over
//! the game: [`StateRequest`], [`LegalMovesRequest`], [`ReplayRequest`],
//! [`AnnotateRequest`], [`ReplayResponse`], [`RenderQuery`] and
//! [`BatchRequest`]. The document
//! names and describes each as the game's own (`TankWarStateRequest`, …):
//! their schemas are written here, from the game's `DOCS` and `examples`
//! ([`JsonState`]), because utoipa names a generic type after its
//! parameters.

use std::marker::PhantomData;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, ObjectBuilder, OneOfBuilder, RefBuilder, Schema,
    SchemaType, Type,
};
use utoipa::openapi::{RefOr, Required};
use utoipa::{IntoParams, PartialSchema, ToSchema};

use super::codec::JsonState;
use crate::api::flows::ask::AskedLimits;
use crate::api::flows::batch::items_schema;
use crate::api::flows::record;
use crate::api::game::game_schema;

/// A state (`score`; Nim's `legal-moves`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateRequest<G: JsonState> {
    pub state: G::StateDto,
}

/// A state and, optionally, one player (`legal-moves`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegalMovesRequest<G: JsonState> {
    pub state: G::StateDto,
    /// Only list this player's moves.
    pub player: Option<G::PlayerName>,
}

/// A game to replay: steps from a start state.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(bound(deserialize = "G::ReplayStep: serde::de::DeserializeOwned"))]
pub struct ReplayRequest<G: JsonState> {
    /// A game record's game ([`record`]).
    pub game: Option<String>,
    /// The start state; the game's default start when absent.
    pub start: Option<G::StateDto>,
    pub rounds: Vec<G::ReplayStep>,
    /// A game record's result, not read ([`record`]).
    #[serde(default)]
    pub result: record::RecordResult,
}

/// A game to review (`annotate`): a replay's body and what it asks of the
/// judge.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(bound(deserialize = "G::ReplayStep: serde::de::DeserializeOwned"))]
pub struct AnnotateRequest<G: JsonState> {
    /// A game record's game ([`record`]).
    pub game: Option<String>,
    pub start: Option<G::StateDto>,
    pub rounds: Vec<G::ReplayStep>,
    /// A game record's result, not read ([`record`]).
    #[serde(default)]
    pub result: record::RecordResult,
    /// Each position's search; the game's fixed budget when absent.
    pub limits: Option<AskedLimits>,
    /// The judge's budget as a level (1-8): positions a search from a
    /// tenth of the game's default budget (level 1) to ten times it
    /// (level 8), about 1.93 times more each level; `limits.max_nodes`,
    /// when given, wins. The default budget when absent.
    pub level: Option<u32>,
}

/// The states a game passed through.
#[derive(Debug, Serialize)]
pub struct ReplayResponse<G: JsonState> {
    /// The state after each round.
    pub states: Vec<G::StateDto>,
    /// How the game stands after the last round.
    #[serde(rename = "final")]
    pub final_state: G::ScoreResponse,
}

/// Query of `render.svg`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenderQuery<G> {
    /// The state as JSON (URL-encoded), as in the other endpoints'
    /// `state`; the default state when absent.
    pub state: Option<String>,
    #[serde(skip)]
    game: PhantomData<G>,
}

/// A game's requests to run in one round trip, in order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest<G> {
    /// The requests, run in order: each an object with `op`, the
    /// endpoint's name (`legal-moves`, `apply`, …), and the fields of that
    /// endpoint's body.
    pub requests: Vec<Value>,
    #[serde(skip)]
    game: PhantomData<G>,
}

impl<G> From<BatchRequest<G>> for Vec<Value> {
    fn from(body: BatchRequest<G>) -> Vec<Value> {
        body.requests
    }
}

// ------------------------------------------------------------ schemas ---

/// A shared DTO's schema (`$schema`, written from the game's docs and
/// examples), named after the game with the schemas it refers to
/// (`$part`, [`game_schema!`]).
macro_rules! dto_schema {
    ($type:ident: $($part:ty),* => $schema:block) => {
        impl<G: JsonState> PartialSchema for $type<G> {
            fn schema() -> RefOr<Schema> $schema
        }

        game_schema!(JsonState, $type: $($part),*);
    };
}

/// A reference to `T`'s schema, with a description (none when empty).
fn described<T: ToSchema>(description: &str) -> RefBuilder {
    RefBuilder::new()
        .ref_location_from_schema_name(T::name())
        .description(Some(description))
}

/// An optional value: null, or a `T`.
fn optional<T: ToSchema>(description: &str) -> OneOfBuilder {
    OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(described::<T>(description))
}

/// A request body's schema: closed (the server refuses unknown fields),
/// with the game's example when it has one.
#[allow(deprecated)] // the document's examples are `example`, as derived schemas write them
fn body(object: ObjectBuilder, example: Option<Value>) -> RefOr<Schema> {
    object
        .additional_properties(Some(AdditionalProperties::FreeForm(false)))
        .example(example)
        .into()
}

dto_schema!(StateRequest: G::StateSchema => {
    let object = ObjectBuilder::new()
        .property("state", described::<G::StateSchema>(""))
        .required("state")
        .description(Some("A state."));
    let state = G::examples().map(|e| json!({"state": e.state}));
    body(object, state)
});

dto_schema!(LegalMovesRequest: G::StateSchema, G::PlayerSchema => {
    let only = format!("Only list this player's {}.", G::DOCS.moves);
    let object = ObjectBuilder::new()
        .property("state", described::<G::StateSchema>(""))
        .required("state")
        .property("player", optional::<G::PlayerSchema>(&only))
        .description(Some("A state and, optionally, one player."));
    let asked = G::examples().map(|e| json!({"state": e.state, "player": e.player}));
    body(object, asked)
});

/// A replay's body: its start and rounds, or its game record as it is.
fn replay_object<G: JsonState>() -> ObjectBuilder {
    ObjectBuilder::new()
        .property("game", record::game_schema())
        .property("start", optional::<G::StateSchema>(G::DOCS.start))
        .property(
            "rounds",
            ArrayBuilder::new().items(described::<G::ReplayStep>("")),
        )
        .required("rounds")
        .property("result", record::result_schema())
}

dto_schema!(ReplayRequest: G::StateSchema, G::ReplayStep => {
    let object = replay_object::<G>().description(Some(
        "A game to replay: its start and rounds, or its game record as it is.",
    ));
    body(object, G::examples().map(|e| e.replay))
});

dto_schema!(AnnotateRequest: G::StateSchema, G::ReplayStep, AskedLimits => {
    let object = replay_object::<G>()
        .property(
            "limits",
            optional::<AskedLimits>(
                "Each position's search; without `max_nodes`, the game's fixed budget in positions (the same verdicts on any machine).",
            ),
        )
        .property(
            "level",
            ObjectBuilder::new()
                .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
                .minimum(Some(1.0))
                .maximum(Some(8.0))
                .description(Some(
                    "The judge's budget as a level (1-8): positions a search from a tenth of \
the game's default budget (level 1) to ten times it (level 8), about 1.93 times more each level; \
`limits.max_nodes`, when given, wins. The default budget when absent.",
                )),
        )
        .description(Some(
            "A game to review: the replay's body (or a game record as it is) and what it asks of the judge.",
        ));
    body(object, G::examples().map(|e| e.replay))
});

dto_schema!(ReplayResponse: G::StateSchema, G::ScoreResponse => {
    let states = ArrayBuilder::new()
        .items(described::<G::StateSchema>(""))
        .description(Some("The state after each round."));
    ObjectBuilder::new()
        .property("states", states)
        .required("states")
        .property(
            "final",
            described::<G::ScoreResponse>("How the game stands after the last round."),
        )
        .required("final")
        .description(Some("The states a game passed through."))
        .into()
});

impl<G: JsonState> IntoParams for RenderQuery<G> {
    #[allow(deprecated)] // the document's examples are `example`, as derived parameters write them
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let state = ParameterBuilder::new()
            .name("state")
            .parameter_in(ParameterIn::Query)
            .description(Some(format!(
                "The state as JSON (URL-encoded), as in the other endpoints' `state`;\n\
                 the default state when absent. At most {} characters (so that the\n\
                 request line fits a proxy's head cap): a larger state cannot be drawn.",
                crate::limits::Limits::QUERY_STATE_MAX_CHARS
            )))
            .required(Required::False)
            .schema(Some(optional::<G::StateSchema>("")))
            .example(G::examples().map(|e| json!(e.render)));
        vec![state.build()]
    }
}

dto_schema!(BatchRequest: => {
    let called = G::DOCS.called;
    let object = ObjectBuilder::new()
        .property("requests", items_schema::<G>())
        .required("requests")
        .description(Some(format!(
            "{called} requests to run in one round trip, in order."
        )));
    body(object, G::examples().map(|e| e.batch))
});
