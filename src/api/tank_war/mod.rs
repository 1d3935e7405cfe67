//! `/v1/tank-war`: the HTTP face of The Tank War engine: its DTOs (states
//! in the engine's JSON notation, docs/TANK-WAR.md), how they map onto the
//! engine, and the
//! documentation of its routes. The flows are the generic ones of
//! `api::flows`.

mod dto;
mod invalid;
pub use dto::*;
use invalid::invalid_text;

use serde_json::Value;

use super::flows::ask::{other_step_needed, refuse_without_play, AiRequest, Suggested};
use super::game::{GameApi, UnfitAnswer};
use super::json_state::{self, json_state_api, Docs, Examples, JsonState};
use super::transport::problem::RequestError;
use crate::api::openapi::notation::{TankWarPlayerName, TankWarState};
use crate::error::Refusal;
use crate::games::tank_war::{
    self as engine, ai, Event, IllegalPick, Outcome, PickError, Player, Round, Setup, State,
    TankWar, NAME_MAX,
};
use crate::games::Game;
use crate::limits::Limits;
use crate::text::Text;

// ------------------------------------------------------------- codecs ---

fn tank_name(setup: &Setup, id: usize) -> String {
    setup
        .tanks
        .get(id)
        .map(|t| t.name.clone())
        .unwrap_or_default()
}

fn tank_owner(setup: &Setup, id: usize) -> Player {
    setup.tanks.get(id).map_or(Player::U, |t| t.owner)
}

/// `after` is the state after the round: tanks fire from the squares they
/// moved to.
fn encode_event(after: &State, event: Event) -> EventDto {
    let setup = &after.setup;
    match event {
        Event::Timeout { player } => EventDto::Timeout { player },
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
                        .square(&after.position, shooter)
                        .map(|c| c.to_string())
                        .unwrap_or_default(),
                })
                .collect(),
        },
    }
}

/// Whether the game is over, the winner, whether it is drawn, and why it
/// ended.
fn status(state: &State) -> (bool, Option<Player>, bool, Option<engine::EndReason>) {
    match TankWar::outcome(state) {
        None => (false, None, false, None),
        Some(Outcome { winner, reason }) => (true, winner, winner.is_none(), Some(reason)),
    }
}

fn sorted_names(setup: &Setup, ids: &[usize]) -> Vec<String> {
    let mut names: Vec<String> = ids.iter().map(|&id| tank_name(setup, id)).collect();
    names.sort();
    names
}

impl JsonState for TankWar {
    type StateDto = StateDto;
    type StateSchema = TankWarState;
    type PlayerName = Player;
    type PlayerSchema = TankWarPlayerName;

    const DOCS: Docs = Docs {
        prefix: "TankWar",
        called: "Tank War",
        moves: "picks",
        start: "The start state; the default setup when absent.",
    };

    fn examples() -> Option<Examples> {
        Some(dto::examples())
    }

    fn encode_state(state: &State) -> StateDto {
        state.setup.to_data_as(&state.position)
    }

    /// `[U's pick, D's pick, U's time, D's time]`.
    fn step_json(round: &Round) -> serde_json::Value {
        let [u, d] = &round.picks;
        let [u_ms, d_ms] = round.elapsed_ms;
        serde_json::json!([u, d, u_ms, d_ms])
    }

    fn decode_state(dto: &StateDto, field: &str, limits: &Limits) -> Result<State, RequestError> {
        if dto.tanks.len() > limits.tank_war_max_tanks {
            return Err(RequestError::limit_exceeded(
                Text::new("limit-tanks")
                    .with("count", dto.tanks.len())
                    .with("max", limits.tank_war_max_tanks),
                field,
            ));
        }
        if let Some(at) = dto
            .tanks
            .iter()
            .position(|t| t.name.is_empty() || t.name.chars().count() > NAME_MAX)
        {
            let name = format!("tanks[{at}].name");
            let name = match field {
                "" => name,
                field => format!("{field}.{name}"),
            };
            return Err(RequestError::bad_request(
                Text::new("request-tank-name").with("max", NAME_MAX),
                Some(&name),
            ));
        }
        if let Some(tank) = dto
            .tanks
            .iter()
            .find(|t| t.track.len() > limits.tank_war_max_track)
        {
            return Err(RequestError::limit_exceeded(
                Text::new("limit-track")
                    .with("tank", tank.name.as_str())
                    .with("count", tank.track.len())
                    .with("max", limits.tank_war_max_track),
                field,
            ));
        }
        let (setup, position) = Setup::from_data(dto)
            .map_err(|e| RequestError::invalid_position(invalid_text(&e), field))?;
        Ok(State { setup, position })
    }

