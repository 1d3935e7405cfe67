//! A game record (docs/API.md, "Hosting a game to its end"): one JSON document a game, which `replay` and
//! `annotate` take as they are. A record is a replay's body (the start,
//! Tank Battle's layout and `rules`, every move or round with what
//! replaying it needs) with two fields more: `game`, the game it is of,
//! and `result`, how it ended as the site kept it. `game` is checked
//! against the route, so a record is never replayed as another game's;
//! `result` is the site's and not read: the answer's `final` is the
//! service's.

use serde::de::IgnoredAny;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;

use crate::api::transport::problem::RequestError;
use crate::games::Game;
use crate::text::Text;

/// What `game` says, in the document.
pub const GAME: &str = "The game the record is of, when the body is a game record: the route's \
game id (anything else is refused); absent in a plain replay body.";

/// What `result` says, in the document.
pub const RESULT: &str = "How the game ended, as a game record keeps it (the `final` of its \
replay): not read, the answer's `final` is the service's; absent in a plain replay body.";

/// `game` names `G`, when it is given.
pub fn check_game<G: Game>(game: Option<&str>) -> Result<(), RequestError> {
    match game {
        Some(id) if id != G::ID => {
            let shown: String = id.chars().take(64).collect();
            Err(RequestError::bad_request(
                Text::new("request-record-game")
                    .quoting("found", &shown)
                    .with("game", G::ID),
                Some("game"),
            ))
        }
        _ => Ok(()),
    }
}

/// A record's `result`, accepted and not read: any JSON object (its
/// members skipped as they are read, without recursion), or null.
pub type RecordResult = Option<SkippedObject>;

/// A JSON object whose members are skipped as they are read.
#[derive(Clone, Copy, Debug, Default)]
pub struct SkippedObject;

impl<'de> serde::Deserialize<'de> for SkippedObject {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> serde::de::Visitor<'de> for Members {
            type Value = SkippedObject;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(SkippedObject)
            }
        }
        deserializer.deserialize_map(Members)
    }
}

/// The schema of a record's `game`: a string, or null.
pub fn game_schema() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::String,
            Type::Null,
        ]))
        .description(Some(GAME))
        .into()
}

/// The schema of a record's `result`: null, or the free-form object
/// [`SkippedObject`] documents (a component of its own, referenced as
/// every optional field's schema is, which every generator reads).
pub fn result_schema() -> RefOr<Schema> {
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(utoipa::openapi::Ref::from_schema_name(
            <SkippedObject as utoipa::ToSchema>::name(),
        ))
        .description(Some(RESULT))
        .into()
}

impl utoipa::PartialSchema for SkippedObject {
    /// Any object: its members are declared free-form
    /// (`additionalProperties: true`), since generators read an object
    /// schema without them as one that holds nothing.
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .additional_properties(Some(
                utoipa::openapi::schema::AdditionalProperties::<Schema>::FreeForm(true),
            ))
            .description(Some(
                "A game's standing as a site keeps it in its record: any object (the answers' \
`finished`, `winner`, `draw`, `reason` and `score`, say). The service does not read it.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for SkippedObject {
    fn name() -> std::borrow::Cow<'static, str> {
        "GameRecordResult".into()
    }
}
