//! `/v1/cobi-tank-wars`: the HTTP face of the Tank Wars round resolver.
//! States and orders travel as JSON (issue 8); handlers check them, call
//! the engine and encode the answer.

use std::collections::BTreeMap;

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use super::ai::{cache_key, cached_search, AiLimits, CachedAnswer};
use super::batch::{self as batching, BatchBody, BatchResponse};
use super::json::ApiJson;
use super::problem::{ApiError, Problem};
use crate::cache::AnswerCache;
use crate::games::cobi_tank_wars::{
    self as engine, ai, Event, Order, OrderData, OrderError, Player, State, StateData, VehicleData,
};
use crate::games::grid::Cell;
use crate::limits::{Limits, SearchSlots};

/// Path of this game's routes.
pub const SCOPE: &str = "/v1/cobi-tank-wars";
pub const TAG: &str = "cobi-tank-wars";

/// Registers the Tank Wars routes.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(initial)
        .service(legal_moves)
        .service(validate)
        .service(apply)
        .service(score)
        .service(replay)
        .service(ai_move)
        .service(batch)
        .service(render);
}

// ---------------------------------------------------------------- DTOs ---

/// A player; the state's `first` executes first in each card slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[schema(as = CobiTankWarsPlayerName)]
pub enum PlayerName {
    P1,
    P2,
}

impl From<PlayerName> for Player {
    fn from(p: PlayerName) -> Player {
        match p {
            PlayerName::P1 => Player::P1,
            PlayerName::P2 => Player::P2,
        }
    }
}

impl From<Player> for PlayerName {
    fn from(p: Player) -> PlayerName {
        match p {
            Player::P1 => PlayerName::P1,
            Player::P2 => PlayerName::P2,
        }
    }
}

/// A vehicle on the board.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CobiTankWarsVehicle)]
pub struct VehicleDto {
    /// Unique among all vehicles.
    #[schema(example = "P1-1")]
    pub id: String,
    pub owner: PlayerName,
    /// Its square: file letter (`a` = column 1) and row (1 = bottom).
    #[schema(example = "c1")]
    pub square: String,
    /// Armor points, at least 1; the vehicle is destroyed at 0.
    #[schema(example = 3)]
    pub armor: i64,
    /// Card position 1 (top) to 3 (bottom), distinct per player: the
    /// order in which its command is executed.
    #[schema(example = 1)]
    pub slot: i64,
}

/// A count or total per player.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CobiTankWarsPerPlayer)]
pub struct PerPlayer {
    #[serde(rename = "P1", default)]
    #[schema(example = 0)]
    pub p1: u32,
    #[serde(rename = "P2", default)]
    #[schema(example = 0)]
    pub p2: u32,
}

impl PerPlayer {
    fn of(f: impl Fn(Player) -> u32) -> PerPlayer {
        PerPlayer {
            p1: f(Player::P1),
            p2: f(Player::P2),
        }
    }
}

fn default_first() -> PlayerName {
    PlayerName::P1
}

/// A whole state of the game between rounds.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CobiTankWarsState)]
pub struct StateDto {
    /// Columns, 2 to 26 (files `a`..).
    #[schema(example = 8)]
    pub cols: u32,
    /// Rows, 2 to 26 (row 1 at the bottom).
    #[schema(example = 8)]
    pub rows: u32,
    /// The player who executes first in each slot (P1 when absent).
    #[serde(default = "default_first")]
    pub first: PlayerName,
    /// At most 3 vehicles a player, on distinct squares.
    pub vehicles: Vec<VehicleDto>,
    /// Squares with an artillery token (each costs the first vehicle that
    /// enters it 1 armor).
    #[serde(default)]
    #[schema(example = json!(["d4"]))]
    pub artillery: Vec<String>,
    /// Squares with a support token (a vehicle stopping there takes it and
    /// its owner draws a support card).
    #[serde(default)]
    #[schema(example = json!(["e5"]))]
    pub support: Vec<String>,
    /// Squares with a gunfire token, placed for this round (each costs the
    /// vehicle standing there after movement 1 armor).
    #[serde(default)]
    #[schema(example = json!(["c3"]))]
    pub gunfire: Vec<String>,
    /// Support cards drawn so far (0 each when absent).
    #[serde(default)]
    pub support_cards: PerPlayer,
    /// Rounds played (0 when absent).
    #[serde(default)]
    pub round: u32,
}

/// A vehicle's command: a direction and a distance.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CobiTankWarsOrder)]
pub struct OrderDto {
    /// `N` (towards higher rows), `E`, `S` or `W`.
    #[schema(example = "N")]
    pub dir: String,
    /// 1, 2 or 3 squares.
    #[schema(example = 2)]
    pub dist: i64,
}

