//! `/v1/tank-war`: the HTTP face of The Tank War engine. States travel as
//! JSON (SPEC 3.3); handlers check them, call the engine and encode the
//! answer.

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
use crate::games::tank_war::{
    self as engine, ai, Event, Outcome, PickError, Player, Position, Setup, StateData, TankData,
    TankType,
};
use crate::limits::{Limits, SearchSlots};

/// Path of this game's routes.
pub const SCOPE: &str = "/v1/tank-war";
pub const TAG: &str = "tank-war";

/// Registers The Tank War routes.
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

/// A player: `U` starts at the top (rows 4-6 by default), `D` at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[schema(as = TankWarPlayerName)]
pub enum PlayerName {
    U,
    D,
}

impl From<PlayerName> for Player {
    fn from(p: PlayerName) -> Player {
        match p {
            PlayerName::U => Player::U,
            PlayerName::D => Player::D,
        }
    }
}

impl From<Player> for PlayerName {
    fn from(p: Player) -> PlayerName {
        match p {
            Player::U => PlayerName::U,
            Player::D => PlayerName::D,
        }
    }
}

/// A tank type: `A` fires at the 4 diagonal neighbours, `B` at the 4
/// orthogonal neighbours, `C` at the 4 squares two away orthogonally.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema)]
#[schema(as = TankWarTankTypeName)]
pub enum TankTypeName {
    A,
    B,
    C,
}

/// A living tank.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TankWarTank)]
pub struct TankDto {
    pub owner: PlayerName,
    /// Side-relative name, unique for its owner (`LA`, `RC`, …).
    #[schema(example = "LA")]
    pub name: String,
    #[serde(rename = "type")]
    pub kind: TankTypeName,
    /// The squares the tank may occupy, in order; each step is to an
    /// orthogonally adjacent square.
    #[schema(example = json!(["e6", "e5", "e4", "e3", "e2", "e1"]))]
    pub track: Vec<String>,
    /// Index of the tank's square in `track`.
    pub at: usize,
}

/// Remaining thinking time of each player, milliseconds.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TankWarClocks)]
pub struct Clocks {
    #[serde(rename = "U")]
    #[schema(example = 120000)]
    pub u: i64,
    #[serde(rename = "D")]
    #[schema(example = 120000)]
    pub d: i64,
}

impl Default for Clocks {
    fn default() -> Clocks {
        Clocks {
            u: engine::INITIAL_CLOCK_MS,
            d: engine::INITIAL_CLOCK_MS,
        }
    }
}

/// A whole game state (SPEC 3.3). Destroyed tanks are absent.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TankWarState)]
pub struct StateDto {
    #[schema(example = 6)]
    pub rows: u32,
    #[schema(example = 6)]
    pub cols: u32,
    /// Owner of each square, one string per row from the top row (row
    /// `rows`) down to row 1, one letter `U` or `D` per column a, b, ….
    #[schema(example = json!(["UUUUUU", "UUUUUU", "UUUUUU", "DDDDDD", "DDDDDD", "DDDDDD"]))]
    pub territory: Vec<String>,
    pub tanks: Vec<TankDto>,
    /// Rounds played (0 when absent).
    #[serde(default)]
    pub round: u32,
    /// Remaining time (120000 each when absent).
    #[serde(default)]
    pub clock_ms: Clocks,
}

/// One pick per player: the name of the tank to move.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TankWarPicks)]
pub struct Picks {
    #[serde(rename = "U")]
    #[schema(example = "LA")]
    pub u: String,
    #[serde(rename = "D")]
    #[schema(example = "RC")]
    pub d: String,
}

/// Picks to check; either may be left out.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TankWarOptionalPicks)]
pub struct OptionalPicks {
    #[serde(rename = "U", default)]
    #[schema(example = "LA")]
    pub u: Option<String>,
    #[serde(rename = "D", default)]
    #[schema(example = "RC")]
    pub d: Option<String>,
}

