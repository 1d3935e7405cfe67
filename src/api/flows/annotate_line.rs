//! A streamed review's lines (NDJSON): each an entry, the summary or a
//! problem, told apart by `line`, and their schema in the document.

use std::marker::PhantomData;

use serde::Serialize;
use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::PartialSchema;

use super::annotation::{AnnotateResponse, AnnotateSummary, Annotation};
use crate::api::game::{game_schema, ForGame, GameApi};
use crate::api::transport::problem::Problem;

/// One line of a streamed review (NDJSON), told apart by its `line`: an
/// entry as it is judged, the summary last, or, in its place when the
/// review stops short, the problem that stopped it.
#[derive(Serialize)]
#[serde(tag = "line", rename_all = "snake_case")]
#[serde(bound(serialize = ""))]
pub enum StreamLine<'a, G: GameApi> {
    Entry(&'a Annotation),
    Summary(&'a AnnotateSummary<G>),
    Problem(Box<Problem>),
}

/// The document's schema of a streamed review's lines: one of an entry,
/// the summary and a problem, each with its `line` (a discriminator every
/// generator reads).
pub struct AnnotateLine<G>(PhantomData<G>);

/// The schema of a stream whose lines are one of `kinds` (each the schema
/// of what the line carries, its `line` value and its description) or, in
/// place of the last when the work (`what`) stopped short, a `problem`,
/// told apart by `line`. Objects in the document are closed, so a line is
/// one object with `line` added, not a composition; the document names
/// each after its `line` and makes it the discriminator
/// (`TankWarAnnotateLineEntry`, …; see `openapi::fixups`).
pub(super) fn lines(
    description: &str,
    kinds: [(RefOr<Schema>, &str, &str); 2],
    what: &str,
) -> RefOr<Schema> {
    let problem = format!(
        "In place of the summary, when the {what} stopped short (past the server's time cap): \
the problem, as the one answer would be."
    );
    let problem = (Problem::schema(), "problem", problem.as_str());
    let mut one_of = OneOfBuilder::new().description(Some(description));
    for (mut schema, tag, description) in kinds.into_iter().chain([problem]) {
        if let RefOr::T(Schema::Object(object)) = &mut schema {
            let value = ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some([tag]))
                .description(Some("What the line is."));
            object.properties.insert("line".to_owned(), value.into());
            object.required.retain(|field| field != "line");
            object.required.insert(0, "line".to_owned());
            object.description = Some(description.to_owned());
            object.example = None;
        }
        one_of = one_of.item(schema);
    }
    one_of.into()
}

impl<G: GameApi> PartialSchema for AnnotateLine<G> {
    fn schema() -> RefOr<Schema> {
        let mut summary = ForGame::<G, AnnotateResponse<G>>::schema();
        if let RefOr::T(Schema::Object(object)) = &mut summary {
            object.properties.remove("plies");
            object.required.retain(|field| field != "plies");
        }
        lines(
            "One line of a streamed review (`application/x-ndjson`: `annotate.ndjson`, or \
`annotate` with `format=ndjson`), told apart by `line`: an `entry` as it is judged, then the \
`summary`, or a `problem` in its place when the review stops short.",
            [
                (
                    ForGame::<G, Annotation>::schema(),
                    "entry",
                    "A line of a streamed review: one entry of `plies`, as it is judged.",
                ),
                (
                    summary,
                    "summary",
                    "The last line of a streamed review: the answer's fields but `plies`.",
                ),
            ],
            "review",
        )
    }
}

game_schema!(GameApi, AnnotateLine: ForGame<G, AnnotateResponse<G>>);