/// One order per vehicle of each player, by vehicle id.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CobiTankWarsOrders)]
pub struct OrdersDto {
    #[serde(rename = "P1", default)]
    #[schema(example = json!({"P1-1": {"dir": "N", "dist": 2}, "P1-2": {"dir": "N", "dist": 1}, "P1-3": {"dir": "W", "dist": 1}}))]
    pub p1: BTreeMap<String, OrderDto>,
    #[serde(rename = "P2", default)]
    #[schema(example = json!({"P2-1": {"dir": "S", "dist": 3}, "P2-2": {"dir": "S", "dist": 1}, "P2-3": {"dir": "E", "dist": 1}}))]
    pub p2: BTreeMap<String, OrderDto>,
}

/// A state.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": example_state()}))]
#[schema(as = CobiTankWarsStateRequest)]
pub struct StateRequest {
    pub state: StateDto,
}

/// A state and, optionally, one player.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": example_state(), "player": "P1"}))]
#[schema(as = CobiTankWarsLegalMovesRequest)]
pub struct LegalMovesRequest {
    pub state: StateDto,
    /// Only list this player's orders.
    #[serde(default)]
    pub player: Option<PlayerName>,
}

/// An order whose destination is on the board.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsLegalOrder)]
pub struct LegalOrderDto {
    #[schema(example = "N")]
    pub dir: &'static str,
    #[schema(example = 2)]
    pub dist: u8,
    /// The destination.
    #[schema(example = "c3")]
    pub to: String,
    /// Whether another vehicle stands on `to` now: the order is cancelled
    /// unless that vehicle moves away first.
    pub blocked_now: bool,
}

/// Per player, per vehicle id, the orders whose destination is on the
/// board (by direction N, E, S, W, then distance); empty when the game is
/// over.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsLegalMovesResponse)]
pub struct LegalMovesResponse {
    #[serde(rename = "P1", skip_serializing_if = "Option::is_none")]
    pub p1: Option<BTreeMap<String, Vec<LegalOrderDto>>>,
    #[serde(rename = "P2", skip_serializing_if = "Option::is_none")]
    pub p2: Option<BTreeMap<String, Vec<LegalOrderDto>>>,
}

/// Orders to check against a state.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": example_state(), "orders": example_orders()}))]
#[schema(as = CobiTankWarsValidateRequest)]
pub struct ValidateRequest {
    pub state: StateDto,
    pub orders: OrdersDto,
}

/// Why orders are refused.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsOrderReason)]
pub struct OrderReason {
    /// The player whose orders are at fault (absent for `GAME_OVER`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<PlayerName>,
    /// The vehicle id the order is for, or the vehicle without one (absent
    /// for `GAME_OVER`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "P1-2")]
    pub vehicle: Option<String>,
    /// `GAME_OVER`, `NO_SUCH_VEHICLE`, `MISSING_ORDER`, `BAD_DIRECTION` or
    /// `BAD_DISTANCE`.
    #[schema(example = "MISSING_ORDER")]
    pub code: &'static str,
    #[schema(example = "every vehicle of each player needs exactly one order")]
    pub message: String,
}

/// Whether the orders are legal, with every reason they are not (P1's
/// first, by vehicle id).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsValidateResponse)]
pub struct ValidateResponse {
    pub legal: bool,
    pub reasons: Vec<OrderReason>,
}

/// A round to play.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": example_state(), "orders": example_orders(), "seed": 42}))]
#[schema(as = CobiTankWarsApplyRequest)]
pub struct ApplyRequest {
    pub state: StateDto,
    pub orders: OrdersDto,
    /// Seeds the supply drop (SplitMix64); 0 when absent.
    #[serde(default)]
    #[schema(example = 42)]
    pub seed: Option<u64>,
}

/// Something that happened in the round, in order: each vehicle's move (or
/// cancellation), its artillery hits and its destruction or support token;
/// then the gunfire; then the supply drop.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schema(as = CobiTankWarsEvent)]
pub enum EventDto {
    /// The vehicle executed its command.
    Moved {
        vehicle: String,
        from: String,
        to: String,
    },
    /// The command was cancelled whole: its destination is off the board
    /// (`to` null) or was occupied. The vehicle stayed on `at`.
    Cancelled {
        vehicle: String,
        at: String,
        to: Option<String>,
    },
    /// The vehicle entered an artillery token's square: 1 armor lost, the
    /// token removed.
    ArtilleryHit { vehicle: String, square: String },
    /// The vehicle stopped on a support token: the token removed, its
    /// owner drew a support card.
    SupportTaken {
        vehicle: String,
        square: String,
        player: PlayerName,
    },
    /// A gunfire token hit the vehicle standing on its square: 1 armor lost.
    GunfireHit { vehicle: String, square: String },
    /// The vehicle's armor reached 0 and it was removed.
    Destroyed { vehicle: String, square: String },
    /// A support token was dropped on a free square.
    SupplyDrop { square: String },
}