/// Time each player spent on this round's decision, milliseconds (0 when
/// absent).
#[derive(Clone, Copy, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TankWarElapsed)]
pub struct Elapsed {
    #[serde(rename = "U", default)]
    #[schema(example = 1500)]
    pub u: u64,
    #[serde(rename = "D", default)]
    #[schema(example = 2300)]
    pub d: u64,
}

/// A state.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": default_state_json()}))]
#[schema(as = TankWarStateRequest)]
pub struct StateRequest {
    pub state: StateDto,
}

/// A state and, optionally, one player.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": default_state_json(), "player": "U"}))]
#[schema(as = TankWarLegalMovesRequest)]
pub struct LegalMovesRequest {
    pub state: StateDto,
    /// Only list this player's picks.
    #[serde(default)]
    pub player: Option<PlayerName>,
}

/// The tanks each player may pick, sorted by name.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarLegalMovesResponse)]
pub struct LegalMovesResponse {
    #[serde(rename = "U", skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(["LA", "LB", "LC", "RA", "RB", "RC"]))]
    pub u: Option<Vec<String>>,
    #[serde(rename = "D", skip_serializing_if = "Option::is_none")]
    pub d: Option<Vec<String>>,
}

/// Picks to check against a state.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": default_state_json(), "moves": {"U": "LA", "D": "RC"}}))]
#[schema(as = TankWarValidateRequest)]
pub struct ValidateRequest {
    pub state: StateDto,
    pub moves: OptionalPicks,
}

/// Why a pick is illegal.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarPickReason)]
pub struct PickReason {
    /// `GAME_OVER`, `NO_SUCH_TANK`, `END_OF_TRACK` or `SQUARE_OCCUPIED`.
    #[schema(example = "SQUARE_OCCUPIED")]
    pub code: &'static str,
    #[schema(example = "the next square of the tank's track is occupied")]
    pub message: String,
}

impl From<PickError> for PickReason {
    fn from(e: PickError) -> PickReason {
        PickReason {
            code: e.code(),
            message: e.to_string(),
        }
    }
}

/// Whether the given picks are legal, with a reason for each illegal one.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarValidateResponse)]
pub struct ValidateResponse {
    pub legal: bool,
    pub reasons: BTreeMap<PlayerName, PickReason>,
}

/// A round to play.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": default_state_json(), "moves": {"U": "LA", "D": "RC"}, "elapsed_ms": {"U": 1500, "D": 2300}}))]
#[schema(as = TankWarApplyRequest)]
pub struct ApplyRequest {
    pub state: StateDto,
    pub moves: Picks,
    #[serde(default)]
    pub elapsed_ms: Option<Elapsed>,
}

/// A tank named in an event.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarTankRef)]
pub struct TankRef {
    pub player: PlayerName,
    #[schema(example = "LC")]
    pub tank: String,
    /// Its square at the time.
    #[schema(example = "f4")]
    pub square: String,
}

/// Something that happened in the round, in order: timeouts (the round is
/// then not played), moves and blocked moves (U's first), destructions.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[schema(as = TankWarEvent)]
pub enum EventDto {
    /// The player's clock ran out: the player loses (both: a draw) and the
    /// round's moves are not executed.
    Timeout { player: PlayerName },
    /// A picked tank moved one square forward.
    Move {
        player: PlayerName,
        tank: String,
        from: String,
        to: String,
    },
    /// Both picked tanks targeted `to`; its owner's tank entered, this one
    /// stayed put.
    Blocked {
        player: PlayerName,
        tank: String,
        from: String,
        to: String,
    },
    /// The tank was destroyed in the firing phase by the tanks in `by`.
    Destroyed {
        player: PlayerName,
        tank: String,
        square: String,
        by: Vec<TankRef>,
    },
}

