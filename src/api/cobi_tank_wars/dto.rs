//! The DTOs of `/v1/cobi-tank-wars`: request and answer bodies with their
//! field descriptions and examples, as the OpenAPI document shows them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::json_state::{self, Examples, JsonState};
use crate::api::openapi::notation::{CobiTankWarsPlayerName, CobiTankWarsState, GridSquare};
use crate::games::cobi_tank_wars::{
    self as engine, CobiTankWars, Dir, Event, LegalOrder, Order, OrderData, OrderError, OrderFault,
    Player, State,
};

/// A count or total per player, as `score` answers it.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsCounts)]
pub struct Counts {
    #[serde(rename = "P1")]
    #[schema(example = 3)]
    pub p1: u32,
    #[serde(rename = "P2")]
    #[schema(example = 3)]
    pub p2: u32,
}

/// A state as it travels: the engine's notation (docs/TANK-WARS.md, "State
/// and orders"; its schema is the engine's, [`CobiTankWarsState`]).
pub type StateDto = engine::StateData;

/// A vehicle's command as a player gives it: a direction and a distance.
/// Any text and number are taken here; the rules refuse a direction that
/// is not `N`, `E`, `S` or `W` (`BAD_DIRECTION`) and a distance that is not
/// 1, 2 or 3 (`BAD_DISTANCE`), with the vehicle named.
// The document's schema of the engine's `OrderData`, which requests are
// read as (`Deserialize` only lets the schema read `deny_unknown_fields`).
#[derive(Deserialize, ToSchema)]
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

/// One player's orders: one per vehicle, by vehicle id.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[schema(as = CobiTankWarsVehicleOrders)]
#[schema(example = json!({"P1-1": {"dir": "N", "dist": 2}, "P1-2": {"dir": "N", "dist": 1}, "P1-3": {"dir": "W", "dist": 1}}))]
#[schema(value_type = BTreeMap<String, OrderDto>)]
pub struct VehicleOrders(pub BTreeMap<String, OrderData>);

/// One order per vehicle of each player, by vehicle id.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CobiTankWarsOrders)]
pub struct OrdersDto {
    /// P1's orders (none when left out).
    #[serde(rename = "P1", default)]
    #[schema(example = json!({"P1-1": {"dir": "N", "dist": 2}, "P1-2": {"dir": "N", "dist": 1}, "P1-3": {"dir": "W", "dist": 1}}))]
    pub p1: VehicleOrders,
    /// P2's orders (none when left out).
    #[serde(rename = "P2", default)]
    #[schema(example = json!({"P2-1": {"dir": "S", "dist": 3}, "P2-2": {"dir": "S", "dist": 1}, "P2-3": {"dir": "E", "dist": 1}}))]
    pub p2: VehicleOrders,
}

/// A direction: `N` towards higher rows, `E` towards later columns.
// The document's schema of the engine's `Dir`, which answers write as it
// is (the catalogue's unit test and the contract test hold them together).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = CobiTankWarsDirection)]
pub enum DirectionName {
    N,
    E,
    S,
    W,
}

/// A vehicle's command as the AI suggests it: always a legal direction
/// and distance. Send it back as a [`CobiTankWarsOrder`](OrderDto).
// The document's schema of the engine's `Order`, which answers write as it
// is (the catalogue's unit test and the contract test hold them together).
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(as = CobiTankWarsSuggestedOrder)]
pub struct SuggestedOrder {
    pub dir: DirectionName,
    /// 1, 2 or 3 squares.
    #[schema(example = 2, minimum = 1, maximum = 3)]
    pub dist: u8,
}

/// The AI's orders: one per vehicle of the player, by vehicle id.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = CobiTankWarsSuggestedOrders)]
#[schema(example = json!({"P1-1": {"dir": "N", "dist": 2}, "P1-2": {"dir": "N", "dist": 1}, "P1-3": {"dir": "N", "dist": 3}}))]
#[schema(value_type = BTreeMap<String, SuggestedOrder>)]
pub struct SuggestedOrders(pub BTreeMap<String, Order>);

/// `initial` answers a state.
pub type InitialResponse = CobiTankWarsState;

