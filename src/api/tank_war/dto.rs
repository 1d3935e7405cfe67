//! The DTOs of `/v1/tank-war`: request and answer bodies with their field
//! descriptions and examples, as the OpenAPI document shows them. States
//! travel as JSON (docs/TANK-WAR.md, State).

use compact_str::CompactString;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::flows::ask::{AskedLimits, Work};
use crate::api::json_state::{self, Examples, JsonState};
use crate::api::openapi::notation::{TankWarPlayerName, TankWarState};
use crate::games::tank_war::{self as engine, PickError, Player, State, TankWar};
use crate::games::SearchLimits;

/// A state as it travels: the engine's notation, its texts inline small
/// strings (docs/TANK-WAR.md, State; its schema is the engine's,
/// [`TankWarState`]).
pub type StateDto = engine::StateData<CompactString>;

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

/// Picks to check; either may be left out, not both.
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

/// `initial` answers a state.
pub type InitialResponse = TankWarState;

/// The tanks each player may pick, sorted by name.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarLegalMovesResponse)]
pub struct LegalMovesResponse {
    /// U's picks (absent when only D's were asked for).
    #[serde(rename = "U", skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(["LA", "LB", "LC", "RA", "RB", "RC"]), nullable = false)]
    pub u: Option<Vec<String>>,
    /// D's picks (absent when only U's were asked for).
    #[serde(rename = "D", skip_serializing_if = "Option::is_none")]
    #[schema(example = json!(["LA", "LB", "LC", "RA", "RB", "RC"]), nullable = false)]
    pub d: Option<Vec<String>>,
}

/// Picks to check against a state.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": default_state_json(), "moves": {"U": "LA", "D": "RC"}}))]
#[schema(as = TankWarValidateRequest)]
pub struct ValidateRequest {
    #[schema(value_type = TankWarState)]
    pub state: StateDto,
    pub moves: OptionalPicks,
}

/// Why a pick is illegal.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarPickReason)]
pub struct PickReason {
    #[schema(value_type = PickCode, example = "SQUARE_OCCUPIED")]
    pub code: &'static str,
    #[schema(example = "the next square of the tank's track is occupied")]
    pub message: String,
}

/// A pick as a review names it: the tank's name.
#[derive(Debug, Serialize, ToSchema)]
#[serde(transparent)]
#[schema(as = TankWarTankName, example = "RB")]
pub struct TankPick(pub String);

crate::api::openapi::notation::code_enum! {
    /// The stable code of a refused Tank War pick.
    PickCode as "TankWarPickCode": PickError::ALL.map(PickError::code),
    "Why a pick is refused, the first that applies: `GAME_OVER`, `NO_SUCH_TANK`, \
`END_OF_TRACK`, `SQUARE_OCCUPIED`.",
}

impl PickReason {
    /// Why a pick is illegal, its message in `lang`.
    pub fn of(e: PickError, lang: crate::i18n::Lang) -> PickReason {
        PickReason {
            code: e.code(),
            message: crate::error::rule_reason(lang, e.code(), None),
        }
    }
}

/// Whether the given picks are legal, with a reason for each illegal one.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarValidateResponse)]
pub struct ValidateResponse {
    pub legal: bool,
    pub reasons: PickReasons,
}

/// Why each player's pick is illegal, by player (`{}` when both are legal).
#[derive(Debug, Default, Serialize, ToSchema)]
#[schema(as = TankWarPickReasons)]
pub struct PickReasons {
    /// Why U's pick is illegal; absent when it is legal or not given.
    #[serde(rename = "U", skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub u: Option<PickReason>,
    /// Why D's pick is illegal; absent when it is legal or not given.
    #[serde(rename = "D", skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub d: Option<PickReason>,
}

/// A round to play.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": default_state_json(), "moves": {"U": "LA", "D": "RC"}, "elapsed_ms": {"U": 1500, "D": 2300}}))]
#[schema(as = TankWarApplyRequest)]
pub struct ApplyRequest {
    #[schema(value_type = TankWarState)]
    pub state: StateDto,
    pub moves: Picks,
    pub elapsed_ms: Option<Elapsed>,
}

