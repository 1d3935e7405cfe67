//! The DTOs of `/v1/tank-battle`: request and answer bodies with their
//! field descriptions and examples, as the OpenAPI document shows them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::api::openapi::notation::{LayoutText, MoveNotation, SquareName, Tbn};
use crate::games::tank_battle::{self as engine, IllegalMove, Move, Role, Side, SideScore, Square};

/// A side of Tank Battle.
#[derive(Clone, Copy, Debug, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[schema(as = TankBattleSide)]
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
    #[param(example = "standard", value_type = Option<LayoutText>)]
    pub layout: Option<String>,
}

/// Query of `render.svg`.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct RenderQuery {
    /// The position in TBN; the layout's start position when absent.
    #[param(example = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0", value_type = Option<Tbn>)]
    pub position: Option<String>,
    /// `standard` (the default) or layout notation.
    #[param(example = "standard", value_type = Option<LayoutText>)]
    pub layout: Option<String>,
    /// The move that led to the position, drawn as an arrow (not checked
    /// against the position before it).
    #[param(example = "k3-k4", value_type = Option<MoveNotation>)]
    pub last_move: Option<String>,
    /// A square: its tank is framed and a dot marks each of its legal
    /// moves (none when it holds no tank of the side to move).
    #[param(example = "j4", value_type = Option<SquareName>)]
    pub moves_from: Option<String>,
}

/// The start position of a layout.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleInitialResponse)]
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
#[schema(as = TankBattlePositionRequest)]
pub struct PositionRequest {
    /// Position in TBN: `<placement> <side> <ply>`.
    #[schema(value_type = Tbn)]
    pub position: String,
    /// `standard` (default when absent) or 11 rows of layout notation.
    #[serde(default)]
    #[schema(value_type = Option<LayoutText>)]
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
#[schema(as = TankBattleLegalMovesRequest)]
pub struct LegalMovesRequest {
    /// Position in TBN: `<placement> <side> <ply>`.
    #[schema(value_type = Tbn)]
    pub position: String,
    /// `standard` (default when absent) or 11 rows of layout notation.
    #[serde(default)]
    #[schema(value_type = Option<LayoutText>)]
    pub layout: Option<String>,
    /// Only list the moves of the tank on this square (e.g. `j4`).
    #[serde(default)]
    #[schema(value_type = Option<SquareName>)]
    pub from: Option<String>,
}

/// One legal move.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleMoveEntry)]
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
#[schema(as = TankBattleLegalMovesResponse)]
pub struct LegalMovesResponse {
    // Each move as a `MoveEntry`, kept as the engine's moves: the answer
    // is written straight from them.
    #[serde(serialize_with = "move_entries")]
    #[schema(value_type = Vec<MoveEntry>)]
    pub moves: Vec<Move>,
    /// Number of moves listed.
    #[schema(example = 45)]
    pub count: usize,
}

fn move_entries<S: serde::Serializer>(moves: &[Move], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(moves.iter().copied().map(MoveEntry::from))
}

impl LegalMovesResponse {
    /// The answer's JSON, byte for byte what serde writes, written
    /// directly: square names and move notation are ASCII letters, digits,
    /// `-` and `x`, so nothing needs escaping, and this hot path (dozens
    /// of moves an answer) skips serde's per-string escaping loop.
    pub fn to_json(&self) -> Vec<u8> {
        // Each entry is four pieces, each a square's name with the text
        // around it, copied from tables made at compile time.
        let mut out = Vec::with_capacity(32 + MAX_ENTRY * self.moves.len() + Piece::SIZE);
        out.extend_from_slice(b"{\"moves\":[");
        for (i, mv) in self.moves.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let (from, to) = (mv.from.index(), mv.to.index());
            let capture = usize::from(mv.is_capture());
            Piece::put(&mut out, MOVE_FROM.get(from));
            Piece::put(&mut out, TO_FROM.get(capture).and_then(|t| t.get(to)));
            Piece::put(&mut out, FROM_TO.get(from));
            Piece::put(&mut out, TO_CAPTURE.get(capture).and_then(|t| t.get(to)));
        }
        out.extend_from_slice(b"],\"count\":");
        out.extend_from_slice(itoa::Buffer::new().format(self.count).as_bytes());
        out.push(b'}');
        out
    }
}