/// Why a finished game ended.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = TankWarEndReasonName)]
pub enum EndReasonName {
    /// A player had no tank that could be picked.
    NoMoves,
    /// A clock ran out.
    Time,
}

/// The state after a round and how the game stands.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarApplyResponse)]
pub struct ApplyResponse {
    pub state: StateDto,
    pub events: Vec<EventDto>,
    pub finished: bool,
    /// The winner of a finished game; null while it goes on or on a draw.
    pub winner: Option<PlayerName>,
    pub draw: bool,
    /// Why the game ended; null while it goes on.
    pub reason: Option<EndReasonName>,
}

/// Counts per player.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarPerPlayer)]
pub struct PerPlayer {
    #[serde(rename = "U")]
    #[schema(example = 6)]
    pub u: usize,
    #[serde(rename = "D")]
    #[schema(example = 6)]
    pub d: usize,
}

/// How the game stands: surviving tanks and owned squares decide it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarScoreResponse)]
pub struct ScoreResponse {
    pub finished: bool,
    pub winner: Option<PlayerName>,
    pub draw: bool,
    pub reason: Option<EndReasonName>,
    /// Living tanks.
    pub surviving: PerPlayer,
    /// Owned squares.
    pub territory: PerPlayer,
}

/// One round of a replay.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TankWarReplayRound)]
pub struct ReplayRound {
    #[serde(rename = "U")]
    #[schema(example = "LA")]
    pub u: String,
    #[serde(rename = "D")]
    #[schema(example = "RC")]
    pub d: String,
    #[serde(default)]
    pub elapsed_ms: Option<Elapsed>,
}

/// A game to replay.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rounds": [
    {"U": "LA", "D": "RC"}, {"U": "LC", "D": "RB"}, {"U": "RA", "D": "RB"},
    {"U": "LA", "D": "RB"}, {"U": "LC", "D": "RA"}
]}))]
#[schema(as = TankWarReplayRequest)]
pub struct ReplayRequest {
    /// The start state; the default setup when absent.
    #[serde(default)]
    pub start: Option<StateDto>,
    pub rounds: Vec<ReplayRound>,
}

/// The states a game passed through.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarReplayResponse)]
pub struct ReplayResponse {
    /// The state after each round.
    pub states: Vec<StateDto>,
    /// How the game stands after the last round.
    #[serde(rename = "final")]
    pub final_state: ScoreResponse,
}

/// A state to find a pick for.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": default_state_json(), "player": "D", "limits": {"max_depth": 2}, "seed": 1}))]
#[schema(as = TankWarAiMoveRequest)]
pub struct AiMoveRequest {
    pub state: StateDto,
    /// The player to pick for.
    pub player: PlayerName,
    #[serde(default)]
    pub limits: Option<AiLimits>,
    /// Seeds the draw from the mixed strategy; 0 when absent.
    #[serde(default)]
    #[schema(example = 1)]
    pub seed: Option<u64>,
}

/// One pick of a mixed strategy.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = TankWarStrategyEntry)]
pub struct StrategyEntry {
    #[serde(rename = "move")]
    #[schema(example = "RB")]
    pub pick: String,
    #[schema(example = 0.5)]
    pub probability: f64,
}

/// The AI's pick, drawn from its mixed strategy.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = TankWarAiMoveResponse)]
pub struct AiMoveResponse {
    /// The pick drawn (with `seed`) from `strategy`.
    #[serde(rename = "move")]
    #[schema(example = "RB")]
    pub pick: String,
    /// The equilibrium strategy of the player's picks; probabilities sum
    /// to 1.
    pub strategy: Vec<StrategyEntry>,
    /// The game's value for the player: 100 a tank ahead, 4 a square
    /// ahead; beyond ±10000 a won (lost) game.
    #[schema(example = 0.0)]
    pub value: f64,
    /// Rounds looked ahead by the last finished iteration.
    #[schema(example = 2)]
    pub depth: u32,
    /// Positions evaluated.
    pub nodes: u64,
    /// Search time, milliseconds (of the original search when `cached`).
    pub time_ms: u64,
    /// Whether the answer came from the cache.
    pub cached: bool,
}

