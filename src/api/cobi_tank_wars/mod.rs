//! `/v1/cobi-tank-wars`: the HTTP face of the Tank Wars round resolver:
//! its DTOs (orders travel as JSON; states in the engine's notation,
//! docs/TANK-WARS.md), how they map onto the engine, and the documentation
//! of its routes. The flows are the generic ones of `api::flows`.

mod ai_move;
mod dto;
mod invalid;
mod play;
mod puzzles;
pub use ai_move::*;
pub use dto::*;
use invalid::invalid_text;
use puzzles::{__path_puzzles, __path_puzzles_lines, puzzles, puzzles_lines};
pub use puzzles::{PuzzleEntry, PuzzlesRequest, ThemeName};

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::flows;
use super::flows::ask::{AiRequest, Suggested};
use super::flows::batch as batching;
use super::flows::budget::SharedBudget;
use super::flows::compare::{code_and_message, token};
use super::game::not_dispatched;
use super::game::{GameApi, UnfitAnswer};
use super::json_state::{self, json_state_api, Docs, Examples, JsonState};
use super::openapi::notation::{CobiTankWarsPlayerName, CobiTankWarsState};
use super::services::Services;
use super::transport::problem::RequestError;
use crate::error::Refusal;
use crate::games::cobi_tank_wars::{
    ai, check_orders, CobiTankWars, Event, IllegalOrders, Order, OrderData, OrderError, Player,
    Question, Round, State,
};
use crate::games::grid::Cell;
use crate::games::Game;
use crate::limits::Limits;
use crate::operations::Operation;
use crate::text::Text;

impl JsonState for CobiTankWars {
    type StateDto = StateDto;
    type StateSchema = CobiTankWarsState;
    type PlayerName = Player;
    type PlayerSchema = CobiTankWarsPlayerName;

    const DOCS: Docs = Docs {
        prefix: "CobiTankWars",
        called: "Tank Wars",
        moves: "orders",
        start: "The start state; the default one when absent.",
    };

    fn examples() -> Option<Examples> {
        Some(dto::examples())
    }

    fn encode_state(state: &State) -> StateDto {
        state.to_data()
    }

    /// `[P1's orders, P2's orders, seed]`, each player's orders an object
    /// by vehicle id (sorted) of `[direction, distance]`.
    fn step_json(round: &Round) -> serde_json::Value {
        let orders = |orders: &BTreeMap<String, OrderData>| {
            let by_vehicle = orders
                .iter()
                .map(|(id, order)| (id.clone(), json!([order.dir, order.dist])));
            serde_json::Value::Object(by_vehicle.collect())
        };
        let [p1, p2] = &round.orders;
        json!([orders(p1), orders(p2), round.seed])
    }

    fn decode_state(dto: &StateDto, field: &str, _limits: &Limits) -> Result<State, RequestError> {
        State::from_data(dto).map_err(|e| RequestError::invalid_position(invalid_text(&e), field))
    }

    fn draw(state: &State, lang: crate::i18n::Lang) -> String {
        crate::render::cobi_tank_wars(state, lang)
    }
}

/// Whether the game is over, the winner, whether it is drawn.
fn status(state: &State) -> (bool, Option<Player>, bool, Option<EndReasonName>) {
    match CobiTankWars::outcome(state) {
        None => (false, None, false, None),
        Some(winner) => (
            true,
            winner,
            winner.is_none(),
            Some(EndReasonName::Destroyed),
        ),
    }
}

/// Places a round's gunfire tokens given in `field` (a request's, not the
/// state's: a square off the board is that field's fault).
fn place_gunfire(state: &mut State, squares: &[String], field: &str) -> Result<(), RequestError> {
    state
        .place_gunfire(squares)
        .map_err(|e| RequestError::invalid_position(invalid_text(&e), field))
}

impl GameApi for CobiTankWars {
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
    type PickDto = SuggestedOrders;
    /// The other player's orders and gunfire, and the round's seed.
    type PlayWith = (VehicleOrders, Vec<String>, u64);
    const EXTRA_OPS: &'static [Operation] = &[Operation::Puzzles, Operation::PuzzlesLines];

    fn encode_pick(_: &State, orders: &Vec<(String, Order)>) -> SuggestedOrders {
        SuggestedOrders(orders.iter().cloned().collect())
    }

