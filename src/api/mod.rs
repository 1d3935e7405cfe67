//! The HTTP layer: actix-web routes documented with utoipa. Routes are
//! registered through `utoipa_actix_web`, so the OpenAPI document is built
//! from the same calls that build the server and cannot drift from it.

pub mod ai;
pub mod batch;
pub mod cobi_tank_wars;
mod contract;
pub mod game;
mod hygiene;
pub use hygiene::ConnectionState;
pub mod json;
pub mod meta;
#[cfg(test)]
mod nim;
pub mod notation;
pub mod problem;
mod routes;
pub mod strict;
pub mod svg;
pub mod tank_battle;
pub mod tank_war;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::Condition;
use actix_web::{web, App};
use utoipa::OpenApi;
use utoipa_actix_web::service_config::ServiceConfig;
use utoipa_actix_web::{scope, AppExt};
use utoipa_swagger_ui::SwaggerUi;

use crate::cache::{AnswerCache, CacheConfig};
use crate::config::CorsOrigins;
use crate::games::cobi_tank_wars::CobiTankWars;
use crate::games::tank_battle::TankBattle;
use crate::games::tank_war::TankWar;
use crate::games::Game;
use crate::limits::Limits;
use crate::metrics::Metrics;
use game::Services;
use problem::ApiError;

/// The CORS middleware for `origins`: simple and preflighted GET and POST
/// requests with JSON bodies; the caching and retry headers are exposed. A
/// request from another origin is still answered, without CORS headers, so
/// the browser refuses it while other clients work as before.
fn cors(origins: &CorsOrigins) -> actix_cors::Cors {
    use actix_web::http::header;
    let cors = actix_cors::Cors::default()
        .allowed_methods(["GET", "POST"])
        .allowed_headers([header::CONTENT_TYPE, header::ACCEPT, header::IF_NONE_MATCH])
        .expose_headers([header::ETAG, header::RETRY_AFTER, header::ALLOW])
        .max_age(3600);
    match origins {
        CorsOrigins::Any => cors.allow_any_origin().send_wildcard(),
        CorsOrigins::List(list) => list
            .iter()
            .fold(cors, |cors, origin| cors.allowed_origin(origin)),
    }
}

/// What every worker shares: limits, search and work slots, the AI answer
/// cache, the metrics and the CORS policy.
#[derive(Clone)]
pub struct AppState {
    pub services: Services,
    pub metrics: Metrics,
    pub cors: CorsOrigins,
    /// Whether `/metrics` is on this address (else on the admin address).
    pub metrics_public: bool,
}

impl AppState {
    /// Any origin may call; see [`AppState::with_cors`].
    pub fn new(limits: Limits, cache: CacheConfig) -> AppState {
        let metrics = Metrics::new();
        let cache = AnswerCache::new(cache).with_metrics(metrics.clone());
        AppState {
            services: Services::new(limits, cache),
            metrics,
            cors: CorsOrigins::Any,
            metrics_public: true,
        }
    }

    /// The same state sharing Redis with the rest of the fleet: a tier of
    /// the AI cache behind the in-process one (answers living `ttl`
    /// there), and the quotas counted for the whole fleet. Set the quotas
    /// first ([`AppState::with_fair_use`]).
    pub fn with_redis(self, link: crate::redis::Link, ttl: std::time::Duration) -> AppState {
        self.services
            .fair_use
            .count_in_fleet(link.clone(), self.metrics.clone());
        let shared = crate::cache::SharedTier::new(link, ttl).with_metrics(self.metrics.clone());
        AppState {
            services: self.services.with_shared(shared),
            ..self
        }
    }

    /// The same state with quotas per client; a thread forgets idle clients
    /// every 30 s.
    pub fn with_fair_use(self, fair_use: crate::fair_use::FairUse) -> AppState {
        let services = self.services.with_fair_use(fair_use);
        if services.fair_use.is_active() {
            let fair_use = std::sync::Arc::downgrade(&services.fair_use);
            let spawned = std::thread::Builder::new()
                .name("fair-use".to_owned())
                .spawn(move || loop {
                    std::thread::sleep(std::time::Duration::from_secs(30));
                    match fair_use.upgrade() {
                        Some(fair_use) => fair_use.forget_idle_clients(),
                        None => return,
                    }
                });
            if let Err(err) = spawned {
                tracing::warn!(%err, "no thread to forget idle clients");
            }
        }
        AppState { services, ..self }
    }

    /// The same state without `/metrics` on the public address (it is on
    /// the admin address, [`admin_app`]).
    pub fn without_public_metrics(self) -> AppState {
        AppState {
            metrics_public: false,
            ..self
        }
    }