/// The state after the round and how the game stands.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsApplyResponse)]
pub struct ApplyResponse {
    pub state: StateDto,
    pub events: Vec<EventDto>,
    /// Whether a player has no vehicles left.
    pub finished: bool,
    /// The player who still has vehicles when the other has none.
    pub winner: Option<PlayerName>,
    /// Neither player has vehicles.
    pub draw: bool,
}

/// How the game stands.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsScoreResponse)]
pub struct ScoreResponse {
    /// Vehicles left.
    pub vehicles: PerPlayer,
    /// Armor points of all vehicles left.
    pub armor: PerPlayer,
    /// Support cards drawn.
    pub support_cards: PerPlayer,
    pub finished: bool,
    pub winner: Option<PlayerName>,
    pub draw: bool,
}

/// One round of a replay.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CobiTankWarsReplayRound)]
pub struct ReplayRound {
    pub orders: OrdersDto,
    /// Gunfire tokens placed for this round before the orders are executed
    /// (added to the state's).
    #[serde(default)]
    #[schema(example = json!(["e6"]))]
    pub gunfire: Vec<String>,
    /// Seeds this round's supply drop; 0 when absent.
    #[serde(default)]
    pub seed: Option<u64>,
}

/// A game to replay.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rounds": [
    {"orders": example_orders(), "gunfire": ["e6"], "seed": 1},
    {"orders": {"P1": {"P1-1": {"dir": "N", "dist": 3}, "P1-2": {"dir": "E", "dist": 1}, "P1-3": {"dir": "N", "dist": 1}},
                "P2": {"P2-1": {"dir": "W", "dist": 1}, "P2-2": {"dir": "S", "dist": 2}, "P2-3": {"dir": "S", "dist": 1}}}, "seed": 2}
]}))]
#[schema(as = CobiTankWarsReplayRequest)]
pub struct ReplayRequest {
    /// The start state; the default one when absent.
    #[serde(default)]
    pub start: Option<StateDto>,
    pub rounds: Vec<ReplayRound>,
}

/// The states a game passed through.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsReplayResponse)]
pub struct ReplayResponse {
    /// The state after each round.
    pub states: Vec<StateDto>,
    /// How the game stands after the last round.
    #[serde(rename = "final")]
    pub final_state: ScoreResponse,
}

/// A state to find orders for.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": example_state(), "player": "P1", "gunfire_tokens": 2, "limits": {"max_nodes": 20000}, "seed": 7}))]
#[schema(as = CobiTankWarsAiMoveRequest)]
pub struct AiMoveRequest {
    pub state: StateDto,
    /// The player to give orders for.
    pub player: PlayerName,
    /// Gunfire squares to suggest, 0 to 8 (1 when absent).
    #[serde(default)]
    #[schema(example = 2)]
    pub gunfire_tokens: Option<u32>,
    /// `max_nodes` bounds the simulated rounds, `max_depth` the halving
    /// rounds.
    #[serde(default)]
    pub limits: Option<AiLimits>,
    /// Seeds the sampling of the enemy's orders; 0 when absent.
    #[serde(default)]
    #[schema(example = 7)]
    pub seed: Option<u64>,
}

/// A suggested gunfire square.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsGunfireTarget)]
pub struct GunfireTargetDto {
    #[schema(example = "e6")]
    pub square: String,
    /// Share of the sampled enemy orders that stopped an enemy vehicle
    /// there.
    #[schema(example = 0.25)]
    pub probability: f64,
}

/// The AI's orders and gunfire squares.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsAiMoveResponse)]
pub struct AiMoveResponse {
    /// One order per vehicle of the player.
    #[schema(example = json!({"P1-1": {"dir": "N", "dist": 2}, "P1-2": {"dir": "N", "dist": 1}, "P1-3": {"dir": "N", "dist": 3}}))]
    pub orders: BTreeMap<String, OrderDto>,
    /// Squares for the player's gunfire tokens, most promising first; none
    /// where the player's own vehicles stop as often as the enemy's.
    pub gunfire: Vec<GunfireTargetDto>,
    /// Mean change of the material balance for the player over the
    /// samples: armor plus 3 a vehicle, 2 a support card, 100 a won game.
    #[schema(example = 0.5)]
    pub value: f64,
    /// Joint orders of the player's vehicles considered.
    #[schema(example = 1331)]
    pub candidates: usize,
    /// Sampled enemy orders the chosen orders were played against.
    #[schema(example = 64)]
    pub samples: usize,
    /// Rounds simulated.
    #[schema(example = 20000)]
    pub simulations: u64,
    /// Search time, milliseconds (of the original search when `cached`).
    pub time_ms: u64,
    /// Whether the answer came from the cache.
    pub cached: bool,
}

