//! Service-level routes: health, the game catalogue, and the fallback that
//! answers unknown paths (404) as problem+json (a route's resource answers
//! another method with 405 itself: [`super::openapi::resource`]).

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Serialize;
use utoipa::openapi::OpenApi;
use utoipa::ToSchema;
use utoipa_actix_web::service_config::ServiceConfig;

use super::openapi::resource::endpoint;
use super::openapi::responses::{NoQuery, RouteErrors, ServiceErrors};
use super::transport::problem::{HttpError, RequestError};
use super::transport::route::Entry::{Open, Priced};
use crate::api::catalogue::GameEntry;

const TAG: &str = "service";

/// Registers the service-level routes: the catalogue, health, and
/// `/metrics` when `with_metrics`.
pub fn configure(cfg: &mut ServiceConfig, with_metrics: bool) {
    cfg.service(endpoint("", __path_list_games, list_games, Priced))
        .service(endpoint("", __path_healthz, healthz, Open))
        .service(endpoint("", __path_readyz, readyz, Open));
    if with_metrics {
        cfg.service(endpoint("", __path_metrics, metrics, Open));
    }
}

/// The operator endpoints alone, for the admin address: `/metrics`,
/// `/healthz`, `/readyz`.
pub fn configure_admin(cfg: &mut actix_web::web::ServiceConfig) {
    cfg.service(endpoint("", __path_healthz, healthz, Open))
        .service(endpoint("", __path_readyz, readyz, Open))
        .service(endpoint("", __path_metrics, metrics, Open));
}

/// Liveness or readiness.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` (liveness) or `ready` (readiness).
    #[schema(example = "ok")]
    pub status: &'static str,
}

/// One game the service referees.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameInfo {
    /// The path segment of the game's routes.
    #[schema(example = "tank-battle")]
    pub id: &'static str,
    #[schema(example = "Tank Battle")]
    pub name: &'static str,
    pub description: &'static str,
    /// The sides, in the game's own names.
    #[schema(example = json!(["white", "black"]))]
    pub players: Vec<&'static str>,
    /// How turns work.
    #[schema(example = "alternating moves")]
    pub kind: &'static str,
    /// `METHOD /path` of every route of the game.
    #[schema(example = json!(["GET /v1/tank-battle/initial", "POST /v1/tank-battle/legal-moves"]))]
    pub endpoints: Vec<String>,
}

/// The games the service referees.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GamesResponse {
    pub games: Vec<GameInfo>,
}

/// The catalogue of games with their endpoints, built from the OpenAPI
/// document so it cannot drift from the routes.
#[derive(Clone)]
pub struct RouteTable(GamesResponse);

impl RouteTable {
    pub fn from_openapi(doc: &OpenApi, games: &[GameEntry]) -> RouteTable {
        let games = games
            .iter()
            .map(|game| {
                let prefix = format!("/v1/{}/", game.id);
                let endpoints = doc
                    .paths
                    .paths
                    .iter()
                    .filter(|(path, _)| path.starts_with(&prefix))
                    .flat_map(|(path, item)| {
                        let ops = [
                            ("GET", &item.get),
                            ("PUT", &item.put),
                            ("POST", &item.post),
                            ("DELETE", &item.delete),
                            ("PATCH", &item.patch),
                        ];
                        ops.into_iter()
                            .filter(|(_, op)| op.is_some())
                            .map(move |(method, _)| format!("{method} {path}"))
                    })
                    .collect();
                GameInfo {
                    id: game.id,
                    name: game.name,
                    description: game.description,
                    players: game.players.to_vec(),
                    kind: game.kind,
                    endpoints,
                }
            })
            .collect();
        RouteTable(GamesResponse { games })
    }
}

/// Liveness probe.
///
/// Answers 200 `{"status":"ok"}` while the process serves requests.
#[utoipa::path(get, path = "/healthz", tag = TAG, operation_id = "healthz", responses(
    (status = 200, description = "The service is up", body = Health),
    NoQuery,
    ServiceErrors,
))]
async fn healthz() -> web::Json<Health> {
    web::Json(Health { status: "ok" })
}

/// Readiness probe.
///
/// Answers 200 `{"status":"ready"}` while the service accepts requests;
/// during a graceful shutdown the listener is closed, so it no longer
/// answers.
#[utoipa::path(get, path = "/readyz", tag = TAG, operation_id = "readyz", responses(
    (status = 200, description = "Ready to serve", body = Health),
    NoQuery,
    ServiceErrors,
))]
async fn readyz() -> web::Json<Health> {
    web::Json(Health { status: "ready" })
}

/// The games this service referees.
///
/// Each game's id (its path segment), name, description, players, kind of
/// turns and the `METHOD /path` of each of its endpoints.
#[utoipa::path(get, path = "/v1/games", tag = TAG, operation_id = "list_games", responses(
    (status = 200, description = "The catalogue", body = GamesResponse),
    NoQuery,
    RouteErrors,
))]
async fn list_games(routes: web::Data<RouteTable>) -> web::Json<GamesResponse> {
    web::Json(routes.0.clone())
}

/// Answers requests no route took: 404, naming the path as actix routes
/// it (percent-encoded unreserved characters decoded).
pub async fn fallback(req: HttpRequest) -> Result<HttpResponse, HttpError> {
    Err(HttpError::not_found(req.match_info().as_str()))
}

/// Prometheus metrics.
///
/// In the Prometheus text format: HTTP requests and their latency by route
/// pattern, method and status; AI searches, nodes and search time by game;
/// AI cache lookups (hit, miss) by game, and the cache's entries and bytes.
#[utoipa::path(
    get, path = "/metrics",
    tag = TAG,
    operation_id = "metrics",
    responses(
        (status = 200, description = "The metrics", body = String, content_type = "text/plain; version=0.0.4"),
        NoQuery,
        ServiceErrors,
    )
)]
async fn metrics(metrics: web::Data<crate::metrics::Metrics>) -> Result<HttpResponse, HttpError> {
    let (text, content_type) = metrics
        .render()
        .map_err(|e| RequestError::Internal(format!("encoding the metrics failed: {e}")))?;
    Ok(HttpResponse::Ok().content_type(content_type).body(text))
}