/// An order whose destination is on the board.
// The document's schema of the engine's `LegalOrder`, which answers write
// as it is.
#[derive(ToSchema)]
#[schema(as = CobiTankWarsLegalOrder)]
pub struct LegalOrderDto {
    #[schema(value_type = DirectionName)]
    pub dir: Dir,
    #[schema(example = 2)]
    pub dist: u8,
    /// The destination.
    #[schema(example = "c3")]
    pub to: String,
    /// Whether another vehicle stands on `to` now: the order is cancelled
    /// unless that vehicle moves away first.
    pub blocked_now: bool,
}

/// One player's vehicles' orders whose destination is on the board, by
/// vehicle id (by direction N, E, S, W, then distance).
#[derive(Debug, Default, Serialize, ToSchema)]
#[schema(as = CobiTankWarsVehicleLegalOrders)]
#[schema(value_type = BTreeMap<String, Vec<LegalOrderDto>>)]
pub struct VehicleLegalOrders(pub BTreeMap<String, Vec<LegalOrder>>);

/// Per player, per vehicle id, the orders whose destination is on the
/// board (by direction N, E, S, W, then distance); empty when the game is
/// over.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsLegalMovesResponse)]
pub struct LegalMovesResponse {
    /// P1's vehicles' orders (absent when only P2's were asked for).
    #[serde(rename = "P1", skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub p1: Option<VehicleLegalOrders>,
    /// P2's vehicles' orders (absent when only P1's were asked for).
    #[serde(rename = "P2", skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub p2: Option<VehicleLegalOrders>,
}

/// Orders to check against a state.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": example_state(), "orders": example_orders()}))]
#[schema(as = CobiTankWarsValidateRequest)]
pub struct ValidateRequest {
    #[schema(value_type = CobiTankWarsState)]
    pub state: StateDto,
    pub orders: OrdersDto,
}

/// Why orders are refused.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsOrderReason)]
pub struct OrderReason {
    /// The player whose orders are at fault (absent for `GAME_OVER`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<CobiTankWarsPlayerName>, nullable = false)]
    pub player: Option<Player>,
    /// The vehicle id the order is for, or the vehicle without one (absent
    /// for `GAME_OVER`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "P1-2", nullable = false)]
    pub vehicle: Option<String>,
    #[schema(value_type = OrderCode, example = "MISSING_ORDER")]
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
    #[schema(value_type = CobiTankWarsState)]
    pub state: StateDto,
    pub orders: OrdersDto,
    /// Gunfire tokens placed for this round before the orders are
    /// executed, both players' (added to the state's, as a replay round's
    /// `gunfire`; a square named twice, or already holding a token, is one
    /// token).
    #[serde(default)]
    #[schema(example = json!(["e6"]), value_type = Vec<GridSquare>)]
    pub gunfire: Vec<String>,
    /// Seeds the supply drop (SplitMix64); 0 when absent.
    #[schema(example = 42)]
    pub seed: Option<u64>,
}

/// Something that happened in the round, in order: each vehicle's move (or
/// cancellation), its artillery hits and its destruction or support token;
/// then the gunfire; then the supply drop.
// The document's schema of the engine's `Event`, which answers write as it
// is (the catalogue's unit test and the contract test hold them together).
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
        #[schema(required = true)]
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
        #[schema(value_type = CobiTankWarsPlayerName)]
        player: Player,
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
    #[schema(value_type = CobiTankWarsState)]
    pub state: StateDto,
    #[schema(value_type = Vec<EventDto>)]
    pub events: Vec<Event>,
    /// Whether a player has no vehicles left.
    pub finished: bool,
    /// The player who still has vehicles when the other has none; null
    /// while the game goes on or on a draw.
    #[schema(required = true)]
    #[schema(value_type = Option<CobiTankWarsPlayerName>)]
    pub winner: Option<Player>,
    /// Neither player has vehicles.
    pub draw: bool,
    /// Why the game ended; null while it goes on.
    #[schema(required = true)]
    pub reason: Option<EndReasonName>,
    /// Each player's vehicles left: the number that decides (a player
    /// with none has lost).
    pub score: Counts,
}

