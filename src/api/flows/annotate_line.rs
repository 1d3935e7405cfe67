//! A streamed review's lines (NDJSON): each an entry, the summary or a
//! problem, told apart by `line`, and their schema in the document.

use std::marker::PhantomData;

use serde::Serialize;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::PartialSchema;

use super::annotation::{AnnotateResponse, AnnotateSummary, Annotation};
use crate::api::game::game_schema;
use crate::api::game::GameApi;

/// One line of a streamed review (NDJSON), told apart by its `line`: an
/// entry as it is judged, the summary last, or, in its place when the
/// review stops short, the problem that stopped it.
#[derive(Serialize)]
#[serde(tag = "line", rename_all = "snake_case")]
#[serde(bound(serialize = ""))]
pub enum StreamLine<'a, G: GameApi> {
    Entry(&'a Annotation<G>),
    Summary(&'a AnnotateSummary<G>),
    Problem(&'a crate::api::transport::problem::Problem),
}

/// The document's schema of a streamed review's lines: one of an entry,
/// the summary and a problem, each with its `line` (a discriminator every
/// generator reads).
pub struct AnnotateLine<G>(PhantomData<G>);

/// The schema of a line's `line`: its one value.
fn line_tag(value: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some([value]))
        .description(Some("What the line is."))
        .into()
}

impl<G: GameApi> AnnotateLine<G> {
    /// Each kind of line: the schema of what it carries, with `line`
    /// added (objects in the document are closed, so a line is one
    /// object, not a composition). The document names them after their
    /// `line` and makes it their discriminator (`TankWarAnnotateLineEntry`,
    /// …; see `openapi::fixups`).
    fn kinds() -> [RefOr<Schema>; 3] {
        let tagged = |mut schema: RefOr<Schema>, tag: &str, description: &str| {
            if let RefOr::T(Schema::Object(object)) = &mut schema {
                object.properties.insert("line".to_owned(), line_tag(tag));
                object.required.retain(|field| field != "line");
                object.required.insert(0, "line".to_owned());
                object.description = Some(description.to_owned());
                object.example = None;
            }
            schema
        };
        let mut summary = AnnotateResponse::<G>::schema();
        if let RefOr::T(Schema::Object(object)) = &mut summary {
            object.properties.remove("plies");
            object.required.retain(|field| field != "plies");
        }
        [
            tagged(
                Annotation::<G>::schema(),
                "entry",
                "A line of a streamed review: one entry of `plies`, as it is judged.",
            ),
            tagged(
                summary,
                "summary",
                "The last line of a streamed review: the answer's fields but `plies`.",
            ),
            tagged(
                <crate::api::transport::problem::Problem as PartialSchema>::schema(),
                "problem",
                "In place of the summary, when the review stopped short (past the server's time \
cap): the problem, as the one answer would be.",
            ),
        ]
    }
}

impl<G: GameApi> PartialSchema for AnnotateLine<G> {
    fn schema() -> RefOr<Schema> {
        let mut one_of = utoipa::openapi::schema::OneOfBuilder::new().description(Some(
            "One line of a streamed review (`application/x-ndjson`: `annotate.ndjson`, or `annotate` \
with `format=ndjson`), told apart \
by `line`: an `entry` as it is judged, then the `summary`, or a `problem` in its place when the \
review stops short.",
        ));
        for kind in Self::kinds() {
            one_of = one_of.item(kind);
        }
        one_of.into()
    }
}

game_schema!(GameApi, AnnotateLine: AnnotateResponse<G>);
