//! The DTOs of `/v1/tank-battle`: request and answer bodies with their
//! field descriptions and examples, as the OpenAPI document shows them.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::api::openapi::notation::{LayoutText, MoveList, MoveNotation, SquareName, Tbn};
use crate::games::tank_battle::{
    self as engine, IllegalMove, Move, Position, Reason, Role, Side, Square,
};

/// A side of Tank Battle.
// The document's schema of the engine's `Side`, which answers write as it
// is (the catalogue's unit test and the contract test hold them together).
#[derive(Clone, Copy, Debug, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[schema(as = TankBattleSide)]
pub enum SideName {
    White,
    Black,
}

/// An end policy (docs/TANK-BATTLE.md, "Ending a game"): what ends a game besides rule 7. The rules as
/// written end a game only when every tank of one side stands in the
/// other's base or the side to move cannot move, so a game between two
/// careful players need not end; a policy ends it at a ply limit or at a
/// repeated position, and the rule-8 score decides then, as at rule 7.
/// When a request has no `rules`, the server's default applies (the rules
/// as written unless its operator set one); `{}` asks for the rules as
/// written.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TankBattleRules, example = json!({"max_plies": 300, "repetition": 3}))]
pub struct Rules {
    /// The game is finished once this many moves have been played: when
    /// the position's ply counter (TBN's third field) reaches it (reason
    /// `ply_limit`). The AI's search sees the limit coming.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 1_000_000, example = 300)]
    pub max_plies: Option<u64>,
    /// The game is finished when one position (the tanks and the side to
    /// move) has stood this many times (reason `repetition`), the start
    /// counted. Only a request that carries the game's moves (`replay`,
    /// `annotate`) can see a repetition; elsewhere it is accepted and
    /// changes nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 2, maximum = 100, example = 3)]
    pub repetition: Option<u32>,
}

/// Why a Tank Battle game is over.
// The document's schema of the engine's `EndReason`, which answers write as it
// is (the catalogue's unit test and the contract test hold them together).
#[derive(Clone, Copy, Debug, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[schema(as = TankBattleEndReason)]
pub enum EndReasonName {
    /// Rule 7: every remaining tank of one side stands in the other's base.
    AllInBase,
    /// Rule 7: the side to move has no legal move.
    NoMove,
    /// The end policy's repetition rule.
    Repetition,
    /// The end policy's ply limit.
    PlyLimit,
}

/// A request that names a position: its TBN, its layout and its end
/// policy (`position`, `layout` and `rules`; [`position_request!`]
/// declares such a request).
pub(super) trait AtPosition {
    fn parts(&self) -> (&str, Option<&str>, Option<Rules>);
}

/// Declares a request body that names a position: its three fields, then
/// the request's own.
macro_rules! position_request {
    ($(#[$attr:meta])* $name:ident { $($own:tt)* }) => {
        #[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
        #[serde(deny_unknown_fields)]
        $(#[$attr])*
        pub struct $name {
            /// Position in TBN: `<placement> <side> <ply>`.
            #[schema(value_type = $crate::api::openapi::notation::Tbn)]
            pub position: String,
            /// `standard` (default when absent) or 11 rows of layout notation.
            #[schema(value_type = Option<$crate::api::openapi::notation::LayoutText>)]
            pub layout: Option<String>,
            /// What ends the game besides rule 7; the server's default when
            /// absent.
            pub rules: Option<super::dto::Rules>,
            $($own)*
        }

        impl super::dto::AtPosition for $name {
            fn parts(&self) -> (&str, Option<&str>, Option<super::dto::Rules>) {
                (&self.position, self.layout.as_deref(), self.rules)
            }
        }
    };
}
pub(super) use position_request;

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
    /// (The example: after White's k4-k11, Black's e11 tank picked, and
    /// the AI's line for Black, e11xk11 g1-a1.)
    #[param(example = "ctttt5T/tttt7/ttt8/tt9/11/11/11/9T1/8TTT/7TTTT/6TTTTC b 1", value_type = Option<Tbn>)]
    pub position: Option<String>,
    /// `standard` (the default) or layout notation.
    #[param(example = "standard", value_type = Option<LayoutText>)]
    pub layout: Option<String>,
    /// The move that led to the position, drawn as an arrow (not checked
    /// against the position before it).
    #[param(example = "k4-k11", value_type = Option<MoveNotation>)]
    pub last_move: Option<String>,
    /// A square: its tank is framed and a dot marks each of its legal
    /// moves (none when it holds no tank of the side to move).
    #[param(example = "e11", value_type = Option<SquareName>)]
    pub moves_from: Option<String>,
    /// Moves drawn as green arrows, comma-separated, at most 8 (not
    /// checked against the position): a line to show, such as a review's
    /// `best_line` from the position, or its best move alone.
    #[param(example = "e11xk11,g1-a1", value_type = Option<MoveList>)]
    pub arrows: Option<String>,
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

position_request! {
    /// A position and its layout.
    #[schema(example = json!({
        "position": engine::INITIAL_TBN,
        "layout": "standard"
    }))]
    #[schema(as = TankBattlePositionRequest)]
    PositionRequest {
    }
}