batching::batch_request! {
    /// Tank War requests to run in one round trip, in order.
    #[schema(as = TankWarBatchRequest)]
    BatchRequest, example = json!(batch_example())
}

fn batch_example() -> serde_json::Value {
    let state = default_state_json();
    let moves = serde_json::json!({"U": "LA", "D": "RC"});
    serde_json::json!({"requests": [
        {"op": "legal-moves", "state": state, "player": "U"},
        {"op": "validate", "state": state, "moves": moves},
        {"op": "apply", "state": state, "moves": moves},
        {"op": "score", "state": state},
        {"op": "ai-move", "state": state, "player": "D", "limits": {"max_depth": 1}, "seed": 1},
        {"op": "apply", "state": state, "moves": {"U": "LA", "D": "XX"}},
    ]})
}

// ------------------------------------------------------------ decoding ---

fn default_state_json() -> serde_json::Value {
    let (setup, pos) = engine::default_state();
    serde_json::to_value(encode_state(&setup, &pos)).unwrap_or_default()
}

fn decode_state(
    dto: &StateDto,
    field: &str,
    limits: &Limits,
) -> Result<(Setup, Position), ApiError> {
    let too_big = |detail: String| ApiError::LimitExceeded {
        detail,
        field: field.to_owned(),
    };
    if dto.tanks.len() > limits.tank_war_max_tanks {
        return Err(too_big(format!(
            "{} tanks are more than this server accepts ({})",
            dto.tanks.len(),
            limits.tank_war_max_tanks
        )));
    }
    if let Some(tank) = dto
        .tanks
        .iter()
        .find(|t| t.track.len() > limits.tank_war_max_track)
    {
        return Err(too_big(format!(
            "the track of {} has {} squares, more than this server accepts ({})",
            tank.name,
            tank.track.len(),
            limits.tank_war_max_track
        )));
    }
    let data = StateData {
        rows: dto.rows,
        cols: dto.cols,
        territory: dto.territory.clone(),
        tanks: dto
            .tanks
            .iter()
            .map(|t| TankData {
                owner: t.owner.into(),
                name: t.name.clone(),
                kind: match t.kind {
                    TankTypeName::A => TankType::A,
                    TankTypeName::B => TankType::B,
                    TankTypeName::C => TankType::C,
                },
                track: t.track.clone(),
                at: t.at,
            })
            .collect(),
        round: dto.round,
        clock_ms: [dto.clock_ms.u, dto.clock_ms.d],
    };
    Setup::from_data(&data).map_err(|e| ApiError::InvalidPosition {
        detail: e.to_string(),
        field: field.to_owned(),
    })
}

fn encode_state(setup: &Setup, pos: &Position) -> StateDto {
    let data = setup.to_data(pos);
    StateDto {
        rows: data.rows,
        cols: data.cols,
        territory: data.territory,
        tanks: data
            .tanks
            .into_iter()
            .map(|t| TankDto {
                owner: t.owner.into(),
                name: t.name,
                kind: match t.kind {
                    TankType::A => TankTypeName::A,
                    TankType::B => TankTypeName::B,
                    TankType::C => TankTypeName::C,
                },
                track: t.track,
                at: t.at,
            })
            .collect(),
        round: data.round,
        clock_ms: Clocks {
            u: data.clock_ms[0],
            d: data.clock_ms[1],
        },
    }
}

fn tank_name(setup: &Setup, id: usize) -> String {
    setup
        .tanks
        .get(id)
        .map(|t| t.name.clone())
        .unwrap_or_default()
}

fn tank_owner(setup: &Setup, id: usize) -> PlayerName {
    setup
        .tanks
        .get(id)
        .map_or(PlayerName::U, |t| t.owner.into())
}