    const PLAYER_NAMES: [&'static str; 2] = Player::NAMES;

    fn problem_codes() -> Vec<&'static str> {
        OrderError::ALL.map(OrderError::code).to_vec()
    }

    fn extra_decodes(op: Operation, fields: &Value) -> Result<(), RequestError> {
        match op {
            Operation::Puzzles => batching::check::<PuzzlesRequest>(fields),
            _ => Err(not_dispatched(op)),
        }
    }

    async fn extra_op(
        op: Operation,
        fields: Value,
        services: &Services,
        shared: &SharedBudget,
    ) -> Result<batching::Written, RequestError> {
        match op {
            Operation::Puzzles => {
                let request = batching::decode(fields)?;
                let found = flows::puzzles::run::<CobiTankWars>(request, services, Some(shared));
                batching::to_json(found.await)
            }
            _ => Err(not_dispatched(op)),
        }
    }

    /// Every fault of the orders, not just the first.
    fn run_validate(
        request: ValidateRequest,
        limits: &Limits,
        lang: crate::i18n::Lang,
    ) -> Result<ValidateResponse, RequestError> {
        let state = Self::decode_state(&request.state, "state", limits)?;
        let round = Round {
            orders: [request.orders.p1.0, request.orders.p2.0],
            seed: 0,
        };
        let reasons: Vec<OrderReason> = match CobiTankWars::check(&state, &round) {
            Ok(()) => Vec::new(),
            Err(IllegalOrders(faults)) => faults
                .into_iter()
                .map(|fault| OrderReason::of(fault, lang))
                .collect(),
        };
        Ok(ValidateResponse {
            legal: reasons.is_empty(),
            reasons,
        })
    }

    /// A list a vehicle, under its player: its pointer (`/P1/P1-2`) and
    /// `P1/P1-2`.
    fn move_lists(answer: &Value) -> Vec<(String, String)> {
        Player::NAMES
            .into_iter()
            .filter_map(|player| Some((player, answer.get(player)?.as_object()?)))
            .flat_map(|(player, vehicles)| {
                vehicles.keys().map(move |vehicle| {
                    (
                        format!("/{player}/{}", token(vehicle)),
                        format!("{player}/{vehicle}"),
                    )
                })
            })
            .collect()
    }

    /// An order is its direction and distance (`to` and `blocked_now`
    /// follow from them).
    fn move_key(item: &Value) -> Value {
        match item {
            Value::Object(fields) => {
                let key: serde_json::Map<String, Value> = ["dir", "dist"]
                    .into_iter()
                    .filter_map(|name| Some((name.to_owned(), fields.get(name)?.clone())))
                    .collect();
                Value::Object(key)
            }
            other => other.clone(),
        }
    }

    /// The vehicle's order alone (`null`: no order for it).
    fn validate_listed(request: &Value, at: &str, key: &Value) -> Value {
        let state = request.get("state").cloned().unwrap_or_default();
        let (player, vehicle) = at.split_once('/').unwrap_or((at, ""));
        let orders = match key {
            Value::Null => json!({}),
            order => json!({ vehicle: order }),
        };
        json!({"state": state, "orders": { player: orders }})
    }

    /// The reason given the vehicle's order (or the game's: `GAME_OVER`).
    fn listed_refusal(answer: &Value, at: &str) -> Option<(String, String)> {
        let (_, vehicle) = at.split_once('/')?;
        let reasons = answer.get("reasons")?.as_array()?;
        let of_vehicle = reasons
            .iter()
            .find(|reason| reason.get("vehicle").and_then(Value::as_str) == Some(vehicle));
        let of_game = || {
            reasons
                .iter()
                .find(|reason| reason.get("vehicle").is_none())
        };
        code_and_message(of_vehicle.or_else(of_game)?)
    }

    fn run_legal_moves(
        request: json_state::LegalMovesRequest<Self>,
        limits: &Limits,
    ) -> Result<LegalMovesResponse, RequestError> {
        let state = Self::decode_state(&request.state, "state", limits)?;
        let moves = CobiTankWars::legal_moves(&state);
        let list = |player: Player| {
            let vehicles = moves.iter().filter_map(|(index, orders)| {
                let v = state.vehicles.get(*index).filter(|v| v.owner == player)?;
                Some((v.id.clone(), orders.clone()))
            });
            VehicleLegalOrders(vehicles.collect())
        };
        let wanted = |p: Player| request.player.is_none_or(|asked| asked == p);
        Ok(LegalMovesResponse {
            p1: wanted(Player::P1).then(|| list(Player::P1)),
            p2: wanted(Player::P2).then(|| list(Player::P2)),
        })
    }

