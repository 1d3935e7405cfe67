//! The HTTP layer: actix-web routes documented with utoipa, one generic
//! layer over the engines' [`Game`](crate::games::Game) trait.
//!
//! - [`game`]: what a game plugs in ([`game::GameApi`]); each game's face
//!   is its folder ([`tank_battle`], [`tank_war`], [`cobi_tank_wars`]):
//!   DTOs with their docs, the codec, the route docs; games whose state
//!   travels as JSON share their common DTOs and `GameApi` items
//!   ([`json_state`]);
//! - [`flows`]: every endpoint's flow, written once;
//! - [`services`]: what the endpoints share, and work run off the workers;
//! - [`transport`]: JSON in and out, problem+json, hygiene, compression,
//!   SVG answers;
//! - [`openapi`]: the document, built from the same routes as the server;
//! - [`middleware`]: fair use, metrics, CORS;
//! - [`meta`]: health, the catalogue of games, and the fallback route.
//!
//! This module assembles the application from them.

pub mod board;
pub mod catalogue;
pub mod cobi_tank_wars;
pub mod flows;
pub mod game;
pub mod game_routes;
pub mod json_state;
pub mod meta;
pub mod middleware;
#[cfg(test)]
mod nim;
pub mod openapi;
pub mod services;
pub mod swagger;
pub mod tank_battle;
pub mod tank_war;
pub mod transport;

use actix_web::body::BoxBody;
use actix_web::{web, App};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;

use crate::cache::{AnswerCache, CacheConfig};
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::text::Text;
use catalogue::GameEntry;
use middleware::cors::CorsOrigins;
use middleware::layers::{AppFactory, Layers};
use openapi::{ApiDoc, OPENAPI_PATH};
use services::Services;
use transport::problem::{HttpError, RequestError};

/// What every worker shares: the services, the metrics and the CORS
/// policy.
#[derive(Clone)]
pub struct AppState {
    pub services: Services,
    pub metrics: Metrics,
    pub cors: CorsOrigins,
    /// Whether `/metrics` is on this address (else on the admin address).
    pub metrics_public: bool,
    /// The access log, when it is on.
    pub access_log: Option<crate::access_log::AccessLog>,
    /// Whether the board is served at `/board/` (`--no-board`: not).
    pub board: bool,
}

impl AppState {
    /// Any origin may call (`cors`).
    pub fn new(limits: Limits, cache: CacheConfig) -> AppState {
        let metrics = Metrics::new();
        AppState {
            services: Services::new(limits, AnswerCache::new(cache), metrics.clone()),
            metrics,
            cors: CorsOrigins::Any,
            metrics_public: true,
            access_log: None,
            board: true,
        }
    }

    /// The same state sharing Redis with the rest of the fleet: a tier of
    /// the AI cache behind the in-process one (answers sealed by `seal`,
    /// living `ttl` there), and the quotas counted for the whole fleet.
    /// Set the quotas first ([`AppState::with_fair_use`]).
    pub fn with_redis(
        self,
        link: crate::redis::Link,
        seal: crate::cache::Seal,
        ttl: std::time::Duration,
    ) -> AppState {
        self.services
            .fair_use
            .count_in_fleet(link.clone(), self.metrics.clone());
        let shared =
            crate::cache::SharedTier::new(link, seal, ttl).with_metrics(self.metrics.clone());
        AppState {
            services: Services {
                shared: Some(shared),
                ..self.services
            },
            ..self
        }
    }