/// `after` is the position after the round: tanks fire from the squares
/// they moved to.
fn encode_event(setup: &Setup, after: &Position, event: Event) -> EventDto {
    match event {
        Event::Timeout { player } => EventDto::Timeout {
            player: player.into(),
        },
        Event::Moved { tank, from, to } => EventDto::Move {
            player: tank_owner(setup, tank),
            tank: tank_name(setup, tank),
            from: from.to_string(),
            to: to.to_string(),
        },
        Event::Blocked { tank, from, to } => EventDto::Blocked {
            player: tank_owner(setup, tank),
            tank: tank_name(setup, tank),
            from: from.to_string(),
            to: to.to_string(),
        },
        Event::Destroyed { tank, at, by } => EventDto::Destroyed {
            player: tank_owner(setup, tank),
            tank: tank_name(setup, tank),
            square: at.to_string(),
            by: by
                .into_iter()
                .map(|shooter| TankRef {
                    player: tank_owner(setup, shooter),
                    tank: tank_name(setup, shooter),
                    square: setup
                        .square(after, shooter)
                        .map(|c| c.to_string())
                        .unwrap_or_default(),
                })
                .collect(),
        },
    }
}

fn status(outcome: Option<Outcome>) -> (bool, Option<PlayerName>, bool, Option<EndReasonName>) {
    match outcome {
        None => (false, None, false, None),
        Some(o) => (
            true,
            o.winner.map(PlayerName::from),
            o.winner.is_none(),
            Some(match o.reason {
                engine::EndReason::NoMoves => EndReasonName::NoMoves,
                engine::EndReason::Time => EndReasonName::Time,
            }),
        ),
    }
}

fn score_response(setup: &Setup, pos: &Position) -> ScoreResponse {
    let (finished, winner, draw, reason) = status(engine::outcome(setup, pos));
    ScoreResponse {
        finished,
        winner,
        draw,
        reason,
        surviving: PerPlayer {
            u: engine::surviving(setup, pos, Player::U),
            d: engine::surviving(setup, pos, Player::D),
        },
        territory: PerPlayer {
            u: engine::territory(pos, Player::U),
            d: engine::territory(pos, Player::D),
        },
    }
}

/// Plays a round as the rules order it: a finished game takes no round
/// (`GAME_OVER`); then the clocks are charged, and a timeout ends the game
/// without playing the picks; then both picks are checked (U's first) and
/// the round is resolved.
fn play(
    setup: &Setup,
    pos: &mut Position,
    picks: [&str; 2],
    elapsed: Option<Elapsed>,
    ply: Option<usize>,
) -> Result<Vec<EventDto>, ApiError> {
    if engine::outcome(setup, pos).is_some() {
        return Err(ApiError::IllegalPick {
            error: PickError::GameOver,
            player: Player::U,
            ply,
        });
    }
    let elapsed = elapsed.unwrap_or_default();
    let mut charged = pos.clone();
    let timeouts = engine::charge_clocks(&mut charged, [elapsed.u, elapsed.d]);
    let events = if timeouts.is_empty() {
        let mut ids = [0usize; 2];
        for (player, (slot, name)) in Player::ALL.into_iter().zip(ids.iter_mut().zip(picks)) {
            *slot = engine::check_pick(setup, pos, player, name)
                .map_err(|error| ApiError::IllegalPick { error, player, ply })?;
        }
        *pos = charged;
        engine::resolve_round(setup, pos, ids)
    } else {
        *pos = charged;
        timeouts
    };
    Ok(events
        .into_iter()
        .map(|e| encode_event(setup, pos, e))
        .collect())
}

fn sorted_names(setup: &Setup, ids: Vec<usize>) -> Vec<String> {
    let mut names: Vec<String> = ids.into_iter().map(|id| tank_name(setup, id)).collect();
    names.sort();
    names
}

// ------------------------------------------------------------ handlers ---

