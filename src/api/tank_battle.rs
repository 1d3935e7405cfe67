//! `/v1/tank-battle`: the HTTP face of the Tank Battle engine. Handlers
//! decode the request, call the engine, and encode the answer; the rules
//! live in `games::tank_battle`.

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
use crate::games::tank_battle::ai;
use crate::games::tank_battle::{
    self as engine, perft, IllegalMove, Layout, Move, MoveText, Outcome, Position, Role, Score,
    Side, SideScore, Square,
};
use crate::limits::{Limits, SearchSlots};

/// Path of this game's routes.
pub const SCOPE: &str = "/v1/tank-battle";
pub const TAG: &str = "tank-battle";

/// Registers the Tank Battle routes.
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(initial)
        .service(legal_moves)
        .service(validate)
        .service(apply)
        .service(score_position)
        .service(replay)
        .service(perft_count)
        .service(ai_move)
        .service(batch)
        .service(render);
}

// ---------------------------------------------------------------- DTOs ---

/// A side of Tank Battle.
#[derive(Clone, Copy, Debug, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SideName {
    White,
    Black,
}

impl From<Side> for SideName {
    fn from(side: Side) -> SideName {
        match side {
            Side::White => SideName::White,
            Side::Black => SideName::Black,
        }
    }
}

/// Query of `initial`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct InitialQuery {
    /// `standard` (the default) or 11 rows of layout notation, rank 11
    /// first, separated by `/`.
    #[param(example = "standard")]
    pub layout: Option<String>,
}

/// Query of `render.svg`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct RenderQuery {
    /// The position in TBN; the layout's start position when absent.
    #[param(example = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0")]
    pub position: Option<String>,
    /// `standard` (the default) or layout notation.
    #[param(example = "standard")]
    pub layout: Option<String>,
    /// The move that led to the position, drawn as an arrow (not checked
    /// against the position before it).
    #[param(example = "k3-k4")]
    pub last_move: Option<String>,
    /// A square: its tank is framed and a dot marks each of its legal
    /// moves (none when it holds no tank of the side to move).
    #[param(example = "j4")]
    pub moves_from: Option<String>,
}

/// The start position of a layout.
#[derive(Debug, Serialize, ToSchema)]
pub struct InitialResponse {
    /// TBN of the start position: commanders on their commander starts,
    /// normal tanks on the other base squares, White to move.
    #[schema(example = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0")]
    pub position: String,
    /// The layout in layout notation (11 rows, rank 11 first).
    #[schema(
        example = "Bbbbb....../bbbb..#..../bbb..#...../bb.#....#../....~~~..../.#..~~~..#./....~~~..../..#....#.ww/.....#..www/....#..wwww/......wwwwW"
    )]
    pub layout: String,
}

/// A position and its layout.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "position": engine::INITIAL_TBN,
    "layout": "standard"
}))]
pub struct PositionRequest {
    /// Position in TBN: `<placement> <side> <ply>`.
    pub position: String,
    /// `standard` (default when absent) or 11 rows of layout notation.
    #[serde(default)]
    pub layout: Option<String>,
}

/// A position, its layout, and optionally one tank to list moves for.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "position": engine::INITIAL_TBN,
    "layout": "standard",
    "from": "j4"
}))]
pub struct LegalMovesRequest {
    /// Position in TBN: `<placement> <side> <ply>`.
    pub position: String,
    /// `standard` (default when absent) or 11 rows of layout notation.
    #[serde(default)]
    pub layout: Option<String>,
    /// Only list the moves of the tank on this square (e.g. `j4`).
    #[serde(default)]
    pub from: Option<String>,
}

/// One legal move.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveEntry {
    /// Canonical notation: `from-to`, or `fromxto` for a capture.
    #[serde(rename = "move", serialize_with = "move_text")]
    #[schema(value_type = String, example = "j4-j5")]
    pub notation: Move,
    #[serde(serialize_with = "square_text")]
    #[schema(value_type = String, example = "j4")]
    pub from: Square,
    #[serde(serialize_with = "square_text")]
    #[schema(value_type = String, example = "j5")]
    pub to: Square,
    /// Whether the move removes an enemy tank.
    pub capture: bool,
}

