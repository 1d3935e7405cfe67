//! `/v1/cobi-tank-wars/puzzles`: a played game's puzzles, as the engine
//! finds them (`games::cobi_tank_wars`' finder), through the generic flow
//! (`api::flows::puzzles`). Here: the DTOs and the routes' documentation.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::dto::{ReplayRound, StateDto, SuggestedOrders};
use crate::api::flows::annotation::LabelName;
use crate::api::flows::ask::AskedLimits;
use crate::api::flows::forced::ForcedResult;
use crate::api::flows::puzzles::PuzzleApi;
use crate::api::flows::record::{self, RecordResult};
use crate::api::json_state::AnnotateRequest;
use crate::api::openapi::notation::{CobiTankWarsPlayerName, CobiTankWarsState};
use crate::games::cobi_tank_wars::{puzzle_id, CobiTankWars, Order, Player, State};
use crate::games::review::puzzle::{Puzzle, Theme};
use crate::games::review::Label;

/// A game to find puzzles in: `annotate`'s body (a start and rounds, or
/// a game record), the judge's `limits` or `level`, and `max_puzzles`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CobiTankWarsPuzzlesRequest)]
#[schema(example = json!({
    "start": {
        "cols": 8, "rows": 8, "first": "P1", "round": 3,
        "vehicles": [
            {"id": "P1-1", "owner": "P1", "square": "b2", "armor": 1, "slot": 1},
            {"id": "P2-1", "owner": "P2", "square": "a1", "armor": 1, "slot": 1}
        ],
        "artillery": ["b1", "a3"],
        "gunfire": ["a1"]
    },
    "rounds": [{"orders": {
        "P1": {"P1-1": {"dir": "N", "dist": 1}},
        "P2": {"P2-1": {"dir": "N", "dist": 1}}
    }}],
    "max_puzzles": 5
}))]
pub struct PuzzlesRequest {
    /// The game the record is of, when the body is a game record: the
    /// route's game id (anything else is refused).
    #[schema(example = "cobi-tank-wars")]
    pub game: Option<String>,
    /// The start state; the default one when absent.
    #[schema(value_type = Option<CobiTankWarsState>)]
    pub start: Option<StateDto>,
    /// The rounds played, in order.
    pub rounds: Vec<ReplayRound>,
    /// How the game ended, as a game record keeps it.
    #[serde(default)]
    #[schema(schema_with = record::result_schema)]
    pub result: RecordResult,
    /// The judge's search, as `annotate` takes it; the finder searches
    /// five times its simulated rounds (at most 200,000).
    pub limits: Option<AskedLimits>,
    /// The judge's budget as a level (1-8), as `annotate` takes it.
    #[schema(minimum = 1, maximum = 8)]
    pub level: Option<u32>,
    /// The most puzzles to answer, 1-50 (10 when absent): the first ones
    /// in the game's order.
    #[schema(minimum = 1, maximum = 50)]
    pub max_puzzles: Option<u32>,
}

/// What a puzzle is about, from the rules: `support` (a key vehicle is
/// ordered onto a support token), `escape` (a key vehicle on a gunfire
/// token is ordered off it), `forced_win` (the solution wins the game
/// this round whatever the free vehicles and the opponent order),
/// `defence` (the solution is the only one that does not lose: changing a
/// key order leaves a chance to win of 25 or less, and it keeps one under
/// 75).
// The document's schema of the engine's `Theme`s the game's finder
// names, which puzzles write as they are.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = CobiTankWarsPuzzleTheme)]
pub enum ThemeName {
    Support,
    Escape,
    ForcedWin,
    Defence,
}

/// The orders played where the puzzle starts, and their label in the
/// review.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(as = CobiTankWarsPuzzleSource)]
pub struct PuzzleSource {
    pub played: SuggestedOrders,
    #[schema(value_type = LabelName)]
    pub label: Label,
}