position_request! {
    /// A position, its layout, and optionally one tank to list moves for.
    #[schema(example = json!({
        "position": engine::INITIAL_TBN,
        "layout": "standard",
        "from": "j4"
    }))]
    #[schema(as = TankBattleLegalMovesRequest)]
    LegalMovesRequest {
        /// Only list the moves of the tank on this square (e.g. `j4`).
        #[schema(value_type = Option<SquareName>)]
        pub from: Option<String>,
    }
}

/// One legal move.
// Its engine values are written by their own `Serialize` (notation from a
// buffer on the stack), each a string, as `value_type` says.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleMoveEntry)]
pub struct MoveEntry {
    /// Canonical notation: `from-to`, or `fromxto` for a capture.
    #[serde(rename = "move")]
    #[schema(value_type = String, example = "j4-j5")]
    pub notation: Move,
    #[schema(value_type = String, example = "j4")]
    pub from: Square,
    #[schema(value_type = String, example = "j5")]
    pub to: Square,
    /// Whether the move removes an enemy tank.
    pub capture: bool,
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

/// A legal move as its answer's entry: written as [`MoveEntry`]'s derived
/// `Serialize` writes it, once per (from, to, capture) for the server's
/// life, then copied — an entry is three strings and a flag, and a
/// `legal-moves` answer is mostly entries. The one writer is the derive;
/// the table keeps its output (121 × 121 × 2 slots of a pointer, 234 KB of
/// zeroes, and an entry of ~60 bytes for each move first answered).
#[derive(Clone, Copy, Debug)]
pub struct KeptEntry(pub Move);

impl KeptEntry {
    const SLOTS: usize = engine::SQUARES * engine::SQUARES * 2;

    /// The entry's JSON as the derive writes it.
    fn written(self) -> Option<&'static serde_json::value::RawValue> {
        use once_cell::race::OnceBox;
        use serde_json::value::RawValue;
        // Null pointers until filled: zeroes in .bss, no page of which is
        // touched before one of its entries is answered.
        static TABLE: [OnceBox<Box<RawValue>>; KeptEntry::SLOTS] =
            [const { OnceBox::new() }; KeptEntry::SLOTS];
        let Move { from, to, .. } = self.0;
        let slot =
            (from.index() * engine::SQUARES + to.index()) * 2 + usize::from(self.0.is_capture());
        let kept = TABLE.get(slot)?;
        if let Some(written) = kept.get() {
            return Some(written);
        }
        let written = serde_json::value::to_raw_value(&MoveEntry::from(self.0)).ok()?;
        Some(kept.get_or_init(|| Box::new(written)))
    }
}

impl Serialize for KeptEntry {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.written() {
            Some(written) => written.serialize(serializer),
            None => MoveEntry::from(self.0).serialize(serializer),
        }
    }
}

/// The legal moves, sorted by `from` (file, then rank), then by `to`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleLegalMovesResponse)]
pub struct LegalMovesResponse {
    // Each a `MoveEntry`, as its derive writes it.
    #[schema(value_type = Vec<MoveEntry>)]
    pub moves: Vec<KeptEntry>,
    /// Number of moves listed.
    #[schema(example = 45)]
    pub count: usize,
}

position_request! {
    /// A position, its layout and a move.
    #[schema(example = json!({
        "position": engine::INITIAL_TBN,
        "layout": "standard",
        "move": "j4-j5"
    }))]
    #[schema(as = TankBattleMoveRequest)]
    MoveRequest {
        /// Two squares with `-`, `x` or nothing between them, either case:
        /// `j4-j5`, `d10xd4`, `J4J5`.
        #[serde(rename = "move")]
        #[schema(value_type = MoveNotation)]
        pub notation: String,
    }
}

/// Why a move is illegal.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleReason)]
pub struct ReasonBody {
    // Written as its code, one of `ReasonCode`'s.
    #[schema(value_type = ReasonCode, example = "CONTAMINATED")]
    pub code: Reason,
    /// The rule in words.
    #[schema(example = "only a commander may enter or pass a contaminated square (g7)")]
    pub message: String,
    /// The square where the move failed: the walked square for path reasons,
    /// `from` for `NO_TANK_AT_FROM` and `NOT_YOUR_TANK`; absent for
    /// `GAME_OVER` and `NOT_A_LINE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, example = "g7", nullable = false)]
    pub square: Option<Square>,
}

crate::api::openapi::notation::code_enum! {
    /// The stable code of a Tank Battle rule reason (docs/TANK-BATTLE.md, "Rules as implemented").
    ReasonCode as "TankBattleReasonCode": engine::Reason::ALL.map(engine::Reason::code),
    "Stable reason code, the first that applies in this order: `GAME_OVER`, `NO_TANK_AT_FROM`, \
`NOT_YOUR_TANK`, `NOT_A_LINE`, then along the path `MINE`, `CONTAMINATED`, `LOCKED_IN_ENEMY_BASE`, \
`PATH_BLOCKED`, `OWN_TANK_AT_TO`, `CAPTURE_IN_CONTAMINATED`.",
}