    /// The same state with another CORS policy.
    pub fn with_cors(self, cors: CorsOrigins) -> AppState {
        AppState { cors, ..self }
    }
}

/// Every code a problem of this service may carry: the service's own, then
/// each game's notation and rule codes, each once.
pub fn problem_codes() -> Vec<&'static str> {
    use game::GameApi;
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
(the rule's reason code, or `GAME_OVER`), 404, 405, 413 (body over 64 KiB by default) and 415.",
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
struct ApiDoc;

/// Registers every documented route: each game's under `/v1/{game}`.
fn routes(cfg: &mut ServiceConfig, metrics_public: bool) {
    let game = |id: &str| scope(format!("/v1/{id}").as_str());
    cfg.configure(|cfg| meta::configure(cfg, metrics_public))
        .service(game(TankBattle::ID).configure(tank_battle::configure))
        .service(game(TankWar::ID).configure(tank_war::configure))
        .service(game(CobiTankWars::ID).configure(cobi_tank_wars::configure));
}

/// The OpenAPI document as utoipa builds it from the routes.
fn generated() -> utoipa::openapi::OpenApi {
    App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(|cfg| routes(cfg, true))
        .split_for_parts()
        .1
}

/// The OpenAPI document of the service, finished (see `contract`), as JSON.
pub fn openapi() -> serde_json::Value {
    contract::finish(&generated())
}

/// The OpenAPI document as the pretty JSON committed in `openapi/openapi.json`.
pub fn openapi_json() -> String {
    let mut text = serde_json::to_string_pretty(&openapi()).unwrap_or_default();
    text.push('\n');
    text
}

/// The whole application: routes, Swagger UI, error handling and logging.
/// Build one per worker from the same `state`, so caches are shared.
pub fn app(
    state: AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    // Compile the batch items' schemas now, not in the first batch.
    let _ = batch::item_schemas(TankBattle::ID);
    let (app, doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(|cfg| routes(cfg, state.metrics_public))
        .split_for_parts();
    let route_table = meta::RouteTable::from_openapi(
        &doc,
        &[
            ("GET", OPENAPI_PATH),
            ("GET", "/"),
            ("GET", "/swagger-ui"),
            ("GET", "/swagger-ui/"),
        ],
    );
    app.app_data(web::Data::new(state.services.limits))
        .app_data(web::Data::new(state.services))
        .app_data(web::Data::new(state.metrics))
        .app_data(web::Data::new(route_table))
        .app_data(web::QueryConfig::default().error_handler(|err, _req| {
            ApiError::BadQuery {
                detail: format!("query string: {err}"),
                field: None,
            }
            .into()
        }))
        .app_data(
            web::PathConfig::default().error_handler(|err, _req| {
                ApiError::bad_request(format!("path: {err}"), None).into()
            }),
        )
        .service(web::redirect("/swagger-ui", "/swagger-ui/"))
        .service(web::redirect("/", "/swagger-ui/"))
        .service(
            SwaggerUi::new("/swagger-ui/{_:.*}")
                .external_url_unchecked(OPENAPI_PATH, contract::finish(&doc)),
        )
        .default_service(web::to(meta::fallback))
        .wrap(cors(&state.cors))
        .wrap(actix_web::middleware::from_fn(hygiene::fair_use))
        .wrap(actix_web::middleware::from_fn(hygiene::hygiene))
        .wrap(actix_web::middleware::Compress::default())
        .wrap(actix_web::middleware::from_fn(hygiene::after_compression))
        .wrap(actix_web::middleware::from_fn(
            crate::metrics::track_requests,
        ))
        .wrap(Condition::new(
            tracing::enabled!(target: "tank_rules::api", tracing::Level::DEBUG),
            tracing_actix_web::TracingLogger::<RequestSpan>::new(),
        ))
}

/// The admin application, for an address operators keep private:
/// `/metrics`, `/healthz`, `/readyz`.
pub fn admin_app(
    state: &AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .app_data(web::Data::new(state.metrics.clone()))
        .configure(meta::configure_admin)
}

/// Request spans at DEBUG level: an access log line per request is too
/// costly to be on by default (a third of the throughput of a cheap
/// endpoint), so the middleware is only installed when
/// `RUST_LOG=tank_rules::api=debug` (or `debug`) asks for it; each request's
/// duration is logged when its span closes.
struct RequestSpan;

impl tracing_actix_web::RootSpanBuilder for RequestSpan {
    fn on_request_start(request: &ServiceRequest) -> tracing::Span {
        tracing_actix_web::root_span!(level = tracing::Level::DEBUG, request)
    }

    fn on_request_end<B: MessageBody>(
        span: tracing::Span,
        outcome: &Result<ServiceResponse<B>, actix_web::Error>,
    ) {
        tracing_actix_web::DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}