/// The longest entry of a `legal-moves` answer.
const MAX_ENTRY: usize = r#"{"move":"a11xk11","from":"a11","to":"k11","capture":false},"#.len();

/// A piece of a `legal-moves` entry: a square's name with the text around
/// it, at most [`Piece::SIZE`] bytes.
#[derive(Clone, Copy)]
struct Piece {
    text: [u8; Piece::SIZE],
    len: u8,
}

impl Piece {
    const SIZE: usize = 24;

    /// `before`, `name`, `after`, one after the other (made at compile
    /// time only: a piece too long stops the build).
    const fn new(parts: [&[u8]; 3]) -> Piece {
        let mut text = [0; Piece::SIZE];
        let mut len = 0;
        let mut part = 0;
        while part < parts.len() {
            let mut i = 0;
            while i < parts[part].len() {
                text[len] = parts[part][i];
                len += 1;
                i += 1;
            }
            part += 1;
        }
        Piece {
            text,
            len: len as u8,
        }
    }

    /// Appends `piece` (`?` for none, as [`Square::name`] says of a square
    /// off the board): all its bytes, then the ones past its length
    /// dropped, so that the copy has a fixed size (no call to `memcpy`).
    fn put(out: &mut Vec<u8>, piece: Option<&Piece>) {
        match piece {
            Some(piece) => {
                let end = out.len() + usize::from(piece.len);
                out.extend_from_slice(&piece.text);
                out.truncate(end);
            }
            None => out.push(b'?'),
        }
    }

    /// The piece of every square.
    const fn table(before: &[u8], after: &[u8]) -> [Piece; engine::SQUARES] {
        let mut table = [Piece {
            text: [0; Piece::SIZE],
            len: 0,
        }; engine::SQUARES];
        let mut index = 0;
        while index < engine::SQUARES {
            table[index] = Piece::new([before, Square::NAMES[index].as_bytes(), after]);
            index += 1;
        }
        table
    }
}

/// `{"move":"<from>`
static MOVE_FROM: [Piece; engine::SQUARES] = Piece::table(b"{\"move\":\"", b"");
/// `-<to>","from":"` and `x<to>","from":"`
static TO_FROM: [[Piece; engine::SQUARES]; 2] = [
    Piece::table(b"-", b"\",\"from\":\""),
    Piece::table(b"x", b"\",\"from\":\""),
];
/// `<from>","to":"`
static FROM_TO: [Piece; engine::SQUARES] = Piece::table(b"", b"\",\"to\":\"");
/// `<to>","capture":false}` and `<to>","capture":true}`
static TO_CAPTURE: [[Piece; engine::SQUARES]; 2] = [
    Piece::table(b"", b"\",\"capture\":false}"),
    Piece::table(b"", b"\",\"capture\":true}"),
];

/// A position, its layout and a move.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "position": engine::INITIAL_TBN,
    "layout": "standard",
    "move": "j4-j5"
}))]
#[schema(as = TankBattleMoveRequest)]
pub struct MoveRequest {
    /// Position in TBN: `<placement> <side> <ply>`.
    #[schema(value_type = Tbn)]
    pub position: String,
    /// `standard` (default when absent) or 11 rows of layout notation.
    #[serde(default)]
    #[schema(value_type = Option<LayoutText>)]
    pub layout: Option<String>,
    /// Two squares with `-`, `x` or nothing between them, either case:
    /// `j4-j5`, `d10xd4`, `J4J5`.
    #[serde(rename = "move")]
    #[schema(value_type = MoveNotation)]
    pub notation: String,
}

