//! The routes only Tank Battle has: a layout's start position
//! (`initial`) and the leaf count of its move tree (`perft`, also a batch
//! item and a `compare` claim).

use std::collections::BTreeMap;

use actix_web::web;
use serde::Serialize;
use utoipa::ToSchema;

use std::time::Instant;

use super::codec::{decode, decode_layout};
use super::dto::{InitialQuery, InitialResponse};
use crate::api::openapi::responses::{BodyErrors, BusyError, RouteErrors};
use crate::api::services::{run_stoppable, JsonAndServices, Services};
use crate::api::transport::json::{respond, respond_constant};
use crate::api::transport::problem::{HttpError, Problem, RequestError};
use crate::games::tank_battle::{perft, Layout, Position, State, TankBattle};
use crate::games::Game;
use crate::limits::Limits;
use crate::operations::Operation;
use crate::text::Text;

/// The start position of a layout.
///
/// Commanders stand on their commander starts and normal tanks on every
/// other square of their base; White moves first.
#[utoipa::path(
    get, path = Operation::Initial.path(),
    tag = TankBattle::ID,
    operation_id = "tank_battle_initial",
    params(InitialQuery),
    responses(
        (status = 200, description = "The start position", body = InitialResponse),
        (status = 400, description = "`BAD_LAYOUT`, or an unknown query parameter or one longer than its `maxLength` (`BAD_REQUEST`)", body = Problem, content_type = "application/problem+json"),
        RouteErrors,
    )
)]
pub(super) async fn initial(
    query: crate::api::transport::query::Query<InitialQuery>,
    services: web::Data<Services>,
) -> Result<actix_web::HttpResponse, HttpError> {
    if let Some(text) = &query.layout {
        Limits::check_query(text, Limits::QUERY_NOTATION_MAX_CHARS, "layout")?;
    }
    let layout = decode_layout(query.layout.as_deref())?;
    let answer = || {
        serde_json::to_vec(&InitialResponse {
            position: Position::initial(&layout).to_string(),
            layout: layout.to_string(),
        })
    };
    // The standard layout's start, the one nearly every game asks for,
    // is written once.
    static STANDARD: std::sync::OnceLock<web::Bytes> = std::sync::OnceLock::new();
    if layout == Layout::STANDARD {
        return respond_constant(&STANDARD, answer);
    }
    respond(answer(), &services.limits, &services.in_flight)
}

/// Counts the leaves of the legal-move tree (perft), optionally per move.
///
/// Depth is capped (default 5) and so is the number of positions expanded,
/// so a request cannot exhaust the server: over either limit is a 400
/// `LIMIT_EXCEEDED`.
#[utoipa::path(
    post, path = Operation::Perft.path(),
    tag = TankBattle::ID,
    operation_id = "tank_battle_perft",
    request_body = PerftRequest,
    responses(
        (status = 200, description = "The leaf count", body = PerftResponse),
        (status = 400, description = "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT`, `INVALID_POSITION` or `LIMIT_EXCEEDED`", body = Problem, content_type = "application/problem+json"),
        RouteErrors,
        BodyErrors,
        BusyError,
    )
)]
pub(super) async fn perft_count(
    JsonAndServices { body, services, .. }: JsonAndServices<PerftRequest>,
) -> Result<web::Json<PerftResponse>, HttpError> {
    Ok(run_perft(body, &services, None).await.map(web::Json)?)
}

/// `perft`: the leaf count, in a search slot off the request threads; it
/// stops when the client goes away or at `deadline` (a batch's budget).
pub(super) async fn run_perft(
    request: PerftRequest,
    services: &Services,
    deadline: Option<Instant>,
) -> Result<PerftResponse, RequestError> {
    let limits = &services.limits;
    let State {
        layout,
        position,
        policy,
        ..
    } = decode(&request, limits)?;
    let max_plies = policy.max_plies;
    if request.depth > limits.perft_max_depth {
        return Err(RequestError::limit_exceeded(
            Text::new("limit-perft-depth")
                .with("depth", request.depth)
                .with("max", limits.perft_max_depth),
            "depth",
        ));
    }
    let budget = limits.perft_max_nodes;
    let (depth, want_divide) = (request.depth, request.divide);
    let (counted, stopped) = run_stoppable(
        services.slots_of(Operation::Perft),
        limits,
        deadline,
        move |stop| {
            if want_divide {
                perft::divide_until(&position, &layout, depth, budget, Some(stop), max_plies).map(
                    |parts| {
                        let nodes = if depth == 0 {
                            1
                        } else {
                            parts.iter().map(|(_, n)| n).sum()
                        };
                        let divide = parts
                            .into_iter()
                            .map(|(mv, n)| (mv.to_string(), n))
                            .collect();
                        (nodes, Some(divide))
                    },
                )
            } else {
                perft::perft_until(&position, &layout, depth, budget, Some(stop), max_plies)
                    .map(|nodes| (nodes, None))
            }
        },
    )
    .await?;
    let (nodes, divide) = counted.map_err(|e| {
        let why = if stopped {
            Text::new("limit-perft-stopped")
        } else {
            Text::new("limit-perft-nodes").with("max", e.budget)
        };
        RequestError::limit_exceeded(why, "depth")
    })?;
    Ok(PerftResponse { nodes, divide })
}

super::dto::position_request! {
    /// A perft request.
    #[schema(example = json!({
        "position": crate::games::tank_battle::INITIAL_TBN,
        "layout": "standard",
        "depth": 3,
        "divide": true
    }))]
    #[schema(as = TankBattlePerftRequest)]
    PerftRequest {
        /// Depth in plies, 0 up to the server's cap (default 5).
        #[schema(example = 3)]
        pub depth: u32,
        /// Also report the count below each legal move.
        #[serde(default)]
        pub divide: bool,
    }
}

/// Leaf count of the legal-move tree.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattlePerftResponse)]
pub struct PerftResponse {
    /// perft(depth): 1 at depth 0; 0 for a finished position at depth 1 or
    /// more; else the sum over legal moves of the child's perft(depth - 1).
    #[schema(example = 108097)]
    pub nodes: u64,
    /// When asked (`divide`): perft(depth - 1) below each legal move, keyed
    /// by its canonical notation; absent when not asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!({"j4-j5": 2350, "k4-k5": 2401}), nullable = false)]
    pub divide: Option<BTreeMap<String, u64>>,
}