impl CachedAnswer for AiMoveResponse {
    fn mark_cached(&mut self) {
        self.cached = true;
    }

    fn nodes(&self) -> u64 {
        self.simulations
    }
}

batching::batch_request! {
    /// Tank Wars requests to run in one round trip, in order.
    #[schema(as = CobiTankWarsBatchRequest)]
    BatchRequest, example = json!(batch_example())
}

fn batch_example() -> serde_json::Value {
    let state = example_state();
    let orders = example_orders();
    serde_json::json!({"requests": [
        {"op": "legal-moves", "state": state, "player": "P1"},
        {"op": "validate", "state": state, "orders": orders},
        {"op": "apply", "state": state, "orders": orders, "seed": 42},
        {"op": "score", "state": state},
        {"op": "ai-move", "state": state, "player": "P1", "limits": {"max_nodes": 2000}, "seed": 7},
        {"op": "apply", "state": state, "orders": {"P1": orders["P1"]}},
    ]})
}

// ------------------------------------------------------------ encoding ---

fn example_state() -> serde_json::Value {
    let mut state = encode_state(&State::initial());
    state.artillery = vec!["d4".into(), "c5".into()];
    state.support = vec!["e5".into()];
    state.gunfire = vec!["e6".into()];
    serde_json::to_value(state).unwrap_or_default()
}

fn example_orders() -> serde_json::Value {
    serde_json::json!({
        "P1": {"P1-1": {"dir": "N", "dist": 2}, "P1-2": {"dir": "N", "dist": 1}, "P1-3": {"dir": "W", "dist": 1}},
        "P2": {"P2-1": {"dir": "S", "dist": 3}, "P2-2": {"dir": "S", "dist": 1}, "P2-3": {"dir": "E", "dist": 1}}
    })
}

fn decode_state(dto: &StateDto, field: &str) -> Result<State, ApiError> {
    let data = StateData {
        cols: dto.cols,
        rows: dto.rows,
        first: dto.first.into(),
        vehicles: dto
            .vehicles
            .iter()
            .map(|v| VehicleData {
                id: v.id.clone(),
                owner: v.owner.into(),
                square: v.square.clone(),
                armor: v.armor,
                slot: v.slot,
            })
            .collect(),
        artillery: dto.artillery.clone(),
        support: dto.support.clone(),
        gunfire: dto.gunfire.clone(),
        support_cards: [dto.support_cards.p1, dto.support_cards.p2],
        round: dto.round,
    };
    State::from_data(&data).map_err(|e| ApiError::InvalidPosition {
        detail: e.to_string(),
        field: field.to_owned(),
    })
}

fn encode_state(state: &State) -> StateDto {
    let squares = |cells: &[Cell]| cells.iter().map(Cell::to_string).collect();
    StateDto {
        cols: u32::from(state.board.cols),
        rows: u32::from(state.board.rows),
        first: state.first.into(),
        vehicles: state
            .vehicles
            .iter()
            .map(|v| VehicleDto {
                id: v.id.clone(),
                owner: v.owner.into(),
                square: v.square.to_string(),
                armor: i64::from(v.armor),
                slot: i64::from(v.slot),
            })
            .collect(),
        artillery: squares(&state.artillery),
        support: squares(&state.support),
        gunfire: squares(&state.gunfire),
        support_cards: PerPlayer {
            p1: state.support_cards[0],
            p2: state.support_cards[1],
        },
        round: state.round,
    }
}

fn encode_order(order: Order) -> OrderDto {
    OrderDto {
        dir: order.dir.name().to_owned(),
        dist: i64::from(order.dist),
    }
}

fn encode_event(event: Event) -> EventDto {
    let sq = |c: Cell| c.to_string();
    match event {
        Event::Moved { vehicle, from, to } => EventDto::Moved {
            vehicle,
            from: sq(from),
            to: sq(to),
        },
        Event::Cancelled { vehicle, at, to } => EventDto::Cancelled {
            vehicle,
            at: sq(at),
            to: to.map(sq),
        },
        Event::ArtilleryHit { vehicle, square } => EventDto::ArtilleryHit {
            vehicle,
            square: sq(square),
        },
        Event::SupportTaken {
            vehicle,
            square,
            player,
        } => EventDto::SupportTaken {
            vehicle,
            square: sq(square),
            player: player.into(),
        },
        Event::GunfireHit { vehicle, square } => EventDto::GunfireHit {
            vehicle,
            square: sq(square),
        },
        Event::Destroyed { vehicle, square } => EventDto::Destroyed {
            vehicle,
            square: sq(square),
        },
        Event::SupplyDrop { square } => EventDto::SupplyDrop { square: sq(square) },
    }
}