/// Why a move is illegal.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleReason)]
pub struct ReasonBody {
    #[schema(value_type = ReasonCode, example = "CONTAMINATED")]
    pub code: &'static str,
    /// The rule in words.
    #[schema(example = "only a commander may enter or pass a contaminated square (g7)")]
    pub message: String,
    /// The square where the move failed: the walked square for path reasons,
    /// `from` for `NO_TANK_AT_FROM` and `NOT_YOUR_TANK`; absent for
    /// `GAME_OVER` and `NOT_A_LINE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "g7", nullable = false)]
    pub square: Option<String>,
}

/// The stable code of a Tank Battle rule reason (SPEC 2.6).
pub struct ReasonCode;

impl utoipa::PartialSchema for ReasonCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::api::openapi::notation::string_enum(
            engine::Reason::ALL.map(engine::Reason::code),
            "Stable reason code, the first that applies in this order: `GAME_OVER`, \
`NO_TANK_AT_FROM`, `NOT_YOUR_TANK`, `NOT_A_LINE`, then along the path `MINE`, `CONTAMINATED`, \
`LOCKED_IN_ENEMY_BASE`, `PATH_BLOCKED`, `OWN_TANK_AT_TO`, `CAPTURE_IN_CONTAMINATED`.",
        )
    }
}

impl ToSchema for ReasonCode {
    fn name() -> std::borrow::Cow<'static, str> {
        "TankBattleReasonCode".into()
    }
}

impl From<IllegalMove> for ReasonBody {
    fn from(err: IllegalMove) -> ReasonBody {
        ReasonBody {
            code: err.reason.code(),
            message: err.message(),
            square: err.square.map(|sq| sq.to_string()),
        }
    }
}

/// `validate` and `apply` take a move.
pub type ValidateRequest = MoveRequest;
pub type ApplyRequest = MoveRequest;
/// `score` takes a position.
pub type ScoreRequest = PositionRequest;

/// Whether a move is legal: `{"legal":true,"move"}` or
/// `{"legal":false,"reason"}`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleValidateResponse)]
pub struct ValidateResponse {
    pub legal: bool,
    /// The move in canonical notation, when legal (absent when illegal).
    #[serde(
        rename = "move",
        skip_serializing_if = "Option::is_none",
        serialize_with = "some_move_text"
    )]
    #[schema(value_type = Option<String>, example = "j4-j5", nullable = false)]
    pub notation: Option<Move>,
    /// The first rule the move breaks, when illegal (absent when legal).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub reason: Option<ReasonBody>,
}

fn some_move_text<S: serde::Serializer>(
    mv: &Option<Move>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match mv {
        Some(mv) => move_text(mv, serializer),
        None => serializer.serialize_none(),
    }
}

impl ValidateResponse {
    /// The answer's JSON, byte for byte what serde writes: a legal move's
    /// (the usual answer, its notation needing no escaping) written
    /// directly, a refusal's by serde.
    pub fn to_json(&self) -> serde_json::Result<Vec<u8>> {
        match (self.legal, &self.notation, &self.reason) {
            (true, Some(mv), None) => {
                let mut out = Vec::with_capacity(32);
                out.extend_from_slice(b"{\"legal\":true,\"move\":\"");
                out.extend_from_slice(mv.notation(&mut [0; 7]).as_bytes());
                out.extend_from_slice(b"\"}");
                Ok(out)
            }
            _ => crate::api::transport::json::encode(self),
        }
    }
}

/// The tank a capture removed.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleCaptured)]
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
#[schema(as = TankBattleTankKind)]
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
#[schema(as = TankBattleScorePair)]
pub struct ScorePair {
    #[schema(example = 14)]
    pub white: u32,
    #[schema(example = 14)]
    pub black: u32,
}

/// The position after a move, and the game's state there.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleApplyResponse)]
pub struct ApplyResponse {
    /// TBN after the move (canonical).
    #[schema(example = "ctttt6/tttt7/ttt8/tt9/11/11/9T1/10T/8TTT/7TTTT/6TTTTC b 1")]
    pub position: String,
    /// The move in canonical notation.
    #[serde(rename = "move")]
    #[schema(example = "j4-j5")]
    pub notation: String,
    /// The captured tank, or null.
    #[schema(required = true)]
    pub captured: Option<Captured>,
    /// Whether the game is over after the move (rule 7).
    pub finished: bool,
    /// The winner of a finished game by score; null while it goes on or on
    /// a draw.
    #[schema(required = true)]
    pub winner: Option<SideName>,
    /// Whether a finished game is drawn (equal scores).
    pub draw: bool,
    pub score: ScorePair,
}