    fn draw(state: &State, lang: crate::i18n::Lang) -> String {
        crate::render::tank_war(&state.setup, &state.position, lang)
    }
}

impl GameApi for TankWar {
    json_state_api!();
    type LegalMovesRequest = json_state::LegalMovesRequest<Self>;
    type LegalMovesResponse = LegalMovesResponse;
    type ValidateRequest = ValidateRequest;
    type ValidateResponse = ValidateResponse;
    type ApplyRequest = ApplyRequest;
    type ApplyResponse = ApplyResponse;
    type ScoreResponse = ScoreResponse;
    type AiMoveRequest = AiMoveRequest;
    type AiSuggestion = AiSuggestion;
    type ReplayStep = ReplayRound;
    type PickDto = TankPick;
    /// The other player's pick and the round's clock charges.
    type PlayWith = (String, [u64; 2]);

    fn encode_pick(state: &State, id: &usize) -> TankPick {
        TankPick(tank_name(&state.setup, *id))
    }

    const PLAYER_NAMES: [&'static str; 2] = Player::NAMES;

    fn problem_codes() -> Vec<&'static str> {
        PickError::ALL.map(PickError::code).to_vec()
    }

    /// Each given pick is checked on its own; at least one is needed.
    fn run_validate(
        request: ValidateRequest,
        limits: &Limits,
        lang: crate::i18n::Lang,
    ) -> Result<ValidateResponse, RequestError> {
        let State { setup, position } = Self::decode_state(&request.state, "state", limits)?;
        let OptionalPicks { u, d } = request.moves;
        if u.is_none() && d.is_none() {
            return Err(RequestError::bad_request(
                Text::new("request-no-picks"),
                Some("moves"),
            ));
        }
        let reason = |player, pick: Option<String>| {
            let refused = engine::check_pick(&setup, &position, player, &pick?).err()?;
            Some(PickReason::of(refused, lang))
        };
        let reasons = PickReasons {
            u: reason(Player::U, u),
            d: reason(Player::D, d),
        };
        Ok(ValidateResponse {
            legal: reasons.u.is_none() && reasons.d.is_none(),
            reasons,
        })
    }

    /// A list a player: `U`, `D`.
    fn move_lists(answer: &Value) -> Vec<(String, String)> {
        ["U", "D"]
            .into_iter()
            .filter(|player| answer.get(player).is_some())
            .map(|player| (format!("/{player}"), player.to_owned()))
            .collect()
    }

    fn validate_listed(request: &Value, at: &str, key: &Value) -> Value {
        let state = request.get("state").cloned().unwrap_or_default();
        serde_json::json!({"state": state, "moves": {at: key}})
    }

    fn listed_refusal(answer: &Value, at: &str) -> Option<(String, String)> {
        super::flows::compare::code_and_message(answer.get("reasons")?.get(at)?)
    }

    fn run_legal_moves(
        request: json_state::LegalMovesRequest<Self>,
        limits: &Limits,
    ) -> Result<LegalMovesResponse, RequestError> {
        let state = Self::decode_state(&request.state, "state", limits)?;
        let [u, d] = TankWar::legal_moves(&state);
        let wanted = |p: Player| request.player.is_none_or(|asked| asked == p);
        Ok(LegalMovesResponse {
            u: wanted(Player::U).then(|| sorted_names(&state.setup, &u)),
            d: wanted(Player::D).then(|| sorted_names(&state.setup, &d)),
        })
    }

    fn decode_apply(
        request: ApplyRequest,
        limits: &Limits,
    ) -> Result<(State, Round), RequestError> {
        let state = Self::decode_state(&request.state, "state", limits)?;
        let elapsed = request.elapsed_ms.unwrap_or_default();
        let round = Round {
            picks: [request.moves.u, request.moves.d],
            elapsed_ms: [elapsed.u, elapsed.d],
        };
        Ok((state, round))
    }

    fn encode_apply(after: &State, events: Vec<Event>) -> ApplyResponse {
        let (finished, winner, draw, reason) = status(after);
        let [u, d] = TankWar::score(after).surviving;
        ApplyResponse {
            state: Self::encode_state(after),
            events: events.into_iter().map(|e| encode_event(after, e)).collect(),
            finished,
            winner,
            draw,
            reason,
            score: PerPlayer { u, d },
        }
    }

    fn encode_score(state: &State) -> ScoreResponse {
        let (finished, winner, draw, reason) = status(state);
        let tally = TankWar::score(state);
        let per_player = |[u, d]: [usize; 2]| PerPlayer { u, d };
        ScoreResponse {
            finished,
            winner,
            draw,
            reason,
            score: per_player(tally.surviving),
            surviving: per_player(tally.surviving),
            territory: per_player(tally.territory),
        }
    }