/// A tank named in an event.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TankWarTankRef)]
pub struct TankRef {
    #[schema(value_type = TankWarPlayerName)]
    pub player: Player,
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
    Timeout {
        #[schema(value_type = TankWarPlayerName)]
        player: Player,
    },
    /// A picked tank moved one square forward.
    Move {
        #[schema(value_type = TankWarPlayerName)]
        player: Player,
        tank: String,
        from: String,
        to: String,
    },
    /// Both picked tanks targeted `to`; its owner's tank entered, this one
    /// stayed put.
    Blocked {
        #[schema(value_type = TankWarPlayerName)]
        player: Player,
        tank: String,
        from: String,
        to: String,
    },
    /// The tank was destroyed in the firing phase by the tanks in `by`.
    Destroyed {
        #[schema(value_type = TankWarPlayerName)]
        player: Player,
        tank: String,
        square: String,
        by: Vec<TankRef>,
    },
}

/// Why a finished game ended.
// The document's schema of the engine's `EndReason`, which answers write as it
// is (the catalogue's unit test and the contract test hold them together).
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
    #[schema(value_type = TankWarState)]
    pub state: StateDto,
    pub events: Vec<EventDto>,
    pub finished: bool,
    /// The winner of a finished game; null while it goes on or on a draw.
    #[schema(required = true)]
    #[schema(value_type = Option<TankWarPlayerName>)]
    pub winner: Option<Player>,
    pub draw: bool,
    /// Why the game ended; null while it goes on.
    #[schema(required = true, value_type = Option<EndReasonName>)]
    pub reason: Option<engine::EndReason>,
    /// Each player's surviving tanks: the number that decides a game
    /// ended by `no_moves` (territory breaks a tie; `score` gives both).
    pub score: PerPlayer,
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
    /// The winner of a finished game; null while it goes on or on a draw.
    #[schema(required = true)]
    #[schema(value_type = Option<TankWarPlayerName>)]
    pub winner: Option<Player>,
    pub draw: bool,
    /// Why the game ended; null while it goes on.
    #[schema(required = true, value_type = Option<EndReasonName>)]
    pub reason: Option<engine::EndReason>,
    /// Each player's surviving tanks, the number that decides a game
    /// ended by `no_moves` (as every game's `score` names it; territory
    /// breaks a tie).
    pub score: PerPlayer,
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
    pub elapsed_ms: Option<Elapsed>,
}

/// A state to find a pick for.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"state": default_state_json(), "player": "D", "limits": {"max_depth": 2}, "seed": 1}))]
#[schema(as = TankWarAiMoveRequest)]
pub struct AiMoveRequest {
    #[schema(value_type = TankWarState)]
    pub state: StateDto,
    /// The player to pick for.
    #[schema(value_type = TankWarPlayerName)]
    pub player: Player,
    pub limits: Option<AskedLimits>,
    /// Seeds the draw from the mixed strategy; 0 when absent.
    #[schema(example = 1)]
    pub seed: Option<u64>,
    /// Plays at a level instead of full strength: 1 (a beginner who keeps
    /// its tanks in line, moving one of the rearmost) to 8 (full strength
    /// at 650,000 positions). A level is a fixed recipe in rounds and
    /// positions, so it plays the same on any machine, and repeats exactly
    /// with a `seed`; `limits` can only lower its budgets. Its `strategy`
    /// is the level's: the equilibrium, or each pick weighted by its value
    /// against the opponent's equilibrium at the level's temperature,
    /// mixed with the rearmost tanks in the share of rounds the level
    /// keeps the line.
    #[schema(minimum = 1, maximum = 8, example = 5)]
    pub level: Option<u32>,
    /// Also play the round, as `apply` would, with the AI's pick for
    /// `player` and the other player's from `moves`: the answer then
    /// carries `applied`, exactly `apply`'s answer for that round. The AI
    /// does not see the other pick (the moves are simultaneous).
    #[serde(default)]
    pub play: bool,
    /// With `play`: the other player's pick, as `apply`'s `moves` names it
    /// (`{"D": "RC"}` when `player` is `U`).
    pub moves: Option<OtherPick>,
    /// With `play`: the round's thinking time charged to each clock, as
    /// `apply`'s.
    pub elapsed_ms: Option<Elapsed>,
}

/// One player's pick, by player: the other player's, beside the AI's.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TankWarOtherPick, example = json!({"D": "RC"}))]
pub struct OtherPick {
    #[serde(rename = "U", default)]
    pub u: Option<String>,
    #[serde(rename = "D", default)]
    pub d: Option<String>,
}