/// Points of one side by source; they add up to its score.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleBreakdown)]
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
#[schema(as = TankBattleBreakdownPair)]
pub struct BreakdownPair {
    pub white: Breakdown,
    pub black: Breakdown,
}

/// The score of a position and whether (and how) the game is over.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleScoreResponse)]
pub struct ScoreResponse {
    pub score: ScorePair,
    /// Whether the game is over (rule 7).
    pub finished: bool,
    /// Winner of a finished game; null while it goes on or on a draw.
    #[schema(required = true)]
    pub winner: Option<SideName>,
    /// Whether a finished game is drawn.
    pub draw: bool,
    pub breakdown: BreakdownPair,
}

impl ScoreResponse {
    /// The answer's JSON, byte for byte what serde writes, written
    /// directly: its keys are fixed and its values numbers, booleans and
    /// side names, so nothing needs escaping (a referee's most frequent
    /// answer, which serde writes a key at a time).
    pub fn to_json(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(320);
        let number = |out: &mut Vec<u8>, n: u32| {
            out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes())
        };
        let flag =
            |out: &mut Vec<u8>, b: bool| out.extend_from_slice(if b { b"true" } else { b"false" });
        out.extend_from_slice(b"{\"score\":{\"white\":");
        number(&mut out, self.score.white);
        out.extend_from_slice(b",\"black\":");
        number(&mut out, self.score.black);
        out.extend_from_slice(b"},\"finished\":");
        flag(&mut out, self.finished);
        out.extend_from_slice(match self.winner {
            None => b",\"winner\":null,\"draw\":".as_slice(),
            Some(SideName::White) => b",\"winner\":\"white\",\"draw\":",
            Some(SideName::Black) => b",\"winner\":\"black\",\"draw\":",
        });
        flag(&mut out, self.draw);
        for (key, side) in [
            (&b",\"breakdown\":{\"white\":"[..], &self.breakdown.white),
            (b",\"black\":", &self.breakdown.black),
        ] {
            out.extend_from_slice(key);
            out.extend_from_slice(b"{\"commander_on_start\":");
            number(&mut out, side.commander_on_start);
            out.extend_from_slice(b",\"commander_in_base\":");
            number(&mut out, side.commander_in_base);
            out.extend_from_slice(b",\"tanks_in_base\":");
            number(&mut out, side.tanks_in_base);
            out.extend_from_slice(b",\"tanks_on_field\":");
            number(&mut out, side.tanks_on_field);
            out.push(b'}');
        }
        out.extend_from_slice(b"}}");
        out
    }
}

/// A game to replay: a start position and moves.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "layout": "standard",
    "moves": ["k4-k5", "a8-a7", "k5-k6"]
}))]
#[schema(as = TankBattleReplayRequest)]
pub struct ReplayRequest {
    /// Start position in TBN; the layout's initial position when absent.
    #[serde(default)]
    #[schema(value_type = Option<Tbn>)]
    pub start: Option<String>,
    /// `standard` (default when absent) or 11 rows of layout notation.
    #[serde(default)]
    #[schema(value_type = Option<LayoutText>)]
    pub layout: Option<String>,
    /// Moves in order, in move notation.
    #[schema(value_type = Vec<MoveNotation>)]
    pub moves: Vec<String>,
}