    fn decode_apply(
        request: ApplyRequest,
        limits: &Limits,
    ) -> Result<(State, Round), RequestError> {
        let mut state = Self::decode_state(&request.state, "state", limits)?;
        place_gunfire(&mut state, &request.gunfire, "gunfire")?;
        let round = Round {
            orders: [request.orders.p1.0, request.orders.p2.0],
            seed: request.seed.unwrap_or(0),
        };
        Ok((state, round))
    }

    fn encode_apply(after: &State, events: Vec<Event>) -> ApplyResponse {
        let (finished, winner, draw, reason) = status(after);
        let [p1, p2] = CobiTankWars::score(after).vehicles;
        ApplyResponse {
            state: Self::encode_state(after),
            events,
            finished,
            winner,
            draw,
            reason,
            score: Counts { p1, p2 },
        }
    }

    fn encode_score(state: &State) -> ScoreResponse {
        let (finished, winner, draw, reason) = status(state);
        let tally = CobiTankWars::score(state);
        let per_player = |[p1, p2]: [u32; 2]| Counts { p1, p2 };
        ScoreResponse {
            vehicles: per_player(tally.vehicles),
            armor: per_player(tally.armor),
            support_cards: per_player(tally.support_cards),
            finished,
            winner,
            draw,
            reason,
            score: per_player(tally.vehicles),
        }
    }