fn score_response(state: &State) -> ScoreResponse {
    let (finished, winner, draw) = status(state);
    let vehicles = |p: Player| state.vehicles.iter().filter(move |v| v.owner == p);
    ScoreResponse {
        vehicles: PerPlayer::of(|p| vehicles(p).count() as u32),
        armor: PerPlayer::of(|p| vehicles(p).fold(0u32, |sum, v| sum.saturating_add(v.armor))),
        support_cards: PerPlayer::of(|p| state.support_cards[p.index()]),
        finished,
        winner,
        draw,
    }
}

fn status(state: &State) -> (bool, Option<PlayerName>, bool) {
    match engine::outcome(state) {
        None => (false, None, false),
        Some(winner) => (true, winner.map(PlayerName::from), winner.is_none()),
    }
}

/// Every reason the orders are refused, P1's first.
fn order_reasons(
    state: &State,
    orders: &OrdersDto,
) -> Result<BTreeMap<String, Order>, Vec<OrderReason>> {
    let mut checked = BTreeMap::new();
    let mut reasons = Vec::new();
    for (player, given) in [(Player::P1, &orders.p1), (Player::P2, &orders.p2)] {
        let data: BTreeMap<String, OrderData> = given
            .iter()
            .map(|(id, o)| {
                (
                    id.clone(),
                    OrderData {
                        dir: o.dir.clone(),
                        dist: o.dist,
                    },
                )
            })
            .collect();
        match engine::check_orders(state, player, &data) {
            Ok(ok) => checked.extend(ok),
            Err(errors) => {
                for (vehicle, error) in errors {
                    let game_over = error == OrderError::GameOver;
                    reasons.push(OrderReason {
                        player: (!game_over).then_some(player.into()),
                        vehicle: (!game_over).then_some(vehicle),
                        code: error.code(),
                        message: error.to_string(),
                    });
                    if game_over {
                        return Err(reasons);
                    }
                }
            }
        }
    }
    if reasons.is_empty() {
        Ok(checked)
    } else {
        Err(reasons)
    }
}

/// Checks the orders and plays the round; the first reason is the 422.
fn play(
    state: &mut State,
    orders: &OrdersDto,
    seed: u64,
    ply: Option<usize>,
) -> Result<Vec<EventDto>, ApiError> {
    let checked = order_reasons(state, orders).map_err(|reasons| {
        let first = reasons.into_iter().next();
        ApiError::IllegalOrder {
            code: first.as_ref().map_or("GAME_OVER", |r| r.code),
            detail: first.as_ref().map_or_else(
                || OrderError::GameOver.to_string(),
                |r| match (&r.player, &r.vehicle) {
                    (Some(p), Some(v)) => format!("{p:?}, vehicle {v:?}: {}", r.message),
                    _ => r.message.clone(),
                },
            ),
            player: first.as_ref().and_then(|r| r.player).map(Player::from),
            ply,
        }
    })?;
    let events = engine::resolve(state, &checked, seed);
    Ok(events.into_iter().map(encode_event).collect())
}

// ------------------------------------------------------------ handlers ---

/// The default state: 8x8, three vehicles a side with 3 armor (P1 on c1,
/// d1, f1; P2 on f8, e8, c8; slots 1, 2, 3), no tokens, P1 first.
#[utoipa::path(
    tag = TAG,
    operation_id = "cobi_tank_wars_initial",
    responses((status = 200, description = "The default state", body = StateDto))
)]
#[get("/initial")]
async fn initial() -> web::Json<StateDto> {
    web::Json(encode_state(&State::initial()))
}

/// Every order whose destination is on the board, per vehicle, with
/// whether the destination is occupied now.
#[utoipa::path(
    tag = TAG,
    operation_id = "cobi_tank_wars_legal_moves",
    request_body = LegalMovesRequest,
    responses(
        (status = 200, description = "Orders by player and vehicle", body = LegalMovesResponse),
        (status = 400, description = "`BAD_REQUEST` or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/legal-moves")]
async fn legal_moves(
    body: ApiJson<LegalMovesRequest>,
) -> Result<web::Json<LegalMovesResponse>, ApiError> {
    run_legal_moves(body.0).map(web::Json)
}

/// `legal-moves`: the orders on the board per vehicle, of each player or
/// of one.
pub fn run_legal_moves(request: LegalMovesRequest) -> Result<LegalMovesResponse, ApiError> {
    let state = decode_state(&request.state, "state")?;
    let over = engine::outcome(&state).is_some();
    let list = |player: Player| {
        state
            .vehicles
            .iter()
            .filter(|v| v.owner == player && !over)
            .map(|v| {
                let orders = engine::legal_orders(&state, v)
                    .into_iter()
                    .map(|l| LegalOrderDto {
                        dir: l.order.dir.name(),
                        dist: l.order.dist,
                        to: l.to.to_string(),
                        blocked_now: l.blocked_now,
                    })
                    .collect();
                (v.id.clone(), orders)
            })
            .collect()
    };
    let wanted = |p: PlayerName| request.player.is_none_or(|asked| asked == p);
    Ok(LegalMovesResponse {
        p1: wanted(PlayerName::P1).then(|| list(Player::P1)),
        p2: wanted(PlayerName::P2).then(|| list(Player::P2)),
    })
}