/// The positions a game passed through.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleReplayResponse)]
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
#[schema(as = TankBattlePerftRequest)]
pub struct PerftRequest {
    /// Position in TBN: `<placement> <side> <ply>`.
    #[schema(value_type = Tbn)]
    pub position: String,
    /// `standard` (default when absent) or 11 rows of layout notation.
    #[serde(default)]
    #[schema(value_type = Option<LayoutText>)]
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

/// A move in move notation, as a replay lists it.
pub type ReplayStep = String;
/// TBN, as a replay answers each position.
pub type ReplayState = String;

/// Tank Battle requests to run in one round trip, in order.
#[derive(Debug, serde::Deserialize, ToSchema)]
#[schema(as = TankBattleBatchRequest)]
#[serde(deny_unknown_fields)]
#[schema(example = json!(batch_example()))]
pub struct BatchRequest {
    /// The requests, run in order: each an object with `op`, the
    /// endpoint's name (`legal-moves`, `apply`, …), and the fields of that
    /// endpoint's body.
    #[schema(schema_with = crate::api::flows::batch::items_schema::<crate::games::tank_battle::TankBattle>)]
    pub requests: Vec<serde_json::Value>,
}

impl From<BatchRequest> for Vec<serde_json::Value> {
    fn from(body: BatchRequest) -> Vec<serde_json::Value> {
        body.requests
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tank_battle::{Layout, Position};

    #[test]
    fn score_json_is_what_serde_writes() {
        let breakdown = |n: u32| Breakdown {
            commander_on_start: n % 4,
            commander_in_base: n % 3,
            tanks_in_base: n * 2,
            tanks_on_field: n + 7,
        };
        for (n, winner) in [None, Some(SideName::White), Some(SideName::Black)]
            .into_iter()
            .enumerate()
        {
            let n = n as u32;
            for (finished, draw) in [(false, false), (true, false), (true, true)] {
                let answer = ScoreResponse {
                    score: ScorePair {
                        white: n * 11,
                        black: 1000 + n,
                    },
                    finished,
                    winner,
                    draw,
                    breakdown: BreakdownPair {
                        white: breakdown(n),
                        black: breakdown(n + 5),
                    },
                };
                assert_eq!(
                    String::from_utf8(answer.to_json()).unwrap(),
                    serde_json::to_string(&answer).unwrap()
                );
            }
        }
    }

    #[test]
    fn every_square_has_its_name_in_the_answer_pieces() {
        for square in Square::all() {
            let name = square.name();
            let mut out = Vec::new();
            Piece::put(&mut out, MOVE_FROM.get(square.index()));
            Piece::put(&mut out, TO_FROM[1].get(square.index()));
            Piece::put(&mut out, FROM_TO.get(square.index()));
            Piece::put(&mut out, TO_CAPTURE[0].get(square.index()));
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!(
                    "{{\"move\":\"{name}x{name}\",\"from\":\"{name}\",\"to\":\"{name}\",\"capture\":false}}"
                )
            );
        }
    }

    #[test]
    fn validate_json_is_what_serde_writes() {
        let layout = Layout::STANDARD;
        let mut position = Position::initial(&layout);
        let mut captures = 0;
        for ply in 0..300 {
            let moves = position.legal_moves_file_major(&layout);
            for mv in &moves {
                captures += usize::from(mv.is_capture());
                let answer = ValidateResponse {
                    legal: true,
                    notation: Some(*mv),
                    reason: None,
                };
                assert_eq!(
                    answer.to_json().unwrap(),
                    serde_json::to_vec(&answer).unwrap(),
                    "ply {ply}, {mv:?}"
                );
            }
            match moves.get(ply * 7 % moves.len().max(1)) {
                Some(mv) => position.play_unchecked(*mv),
                None => break,
            }
        }
        assert!(captures > 0, "the walk met no capture");
        let refused = ValidateResponse {
            legal: false,
            notation: None,
            reason: Some(ReasonBody {
                code: "PATH_BLOCKED",
                message: "a tank stands in the way".to_owned(),
                square: Some("k5".to_owned()),
            }),
        };
        let json = String::from_utf8(refused.to_json().unwrap()).unwrap();
        assert!(json.starts_with(r#"{"legal":false,"reason":{"#), "{json}");
        assert_eq!(json.into_bytes(), serde_json::to_vec(&refused).unwrap());
    }

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
                moves: moves.clone(),
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
