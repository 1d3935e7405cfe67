//! `/v1/tank-battle/puzzles`: a played game's puzzles, as the engine
//! finds them (`games::review::puzzle`, `games::tank_battle`'s finder),
//! through the generic flow (`api::flows::puzzles`). Here: the DTOs and
//! the route's documentation.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::replay::{played_game, AnnotateRequest};
use super::Rules;
use crate::api::flows::annotation::LabelName;
use crate::api::flows::ask::AskedLimits;
use crate::api::flows::forced::ForcedResult;
use crate::api::flows::puzzles::PuzzleApi;
use crate::api::flows::record::{self, RecordResult};
use crate::api::game::GameApi;
use crate::api::openapi::notation::{LayoutText, MoveNotation, Tbn};
use crate::games::review::puzzle::{Puzzle, Theme};
use crate::games::review::Label;
use crate::games::tank_battle::{puzzle_id, Move, State, TankBattle};

played_game! {
    /// A game to find puzzles in: `annotate`'s body (a start and moves, or a
    /// game record), the judge's `limits` or `level`, and `max_puzzles`.
    #[schema(example = json!({
        "start": "c10/8t2/7t3/11/11/11/11/11/11/2T7T/10C b 1",
        "moves": ["h9-h5", "k2xh5"],
        "max_puzzles": 5
    }))]
    #[schema(as = TankBattlePuzzlesRequest)]
    PuzzlesRequest {
        /// The judge's search, as `annotate` takes it; the finder searches
        /// five times its positions (at most 2,000,000).
        pub limits: Option<AskedLimits>,
        /// The judge's budget as a level (1-8), as `annotate` takes it.
        #[schema(minimum = 1, maximum = 8)]
        pub level: Option<u32>,
        /// The most puzzles to answer, 1-50 (10 when absent): the first ones
        /// in the game's order.
        #[schema(minimum = 1, maximum = 50)]
        pub max_puzzles: Option<u32>,
    } => AnnotateRequest { limits, level }
}

/// What a puzzle is about, from the rules: `capture` (a solver's move
/// captures), `base_entry` (a solver's tank enters the opponent's base),
/// `commander_start` (the solver's commander reaches the opponent's
/// commander start), `forced_win` (the position is won by force:
/// `forced` says in how many plies), `defence` (the first move is the
/// only one that does not lose: every other leaves a chance to win of 25
/// or less, and it keeps one under 75), `exchange` (a capture answered by
/// a capture on the same square, the first move's included if it takes
/// back the opponent's last capture), `locked_in` (a solver's tank locked
/// in the opponent's base moves or captures within it).
// The document's schema of the engine's `Theme`s the game's finder
// names, which puzzles write as they are.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = TankBattlePuzzleTheme)]
pub enum ThemeName {
    Capture,
    BaseEntry,
    CommanderStart,
    ForcedWin,
    Defence,
    Exchange,
    LockedIn,
}

/// The move played where the puzzle starts, and its label in the review.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(as = TankBattlePuzzleSource)]
pub struct PuzzleSource {
    #[schema(value_type = MoveNotation)]
    pub played: String,
    #[schema(value_type = LabelName)]
    pub label: Label,
}

/// One puzzle: the position before the solver's first move, and the
/// moves that solve it.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(as = TankBattlePuzzle)]
pub struct PuzzleEntry {
    /// A digest of the rules version, the layout and the position (32 hex
    /// digits): the same puzzle has the same id on every server.
    #[schema(example = "4229bd005280421f09ffec5223955866")]
    pub id: String,
    /// The position before the solver's first move, in TBN.
    #[schema(value_type = Tbn)]
    pub position: String,
    /// The layout, in layout notation.
    #[schema(value_type = LayoutText)]
    pub layout: String,
    /// The index in the game's `moves` of the move played there.
    pub ply: usize,
    /// The solver: the side to move.
    #[schema(example = "white")]
    pub player: String,
    /// The solver's moves and the replies between them, the solver's
    /// first and last: each solver's move the only one that keeps its
    /// advantage, each reply the judge's best with no rival.
    #[schema(value_type = Vec<MoveNotation>)]
    pub solution: Vec<String>,
    #[schema(value_type = Vec<ThemeName>)]
    pub themes: Vec<Theme>,
    /// Where the position is won by force for the solver: the winner and
    /// the plies to the end; absent where it is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub forced: Option<ForcedResult>,
    /// The solver's chance to win (0-100) with the first move, and with
    /// the second-best move, as the finder's search found them.
    pub win_chance: f64,
    pub second_chance: f64,
    /// 100 times the lowest AI level (1-8) whose `ai-move` plays the first
    /// move (with no limits asked, seed 0); 900 when none does.
    #[schema(minimum = 100, maximum = 900, example = 300)]
    pub rating: u32,
    pub source: PuzzleSource,
}

impl PuzzleApi for TankBattle {
    type PuzzleDto = PuzzleEntry;
    type PuzzlesRequest = PuzzlesRequest;

    fn split(request: PuzzlesRequest) -> (AnnotateRequest, Option<u32>) {
        let max_puzzles = request.max_puzzles;
        (request.into(), max_puzzles)
    }

    fn encode_puzzle(state: &State, puzzle: &Puzzle<Move>) -> PuzzleEntry {
        let player = Self::player_name(puzzle.player);
        PuzzleEntry {
            id: puzzle_id(state),
            position: state.position.to_string(),
            layout: state.layout.to_string(),
            ply: puzzle.ply,
            player: player.to_owned(),
            solution: puzzle.solution.iter().map(Move::to_notation).collect(),
            themes: puzzle.themes.clone(),
            forced: puzzle.forced.map(|forced| ForcedResult {
                winner: player.into(),
                plies: forced.plies,
            }),
            win_chance: puzzle.chance,
            second_chance: puzzle.second_chance,
            rating: puzzle.rating,
            source: PuzzleSource {
                played: puzzle.source.played.to_notation(),
                label: puzzle.source.label,
            },
        }
    }

    fn place(puzzle: &mut PuzzleEntry, ply: usize) {
        puzzle.ply = ply;
    }

    fn plies(puzzle: &PuzzleEntry) -> usize {
        puzzle.solution.len()
    }
}

crate::api::game_routes::puzzle_routes! {
    game: TankBattle,
    operation_prefix: "tank_battle",
    /// Finds a played game's puzzles: where one move alone keeps the edge.
    ///
    /// The game is reviewed as `annotate` reviews it (the same checks, judge
    /// and price); where the review labels a move, or the one before it, a
    /// `mistake` or `blunder`, the position is searched again for its two
    /// best moves at five times the judge's budget (at most 2,000,000
    /// positions). It is a puzzle when the
    /// best beats the second by 30 points of the chance to win at the last
    /// two depths (and was best at the last three), or alone wins by force
    /// while the second does not win anyway (a chance under 99). The solution
    /// goes on through replies with no rival (none within 5 points, or a
    /// longest defence) and only moves until a capture not taken back, a base
    /// entry or the game's end settles it (five of the solver's moves at
    /// most). After a puzzle the next is looked for past its solution.
}