/// Whether the orders are legal: one order per vehicle of each player, a
/// direction N, E, S or W, a distance 1 to 3; every fault gets a reason.
#[utoipa::path(
    tag = TAG,
    operation_id = "cobi_tank_wars_validate",
    request_body = ValidateRequest,
    responses(
        (status = 200, description = "Legal, or the reasons", body = ValidateResponse),
        (status = 400, description = "`BAD_REQUEST` or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/validate")]
async fn validate(body: ApiJson<ValidateRequest>) -> Result<web::Json<ValidateResponse>, ApiError> {
    run_validate(body.0).map(web::Json)
}

/// `validate`: whether the orders are legal, with every reason they are
/// not.
pub fn run_validate(request: ValidateRequest) -> Result<ValidateResponse, ApiError> {
    let state = decode_state(&request.state, "state")?;
    let reasons = order_reasons(&state, &request.orders)
        .err()
        .unwrap_or_default();
    Ok(ValidateResponse {
        legal: reasons.is_empty(),
        reasons,
    })
}

/// Plays one round: movement in card order (artillery, support), gunfire,
/// the seeded supply drop.
#[utoipa::path(
    tag = TAG,
    operation_id = "cobi_tank_wars_apply",
    request_body = ApplyRequest,
    responses(
        (status = 200, description = "The state after the round and the events", body = ApplyResponse),
        (status = 400, description = "`BAD_REQUEST` or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The orders are refused: `code` (`GAME_OVER`, `NO_SUCH_VEHICLE`, `MISSING_ORDER`, `BAD_DIRECTION`, `BAD_DISTANCE`) and `player` (P1's are checked first)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/apply")]
async fn apply(body: ApiJson<ApplyRequest>) -> Result<web::Json<ApplyResponse>, ApiError> {
    run_apply(body.0).map(web::Json)
}

/// `apply`: the state after a round, and its events.
pub fn run_apply(request: ApplyRequest) -> Result<ApplyResponse, ApiError> {
    let mut state = decode_state(&request.state, "state")?;
    let events = play(&mut state, &request.orders, request.seed.unwrap_or(0), None)?;
    let (finished, winner, draw) = status(&state);
    Ok(ApplyResponse {
        state: encode_state(&state),
        events,
        finished,
        winner,
        draw,
    })
}

/// Vehicles, armor and support cards per player, and whether the game is
/// over.
#[utoipa::path(
    tag = TAG,
    operation_id = "cobi_tank_wars_score",
    request_body = StateRequest,
    responses(
        (status = 200, description = "How the game stands", body = ScoreResponse),
        (status = 400, description = "`BAD_REQUEST` or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/score")]
async fn score(body: ApiJson<StateRequest>) -> Result<web::Json<ScoreResponse>, ApiError> {
    run_score(body.0).map(web::Json)
}

/// `score`: how the game stands.
pub fn run_score(request: StateRequest) -> Result<ScoreResponse, ApiError> {
    let state = decode_state(&request.state, "state")?;
    Ok(score_response(&state))
}

/// Replays rounds from a start state (the default one when absent); each
/// round may first place gunfire tokens.
///
/// The first refused round is a 422 with `ply`, its 0-based index.
#[utoipa::path(
    tag = TAG,
    operation_id = "cobi_tank_wars_replay",
    request_body = ReplayRequest,
    responses(
        (status = 200, description = "The state after each round and the final standing", body = ReplayResponse),
        (status = 400, description = "`BAD_REQUEST`, `INVALID_POSITION` (also a round's gunfire square off the board or twice) or `LIMIT_EXCEEDED`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Refused orders: `code`, `player` and `ply`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/replay")]
async fn replay(
    body: ApiJson<ReplayRequest>,
    limits: web::Data<Limits>,
) -> Result<web::Json<ReplayResponse>, ApiError> {
    run_replay(body.0, &limits).map(web::Json)
}

/// `replay`: the state after each round, each round checked.
pub fn run_replay(request: ReplayRequest, limits: &Limits) -> Result<ReplayResponse, ApiError> {
    limits.check_replay(request.rounds.len(), "rounds")?;
    let mut state = match &request.start {
        Some(start) => decode_state(start, "start")?,
        None => State::initial(),
    };
    let mut states = Vec::with_capacity(request.rounds.len());
    for (ply, round) in request.rounds.iter().enumerate() {
        if !round.gunfire.is_empty() {
            let mut dto = encode_state(&state);
            dto.gunfire.extend(round.gunfire.iter().cloned());
            state = decode_state(&dto, &format!("rounds[{ply}].gunfire"))?;
        }
        play(
            &mut state,
            &round.orders,
            round.seed.unwrap_or(0),
            Some(ply),
        )?;
        states.push(encode_state(&state));
    }
    Ok(ReplayResponse {
        states,
        final_state: score_response(&state),
    })
}