/// Notation straight into the JSON output: no `String`, no formatting
/// machinery (legal-moves writes dozens of these per answer).
fn square_text<S: serde::Serializer>(square: &Square, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(square.name())
}

fn move_text<S: serde::Serializer>(mv: &Move, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(mv.notation(&mut [0; 7]))
}

impl From<Move> for MoveEntry {
    fn from(mv: Move) -> MoveEntry {
        MoveEntry {
            notation: mv,
            from: mv.from,
            to: mv.to,
            capture: mv.is_capture(),
        }
    }
}

/// The legal moves, sorted by `from` (file, then rank), then by `to`.
#[derive(Debug, Serialize, ToSchema)]
pub struct LegalMovesResponse {
    pub moves: Vec<MoveEntry>,
    /// Number of moves listed.
    #[schema(example = 45)]
    pub count: usize,
}

impl LegalMovesResponse {
    /// The answer's JSON, byte for byte what serde writes, written
    /// directly: square names and move notation are ASCII letters, digits,
    /// `-` and `x`, so nothing needs escaping, and this hot path (dozens
    /// of moves an answer) skips serde's per-string escaping loop.
    pub fn to_json(&self) -> Vec<u8> {
        const ENTRY: usize = r#"{"move":"a11xk11","from":"a11","to":"k11","capture":false},"#.len();
        let mut out = Vec::with_capacity(32 + ENTRY * self.moves.len());
        out.extend_from_slice(b"{\"moves\":[");
        for (i, entry) in self.moves.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            for (key, value) in [
                (&b"{\"move\":\""[..], entry.notation.notation(&mut [0; 7])),
                (b"\",\"from\":\"", entry.from.name()),
                (b"\",\"to\":\"", entry.to.name()),
            ] {
                out.extend_from_slice(key);
                out.extend_from_slice(value.as_bytes());
            }
            out.extend_from_slice(if entry.capture {
                b"\",\"capture\":true}"
            } else {
                b"\",\"capture\":false}"
            });
        }
        out.extend_from_slice(b"],\"count\":");
        out.extend_from_slice(self.count.to_string().as_bytes());
        out.push(b'}');
        out
    }
}

/// A position, its layout and a move.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "position": engine::INITIAL_TBN,
    "layout": "standard",
    "move": "j4-j5"
}))]
pub struct MoveRequest {
    /// Position in TBN: `<placement> <side> <ply>`.
    pub position: String,
    /// `standard` (default when absent) or 11 rows of layout notation.
    #[serde(default)]
    pub layout: Option<String>,
    /// Two squares with `-`, `x` or nothing between them, either case:
    /// `j4-j5`, `d10xd4`, `J4J5`.
    #[serde(rename = "move")]
    pub notation: String,
}

/// Why a move is illegal.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReasonBody {
    /// Stable reason code, the first that applies in the order of SPEC 2.6:
    /// `GAME_OVER`, `NO_TANK_AT_FROM`, `NOT_YOUR_TANK`, `NOT_A_LINE`, `MINE`,
    /// `CONTAMINATED`, `LOCKED_IN_ENEMY_BASE`, `PATH_BLOCKED`,
    /// `OWN_TANK_AT_TO`, `CAPTURE_IN_CONTAMINATED`.
    #[schema(example = "CONTAMINATED")]
    pub code: String,
    /// The rule in words.
    #[schema(example = "only a commander may enter or pass a contaminated square (g7)")]
    pub message: String,
    /// The square where the move failed: the walked square for path reasons,
    /// `from` for `NO_TANK_AT_FROM` and `NOT_YOUR_TANK`; absent for
    /// `GAME_OVER` and `NOT_A_LINE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "g7")]
    pub square: Option<String>,
}

impl From<IllegalMove> for ReasonBody {
    fn from(err: IllegalMove) -> ReasonBody {
        ReasonBody {
            code: err.reason.code().to_owned(),
            message: err.message(),
            square: err.square.map(|sq| sq.to_string()),
        }
    }
}

/// Whether a move is legal: `{"legal":true,"move"}` or
/// `{"legal":false,"reason"}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ValidateResponse {
    pub legal: bool,
    /// The move in canonical notation, when legal.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    #[schema(example = "j4-j5")]
    pub notation: Option<String>,
    /// The first rule the move breaks, when illegal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<ReasonBody>,
}