/// The default setup: 6x6, D owns rows 1-3 and U rows 4-6; each tank moves
/// along its column towards the other side.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_war_initial",
    responses((status = 200, description = "The default state", body = StateDto))
)]
#[get("/initial")]
async fn initial() -> web::Json<StateDto> {
    let (setup, pos) = engine::default_state();
    web::Json(encode_state(&setup, &pos))
}

/// The tanks each player may pick this round (rule 2), sorted by name;
/// none when the game is over.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_war_legal_moves",
    request_body = LegalMovesRequest,
    responses(
        (status = 200, description = "Pickable tanks by player", body = LegalMovesResponse),
        (status = 400, description = "`BAD_REQUEST`, `INVALID_POSITION` or `LIMIT_EXCEEDED` (state too large)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/legal-moves")]
async fn legal_moves(
    body: ApiJson<LegalMovesRequest>,
    limits: web::Data<Limits>,
) -> Result<web::Json<LegalMovesResponse>, ApiError> {
    run_legal_moves(body.0, &limits).map(web::Json)
}

/// `legal-moves`: the pickable tanks of each player, or of one.
pub fn run_legal_moves(
    request: LegalMovesRequest,
    limits: &Limits,
) -> Result<LegalMovesResponse, ApiError> {
    let (setup, pos) = decode_state(&request.state, "state", limits)?;
    let wanted = |p: PlayerName| request.player.is_none_or(|asked| asked == p);
    let list = |p: Player| sorted_names(&setup, engine::pickable(&setup, &pos, p));
    Ok(LegalMovesResponse {
        u: wanted(PlayerName::U).then(|| list(Player::U)),
        d: wanted(PlayerName::D).then(|| list(Player::D)),
    })
}

/// Whether the given picks are legal; each illegal one gets a reason.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_war_validate",
    request_body = ValidateRequest,
    responses(
        (status = 200, description = "Legal, or the reasons", body = ValidateResponse),
        (status = 400, description = "`BAD_REQUEST` (no pick given) or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/validate")]
async fn validate(
    body: ApiJson<ValidateRequest>,
    limits: web::Data<Limits>,
) -> Result<web::Json<ValidateResponse>, ApiError> {
    run_validate(body.0, &limits).map(web::Json)
}

/// `validate`: whether the picks are legal, with a reason for each that is
/// not.
pub fn run_validate(
    request: ValidateRequest,
    limits: &Limits,
) -> Result<ValidateResponse, ApiError> {
    let (setup, pos) = decode_state(&request.state, "state", limits)?;
    let picks = [
        (PlayerName::U, request.moves.u),
        (PlayerName::D, request.moves.d),
    ];
    if picks.iter().all(|(_, p)| p.is_none()) {
        return Err(ApiError::bad_request(
            "`moves` must name a pick for U, D or both",
            Some("moves".to_owned()),
        ));
    }
    let mut reasons = BTreeMap::new();
    for (player, pick) in picks {
        if let Some(name) = pick {
            if let Err(e) = engine::check_pick(&setup, &pos, player.into(), &name) {
                reasons.insert(player, PickReason::from(e));
            }
        }
    }
    Ok(ValidateResponse {
        legal: reasons.is_empty(),
        reasons,
    })
}

/// Plays one round: both picks move at once (a contested square goes to
/// its owner), then every tank fires at once.
///
/// `elapsed_ms` is charged to the clocks first: a player whose clock falls
/// to 0 or below loses (both: a draw) and the round is not played.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_war_apply",
    request_body = ApplyRequest,
    responses(
        (status = 200, description = "The state after the round and the events", body = ApplyResponse),
        (status = 400, description = "`BAD_REQUEST`, `INVALID_POSITION` or `LIMIT_EXCEEDED` (state too large)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A pick is illegal: `code` (`GAME_OVER`, `NO_SUCH_TANK`, `END_OF_TRACK`, `SQUARE_OCCUPIED`) and `player` (U's is checked first)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/apply")]