    /// A round's gunfire tokens are recorded without their owner: a
    /// review judges the orders with them on the board, not where they
    /// were placed.
    fn unjudged(step: &ReplayRound) -> &'static [&'static str] {
        if step.gunfire.is_empty() {
            &[]
        } else {
            &["gunfire"]
        }
    }

    /// The round's gunfire tokens join the state's before its orders.
    fn replay_step(
        state: &mut State,
        round: ReplayRound,
        ply: usize,
        _: &Limits,
    ) -> Result<Round, RequestError> {
        place_gunfire(state, &round.gunfire, &format!("rounds[{ply}].gunfire"))?;
        Ok(Round {
            orders: [round.orders.p1.0, round.orders.p2.0],
            seed: round.seed.unwrap_or(0),
        })
    }

    /// The first fault is the one a refused round reports.
    /// The orders' field: `orders` of `apply`, `rounds[ply].orders` of a
    /// replay.
    fn refusal(illegal: IllegalOrders, ply: Option<usize>) -> Refusal {
        let first = illegal.first();
        let field = ply.map_or_else(
            || "orders".to_owned(),
            |ply| format!("rounds[{ply}].orders"),
        );
        Refusal::new(first.error.code(), &field)
            .by(first.player)
            .for_vehicle(first.vehicle)
            .at_ply(ply)
    }

    /// An `ai-move` for a finished game: its `state` is at fault.
    fn game_over(_: &Question) -> Refusal {
        Refusal::new(OrderError::GameOver.code(), "state")
    }

    fn canonical(state: &State, question: &Question) -> Result<String, RequestError> {
        let (player, tokens) = (question.player, question.gunfire_tokens);
        Ok(format!("{}|{player}|{tokens}", Self::state_text(state)?))
    }

    fn decode_ai(request: AiMoveRequest, limits: &Limits) -> Result<AiRequest<Self>, RequestError> {
        let state = Self::decode_state(&request.state, "state", limits)?;
        let tokens = request.gunfire_tokens;
        let gunfire_tokens = tokens
            .map_or(Ok(ai::DEFAULT_GUNFIRE_TOKENS), usize::try_from)
            .ok()
            .filter(|t| *t <= ai::MAX_GUNFIRE_TOKENS)
            .ok_or_else(|| {
                RequestError::bad_request(
                    Text::new("request-gunfire-tokens")
                        .with("max", ai::MAX_GUNFIRE_TOKENS)
                        .with("value", tokens.unwrap_or_default()),
                    Some("gunfire_tokens"),
                )
            })?;
        let question = Question {
            player: request.player,
            gunfire_tokens,
        };
        AiRequest::new(state, question, request.limits, request.seed)
            .styled(request.level, request.multipv)
    }

    fn play_with(
        request: &AiMoveRequest,
    ) -> Result<Option<(VehicleOrders, Vec<String>, u64)>, RequestError> {
        play::play_with(request)
    }

    fn played_step(
        state: &mut State,
        question: &Question,
        answer: &Suggested<AiSuggestion>,
        with: (VehicleOrders, Vec<String>, u64),
    ) -> Result<Round, RequestError> {
        let (gunfire, round) = play::played_round(question, answer, with);
        place_gunfire(state, &gunfire, "gunfire")?;
        Ok(round)
    }

    fn encode_ai(_: &State, s: ai::Suggestion) -> Suggested<AiSuggestion> {
        Suggested::new(AiSuggestion {
            orders: SuggestedOrders(s.orders.into_iter().collect()),
            gunfire: s
                .gunfire
                .into_iter()
                .map(|t| GunfireTargetDto {
                    square: t.square.to_string(),
                    probability: t.probability,
                })
                .collect(),
            value: s.value,
            candidates: s.candidates,
            samples: s.samples,
            simulations: s.simulations,
            lines: s
                .lines
                .into_iter()
                .map(|line| AnalysisLine {
                    orders: SuggestedOrders(line.orders.into_iter().collect()),
                    value: line.value,
                    samples: line.samples,
                })
                .collect(),
        })
    }

    /// `orders` and each line's orders are valid orders for every vehicle
    /// of the player (one each, none for another's), and `gunfire` names
    /// at most the asked tokens' squares, each on the board.
    fn check_ai_answer(
        state: &State,
        question: &Question,
        answer: &Suggested<AiSuggestion>,
    ) -> Result<(), UnfitAnswer> {
        let answer = &answer.suggestion;
        let check = |field: String, orders: &SuggestedOrders| {
            let given = orders
                .0
                .iter()
                .map(|(id, order)| (id.clone(), OrderData::from(*order)))
                .collect();
            let Err(faults) = check_orders(state, question.player, &given) else {
                return Ok(());
            };
            Err(match faults.into_iter().next() {
                Some((vehicle, error)) => UnfitAnswer {
                    field: format!("{field}[{vehicle:?}]"),
                    problem: error.to_string(),
                },
                None => UnfitAnswer {
                    field,
                    problem: "refused".to_owned(),
                },
            })
        };
        check("orders".to_owned(), &answer.orders)?;
        for (i, line) in answer.lines.iter().enumerate() {
            check(format!("lines[{i}].orders"), &line.orders)?;
        }
        if answer.gunfire.len() > question.gunfire_tokens {
            return Err(UnfitAnswer {
                field: "gunfire".to_owned(),
                problem: format!("more squares than the {} tokens", question.gunfire_tokens),
            });
        }
        for (i, target) in answer.gunfire.iter().enumerate() {
            let on_board = Cell::parse(&target.square).is_some_and(|cell| {
                state.board.contains(cell) && cell.to_string() == target.square
            });
            if !on_board {
                let field = format!("gunfire[{i}].square");
                return UnfitAnswer::unless_legal(false, field, &target.square);
            }
        }
        Ok(())
    }
}

// ------------------------------------------------------------- routes ---