/// The tank a capture removed.
#[derive(Debug, Serialize, ToSchema)]
pub struct Captured {
    #[schema(example = "d4")]
    pub square: String,
    pub kind: TankKind,
    /// The side the captured tank belonged to.
    pub side: SideName,
}

/// The kind of a tank.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TankKind {
    Tank,
    Commander,
}

impl From<Role> for TankKind {
    fn from(role: Role) -> TankKind {
        match role {
            Role::Tank => TankKind::Tank,
            Role::Commander => TankKind::Commander,
        }
    }
}

/// Both sides' current score (rule 8).
#[derive(Debug, Serialize, ToSchema)]
pub struct ScorePair {
    #[schema(example = 14)]
    pub white: u32,
    #[schema(example = 14)]
    pub black: u32,
}

/// The position after a move, and the game's state there.
#[derive(Debug, Serialize, ToSchema)]
pub struct ApplyResponse {
    /// TBN after the move (canonical).
    #[schema(example = "ctttt6/tttt7/ttt8/tt9/11/11/9T1/10T/8TTT/7TTTT/6TTTTC b 1")]
    pub position: String,
    /// The move in canonical notation.
    #[serde(rename = "move")]
    #[schema(example = "j4-j5")]
    pub notation: String,
    /// The captured tank, or null.
    pub captured: Option<Captured>,
    /// Whether the game is over after the move (rule 7).
    pub finished: bool,
    /// The winner of a finished game by score; null while it goes on or on
    /// a draw.
    pub winner: Option<SideName>,
    /// Whether a finished game is drawn (equal scores).
    pub draw: bool,
    pub score: ScorePair,
}

/// Points of one side by source; they add up to its score.
#[derive(Debug, Serialize, ToSchema)]
pub struct Breakdown {
    /// 3 if its commander stands on the opponent's commander start, else 0.
    pub commander_on_start: u32,
    /// 2 if its commander stands elsewhere in the opponent's base, else 0.
    pub commander_in_base: u32,
    /// 2 points per normal tank in the opponent's base.
    pub tanks_in_base: u32,
    /// 1 point per other surviving tank (the commander included).
    pub tanks_on_field: u32,
}

impl From<SideScore> for Breakdown {
    fn from(s: SideScore) -> Breakdown {
        Breakdown {
            commander_on_start: s.commander_on_start,
            commander_in_base: s.commander_in_base,
            tanks_in_base: s.tanks_in_base,
            tanks_on_field: s.tanks_on_field,
        }
    }
}

/// Breakdown of both sides' points.
#[derive(Debug, Serialize, ToSchema)]
pub struct BreakdownPair {
    pub white: Breakdown,
    pub black: Breakdown,
}

/// The score of a position and whether (and how) the game is over.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreResponse {
    pub score: ScorePair,
    /// Whether the game is over (rule 7).
    pub finished: bool,
    /// Winner of a finished game; null while it goes on or on a draw.
    pub winner: Option<SideName>,
    /// Whether a finished game is drawn.
    pub draw: bool,
    pub breakdown: BreakdownPair,
}

/// A game to replay: a start position and moves.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "layout": "standard",
    "moves": ["k4-k5", "a8-a7", "k5-k6"]
}))]
pub struct ReplayRequest {
    /// Start position in TBN; the layout's initial position when absent.
    #[serde(default)]
    pub start: Option<String>,
    /// `standard` (default when absent) or 11 rows of layout notation.
    #[serde(default)]
    pub layout: Option<String>,
    /// Moves in order, in move notation.
    pub moves: Vec<String>,
}

/// The positions a game passed through.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayResponse {
    /// TBN after each move, in order.
    pub positions: Vec<String>,
    /// Score and state of the last position.
    #[serde(rename = "final")]
    pub final_state: ScoreResponse,
}

/// A perft request.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "position": engine::INITIAL_TBN,
    "layout": "standard",
    "depth": 3,
    "divide": true
}))]
pub struct PerftRequest {
    /// Position in TBN: `<placement> <side> <ply>`.
    pub position: String,
    /// `standard` (default when absent) or 11 rows of layout notation.
    #[serde(default)]
    pub layout: Option<String>,
    /// Depth in plies, 0 up to the server's cap (default 5).
    #[schema(example = 3)]
    pub depth: u32,
    /// Also report the count below each legal move.
    #[serde(default)]
    pub divide: bool,
}

