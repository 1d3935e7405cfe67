//! The DTOs of a played game, as `replay` and `annotate` take it (a
//! start, the moves, or a game record as it is) and as `replay` answers
//! it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::dto::{Rules, ScoreResponse};
use crate::api::flows::ask::AskedLimits;
use crate::api::flows::record::{self, RecordResult};
use crate::api::openapi::notation::{LayoutText, MoveNotation, Tbn};
use crate::games::tank_battle::{Move, Position};

/// Declares a request body that carries a played game as `replay` takes
/// it (a start and moves, or a game record as it is): the game's fields,
/// then the request's own; after `=>`, a body it narrows to (its game and
/// the fields named).
macro_rules! played_game {
    ($(#[$attr:meta])* $name:ident { $($own:tt)* } $(=> $into:ident { $($kept:ident),* })?) => {
        #[derive(Debug, Deserialize, ToSchema)]
        #[serde(deny_unknown_fields)]
        $(#[$attr])*
        pub struct $name {
            /// The game the record is of, when the body is a game record: the
            /// route's game id (anything else is refused); absent in a plain
            /// replay body.
            #[schema(example = "tank-battle")]
            pub game: Option<String>,
            /// Start position in TBN; the layout's initial position when absent.
            #[schema(value_type = Option<Tbn>)]
            pub start: Option<String>,
            /// `standard` (default when absent) or 11 rows of layout notation.
            #[schema(value_type = Option<LayoutText>)]
            pub layout: Option<String>,
            /// What ends the game besides rule 7; the server's default when
            /// absent.
            pub rules: Option<Rules>,
            /// Moves in order, in move notation.
            #[schema(value_type = Vec<MoveNotation>)]
            pub moves: Vec<String>,
            /// How the game ended, as a game record keeps it: the schema and its
            /// description are the records' one ([`record::result_schema`]).
            #[serde(default)]
            #[schema(schema_with = record::result_schema)]
            pub result: RecordResult,
            $($own)*
        }

        $(impl From<$name> for $into {
            fn from(request: $name) -> $into {
                $into {
                    game: request.game,
                    start: request.start,
                    layout: request.layout,
                    rules: request.rules,
                    moves: request.moves,
                    result: request.result,
                    $($kept: request.$kept,)*
                }
            }
        })?
    };
}
pub(super) use played_game;

played_game! {
    /// A game to replay: a start position and moves, or a game record as it
    /// is.
    #[schema(example = json!({
        "layout": "standard",
        "moves": ["k4-k5", "a8-a7", "k5-k6"]
    }))]
    #[schema(as = TankBattleReplayRequest)]
    ReplayRequest {}
}

played_game! {
    /// A game to review (`annotate`): the replay's body and what it asks of
    /// the judge.
    #[schema(example = json!({
        "layout": "standard",
        "moves": ["k4-k5", "a8-a7", "k5-k6"],
        "limits": {"max_nodes": 20000}
    }))]
    #[schema(as = TankBattleAnnotateRequest)]
    AnnotateRequest {
        /// Each position's search; without `max_nodes`, 200,000 positions (the
        /// same verdicts on any machine; a review of more than 100 moves shares
        /// 20,200,000, at least 100,000 a position), each search stopping at
        /// the deepest even depth it can finish.
        pub limits: Option<AskedLimits>,
        /// The judge's budget as a level (1-8): positions a search from a
        /// tenth of the game's default budget (level 1) to ten times it
        /// (level 8), about 1.93 times more each level; `limits.max_nodes`,
        /// when given, wins. The default budget when absent.
        #[schema(minimum = 1, maximum = 8)]
        pub level: Option<u32>,
    } => ReplayRequest {}
}

/// A move as a review names it, in move notation.
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct PlayedMove(pub Move);

impl utoipa::PartialSchema for PlayedMove {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <MoveNotation as utoipa::PartialSchema>::schema()
    }
}

impl ToSchema for PlayedMove {
    fn name() -> std::borrow::Cow<'static, str> {
        <MoveNotation as ToSchema>::name()
    }
}

/// The positions a game passed through.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankBattleReplayResponse)]
pub struct ReplayResponse {
    /// TBN after each move, in order.
    #[schema(value_type = Vec<String>)]
    pub positions: Vec<Position>,
    /// Score and state of the last position.
    #[serde(rename = "final")]
    pub final_state: ScoreResponse,
}