/// How the game stands.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CobiTankWarsScoreResponse)]
pub struct ScoreResponse {
    /// Vehicles left.
    pub vehicles: Counts,
    /// Armor points of all vehicles left.
    pub armor: Counts,
    /// Support cards drawn.
    pub support_cards: Counts,
    /// Whether a player has no vehicles left.
    pub finished: bool,
    /// The player who still has vehicles when the other has none; null
    /// while the game goes on or on a draw.
    #[schema(required = true)]
    #[schema(value_type = Option<CobiTankWarsPlayerName>)]
    pub winner: Option<Player>,
    pub draw: bool,
    /// Why the game ended; null while it goes on.
    #[schema(required = true)]
    pub reason: Option<EndReasonName>,
    /// Each player's vehicles left, the number that decides (as every
    /// game's `score` names it; `vehicles` too).
    pub score: Counts,
}

/// Why a Tank Wars game ended.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CobiTankWarsEndReason)]
pub enum EndReasonName {
    /// A player's vehicles were all destroyed (both players': a draw).
    Destroyed,
}

/// One round of a replay.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CobiTankWarsReplayRound)]
pub struct ReplayRound {
    pub orders: OrdersDto,
    /// Gunfire tokens placed for this round before the orders are executed,
    /// both players' (added to the state's; a square named twice, or
    /// already holding a token, is one token).
    #[serde(default)]
    #[schema(example = json!(["e6"]), value_type = Vec<GridSquare>)]
    pub gunfire: Vec<String>,
    /// Seeds this round's supply drop; 0 when absent.
    pub seed: Option<u64>,
}

/// Tank Wars requests to run in one round trip, in order.
pub type BatchRequest = json_state::BatchRequest<CobiTankWars>;

/// The examples of the shapes Tank Wars shares with the other JSON-state
/// games.
pub(super) fn examples() -> Examples {
    Examples {
        state: example_state(),
        player: serde_json::json!("P1"),
        replay: serde_json::json!({"rounds": [
            {"orders": example_orders(), "gunfire": ["e6"], "seed": 1},
            {"orders": {"P1": {"P1-1": {"dir": "N", "dist": 3}, "P1-2": {"dir": "E", "dist": 1}, "P1-3": {"dir": "N", "dist": 1}},
                        "P2": {"P2-1": {"dir": "W", "dist": 1}, "P2-2": {"dir": "S", "dist": 2}, "P2-3": {"dir": "S", "dist": 1}}}, "seed": 2}
        ]}),
        batch: batch_example(),
        render: r#"{"cols":8,"rows":8,"vehicles":[{"id":"P1-1","owner":"P1","square":"c1","armor":2,"slot":1},{"id":"P2-1","owner":"P2","square":"f8","armor":3,"slot":1}],"artillery":["d4"],"support":["e5"],"gunfire":["c3"]}"#,
    }
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

pub(crate) fn example_state() -> serde_json::Value {
    let mut state = CobiTankWars::encode_state(&State::initial());
    state.artillery = vec!["d4".into(), "c5".into()];
    state.support = vec!["e5".into()];
    state.gunfire = vec!["e6".into()];
    serde_json::to_value(state).unwrap_or_default()
}

pub(crate) fn example_orders() -> serde_json::Value {
    serde_json::json!({
        "P1": {"P1-1": {"dir": "N", "dist": 2}, "P1-2": {"dir": "N", "dist": 1}, "P1-3": {"dir": "W", "dist": 1}},
        "P2": {"P2-1": {"dir": "S", "dist": 3}, "P2-2": {"dir": "S", "dist": 1}, "P2-3": {"dir": "E", "dist": 1}}
    })
}

crate::api::openapi::notation::code_enum! {
    /// The stable code of refused Tank Wars orders.
    OrderCode as "CobiTankWarsOrderCode": OrderError::ALL.map(OrderError::code),
    "Why orders are refused: `GAME_OVER`, `NO_SUCH_VEHICLE`, `MISSING_ORDER`, \
`BAD_DIRECTION`, `BAD_DISTANCE`.",
}

impl OrderReason {
    /// Why an order is illegal, its message in `lang`.
    pub fn of(fault: OrderFault, lang: crate::i18n::Lang) -> OrderReason {
        OrderReason {
            player: fault.player,
            vehicle: fault.vehicle,
            code: fault.error.code(),
            message: crate::error::rule_reason(lang, fault.error.code(), None),
        }
    }
}