/// Leaf count of the legal-move tree.
#[derive(Debug, Serialize, ToSchema)]
pub struct PerftResponse {
    /// perft(depth): 1 at depth 0; 0 for a finished position at depth 1 or
    /// more; else the sum over legal moves of the child's perft(depth - 1).
    #[schema(example = 108097)]
    pub nodes: u64,
    /// When asked: perft(depth - 1) below each legal move, keyed by its
    /// canonical notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = json!({"j4-j5": 2350, "k4-k5": 2401}))]
    pub divide: Option<BTreeMap<String, u64>>,
}

/// A position to find a move for.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "position": engine::INITIAL_TBN,
    "layout": "standard",
    "limits": {"max_depth": 4},
    "seed": 1
}))]
pub struct AiMoveRequest {
    /// Position in TBN: `<placement> <side> <ply>`.
    pub position: String,
    /// `standard` (default when absent) or 11 rows of layout notation.
    #[serde(default)]
    pub layout: Option<String>,
    #[serde(default)]
    pub limits: Option<AiLimits>,
    /// Breaks ties between equally good moves; 0 when absent.
    #[serde(default)]
    #[schema(example = 1)]
    pub seed: Option<u64>,
}

/// The AI's move and what the search saw.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct AiMoveResponse {
    /// The chosen move, canonical notation.
    #[serde(rename = "move")]
    #[schema(example = "k4-k9")]
    pub notation: String,
    /// Value for the side to move in centipoints (100 = one point of the
    /// rule-8 score, with progress towards the enemy base counted in
    /// fractions). Near ±1000000: a forced win or loss, 1000000 minus the
    /// plies to the end.
    #[schema(example = 38)]
    pub evaluation: i32,
    /// The last depth (plies) the search finished.
    #[schema(example = 4)]
    pub depth: u32,
    /// Positions visited.
    #[schema(example = 23817)]
    pub nodes: u64,
    /// The principal variation, starting with `move`.
    #[schema(example = json!(["k4-k9", "b8-b7", "j4-j5", "a8-a7"]))]
    pub pv: Vec<String>,
    /// Time the search took, milliseconds (of the original search when
    /// `cached`).
    #[schema(example = 12)]
    pub time_ms: u64,
    /// Whether the answer came from the cache of earlier identical
    /// requests (same layout, position, limits and seed).
    pub cached: bool,
}

batching::batch_request! {
    /// Tank Battle requests to run in one round trip, in order.
    #[schema(as = TankBattleBatchRequest)]
    BatchRequest, example = json!(batch_example())
}

fn batch_example() -> serde_json::Value {
    let position = engine::INITIAL_TBN;
    serde_json::json!({"requests": [
        {"op": "legal-moves", "position": position, "from": "j4"},
        {"op": "validate", "position": position, "move": "j4-j5"},
        {"op": "apply", "position": position, "move": "j4-j5"},
        {"op": "score", "position": position},
        {"op": "ai-move", "position": position, "limits": {"max_depth": 2}, "seed": 1},
        {"op": "apply", "position": position, "move": "a8-a7"},
    ]})
}

// ------------------------------------------------------------ decoding ---

fn decode_layout(text: Option<&str>) -> Result<Layout, ApiError> {
    match text {
        None => Ok(Layout::STANDARD),
        Some(text) => Layout::parse(text).map_err(|e| ApiError::notation(e, "layout")),
    }
}

fn decode_position(text: &str, layout: &Layout, field: &str) -> Result<Position, ApiError> {
    engine::parse_position(text, layout).map_err(|err| match err {
        engine::PositionParseError::Parse(error) => ApiError::notation(error, field),
        engine::PositionParseError::Invalid(error) => ApiError::InvalidPosition {
            detail: error.to_string(),
            field: field.to_owned(),
        },
    })
}

fn decode_move(text: &str, field: &str) -> Result<MoveText, ApiError> {
    text.parse().map_err(|e| ApiError::notation(e, field))
}

fn decode(position: &str, layout: Option<&str>) -> Result<(Layout, Position), ApiError> {
    let layout = decode_layout(layout)?;
    let position = decode_position(position, &layout, "position")?;
    Ok((layout, position))
}