    fn replay_step(
        _: &mut State,
        round: ReplayRound,
        _: usize,
        _: &Limits,
    ) -> Result<Round, RequestError> {
        let elapsed = round.elapsed_ms.unwrap_or_default();
        Ok(Round {
            picks: [round.u, round.d],
            elapsed_ms: [elapsed.u, elapsed.d],
        })
    }

    /// The picks' field: `moves` of `apply`, `rounds[ply]` of a replay.
    fn refusal(illegal: IllegalPick, ply: Option<usize>) -> Refusal {
        let code = illegal.error.code();
        let field = ply.map_or_else(|| "moves".to_owned(), |ply| format!("rounds[{ply}]"));
        Refusal::new(code, &field)
            .by(Some(illegal.player))
            .at_ply(ply)
    }

    /// An `ai-move` for a finished game: its `state` is at fault.
    fn game_over(player: &Player) -> Refusal {
        Refusal::new(PickError::GameOver.code(), "state").by(Some(player))
    }

    fn canonical(state: &State, player: &Player) -> Result<String, RequestError> {
        Ok(format!("{}|{player}", Self::state_text(state)?))
    }

    fn decode_ai(request: AiMoveRequest, limits: &Limits) -> Result<AiRequest<Self>, RequestError> {
        let state = Self::decode_state(&request.state, "state", limits)?;
        AiRequest::new(state, request.player, request.limits, request.seed)
            .styled(request.level, None)
    }

    /// `moves` holds the other player's pick, and only it, when `play`
    /// asks; neither it nor `elapsed_ms` is given without `play`.
    fn play_with(request: &AiMoveRequest) -> Result<Option<(String, [u64; 2])>, RequestError> {
        let player: Player = request.player;
        let other = player.other();
        if !request.play {
            refuse_without_play(&[
                ("moves", request.moves.is_some()),
                ("elapsed_ms", request.elapsed_ms.is_some()),
            ])?;
            return Ok(None);
        }
        let moves = request.moves.as_ref();
        let pick = |p: Player| {
            moves.and_then(|m| match p {
                Player::U => m.u.clone(),
                Player::D => m.d.clone(),
            })
        };
        let field = format!("moves.{other}");
        match (pick(player), pick(other)) {
            (None, Some(theirs)) => {
                let elapsed = request.elapsed_ms.unwrap_or_default();
                Ok(Some((theirs, [elapsed.u, elapsed.d])))
            }
            _ => Err(other_step_needed(&field, player.name())),
        }
    }

    fn played_step(
        _: &mut State,
        player: &Player,
        answer: &Suggested<AiSuggestion>,
        (theirs, elapsed_ms): (String, [u64; 2]),
    ) -> Result<Round, RequestError> {
        let mine = answer.suggestion.pick.clone();
        let picks = match player {
            Player::U => [mine, theirs],
            Player::D => [theirs, mine],
        };
        Ok(Round { picks, elapsed_ms })
    }

    fn encode_ai(state: &State, result: ai::SearchResult) -> Suggested<AiSuggestion> {
        Suggested::new(AiSuggestion {
            pick: tank_name(&state.setup, result.pick),
            strategy: result
                .strategy
                .iter()
                .zip(&result.worst_case)
                .map(|(&(id, probability), &(_, worst_case))| StrategyEntry {
                    pick: tank_name(&state.setup, id),
                    probability,
                    worst_case,
                })
                .collect(),
            value: result.value,
            exact: result.exact,
            expected_result: result.expected_result,
            depth: result.depth,
            nodes: result.nodes,
        })
    }

    /// `move` and each `strategy` entry name a tank the player may pick.
    fn check_ai_answer(
        state: &State,
        player: &Player,
        answer: &Suggested<AiSuggestion>,
    ) -> Result<(), UnfitAnswer> {
        let answer = &answer.suggestion;
        let pickable: Vec<String> = engine::pickable(&state.setup, &state.position, *player)
            .into_iter()
            .map(|id| tank_name(&state.setup, id))
            .collect();
        let check = |field: String, name: &str| {
            UnfitAnswer::unless_legal(pickable.iter().any(|tank| tank == name), field, name)
        };
        check("move".to_owned(), &answer.pick)?;
        for (i, entry) in answer.strategy.iter().enumerate() {
            check(format!("strategy[{i}].move"), &entry.pick)?;
        }
        Ok(())
    }
}

// ------------------------------------------------------------- routes ---