impl ReasonBody {
    /// Why `err`'s move is illegal, its message in `lang`.
    pub fn of(err: IllegalMove, lang: crate::i18n::Lang) -> ReasonBody {
        let square = err.square.map(|square| square.to_string());
        ReasonBody {
            code: err.reason,
            message: crate::error::rule_reason(lang, err.reason.code(), square.as_deref()),
            square: err.square,
        }
    }
}

/// Whether a move is legal: `{"legal":true,"move"}` or
/// `{"legal":false,"reason"}`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleValidateResponse)]
pub struct ValidateResponse {
    pub legal: bool,
    /// The move in canonical notation, when legal (absent when illegal).
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, example = "j4-j5", nullable = false)]
    pub notation: Option<Move>,
    /// The first rule the move breaks, when illegal (absent when legal).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub reason: Option<ReasonBody>,
}

/// The tank a capture removed.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleCaptured)]
pub struct Captured {
    #[schema(value_type = String, example = "d4")]
    pub square: Square,
    #[schema(value_type = TankKind)]
    pub kind: Role,
    /// The side the captured tank belonged to.
    #[schema(value_type = SideName)]
    pub side: Side,
}

/// The kind of a tank.
// The document's schema of the engine's `Role`, which answers write as it
// is (the catalogue's unit test and the contract test hold them together).
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = TankBattleTankKind)]
pub enum TankKind {
    Tank,
    Commander,
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
    #[schema(
        value_type = String,
        example = "ctttt6/tttt7/ttt8/tt9/11/11/9T1/10T/8TTT/7TTTT/6TTTTC b 1"
    )]
    pub position: Position,
    /// The move in canonical notation.
    #[serde(rename = "move")]
    #[schema(value_type = String, example = "j4-j5")]
    pub notation: Move,
    /// The captured tank, or null.
    #[schema(required = true)]
    pub captured: Option<Captured>,
    /// Whether the game is over after the move (rule 7, or the end
    /// policy).
    pub finished: bool,
    /// The winner of a finished game by score; null while it goes on or on
    /// a draw.
    #[schema(required = true, value_type = Option<SideName>)]
    pub winner: Option<Side>,
    /// Whether a finished game is drawn (equal scores).
    pub draw: bool,
    /// What ended the game; null while it goes on.
    #[schema(required = true, value_type = Option<EndReasonName>)]
    pub reason: Option<engine::EndReason>,
    pub score: ScorePair,
    /// The side to move next (also in `position`).
    #[schema(value_type = SideName)]
    pub turn: Side,
}

/// Points of one side by source; they add up to its score.
// The document's schema of the engine's `SideScore`, which answers write as it
// is (the catalogue's unit test and the contract test hold them together).
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
    /// Whether the game is over (rule 7, or the end policy).
    pub finished: bool,
    /// Winner of a finished game; null while it goes on or on a draw.
    #[schema(required = true, value_type = Option<SideName>)]
    pub winner: Option<Side>,
    /// Whether a finished game is drawn.
    pub draw: bool,
    /// What ended the game; null while it goes on.
    #[schema(required = true, value_type = Option<EndReasonName>)]
    pub reason: Option<engine::EndReason>,
    #[schema(value_type = BreakdownPair)]
    pub breakdown: engine::Score,
}

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
    use crate::games::tank_battle::Layout;

    /// A kept entry is the derive's bytes, the first time and every time
    /// after, for every move of a few hundred positions of a game played
    /// down the first legal move (captures among them), and reads back to
    /// the same JSON value (as `batch` reads it).
    #[test]
    fn a_kept_entry_is_what_the_derive_writes() {
        let layout = Layout::STANDARD;
        let mut position = Position::initial(&layout);
        let (mut moves, mut captures) = (0, 0);
        for ply in 0..300 {
            let legal = position.legal_moves_file_major(&layout);
            for mv in &legal {
                let derived = serde_json::to_string(&MoveEntry::from(*mv)).unwrap();
                for _ in 0..2 {
                    assert_eq!(serde_json::to_string(&KeptEntry(*mv)).unwrap(), derived);
                }
                assert_eq!(
                    serde_json::to_value(KeptEntry(*mv)).unwrap(),
                    serde_json::to_value(MoveEntry::from(*mv)).unwrap()
                );
                moves += 1;
                captures += usize::from(mv.is_capture());
            }
            let Some(next) = legal
                .iter()
                .find(|mv| mv.is_capture())
                .or(legal.get(ply % legal.len().max(1)))
            else {
                break;
            };
            match position.play(&layout, (*next).into()) {
                Ok((after, _)) => position = after,
                Err(_) => break,
            }
        }
        assert!(
            moves > 1000 && captures > 10,
            "{moves} moves, {captures} captures"
        );
    }
}