fn score_pair(score: &Score) -> ScorePair {
    ScorePair {
        white: score.white.total(),
        black: score.black.total(),
    }
}

fn score_response(position: &Position, layout: &Layout) -> ScoreResponse {
    let score = position.score(layout);
    let outcome = position.outcome(layout);
    ScoreResponse {
        score: score_pair(&score),
        finished: outcome.is_some(),
        winner: outcome.and_then(Outcome::winner).map(SideName::from),
        draw: outcome == Some(Outcome::Draw),
        breakdown: BreakdownPair {
            white: score.white.into(),
            black: score.black.into(),
        },
    }
}

// ------------------------------------------------------------ handlers ---

/// The start position of a layout.
///
/// Commanders stand on their commander starts and normal tanks on every
/// other square of their base; White moves first.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_battle_initial",
    params(InitialQuery),
    responses(
        (status = 200, description = "The start position", body = InitialResponse),
        (status = 400, description = "`BAD_LAYOUT`, or an unknown query parameter (`BAD_REQUEST`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/initial")]
async fn initial(query: web::Query<InitialQuery>) -> Result<web::Json<InitialResponse>, ApiError> {
    let layout = decode_layout(query.layout.as_deref())?;
    Ok(web::Json(InitialResponse {
        position: Position::initial(&layout).to_string(),
        layout: layout.to_string(),
    }))
}

/// Every legal move of the side to move.
///
/// Sorted by `from` square (file, then rank), then by `to`. A finished
/// position has no legal moves. With `from`, only that tank's moves.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_battle_legal_moves",
    request_body = LegalMovesRequest,
    responses(
        (status = 200, description = "The legal moves", body = LegalMovesResponse),
        (status = 400, description = "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT`, `BAD_MOVE_NOTATION` (for `from`) or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/legal-moves")]
async fn legal_moves(body: ApiJson<LegalMovesRequest>) -> Result<HttpResponse, ApiError> {
    let answer = run_legal_moves(body.0)?;
    Ok(HttpResponse::Ok()
        .content_type(actix_web::http::header::ContentType::json())
        .body(answer.to_json()))
}

/// `legal-moves`: the legal moves, optionally of one tank.
pub fn run_legal_moves(request: LegalMovesRequest) -> Result<LegalMovesResponse, ApiError> {
    let (layout, position) = decode(&request.position, request.layout.as_deref())?;
    let from = match request.from.as_deref() {
        Some(text) => Some(
            text.parse::<Square>()
                .map_err(|e| ApiError::notation(e, "from"))?,
        ),
        None => None,
    };
    let mut moves = position.legal_moves_file_major(&layout);
    if let Some(from) = from {
        moves.retain(|mv| mv.from == from);
    }
    Ok(LegalMovesResponse {
        count: moves.len(),
        moves: moves.into_iter().map(MoveEntry::from).collect(),
    })
}

/// Whether a move is legal, and if not, the first rule it breaks.
///
/// Reasons are checked in the order of SPEC 2.6; `square` names where the
/// move failed.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_battle_validate",
    request_body = MoveRequest,
    responses(
        (status = 200, description = "Legal, with the canonical move; or illegal, with the reason", body = ValidateResponse),
        (status = 400, description = "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT`, `BAD_MOVE_NOTATION` or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/validate")]
async fn validate(body: ApiJson<MoveRequest>) -> Result<web::Json<ValidateResponse>, ApiError> {
    run_validate(body.0).map(web::Json)
}

/// `validate`: whether a move is legal, or the first rule it breaks.
pub fn run_validate(request: MoveRequest) -> Result<ValidateResponse, ApiError> {
    let (layout, position) = decode(&request.position, request.layout.as_deref())?;
    let text = decode_move(&request.notation, "move")?;
    Ok(match position.validate(&layout, text) {
        Ok(mv) => ValidateResponse {
            legal: true,
            notation: Some(mv.to_string()),
            reason: None,
        },
        Err(err) => ValidateResponse {
            legal: false,
            notation: None,
            reason: Some(err.into()),
        },
    })
}