super::game_routes::game_routes! {
    game: CobiTankWars,
    operation_prefix: "cobi_tank_wars",
    initial: {
        /// The default state.
        ///
        /// 8x8, three vehicles a side with 3 armor (P1 on c1, d1, f1; P2 on f8,
        /// e8, c8; card slots 1, 2, 3), no tokens, P1 first.
        ok: "The default state",
    },
    legal_moves: {
        /// Every order whose destination is on the board, per vehicle.
        ///
        /// For each vehicle of each player (or of `player`), the orders (direction
        /// N, E, S, W, then distance 1 to 3) that stay on the board, with their
        /// destination and whether another vehicle stands there now (the order is
        /// then cancelled unless that vehicle moves away first). None when the
        /// game is over.
        ok: "Orders by player and vehicle",
        bad_request: "`BAD_REQUEST` or `INVALID_POSITION`",
    },
    validate: {
        /// Whether the orders are legal, with every reason they are not.
        ///
        /// Legal orders give one order per vehicle of each player, each a
        /// direction N, E, S or W and a distance 1 to 3. Every fault is listed,
        /// P1's first, by vehicle id.
        ok: "Legal, or the reasons",
        bad_request: "`BAD_REQUEST` or `INVALID_POSITION`",
    },
    apply: {
        /// Plays one round.
        ///
        /// Movement in card order (artillery tokens cost armor on the way, a
        /// support token at the destination gives a support card), then gunfire,
        /// then the supply drop seeded by `seed`. Refused orders are a 422 with
        /// the first fault.
        ok: "The state after the round and the events",
        bad_request: "`BAD_REQUEST` or `INVALID_POSITION`",
        refused: "The orders are refused: `code` (`GAME_OVER`, `NO_SUCH_VEHICLE`, `MISSING_ORDER`, `BAD_DIRECTION`, `BAD_DISTANCE`) and `player` (P1's are checked first)",
    },
    score: {
        /// How the game stands.
        ///
        /// Vehicles, armor points and support cards per player, and whether the
        /// game is over (a player without vehicles loses; neither: a draw).
        ok: "How the game stands",
        bad_request: "`BAD_REQUEST` or `INVALID_POSITION`",
    },
    replay: {
        /// Replays rounds from a start state (the default one when absent); each
        /// round may first place gunfire tokens.
        ///
        /// The first refused round is a 422 with `ply`, its 0-based index.
        ok: "The state after each round and the final standing",
        bad_request: "`BAD_REQUEST`, `INVALID_POSITION` (also a round's gunfire square off the board) or `LIMIT_EXCEEDED`",
        refused: "Refused orders: `code`, `player` and `ply`",
    },
    ai_move: {
        /// Suggests orders for every vehicle of one player and squares for its
        /// gunfire tokens.
        ///
        /// Orders are hidden and revealed together, so this is a simulation, not a
        /// game-tree search: the enemy's orders are sampled (seeded) from a model
        /// of a sensible player, who takes support and avoids known artillery,
        /// gunfire and occupied squares; every joint order of the player's vehicles
        /// is played against the samples with the rules' own movement and gunfire,
        /// and successive halving keeps the better half each round while doubling
        /// the samples. Gunfire goes where the enemy most often stops against the
        /// chosen orders. Bounded by time, simulations (`max_nodes`) and halving
        /// rounds (`max_depth`); cached like the other AIs.
        ///
        /// `level` (1-8) plays like a person of that strength instead: a fixed
        /// recipe of halving rounds and simulations, and a choice among the
        /// measured joint orders weighted by value (level 1 measures each
        /// against 4 samples and often takes a worse one; level 8 is full
        /// strength at 100,000 simulated rounds); the same on any machine,
        /// repeated exactly with a `seed`. `multipv` lists the best joint
        /// orders with their values from the same search (analysis).
        ok: "The orders, gunfire squares and expected value",
        bad_request: "`BAD_REQUEST` (e.g. `gunfire_tokens` over 8) or `INVALID_POSITION`",
        refused: "`GAME_OVER`",
        examples: [
            ("full_strength", "Full strength within 20,000 simulated rounds", serde_json::json!({"state": example_state(), "player": "P1", "gunfire_tokens": 2, "limits": {"max_nodes": 20000}, "seed": 7})),
            ("level", "Level 3 of 8, as a site's casual opponent", serde_json::json!({"state": example_state(), "player": "P1", "gunfire_tokens": 1, "level": 3, "seed": 7})),
            ("multipv", "Analysis: the 3 best joint orders with their values", serde_json::json!({"state": example_state(), "player": "P1", "limits": {"max_nodes": 20000}, "multipv": 3, "seed": 7})),
        ],
    },
    render: {
        /// The board as an SVG picture: vehicles in their owner's colour with id,
        /// armor and card slot; artillery, support and gunfire tokens; labels, the
        /// round, the first player and the support cards.
        ///
        /// ![The default state](/v1/cobi-tank-wars/render.svg)
        bad_request: "`BAD_REQUEST` (`state` is not a state's JSON, or longer than its `maxLength`) or `INVALID_POSITION`",
    },
    extra: [
        (Operation::Puzzles, __path_puzzles, puzzles),
        (Operation::PuzzlesLines, __path_puzzles_lines, puzzles_lines),
    ],
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod invalid_tests;