    /// The same state with quotas per client; a thread forgets idle clients
    /// every 30 s.
    pub fn with_fair_use(self, fair_use: crate::fair_use::FairUse) -> AppState {
        let services = Services {
            fair_use: std::sync::Arc::new(fair_use),
            ..self.services
        };
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

    /// The same state holding at most `bytes` in flight (bodies and
    /// answers, all connections together).
    pub fn with_in_flight(self, bytes: u64) -> AppState {
        AppState {
            services: Services {
                in_flight: crate::memory::InFlight::new(bytes),
                ..self.services
            },
            ..self
        }
    }
}

/// A finished document as it is served (its bytes, shared by every worker)
/// and its batch items' schemas.
type Finished = (
    std::sync::Arc<transport::assets::Asset>,
    transport::schema::BatchItems,
);

/// The finished document of an application serving `games` (with
/// `/metrics` on its address or not), as its routes made it (`doc`), and
/// its batch items' schemas compiled from it: made once for each such
/// application, not for each of its workers.
fn documented(
    games: &'static [GameEntry],
    metrics_public: bool,
    doc: utoipa::openapi::OpenApi,
) -> Finished {
    static FINISHED: std::sync::Mutex<Vec<((usize, bool), Finished)>> =
        std::sync::Mutex::new(Vec::new());
    // An application is told by its list of games (where it is) and
    // whether it serves `/metrics`.
    let key = (games.as_ptr() as usize, metrics_public);
    let mut finished = FINISHED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, done)) = finished.iter().find(|(made_for, _)| *made_for == key) {
        return done.clone();
    }
    let finished_doc = openapi::finish(doc, games);
    let items = flows::batch::items_of_document(&finished_doc);
    // Served as compact JSON; a document that would not serialize (never:
    // it is a `Value`) is served empty rather than stopping the server.
    let document = web::Bytes::from(serde_json::to_vec(&finished_doc).unwrap_or_default());
    let document = std::sync::Arc::new(transport::assets::Asset::new("application/json", document));
    finished.push((key, (document.clone(), items.clone())));
    (document, items)
}

/// The OpenAPI document at `path` for `GET`, as compact JSON: its bytes
/// are made once at start and shared by every worker (Swagger UI loads it
/// from here, and holds no copy of its own), served as a static file
/// (gzip-encoded once, with a validator), costing a request as a page's
/// file does.
fn document_at(
    path: &str,
    document: std::sync::Arc<transport::assets::Asset>,
) -> openapi::resource::Documented {
    openapi::resource::page_file(path, path, move |req: actix_web::HttpRequest| {
        let document = document.clone();
        async move { document.serve(&req, actix_web::HttpResponse::Ok()) }
    })
}

/// The whole application serving every game ([`catalogue::SERVED`]):
/// routes, Swagger UI, error handling and logging. Build one per worker
/// from the same `state`, so caches are shared.
pub fn app(state: AppState) -> App<impl AppFactory<BoxBody>> {
    app_of(state, catalogue::SERVED)
}

/// The application serving `games`: their routes, catalogue, document
/// (with their sections and problem codes) and batch item schemas, all
/// from the one list.
pub fn app_of(state: AppState, games: &'static [GameEntry]) -> App<impl AppFactory<BoxBody>> {
    let (app, doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(|cfg| openapi::register_routes(cfg, games, state.metrics_public))
        .split_for_parts();
    let route_table = meta::RouteTable::from_openapi(&doc, games);
    let (document, items) = documented(games, state.metrics_public, doc);
    let board = state.board;
    let state = AppState {
        services: Services {
            batch_items: items,
            ..state.services
        },
        ..state
    };
    let layers = Layers {
        metrics: state.metrics.clone(),
        fair_use: state.services.fair_use.clone(),
        cors: state.cors.clone(),
        access_log: state.access_log.clone(),
        spans: tracing::enabled!(target: "tank_rules::api", tracing::Level::DEBUG),
    };
    let admission = middleware::fair_use::Admission {
        fair_use: state.services.fair_use.clone(),
        limits: state.services.limits,
    };
    let app = app
        .app_data(admission)
        .app_data(web::Data::new(state.services))
        .app_data(web::Data::new(state.metrics))
        .app_data(web::Data::new(route_table))
        .app_data(web::PathConfig::default().error_handler(|err, _req| {
            HttpError::from(RequestError::bad_request(
                Text::new("request-path").with("error", err.to_string()),
                None,
            ))
            .into()
        }))
        .service(web::redirect("/", swagger::ROUTE))
        .service(document_at(OPENAPI_PATH, document))
        .configure(swagger::configure)
        .configure(|cfg| {
            if board {
                board::configure(cfg);
            }
        })
        .default_service(web::to(meta::fallback));
    layers.around(app)
}

/// The admin application, for an address operators keep private:
/// `/metrics`, `/healthz`, `/readyz`.
pub fn admin_app(state: &AppState) -> App<impl AppFactory<BoxBody>> {
    App::new()
        .app_data(web::Data::new(state.metrics.clone()))
        .configure(meta::configure_admin)
}