/// One pick of a mixed strategy.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
#[schema(as = TankWarStrategyEntry)]
pub struct StrategyEntry {
    #[serde(rename = "move")]
    #[schema(example = "RB")]
    pub pick: String,
    #[schema(example = 0.5)]
    pub probability: f64,
    /// The pick's value for the player (as `value`, or when the answer is
    /// `exact` on the result scale of `expected_result`) when the opponent
    /// answers it with its best reply, at the searched depth: how much the
    /// pick guarantees.
    #[schema(example = -4.0)]
    pub worst_case: f64,
}

/// The AI's pick, drawn from its mixed strategy.
#[derive(Clone, Debug, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = TankWarAiMoveResponse)]
pub struct AiSuggestion {
    /// The pick drawn (with `seed`) from `strategy`.
    #[serde(rename = "move")]
    #[schema(example = "RB")]
    pub pick: String,
    /// The equilibrium strategy of the player's picks; probabilities sum
    /// to 1.
    pub strategy: Vec<StrategyEntry>,
    /// The game's value for the player: 100 a tank ahead, 4 a square
    /// ahead; beyond ±10000 a won (lost) game. When `exact`, 10000 times
    /// `expected_result`.
    #[schema(example = 0.0)]
    pub value: f64,
    /// Whether `strategy` is an exact equilibrium of the whole game from
    /// this state: the game was solved (always for the default setup at
    /// the default limits). Otherwise it is the search's, looking `depth`
    /// rounds ahead.
    #[schema(example = true)]
    pub exact: bool,
    /// When `exact` (absent otherwise), the game's value for the player on
    /// the result scale:
    /// 1 a win, 0 a draw, −1 a loss, as an expectation under both players'
    /// equilibrium strategies. Each pick's `worst_case` is then on this
    /// scale too.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 0.0, nullable = false)]
    pub expected_result: Option<f64>,
    /// Rounds looked ahead by the last finished iteration; when `exact`,
    /// the most rounds the game can still last.
    #[schema(example = 2)]
    pub depth: u32,
    /// Positions evaluated.
    pub nodes: u64,
}

impl Work for AiSuggestion {
    fn work(&self) -> u64 {
        self.nodes
    }

    /// The game solved, its depth or positions reached, or a won (lost)
    /// game found: the search ended before any time stopped it.
    fn ended_within(&self, limits: &SearchLimits) -> bool {
        self.exact
            || self.depth >= limits.max_depth
            || self.nodes >= limits.max_nodes
            || self.value.abs() >= engine::ai::WIN
    }
}

/// Tank War requests to run in one round trip, in order.
pub type BatchRequest = json_state::BatchRequest<TankWar>;

/// The examples of the shapes The Tank War shares with the other JSON-state
/// games.
pub(super) fn examples() -> Examples {
    Examples {
        state: default_state_json(),
        player: serde_json::json!("U"),
        replay: serde_json::json!({"rounds": [
            {"U": "LA", "D": "RC"}, {"U": "LC", "D": "RB"}, {"U": "RA", "D": "RB"},
            {"U": "LA", "D": "RB"}, {"U": "LC", "D": "RA"}
        ]}),
        batch: batch_example(),
        render: r#"{"rows":6,"cols":6,"territory":["UUUUUU","UUUUUU","UUUUUU","DDDDDD","DDDDDD","DDDDDD"],"tanks":[{"owner":"U","name":"LA","type":"A","track":["e6","e5","e4","e3","e2","e1"],"at":0},{"owner":"D","name":"RC","type":"C","track":["f1","f2","f3","f4","f5","f6"],"at":1}]}"#,
    }
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

pub(super) fn default_state_json() -> serde_json::Value {
    serde_json::to_value(TankWar::encode_state(&State::initial())).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A suggestion says its search ended within the limits only where it
    /// shows it: the game solved, the depth or positions reached, or a
    /// won game found; else the flow asks the clock.
    #[test]
    fn a_search_ended_within_its_limits_only_where_the_answer_shows_it() {
        let limits = SearchLimits {
            max_time: None,
            max_depth: 4,
            max_nodes: 1_000,
            stop: None,
        };
        let searched = |depth, nodes, value, exact| AiSuggestion {
            depth,
            nodes,
            value,
            exact,
            ..AiSuggestion::default()
        };
        assert!(!searched(3, 999, 40.0, false).ended_within(&limits));
        assert!(searched(4, 10, 40.0, false).ended_within(&limits));
        assert!(searched(2, 1_000, 40.0, false).ended_within(&limits));
        assert!(searched(2, 10, -engine::ai::WIN, false).ended_within(&limits));
        assert!(searched(2, 10, 0.0, true).ended_within(&limits));
    }
}