/// Suggests orders for every vehicle of one player and squares for its
/// gunfire tokens.
///
/// Orders are hidden and revealed together, so this is a simulation, not a
/// game-tree search: the enemy's orders are sampled (seeded) from a model
/// of a sensible player, who takes support and avoids known artillery,
/// gunfire and occupied squares; every joint order of the player's vehicles
/// is played against the samples with the rules' own movement and gunfire,
/// and successive halving keeps the better half each round while doubling
/// the samples. Gunfire goes where the enemy most often stops against the
/// chosen orders. Bounded by time, simulations (`max_nodes`) and halving
/// rounds (`max_depth`); cached like the other AIs.
#[utoipa::path(
    tag = TAG,
    operation_id = "cobi_tank_wars_ai_move",
    request_body = AiMoveRequest,
    responses(
        (status = 200, description = "The orders, gunfire squares and expected value", body = AiMoveResponse),
        (status = 400, description = "`BAD_REQUEST` (e.g. `gunfire_tokens` over 8) or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`GAME_OVER`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`SERVICE_BUSY`: every search slot is taken; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/ai-move")]
async fn ai_move(
    body: ApiJson<AiMoveRequest>,
    limits: web::Data<Limits>,
    cache: web::Data<AnswerCache<AiMoveResponse>>,
    slots: web::Data<SearchSlots>,
) -> Result<web::Json<AiMoveResponse>, ApiError> {
    run_ai_move(body.0, &limits, &cache, &slots)
        .await
        .map(web::Json)
}

/// `ai-move`: the AI's orders and gunfire squares, from the cache or a
/// search in a slot.
pub async fn run_ai_move(
    request: AiMoveRequest,
    limits: &Limits,
    cache: &AnswerCache<AiMoveResponse>,
    slots: &SearchSlots,
) -> Result<AiMoveResponse, ApiError> {
    let state = decode_state(&request.state, "state")?;
    let player: Player = request.player.into();
    let tokens = request.gunfire_tokens.unwrap_or(1);
    let tokens = usize::try_from(tokens)
        .ok()
        .filter(|t| *t <= ai::MAX_GUNFIRE_TOKENS)
        .ok_or_else(|| {
            ApiError::bad_request(
                format!(
                    "gunfire_tokens must be 0 to {}, not {tokens}",
                    ai::MAX_GUNFIRE_TOKENS
                ),
                Some("gunfire_tokens".to_owned()),
            )
        })?;
    let game_over = || ApiError::IllegalOrder {
        code: OrderError::GameOver.code(),
        detail: OrderError::GameOver.to_string(),
        player: None,
        ply: None,
    };
    if engine::outcome(&state).is_some() {
        return Err(game_over());
    }
    let budget = request.limits.unwrap_or_default().budget(limits);
    let seed = request.seed.unwrap_or(0);
    let canonical = serde_json::to_string(&encode_state(&state)).unwrap_or_default();
    let key = cache_key(
        ai::ENGINE_VERSION,
        &format_args!("{player}|{tokens}|{canonical}"),
        &budget,
        seed,
    );
    let search_limits = ai::SearchLimits {
        max_time: Some(std::time::Duration::from_millis(budget.time_ms)),
        max_rounds: budget.depth,
        max_simulations: budget.nodes,
    };
    let answer = cached_search(cache, key, slots, limits, move || {
        let s = ai::suggest(&state, player, tokens, search_limits, seed)?;
        Some(AiMoveResponse {
            orders: s
                .orders
                .into_iter()
                .map(|(id, order)| (id, encode_order(order)))
                .collect(),
            gunfire: s
                .gunfire
                .into_iter()
                .map(|t| GunfireTargetDto {
                    square: t.square.to_string(),
                    probability: t.probability,
                })
                .collect(),
            value: s.value,
            candidates: s.candidates,
            samples: s.samples,
            simulations: s.simulations,
            time_ms: s.elapsed.as_millis() as u64,
            cached: false,
        })
    })
    .await?;
    answer.ok_or_else(game_over)
}

/// The ops of `batch`: every JSON endpoint; `ai-move` is a search.
const BATCH_OPS: batching::Ops = batching::Ops {
    all: &[
        "legal-moves",
        "validate",
        "apply",
        "score",
        "replay",
        "ai-move",
    ],
    searches: &["ai-move"],
};