async fn apply(
    body: ApiJson<ApplyRequest>,
    limits: web::Data<Limits>,
) -> Result<web::Json<ApplyResponse>, ApiError> {
    run_apply(body.0, &limits).map(web::Json)
}

/// `apply`: the state after a round, and its events.
pub fn run_apply(request: ApplyRequest, limits: &Limits) -> Result<ApplyResponse, ApiError> {
    let (setup, mut pos) = decode_state(&request.state, "state", limits)?;
    let events = play(
        &setup,
        &mut pos,
        [&request.moves.u, &request.moves.d],
        request.elapsed_ms,
        None,
    )?;
    let (finished, winner, draw, reason) = status(engine::outcome(&setup, &pos));
    Ok(ApplyResponse {
        state: encode_state(&setup, &pos),
        events,
        finished,
        winner,
        draw,
        reason,
    })
}

/// Surviving tanks, owned squares, and whether (and how) the game is over.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_war_score",
    request_body = StateRequest,
    responses(
        (status = 200, description = "How the game stands", body = ScoreResponse),
        (status = 400, description = "`BAD_REQUEST`, `INVALID_POSITION` or `LIMIT_EXCEEDED` (state too large)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/score")]
async fn score(
    body: ApiJson<StateRequest>,
    limits: web::Data<Limits>,
) -> Result<web::Json<ScoreResponse>, ApiError> {
    run_score(body.0, &limits).map(web::Json)
}

/// `score`: how the game stands.
pub fn run_score(request: StateRequest, limits: &Limits) -> Result<ScoreResponse, ApiError> {
    let (setup, pos) = decode_state(&request.state, "state", limits)?;
    Ok(score_response(&setup, &pos))
}

/// Replays rounds from a start state (the default setup when absent).
///
/// The first illegal round is a 422 with `ply`, its 0-based index.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_war_replay",
    request_body = ReplayRequest,
    responses(
        (status = 200, description = "The state after each round and the final standing", body = ReplayResponse),
        (status = 400, description = "`BAD_REQUEST`, `INVALID_POSITION` or `LIMIT_EXCEEDED` (state too large)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A pick is illegal: `code`, `player` and `ply`", body = Problem, content_type = "application/problem+json"),
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
    let (setup, mut pos) = match &request.start {
        Some(start) => decode_state(start, "start", limits)?,
        None => engine::default_state(),
    };
    let mut states = Vec::with_capacity(request.rounds.len());
    for (ply, round) in request.rounds.iter().enumerate() {
        play(
            &setup,
            &mut pos,
            [&round.u, &round.d],
            round.elapsed_ms,
            Some(ply),
        )?;
        states.push(encode_state(&setup, &pos));
    }
    Ok(ReplayResponse {
        states,
        final_state: score_response(&setup, &pos),
    })
}

