//! The OpenAPI document: its head ([`ApiDoc`]: title, description, tags),
//! the routes utoipa documents ([`routes`], one `game_routes!` a game), the
//! error responses every operation shares ([`responses`]), the schemas of
//! notations and codes ([`notation`]) and the finishing touches utoipa
//! cannot be told per field ([`fixups`]). The document is built from the
//! same calls that build the server, so it cannot drift from it.

pub mod fixups;
pub mod notation;
pub mod responses;
pub mod router;
pub mod routes;

use actix_web::App;
use utoipa::OpenApi;
use utoipa_actix_web::service_config::ServiceConfig;
use utoipa_actix_web::AppExt;

use crate::api::{cobi_tank_wars, meta, tank_battle, tank_war};

use crate::games::cobi_tank_wars::CobiTankWars;
use crate::games::tank_battle::TankBattle;
use crate::games::tank_war::TankWar;

/// Every code a problem of this service may carry: the service's own, then
/// each game's notation and rule codes, each once.
pub fn problem_codes() -> Vec<&'static str> {
    use crate::api::game::GameApi;
    let games = [
        TankBattle::problem_codes(),
        TankWar::problem_codes(),
        CobiTankWars::problem_codes(),
    ];
    let mut codes = crate::error::SERVICE_CODES.to_vec();
    for code in games.into_iter().flatten() {
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    codes
}

/// A problem's stable machine code: the service's own codes and every
/// game's notation and rule codes (the schema `Problem.code` refers to).
pub struct ProblemCode;

impl utoipa::PartialSchema for ProblemCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        notation::string_enum(
            problem_codes(),
            "Stable machine code in SCREAMING_SNAKE_CASE: what went wrong, e.g. \
`BAD_POSITION`, `INVALID_POSITION`, `PATH_BLOCKED`, `GAME_OVER`.",
        )
    }
}

impl utoipa::ToSchema for ProblemCode {
    fn name() -> std::borrow::Cow<'static, str> {
        "ProblemCode".into()
    }
}

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
(the rule's reason code, or `GAME_OVER`), 404, 405, 413 (body over 64 KiB by default) and 415.\n\nEvery answer carries `X-Request-Id`: the request's own when it is well-formed (letters, digits, `.`, `_`, `-`, `:`; at most 64 characters), else one the server made; a problem names it as its `instance`, and the server's log lines about the request carry it.",
        license(name = "MIT OR Apache-2.0"),
        contact(name = "tank-rules maintainers")
    ),
    servers((url = "/", description = "This server")),
    tags(
        (name = "tank-battle", description = "Tank Battle: 11x11, sliding tanks, commanders, mines, a contaminated centre and two bases. \
Positions are TBN (`<placement> <side> <ply>`), layouts are `standard` or 11 rows of `. # ~ w W b B`, \
moves are `from-to` / `fromxto`."),
        (name = "tank-war", description = "The Tank War: simultaneous moves on tracks, A/B/C tanks, a firing phase and clocks. \
States are JSON (board size, territory rows from the top, tanks with their tracks, round, clocks); a round is one pick per player."),
        (name = "cobi-tank-wars", description = "Tank Wars (a board game's round): up to three vehicles a player, each with one hidden order \
(direction N/E/S/W, distance 1-3) executed in card order; artillery, support and gunfire tokens; a seeded supply drop. \
States are JSON (board size, vehicles with id, owner, square, armor and card slot, token squares, support cards, round)."),
        (name = "service", description = "Health and the catalogue of games.")
    )
)]
pub struct ApiDoc;

/// Registers every documented route: the service's, and each game's under
/// `/v1/{game}`; `/metrics` only when it is on the public address. The
/// `/v1` routes admit requests by `fair_use` (when it is on).
pub fn register_routes(
    cfg: &mut ServiceConfig,
    metrics_public: bool,
    fair_use: Option<std::sync::Arc<crate::fair_use::FairUse>>,
) {
    // The `/v1` router first: actix tries the application's services in
    // this order, and `/v1` is nearly all the traffic (the document lists
    // paths sorted, whatever the order here).
    let mut v1 = router::Router::new("/v1").admitting(fair_use);
    tank_battle::register(&mut v1);
    tank_war::register(&mut v1);
    cobi_tank_wars::register(&mut v1);
    meta::register(&mut v1);
    cfg.service(v1)
        .configure(|cfg| meta::configure(cfg, metrics_public));
}

/// The OpenAPI document as utoipa builds it from the routes.
fn generated() -> utoipa::openapi::OpenApi {
    App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(|cfg| register_routes(cfg, true, None))
        .split_for_parts()
        .1
}

/// The OpenAPI document of the service, finished (see [`fixups`]).
pub fn document() -> serde_json::Value {
    finish(generated())
}

/// `doc` as the routes made it, finished: the schemas the document adds
/// itself ([`ProblemCode`]), then [`fixups`].
pub fn finish(mut doc: utoipa::openapi::OpenApi) -> serde_json::Value {
    use utoipa::PartialSchema;
    let components = doc.components.get_or_insert_with(Default::default);
    components
        .schemas
        .insert("ProblemCode".to_owned(), ProblemCode::schema());
    fixups::finish(&doc)
}

/// The document as the pretty JSON committed in `openapi/openapi.json`.
pub fn json() -> String {
    let mut text = serde_json::to_string_pretty(&document()).unwrap_or_default();
    text.push('\n');
    text
}