/// One puzzle: the state before a round, and the orders of the solver's
/// vehicles that alone keep its advantage in it.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(as = CobiTankWarsPuzzle)]
pub struct PuzzleEntry {
    /// A digest of the rules version, the state and the solver (32 hex
    /// digits): the same puzzle has the same id on every server.
    #[schema(example = "e02d7cdd41497f4dbf472c7ad34c0c06")]
    pub id: String,
    /// The state before the round, its gunfire tokens placed.
    #[schema(value_type = CobiTankWarsState)]
    pub position: StateDto,
    /// The index in the game's `rounds` of the round played there.
    pub ply: usize,
    /// The solver.
    #[schema(value_type = CobiTankWarsPlayerName)]
    pub player: Player,
    /// The solver's orders for the round that alone keep its advantage:
    /// the key vehicles' orders, each the only one of its vehicle (the
    /// vehicles left out are free). Orders are revealed together, so no
    /// reply is forced: one round's orders.
    pub solution: Vec<SuggestedOrders>,
    #[schema(value_type = Vec<ThemeName>)]
    pub themes: Vec<Theme>,
    /// Where the solution's orders win the game this round whatever the
    /// free vehicles and the opponent order: the winner and `plies` 1;
    /// absent where they do not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub forced: Option<ForcedResult>,
    /// The solver's chance to win (0-100) with the finder's orders, and
    /// with the best of them with one key vehicle's order changed,
    /// measured against the same samples of the opponent's.
    pub win_chance: f64,
    pub second_chance: f64,
    /// 100 times the lowest AI level (1-8) whose `ai-move` gives the
    /// solution's orders to the key vehicles (with neither limits nor
    /// gunfire tokens asked, seed 0); 900 when none does.
    #[schema(minimum = 100, maximum = 900, example = 300)]
    pub rating: u32,
    pub source: PuzzleSource,
}

impl PuzzleApi for CobiTankWars {
    type PuzzleDto = PuzzleEntry;
    type PuzzlesRequest = PuzzlesRequest;

    fn split(request: PuzzlesRequest) -> (AnnotateRequest<Self>, Option<u32>) {
        let review = AnnotateRequest {
            game: request.game,
            start: request.start,
            rounds: request.rounds,
            result: request.result,
            limits: request.limits,
            level: request.level,
        };
        (review, request.max_puzzles)
    }

    fn encode_puzzle(state: &State, puzzle: &Puzzle<Vec<(String, Order)>>) -> PuzzleEntry {
        let player = Player::ALL
            .get(puzzle.player)
            .copied()
            .unwrap_or(Player::P1);
        PuzzleEntry {
            id: puzzle_id(state, player),
            position: state.to_data(),
            ply: puzzle.ply,
            player,
            solution: puzzle
                .solution
                .iter()
                .map(|orders| SuggestedOrders(orders.iter().cloned().collect()))
                .collect(),
            themes: puzzle.themes.clone(),
            forced: puzzle.forced.map(|forced| ForcedResult {
                winner: player.name().into(),
                plies: forced.plies,
            }),
            win_chance: puzzle.chance,
            second_chance: puzzle.second_chance,
            rating: puzzle.rating,
            source: PuzzleSource {
                played: SuggestedOrders(puzzle.source.played.iter().cloned().collect()),
                label: puzzle.source.label,
            },
        }
    }

    fn place(puzzle: &mut PuzzleEntry, ply: usize) {
        puzzle.ply = ply;
    }

    fn plies(_: &PuzzleEntry) -> usize {
        1
    }
}

crate::api::game_routes::puzzle_routes! {
    game: CobiTankWars,
    operation_prefix: "cobi_tank_wars",
    /// Finds a played game's puzzles: the orders that alone keep a player's
    /// edge in a round.
    ///
    /// The game is reviewed as `annotate` reviews it (the same checks, judge
    /// and price); where the review labels a player's orders, or any orders
    /// of the round before, a `mistake` or `blunder`, the round is searched
    /// again for that player at five times the judge's budget (at most
    /// 200,000 simulated rounds). Its choice is measured for its chance to win
    /// against the same choice with one vehicle's order changed (each other
    /// order of each vehicle), on the same samples of the opponent's orders.
    /// A vehicle whose every other order loses 30 points of the chance, or
    /// whose order alone keeps a win against every sample while no other
    /// wins anyway (a chance of 99 or more), is a key: the keys' orders are
    /// the solution. Orders are revealed together, so a solution is one
    /// round's orders; a round may hold a puzzle for each player.
}