/// Plays a move: the position after it, the capture, and the game state.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_battle_apply",
    request_body = MoveRequest,
    responses(
        (status = 200, description = "The position after the move", body = ApplyResponse),
        (status = 400, description = "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT`, `BAD_MOVE_NOTATION` or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The move is illegal: `code` is the reason (e.g. `PATH_BLOCKED`, `GAME_OVER`) and `square` where it failed", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/apply")]
async fn apply(body: ApiJson<MoveRequest>) -> Result<web::Json<ApplyResponse>, ApiError> {
    run_apply(body.0).map(web::Json)
}

/// `apply`: the position after a legal move.
pub fn run_apply(request: MoveRequest) -> Result<ApplyResponse, ApiError> {
    let (layout, position) = decode(&request.position, request.layout.as_deref())?;
    let text = decode_move(&request.notation, "move")?;
    let (next, mv) = position
        .play(&layout, text)
        .map_err(|error| ApiError::IllegalMove {
            error,
            ply: None,
            field: "move".to_owned(),
        })?;
    let outcome = next.outcome(&layout);
    Ok(ApplyResponse {
        position: next.to_string(),
        notation: mv.to_string(),
        captured: mv.capture.map(|role| Captured {
            square: mv.to.to_string(),
            kind: role.into(),
            side: (!position.turn()).into(),
        }),
        finished: outcome.is_some(),
        winner: outcome.and_then(Outcome::winner).map(SideName::from),
        draw: outcome == Some(Outcome::Draw),
        score: score_pair(&next.score(&layout)),
    })
}

/// The current score, with its breakdown, and whether the game is over.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_battle_score",
    request_body = PositionRequest,
    responses(
        (status = 200, description = "The score", body = ScoreResponse),
        (status = 400, description = "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT` or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/score")]
async fn score_position(
    body: ApiJson<PositionRequest>,
) -> Result<web::Json<ScoreResponse>, ApiError> {
    run_score(body.0).map(web::Json)
}

/// `score`: the score and whether the game is over.
pub fn run_score(request: PositionRequest) -> Result<ScoreResponse, ApiError> {
    let (layout, position) = decode(&request.position, request.layout.as_deref())?;
    Ok(score_response(&position, &layout))
}

/// Replays a whole game and checks every move.
///
/// The first unparsable move is a 400 and the first illegal one a 422, both
/// with `ply`, the 0-based index into `moves`.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_battle_replay",
    request_body = ReplayRequest,
    responses(
        (status = 200, description = "The position after each move and the final state", body = ReplayResponse),
        (status = 400, description = "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT`, `BAD_MOVE_NOTATION` (with `ply`), `INVALID_POSITION` or `LIMIT_EXCEEDED` (too many moves)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A move is illegal: `code` is the reason, `ply` its index in `moves`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/replay")]
async fn replay(
    body: ApiJson<ReplayRequest>,
    limits: web::Data<Limits>,
) -> Result<web::Json<ReplayResponse>, ApiError> {
    run_replay(body.0, &limits).map(web::Json)
}

/// `replay`: every position of a game, each move checked.
pub fn run_replay(request: ReplayRequest, limits: &Limits) -> Result<ReplayResponse, ApiError> {
    limits.check_replay(request.moves.len(), "moves")?;
    let layout = decode_layout(request.layout.as_deref())?;
    let mut position = match request.start.as_deref() {
        Some(start) => decode_position(start, &layout, "start")?,
        None => Position::initial(&layout),
    };
    let mut positions = Vec::with_capacity(request.moves.len());
    for (ply, text) in request.moves.iter().enumerate() {
        let field = format!("moves[{ply}]");
        let text = text
            .parse::<MoveText>()
            .map_err(|error| ApiError::Notation {
                error,
                field: field.clone(),
                ply: Some(ply),
            })?;
        let (next, _) = position
            .play(&layout, text)
            .map_err(|error| ApiError::IllegalMove {
                error,
                ply: Some(ply),
                field,
            })?;
        positions.push(next.to_string());
        position = next;
    }
    Ok(ReplayResponse {
        positions,
        final_state: score_response(&position, &layout),
    })
}

/// Counts the leaves of the legal-move tree (perft), optionally per move.
///
/// Depth is capped (default 5) and so is the number of positions expanded,
/// so a request cannot exhaust the server: over either limit is a 400
/// `LIMIT_EXCEEDED`.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_battle_perft",
    request_body = PerftRequest,
    responses(
        (status = 200, description = "The leaf count", body = PerftResponse),
        (status = 400, description = "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT`, `INVALID_POSITION` or `LIMIT_EXCEEDED`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "`SERVICE_BUSY`: every search slot is taken; retry after `Retry-After` seconds", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/perft")]
async fn perft_count(
    body: ApiJson<PerftRequest>,
    limits: web::Data<Limits>,
    slots: web::Data<SearchSlots>,
) -> Result<web::Json<PerftResponse>, ApiError> {
    run_perft(body.0, &limits, &slots).await.map(web::Json)
}

/// `perft`: the leaf count, in a search slot off the request threads.
pub async fn run_perft(
    request: PerftRequest,
    limits: &Limits,
    slots: &SearchSlots,
) -> Result<PerftResponse, ApiError> {
    let (layout, position) = decode(&request.position, request.layout.as_deref())?;
    if request.depth > limits.perft_max_depth {
        return Err(ApiError::LimitExceeded {
            detail: format!(
                "depth {} is over this server's perft cap of {}",
                request.depth, limits.perft_max_depth
            ),
            field: "depth".to_owned(),
        });
    }
    let budget = limits.perft_max_nodes;
    let (depth, want_divide) = (request.depth, request.divide);
    let slot = ApiError::take_slot(slots, limits).await?;
    let counted = web::block(move || {
        let _slot = slot;
        if want_divide {
            perft::divide(&position, &layout, depth, budget).map(|parts| {
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
            })
        } else {
            perft::perft_budgeted(&position, &layout, depth, budget).map(|nodes| (nodes, None))
        }
    })
    .await
    .map_err(|e| ApiError::Internal(format!("perft worker failed: {e}")))?;
    let (nodes, divide) = counted.map_err(|e| ApiError::LimitExceeded {
        detail: format!("{e}; ask for a smaller depth"),
        field: "depth".to_owned(),
    })?;
    Ok(PerftResponse { nodes, divide })
}

/// Suggests a move for the side to move.
///
/// An iterative-deepening alpha-beta search, bounded by time, depth and
/// nodes (each capped by the server) and run off the request threads.
/// Answers are cached: an identical request (layout, position, limits,
/// seed) is answered from the cache with `"cached": true`.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_battle_ai_move",
    request_body = AiMoveRequest,
    responses(
        (status = 200, description = "The AI's move", body = AiMoveResponse),
        (status = 400, description = "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT` or `INVALID_POSITION`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`GAME_OVER`: the position is finished", body = Problem, content_type = "application/problem+json"),
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

/// `ai-move`: the AI's move, from the cache or a search in a slot.
pub async fn run_ai_move(
    request: AiMoveRequest,
    limits: &Limits,
    cache: &AnswerCache<AiMoveResponse>,
    slots: &SearchSlots,
) -> Result<AiMoveResponse, ApiError> {
    let (layout, position) = decode(&request.position, request.layout.as_deref())?;
    let game_over = || ApiError::IllegalMove {
        error: IllegalMove {
            reason: engine::Reason::GameOver,
            square: None,
        },
        ply: None,
        field: "position".to_owned(),
    };
    if position.is_finished(&layout) {
        return Err(game_over());
    }
    let budget = request.limits.unwrap_or_default().budget(limits);
    let seed = request.seed.unwrap_or(0);
    let key = cache_key(
        ai::ENGINE_VERSION,
        &format_args!("{layout}|{position}"),
        &budget,
        seed,
    );
    let search_limits = ai::SearchLimits {
        max_time: Some(std::time::Duration::from_millis(budget.time_ms)),
        max_depth: budget.depth,
        max_nodes: budget.nodes,
    };
    let answer = cached_search(cache, key, slots, limits, move || {
        let result = ai::search(&position, &layout, search_limits, seed)?;
        Some(AiMoveResponse {
            notation: result.best.to_string(),
            evaluation: result.evaluation,
            depth: result.depth,
            nodes: result.nodes,
            pv: result.pv.iter().map(Move::to_string).collect(),
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

/// The ops of `batch`: every JSON endpoint; `perft` and `ai-move` are
/// searches.
const BATCH_OPS: batching::Ops = batching::Ops {
    all: &[
        "legal-moves",
        "validate",
        "apply",
        "score",
        "replay",
        "perft",
        "ai-move",
    ],
    searches: &["perft", "ai-move"],
};

/// Runs several requests in one round trip, in order.
///
/// Each request is an object with `op` (`legal-moves`, `validate`,
/// `apply`, `score`, `replay`, `perft` or `ai-move`) and the fields of that
/// endpoint's body. Each result is what the endpoint answers: its 200 body,
/// or its problem document (`status`, `code`, …) with `field` prefixed by
/// `requests[i].` (`requests[i]` when the endpoint names none); a failed
/// request does not stop the others. A request that is not an object or
/// has no known `op` is a `BAD_REQUEST` result. `perft` and `ai-move` run
/// as their endpoints do, in the shared search slots (and, for `ai-move`,
/// through the answer cache), so a busy server answers them
/// `SERVICE_BUSY`.
///
/// A batch holds at most 256 requests (`--batch-max-requests`), at most 4
/// of them `perft` or `ai-move` (`--batch-max-searches`). With `Content-Type:
/// application/x-ndjson` the body is one request a line and the answer one
/// result a line; `i` then counts the non-blank lines.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_battle_batch",
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
        "perft" => to_json(run_perft(decode(fields)?, limits, slots).await),
        "ai-move" => to_json(run_ai_move(decode(fields)?, limits, cache, slots).await),
        _ => Err(batching::not_dispatched(op)),
    }
}

/// The board as an SVG picture: terrain in the rules' colours (blue White
/// base, green Black base, red contaminated area, black mines, a circle on
/// each commander start), the tanks (commanders with a star), file and rank
/// labels, and optionally the last move as an arrow and one tank's legal
/// moves as dots.
///
/// ![The start position, with the moves of the tank on j4](/v1/tank-battle/render.svg?moves_from=j4)
///
/// The picture depends only on the query, so it carries an `ETag` and
/// `Cache-Control: public, max-age=86400`; `If-None-Match` gets a 304.
#[utoipa::path(
    tag = TAG,
    operation_id = "tank_battle_render",
    params(RenderQuery),
    responses(
        (status = 200, description = "The picture", body = String, content_type = "image/svg+xml",
         headers(("ETag" = String, description = "Strong tag of the picture"), ("Cache-Control" = String))),
        (status = 304, description = "The client's copy (`If-None-Match`) is current"),
        (status = 400, description = "`BAD_POSITION`, `BAD_LAYOUT`, `BAD_MOVE_NOTATION` (for `last_move` or `moves_from`), `INVALID_POSITION`, or an unknown query parameter (`BAD_REQUEST`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/render.svg")]
async fn render(
    request: HttpRequest,
    query: web::Query<RenderQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let layout = decode_layout(query.layout.as_deref())?;
    let position = match query.position.as_deref() {
        Some(text) => decode_position(text, &layout, "position")?,
        None => Position::initial(&layout),
    };
    let last_move = match query.last_move.as_deref() {
        Some(text) => {
            let mv = decode_move(text, "last_move")?;
            Some(Move {
                from: mv.from,
                to: mv.to,
                capture: None,
            })
        }
        None => None,
    };
    let selected = match query.moves_from.as_deref() {
        Some(text) => Some(
            text.parse::<Square>()
                .map_err(|e| ApiError::notation(e, "moves_from"))?,
        ),
        None => None,
    };
    let moves = selected.map(|from| position.legal_moves_from(&layout, from));
    let svg = crate::render::tank_battle(
        &layout,
        &position,
        last_move,
        selected.zip(moves.as_deref()),
    );
    Ok(super::svg::respond(&request, svg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_moves_json_is_what_serde_writes() {
        let layout = Layout::STANDARD;
        let mut position = Position::initial(&layout);
        let mut captures = 0;
        for ply in 0..300 {
            let moves = position.legal_moves_file_major(&layout);
            captures += moves.iter().filter(|m| m.is_capture()).count();
            let answer = LegalMovesResponse {
                count: moves.len(),
                moves: moves.iter().copied().map(MoveEntry::from).collect(),
            };
            assert_eq!(
                String::from_utf8(answer.to_json()).unwrap(),
                serde_json::to_string(&answer).unwrap(),
                "ply {ply}"
            );
            match moves.get(ply * 7 % moves.len().max(1)) {
                Some(mv) => position.play_unchecked(*mv),
                None => break,
            }
        }
        assert!(captures > 0, "the walk met no capture");
    }
}
