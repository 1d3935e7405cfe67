//! The OpenAPI document: its head ([`ApiDoc`]: title, description, tags),
//! the routes utoipa documents (one `game_routes!` a game,
//! [`crate::api::game_routes`]), the error responses every operation shares ([`responses`]), the schemas of
//! notations and codes ([`notation`]) and the finishing touches utoipa
//! cannot be told per field ([`fixups`]; answers' schemas apart from
//! requests' in [`directions`]). The document is built from the
//! same calls that build the server, so it cannot drift from it.

pub mod directions;
pub mod fixups;
pub mod notation;
pub mod refs;
pub mod resource;
pub mod responses;

use actix_web::App;
use utoipa::OpenApi;
use utoipa_actix_web::service_config::ServiceConfig;
use utoipa_actix_web::AppExt;

use crate::api::catalogue::{self, GameEntry};
use crate::api::meta;

/// Where the OpenAPI document is served.
pub const OPENAPI_PATH: &str = "/openapi.json";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "tank-rules",
        description = "A stateless rules engine for tank board games. Every request carries the whole \
position; the service validates moves, lists legal moves, applies moves, scores positions and \
counts perft from the rules alone, suggests AI moves (cached), draws boards as SVG and runs batches of requests. \
Metrics for Prometheus are at `/metrics`.\n\nErrors are RFC 9457 `application/problem+json` documents \
with a stable `code`: 400 for malformed requests and notation (`BAD_REQUEST`, `BAD_POSITION`, \
`BAD_LAYOUT`, `BAD_MOVE_NOTATION`, `INVALID_POSITION`, `LIMIT_EXCEEDED`), 422 for illegal moves \
(the rule's reason code, or `GAME_OVER`), 404, 405, 413 (body over 64 KiB by default) and 415.\n\nEvery answer carries `X-Request-Id`: the request's own when it is well-formed (letters, digits, `.`, `_`, `-`, `:`; at most 64 characters), else one the server made; a problem names it as its `instance`, and the server's log lines about the request carry it.\n\nLanguages: every human text of an answer (a problem's `title` and `detail`, a rule reason's `message`) is English by default and Czech with `Accept-Language: cs` (or `cs-CZ`; `q` weights are honoured, any other language is English). Answers say which in `Content-Language` and carry `Vary: Accept-Language`; codes, field names and this document are the same in every language.",
        // `identifier`: OpenAPI 3.1's SPDX expression, which generators
        // that check licenses (openapi-generator) ask for.
        license(name = "MIT OR Apache-2.0", identifier = "MIT OR Apache-2.0"),
        contact(name = "tank-rules maintainers")
    ),
    servers((url = "/", description = "This server")),
    // Referred to by a query parameter, which utoipa does not collect.
    components(schemas(
        crate::api::flows::annotate::Format,
        crate::api::flows::record::SkippedObject,
        notation::MoveList
    )),
    tags(
        (name = "service", description = "Health and the catalogue of games.")
    )
)]
pub struct ApiDoc;

/// Registers every documented route: each of `games`' in its scope,
/// `/v1/{game}`, then the service's; `/metrics` only when it is on the
/// public address.
pub fn register_routes(cfg: &mut ServiceConfig, games: &[GameEntry], metrics_public: bool) {
    // The games first: actix tries the application's services in this
    // order, and the games are nearly all the traffic (the document lists
    // paths sorted, whatever the order here).
    for game in games {
        (game.configure)(cfg);
    }
    meta::configure(cfg, metrics_public);
}

/// The OpenAPI document of the service, finished (see [`fixups`]).
pub fn document() -> serde_json::Value {
    // As utoipa builds it from the routes of the service's games.
    let generated = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(|cfg| register_routes(cfg, catalogue::SERVED, true))
        .split_for_parts()
        .1;
    finish(generated, catalogue::SERVED)
}

/// `doc` as the routes of `games` made it, finished: what the document
/// says of the games themselves (a section, a tag, each; the problem codes
/// they carry, `ProblemCode`), then [`fixups`].
pub fn finish(mut doc: utoipa::openapi::OpenApi, games: &[GameEntry]) -> serde_json::Value {
    let sections = games.iter().map(|game| {
        utoipa::openapi::tag::TagBuilder::new()
            .name(game.id)
            .description(Some(game.section))
            .build()
    });
    doc.tags.get_or_insert_with(Vec::new).splice(0..0, sections);
    // A problem's stable machine code (the schema `Problem.code` refers
    // to): the service's own codes and every code of `games`.
    let problem_code = notation::string_enum(
        catalogue::problem_codes(games),
        "Stable machine code in SCREAMING_SNAKE_CASE: what went wrong, e.g. \
`BAD_POSITION`, `INVALID_POSITION`, `PATH_BLOCKED`, `GAME_OVER`.",
    );
    let components = doc.components.get_or_insert_with(Default::default);
    components
        .schemas
        .insert("ProblemCode".to_owned(), problem_code);
    fixups::finish(&doc)
}

/// The document as the pretty JSON committed in `openapi/openapi.json`.
pub fn json() -> String {
    let mut text = serde_json::to_string_pretty(&document()).unwrap_or_default();
    text.push('\n');
    text
}