super::game_routes::game_routes! {
    game: TankWar,
    operation_prefix: "tank_war",
    initial: {
        /// The default setup.
        ///
        /// 6x6; D owns rows 1-3 and U rows 4-6; each tank moves along its column
        /// towards the other side; 120 s on each clock.
        ok: "The default setup",
    },
    legal_moves: {
        /// The tanks each player may pick this round.
        ///
        /// A tank can be picked when it is alive, not at the end of its track, and
        /// its next square is empty now. Sorted by name, for both players or for
        /// `player`; none when the game is over.
        ok: "Pickable tanks by player",
        bad_request: "`BAD_REQUEST`, `INVALID_POSITION` or `LIMIT_EXCEEDED` (state too large)",
    },
    validate: {
        /// Whether the given picks are legal.
        ///
        /// Each given pick (U's, D's or both) is checked on its own; each illegal
        /// one gets a reason (`GAME_OVER`, `NO_SUCH_TANK`, `END_OF_TRACK`,
        /// `SQUARE_OCCUPIED`).
        ok: "Legal, or the reasons",
        bad_request: "`BAD_REQUEST` (no pick given) or `INVALID_POSITION`",
    },
    apply: {
        /// Plays one round: both picks move at once (a contested square goes to
        /// its owner), then every tank fires at once.
        ///
        /// `elapsed_ms` is charged to the clocks first: a player whose clock falls
        /// to 0 or below loses (both: a draw) and the round is not played.
        ok: "The state after the round and the events",
        bad_request: "`BAD_REQUEST`, `INVALID_POSITION` or `LIMIT_EXCEEDED` (state too large)",
        refused: "A pick is illegal: `code` (`GAME_OVER`, `NO_SUCH_TANK`, `END_OF_TRACK`, `SQUARE_OCCUPIED`) and `player` (U's is checked first)",
    },
    score: {
        /// How the game stands.
        ///
        /// Surviving tanks and owned squares per player, and whether the game is
        /// over, who won and why (no pickable tank, or a clock ran out).
        ok: "How the game stands",
        bad_request: "`BAD_REQUEST`, `INVALID_POSITION` or `LIMIT_EXCEEDED` (state too large)",
    },
    replay: {
        /// Replays rounds from a start state (the default setup when absent).
        ///
        /// The first illegal round is a 422 with `ply`, its 0-based index.
        ok: "The state after each round and the final standing",
        bad_request: "`BAD_REQUEST`, `INVALID_POSITION` or `LIMIT_EXCEEDED` (state too large)",
        refused: "A pick is illegal: `code`, `player` and `ply`",
    },
    ai_move: {
        /// Suggests a pick for one player: the solved game's equilibrium, else a search.
        ///
        /// Whenever the game from the state can be solved within the limits
        /// (always for the default setup at the default limits: its first
        /// rounds come from a table solved offline), the answer is an exact
        /// equilibrium strategy of the whole game, `"exact": true`, with the
        /// game's `expected_result` for the player (1 a win, 0 a draw, -1 a
        /// loss) and each pick's worst case on that scale. Otherwise each
        /// round ahead is a zero-sum matrix game over both players' picks,
        /// solved for mixed strategies (exact saddle points, else regret
        /// matching+), with iterative deepening within the limits. The answer
        /// is the whole mixed strategy, each pick's worst case (its value
        /// against the opponent's best reply: an analysis), and a pick drawn
        /// from it with `seed`. Cached like Tank Battle's AI.
        ///
        /// `level` (1-8) plays like a person of that strength instead: a fixed
        /// recipe of rounds and positions, and a beginner's habits (level 1
        /// keeps its tanks in line, level 3 picks almost uniformly, level 4 keeps
        /// the line in 30% of the rounds; level 8 plays exactly where the game
        /// can be solved, else full strength at 650,000 positions); the same on
        /// any machine, repeated exactly with a `seed`.
        ok: "The pick, the strategy and the value",
        bad_request: "`BAD_REQUEST`, `INVALID_POSITION` or `LIMIT_EXCEEDED` (state too large)",
        refused: "`GAME_OVER`",
        examples: [
            ("full_strength", "Full strength, 2 rounds ahead", serde_json::json!({"state": default_state_json(), "player": "D", "limits": {"max_depth": 2}, "seed": 1})),
            ("level", "Level 5 of 8, as a site's casual opponent", serde_json::json!({"state": default_state_json(), "player": "D", "level": 5, "seed": 1})),
        ],
    },
    render: {
        /// The board as an SVG picture: territory shading, each tank's track, the
        /// tanks in their owner's colour with their type letter and name, file and
        /// row labels, the round and the clocks.
        ///
        /// ![The default setup](/v1/tank-war/render.svg)
        bad_request: "`BAD_REQUEST` (`state` is not a state's JSON, or longer than its `maxLength`), `INVALID_POSITION` or `LIMIT_EXCEEDED`",
    },
    extra: [],
}