/// Runs several requests in one round trip, in order.
///
/// Each request is an object with `op` (`legal-moves`, `validate`,
/// `apply`, `score`, `replay` or `ai-move`) and the fields of that
/// endpoint's body. Each result is what the endpoint answers: its 200 body,
/// or its problem document (`status`, `code`, …) with `field` prefixed by
/// `requests[i].` (`requests[i]` when the endpoint names none); a failed
/// request does not stop the others. A request that is not an object or
/// has no known `op` is a `BAD_REQUEST` result. `ai-move` runs as its
/// endpoint does, through the answer cache and in the shared search slots,
/// so a busy server answers it `SERVICE_BUSY`.
///
/// A batch holds at most 256 requests (`--batch-max-requests`), at most 4
/// of them `ai-move` (`--batch-max-searches`). With `Content-Type:
/// application/x-ndjson` the body is one request a line and the answer one
/// result a line; `i` then counts the non-blank lines.
#[utoipa::path(
    tag = TAG,
    operation_id = "cobi_tank_wars_batch",
    request_body(content(
        (BatchRequest = "application/json"),
        (String = "application/x-ndjson"),
    )),
    responses(
        (status = 200, description = "One result per request, in order", content(
            (BatchResponse = "application/json"),
            (String = "application/x-ndjson"),
        )),
        (status = 400, description = "`BAD_REQUEST` (not `{\"requests\": […]}`) or `LIMIT_EXCEEDED` (`requests`: too many requests, or too many searches)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/batch")]
async fn batch(
    body: BatchBody<BatchRequest>,
    limits: web::Data<Limits>,
    cache: web::Data<AnswerCache<AiMoveResponse>>,
    slots: web::Data<SearchSlots>,
) -> Result<HttpResponse, ApiError> {
    let (limits, cache, slots) = (&**limits, &**cache, &**slots);
    batching::run(body, limits, BATCH_OPS, |op, fields| {
        dispatch(op, fields, limits, cache, slots)
    })
    .await
}

/// Runs one batched request through its endpoint's function.
async fn dispatch(
    op: &str,
    fields: serde_json::Value,
    limits: &Limits,
    cache: &AnswerCache<AiMoveResponse>,
    slots: &SearchSlots,
) -> Result<serde_json::Value, ApiError> {
    use batching::{decode, to_json};
    match op {
        "legal-moves" => to_json(run_legal_moves(decode(fields)?)),
        "validate" => to_json(run_validate(decode(fields)?)),
        "apply" => to_json(run_apply(decode(fields)?)),
        "score" => to_json(run_score(decode(fields)?)),
        "replay" => to_json(run_replay(decode(fields)?, limits)),
        "ai-move" => to_json(run_ai_move(decode(fields)?, limits, cache, slots).await),
        _ => Err(batching::not_dispatched(op)),
    }
}

/// Query of `render.svg`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct RenderQuery {
    /// The state as JSON (URL-encoded), as in the other endpoints' `state`;
    /// the default state when absent.
    #[param(example = json!(r#"{"cols":8,"rows":8,"vehicles":[{"id":"P1-1","owner":"P1","square":"c1","armor":2,"slot":1},{"id":"P2-1","owner":"P2","square":"f8","armor":3,"slot":1}],"artillery":["d4"],"support":["e5"],"gunfire":["c3"]}"#))]
    pub state: Option<String>,
}

/// The board as an SVG picture: vehicles in their owner's colour with id,
/// armor and card slot; artillery, support and gunfire tokens; labels, the
/// round, the first player and the support cards.
///
/// ![The default state](/v1/cobi-tank-wars/render.svg)
///
/// The picture depends only on the query, so it carries an `ETag` and
/// `Cache-Control: public, max-age=86400`; `If-None-Match` gets a 304.
#[utoipa::path(
    tag = TAG,
    operation_id = "cobi_tank_wars_render",
    params(RenderQuery),
    responses(
        (status = 200, description = "The picture", body = String, content_type = "image/svg+xml",
         headers(("ETag" = String, description = "Strong tag of the picture"), ("Cache-Control" = String))),
        (status = 304, description = "The client's copy (`If-None-Match`) is current"),
        (status = 400, description = "`BAD_REQUEST` (`state` is not a state's JSON) or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/render.svg")]
async fn render(
    request: HttpRequest,
    query: web::Query<RenderQuery>,
) -> Result<HttpResponse, ApiError> {
    let state = match &query.state {
        Some(text) => decode_state(&super::json::parse_param(text, "state")?, "state")?,
        None => State::initial(),
    };
    Ok(super::svg::respond(
        &request,
        crate::render::cobi_tank_wars(&state),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_round_trip() {
        let dto = encode_state(&State::initial());
        let back = decode_state(&dto, "state").unwrap();
        assert_eq!(back, State::initial());
        let example: StateDto = serde_json::from_value(example_state()).unwrap();
        assert!(decode_state(&example, "state").is_ok());
    }
}