/// Suggests a pick for one player: a simultaneous-move search.
///
/// Each round ahead is a zero-sum matrix game over both players' picks,
/// solved for mixed strategies (exact saddle points, else regret
/// matching+); iterative deepening within the limits. The answer is the
/// whole mixed strategy and a pick drawn from it with `seed`. Cached like
/// Tank Battle's AI.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_war_ai_move",
    request_body = AiMoveRequest,
    responses(
        (status = 200, description = "The pick, the strategy and the value", body = AiMoveResponse),
        (status = 400, description = "`BAD_REQUEST`, `INVALID_POSITION` or `LIMIT_EXCEEDED` (state too large)", body = Problem, content_type = "application/problem+json"),
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

/// `ai-move`: the AI's pick, from the cache or a search in a slot.
pub async fn run_ai_move(
    request: AiMoveRequest,
    limits: &Limits,
    cache: &AnswerCache<AiMoveResponse>,
    slots: &SearchSlots,
) -> Result<AiMoveResponse, ApiError> {
    let (setup, pos) = decode_state(&request.state, "state", limits)?;
    let player: Player = request.player.into();
    let game_over = || ApiError::IllegalPick {
        error: PickError::GameOver,
        player,
        ply: None,
    };
    if engine::outcome(&setup, &pos).is_some() {
        return Err(game_over());
    }
    let budget = request.limits.unwrap_or_default().budget(limits);
    let seed = request.seed.unwrap_or(0);
    let canonical = serde_json::to_string(&encode_state(&setup, &pos)).unwrap_or_default();
    let key = cache_key(
        ai::ENGINE_VERSION,
        &format_args!("{player}|{canonical}"),
        &budget,
        seed,
    );
    let search_limits = ai::SearchLimits {
        max_time: Some(std::time::Duration::from_millis(budget.time_ms)),
        max_depth: budget.depth,
        max_nodes: budget.nodes,
    };
    let answer = cached_search(cache, key, slots, limits, move || {
        let result = ai::search(&setup, &pos, player, search_limits, seed)?;
        Some(AiMoveResponse {
            pick: tank_name(&setup, result.pick),
            strategy: result
                .strategy
                .iter()
                .map(|&(id, probability)| StrategyEntry {
                    pick: tank_name(&setup, id),
                    probability,
                })
                .collect(),
            value: result.value,
            depth: result.depth,
            nodes: result.nodes,
            time_ms: result.elapsed.as_millis() as u64,
            cached: false,
        })
    })
    .await?;
    answer.ok_or_else(game_over)
}

impl CachedAnswer for AiMoveResponse {
    fn mark_cached(&mut self) {
        self.cached = true;
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
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
    operation_id = "tank_war_batch",
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
        "legal-moves" => to_json(run_legal_moves(decode(fields)?, limits)),
        "validate" => to_json(run_validate(decode(fields)?, limits)),
        "apply" => to_json(run_apply(decode(fields)?, limits)),
        "score" => to_json(run_score(decode(fields)?, limits)),
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
    #[param(example = json!(r#"{"rows":6,"cols":6,"territory":["UUUUUU","UUUUUU","UUUUUU","DDDDDD","DDDDDD","DDDDDD"],"tanks":[{"owner":"U","name":"LA","type":"A","track":["e6","e5","e4","e3","e2","e1"],"at":0},{"owner":"D","name":"RC","type":"C","track":["f1","f2","f3","f4","f5","f6"],"at":1}]}"#))]
    pub state: Option<String>,
}

/// The board as an SVG picture: territory shading, each tank's track, the
/// tanks in their owner's colour with their type letter and name, file and
/// row labels, the round and the clocks.
///
/// ![The default setup](/v1/tank-war/render.svg)
///
/// The picture depends only on the query, so it carries an `ETag` and
/// `Cache-Control: public, max-age=86400`; `If-None-Match` gets a 304.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_war_render",
    params(RenderQuery),
    responses(
        (status = 200, description = "The picture", body = String, content_type = "image/svg+xml",
         headers(("ETag" = String, description = "Strong tag of the picture"), ("Cache-Control" = String))),
        (status = 304, description = "The client's copy (`If-None-Match`) is current"),
        (status = 400, description = "`BAD_REQUEST` (`state` is not a state's JSON), `INVALID_POSITION` or `LIMIT_EXCEEDED`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/render.svg")]
async fn render(
    request: HttpRequest,
    query: web::Query<RenderQuery>,
    limits: web::Data<Limits>,
) -> Result<HttpResponse, ApiError> {
    let (setup, pos) = match &query.state {
        Some(text) => {
            let dto: StateDto = super::json::parse_param(text, "state")?;
            decode_state(&dto, "state", &limits)?
        }
        None => engine::default_state(),
    };
    Ok(super::svg::respond(
        &request,
        crate::render::tank_war(&setup, &pos),
    ))
}
