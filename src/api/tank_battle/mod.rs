//! `/v1/tank-battle`: the HTTP face of the Tank Battle engine: its DTOs,
//! how they map onto the engine, and the documentation of its routes. The
//! flows are the generic ones of `api::flows`; the rules live in
//! `games::tank_battle`.

mod ai_move;
mod codec;
mod dto;
mod extra;
mod puzzles;
mod replay;
pub use ai_move::*;
use codec::{
    decode, decode_arrows, decode_drawn, decode_layout, decode_move, decode_position, decode_rules,
    decode_square, notation, notation_kind, score_pair, status,
};
pub use dto::*;
use extra::{__path_initial, __path_perft_count, initial, perft_count, run_perft};
pub use extra::{PerftRequest, PerftResponse};
use puzzles::{__path_puzzles, __path_puzzles_lines, puzzles, puzzles_lines};
pub use puzzles::{PuzzleEntry, PuzzlesRequest, ThemeName};
pub use replay::*;

use serde_json::Value;

use std::time::Instant;

use super::flows::ask::{AiRequest, Judging, Suggested};
use super::flows::batch as batching;
use super::flows::budget::SharedBudget;
use super::game::not_dispatched;
use super::game::{GameApi, UnfitAnswer};
use super::services::Services;
use super::transport::problem::RequestError;
use crate::error::Refusal;
use crate::games::tank_battle::ai::SearchResult;
use crate::games::tank_battle::{
    self as engine, IllegalMove, Layout, Move, MoveText, Notation, Position, State, TankBattle,
    STANDARD_NAME,
};
use crate::games::Game;
use crate::limits::Limits;
use crate::operations::Operation;

impl GameApi for TankBattle {
    type LegalMovesRequest = LegalMovesRequest;
    type LegalMovesResponse = LegalMovesResponse;
    /// `validate` and `apply` take a move, `score` a position.
    type ValidateRequest = MoveRequest;
    type ValidateResponse = ValidateResponse;
    type ApplyRequest = MoveRequest;
    type ApplyResponse = ApplyResponse;
    type ScoreRequest = PositionRequest;
    type ScoreResponse = ScoreResponse;
    type ReplayRequest = ReplayRequest;
    type ReplayResponse = ReplayResponse;
    type AiMoveRequest = AiMoveRequest;
    type AiSuggestion = AiSuggestion;
    type RenderQuery = RenderQuery;
    /// A replay lists moves in move notation and answers positions in TBN.
    type ReplayStep = String;
    type ReplayState = Position;
    type AnnotateRequest = AnnotateRequest;
    type PickDto = PlayedMove;
    type PlayWith = ();
    const SCHEMA_PREFIX: &'static str = "TankBattle";

    fn problem_codes() -> Vec<&'static str> {
        let notations = [Notation::Position, Notation::Layout, Notation::Move];
        let notations = notations.map(|notation| notation_kind(notation).code);
        let rules = engine::Reason::ALL.map(engine::Reason::code);
        notations.into_iter().chain(rules).collect()
    }

    const REPLAY_STEPS: &'static str = "moves";
    const STATE_FIELD: &'static str = "position";
    const EXTRA_OPS: &'static [Operation] = &[
        Operation::Perft,
        Operation::Puzzles,
        Operation::PuzzlesLines,
    ];

    /// One list: `moves`, each entry known by its `move`.
    fn move_lists(_: &Value) -> Vec<(String, String)> {
        vec![("/moves".to_owned(), String::new())]
    }

    fn move_key(item: &Value) -> Value {
        item.get("move").unwrap_or(item).clone()
    }

    fn validate_listed(request: &Value, _: &str, key: &Value) -> Value {
        let mut body: serde_json::Map<String, Value> = ["position", "layout"]
            .into_iter()
            .filter_map(|field| Some((field.to_owned(), request.get(field)?.clone())))
            .collect();
        body.insert("move".to_owned(), key.clone());
        Value::Object(body)
    }

    fn listed_refusal(answer: &Value, _: &str) -> Option<(String, String)> {
        super::flows::compare::code_and_message(answer.get("reason")?)
    }

    fn run_legal_moves(
        request: LegalMovesRequest,
        limits: &Limits,
    ) -> Result<LegalMovesResponse, RequestError> {
        let state = decode(&request, limits)?;
        let from = request.from.map(|text| decode_square(&text, "from"));
        let from = from.transpose()?;
        let moves: Vec<KeptEntry> = TankBattle::legal_moves(&state)
            .into_iter()
            .filter(|mv| from.is_none_or(|from| mv.from == from))
            .map(KeptEntry)
            .collect();
        Ok(LegalMovesResponse {
            count: moves.len(),
            moves,
        })
    }

    fn run_validate(
        request: MoveRequest,
        limits: &Limits,
        lang: crate::i18n::Lang,
    ) -> Result<ValidateResponse, RequestError> {
        let state = decode(&request, limits)?;
        let text = decode_move(&request.notation, "move")?;
        let verdict = state.validate(text);
        Ok(ValidateResponse {
            legal: verdict.is_ok(),
            notation: verdict.ok(),
            reason: verdict.err().map(|err| ReasonBody::of(err, lang)),
        })
    }

    fn render(
        query: RenderQuery,
        _: &Limits,
        lang: crate::i18n::Lang,
    ) -> Result<String, RequestError> {
        for (text, field) in [
            (&query.position, "position"),
            (&query.layout, "layout"),
            (&query.last_move, "last_move"),
            (&query.moves_from, "moves_from"),
            (&query.arrows, "arrows"),
        ] {
            if let Some(text) = text {
                Limits::check_query(text, Limits::QUERY_NOTATION_MAX_CHARS, field)?;
            }
        }
        let layout = decode_layout(query.layout.as_deref())?;
        let position = match query.position.as_deref() {
            Some(text) => decode_position(text, &layout, "position")?,
            None => Position::initial(&layout),
        };
        let last_move = query.last_move.map(|text| decode_drawn(&text, "last_move"));
        let last_move = last_move.transpose()?;
        let selected = query
            .moves_from
            .map(|text| decode_square(&text, "moves_from"));
        let selected = selected.transpose()?;
        let moves = selected.map(|from| position.legal_moves_from(&layout, from));
        let arrows = query.arrows.as_deref().map(decode_arrows).transpose()?;
        Ok(crate::render::tank_battle(
            &layout,
            &position,
            last_move,
            selected.zip(moves.as_deref()),
            &arrows.unwrap_or_default(),
            lang,
        ))
    }

    fn decode_apply(
        request: MoveRequest,
        limits: &Limits,
    ) -> Result<(State, MoveText), RequestError> {
        let state = decode(&request, limits)?;
        Ok((state, decode_move(&request.notation, "move")?))
    }

    fn encode_apply(after: &State, mv: Move) -> ApplyResponse {
        let (finished, winner, draw, reason) = status(after);
        ApplyResponse {
            position: after.position,
            notation: mv,
            captured: mv.capture.map(|role| Captured {
                square: mv.to,
                kind: role,
                // The captured tank's side moves next.
                side: after.position.turn(),
            }),
            finished,
            winner,
            draw,
            reason,
            score: score_pair(&TankBattle::score(after)),
            turn: after.position.turn(),
        }
    }

    fn decode_score(request: PositionRequest, limits: &Limits) -> Result<State, RequestError> {
        decode(&request, limits)
    }

    fn encode_score(state: &State) -> ScoreResponse {
        let tally = TankBattle::score(state);
        let (finished, winner, draw, reason) = status(state);
        ScoreResponse {
            score: score_pair(&tally),
            finished,
            winner,
            draw,
            reason,
            breakdown: tally,
        }
    }

    fn decode_replay(
        request: ReplayRequest,
        limits: &Limits,
    ) -> Result<(State, Vec<String>), RequestError> {
        super::flows::record::check_game::<Self>(request.game.as_deref())?;
        limits.check_replay(request.moves.len(), "moves")?;
        let layout = decode_layout(request.layout.as_deref())?;
        let position = match request.start.as_deref() {
            Some(start) => decode_position(start, &layout, "start")?,
            None => Position::initial(&layout),
        };
        let policy = decode_rules(request.rules, limits)?;
        Ok((State::new(layout, position).under(policy), request.moves))
    }

    /// The replay's game, and the judging asked (`limits` is the request's,
    /// `server` the server's).
    fn decode_annotate(
        mut request: AnnotateRequest,
        server: &Limits,
    ) -> Result<(State, Vec<String>, Judging), RequestError> {
        let judging = Judging {
            limits: request.limits.take(),
            level: request.level,
        };
        let (state, moves) = Self::decode_replay(request.into(), server)?;
        Ok((state, moves, judging))
    }

    fn encode_pick(_: &State, mv: &Move) -> PlayedMove {
        PlayedMove(*mv)
    }

    const PLAYER_NAMES: [&'static str; 2] = engine::Side::NAMES;

    fn replay_step(
        _: &mut State,
        text: String,
        ply: usize,
        _: &Limits,
    ) -> Result<MoveText, RequestError> {
        text.parse()
            .map_err(|e| notation(e, &format!("moves[{ply}]"), Some(ply)))
    }

    fn replay_state(state: &State) -> Position {
        state.position
    }

    fn encode_replay(positions: Vec<Position>, last: ScoreResponse) -> ReplayResponse {
        ReplayResponse {
            positions,
            final_state: last,
        }
    }

    fn refusal(error: IllegalMove, ply: Option<usize>) -> Refusal {
        let field = ply.map_or_else(|| "move".to_owned(), |ply| format!("moves[{ply}]"));
        Refusal::new(error.reason.code(), &field)
            .at_square(error.square)
            .at_ply(ply)
    }

    fn game_over(_: &()) -> Refusal {
        Refusal::new(engine::Reason::GameOver.code(), "position")
    }

    fn decode_ai(request: AiMoveRequest, limits: &Limits) -> Result<AiRequest<Self>, RequestError> {
        let state = decode(&request, limits)?;
        AiRequest::new(state, (), request.limits, request.seed)
            .styled(request.level, request.multipv)
    }

    fn play_with(request: &AiMoveRequest) -> Result<Option<()>, RequestError> {
        Ok(request.play.then_some(()))
    }

    fn played_step(
        _: &mut State,
        (): &(),
        answer: &Suggested<AiSuggestion>,
        (): (),
    ) -> Result<MoveText, RequestError> {
        answer
            .suggestion
            .notation
            .parse()
            .map_err(|e| RequestError::Internal(format!("the AI's move does not read: {e}")))
    }

    fn step_text(state: &State, step: &MoveText) -> Result<String, RequestError> {
        Ok(format!("{}|{step}", Self::canonical(state, &())?))
    }

    fn canonical(state: &State, (): &()) -> Result<String, RequestError> {
        use std::fmt::Write;
        let mut text = String::with_capacity(200);
        // Writing to a `String` cannot fail.
        let _ = if state.layout == Layout::STANDARD {
            write!(text, "{STANDARD_NAME}|{}", state.position)
        } else {
            write!(text, "{}|{}", state.layout, state.position)
        };
        // The search plays toward a ply limit; the rules as written keep
        // the keys they always had.
        if let Some(max) = state.policy.max_plies {
            let _ = write!(text, "|max_plies={max}");
        }
        Ok(text)
    }

    fn encode_ai(_: &State, result: SearchResult) -> Suggested<AiSuggestion> {
        Suggested::new(AiSuggestion {
            notation: result.best.to_notation(),
            evaluation: result.evaluation,
            depth: result.depth,
            nodes: result.nodes,
            pv: result.pv.iter().map(Move::to_notation).collect(),
            lines: result
                .lines
                .iter()
                .map(|line| AnalysisLine {
                    notation: line.mv.to_notation(),
                    evaluation: line.evaluation,
                    pv: line.pv.iter().map(Move::to_notation).collect(),
                })
                .collect(),
        })
    }

    /// `move`, the first move of `pv` and each line's `move` and first
    /// `pv` move are legal moves of the position, in canonical notation.
    fn check_ai_answer(
        state: &State,
        (): &(),
        answer: &Suggested<AiSuggestion>,
    ) -> Result<(), UnfitAnswer> {
        let answer = &answer.suggestion;
        let legal: Vec<String> = TankBattle::legal_moves(state)
            .iter()
            .map(Move::to_notation)
            .collect();
        let check = |field: String, notation: &str| {
            UnfitAnswer::unless_legal(legal.iter().any(|mv| mv == notation), field, notation)
        };
        check("move".to_owned(), &answer.notation)?;
        if let Some(first) = answer.pv.first() {
            check("pv[0]".to_owned(), first)?;
        }
        for (i, line) in answer.lines.iter().enumerate() {
            check(format!("lines[{i}].move"), &line.notation)?;
            if let Some(first) = line.pv.first() {
                check(format!("lines[{i}].pv[0]"), first)?;
            }
        }
        Ok(())
    }

    fn extra_decodes(op: Operation, fields: &Value) -> Result<(), RequestError> {
        match op {
            Operation::Perft => batching::check::<PerftRequest>(fields),
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
            Operation::Perft => {
                let request = batching::decode(fields)?;
                let units = op.price(&services.limits).units;
                let deadline = shared.next_search(Instant::now(), units)?;
                batching::to_json(run_perft(request, services, Some(deadline)).await)
            }
            Operation::Puzzles => {
                let request = batching::decode(fields)?;
                let found =
                    crate::api::flows::puzzles::run::<TankBattle>(request, services, Some(shared));
                batching::to_json(found.await)
            }
            _ => Err(not_dispatched(op)),
        }
    }
}

// ------------------------------------------------------------- routes ---

super::game_routes::game_routes! {
    game: TankBattle,
    operation_prefix: "tank_battle",
    legal_moves: {
        /// Every legal move of the side to move.
        ///
        /// Sorted by `from` square (file, then rank), then by `to`. A finished
        /// position has no legal moves. With `from`, only that tank's moves.
        ok: "The legal moves",
        bad_request: "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT`, `BAD_MOVE_NOTATION` (for `from`) or `INVALID_POSITION`",
    },
    validate: {
        /// Whether a move is legal, and if not, the first rule it breaks.
        ///
        /// Reasons are checked in a fixed order (`GAME_OVER`, `NO_TANK_AT_FROM`,
        /// `NOT_YOUR_TANK`, `NOT_A_LINE`, then along the path: `MINE`,
        /// `CONTAMINATED`, `LOCKED_IN_ENEMY_BASE`, `PATH_BLOCKED`,
        /// `OWN_TANK_AT_TO`, `CAPTURE_IN_CONTAMINATED`); `square` names where the
        /// move failed.
        ok: "Legal, with the canonical move; or illegal, with the reason",
        bad_request: "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT`, `BAD_MOVE_NOTATION` or `INVALID_POSITION`",
    },
    apply: {
        /// Plays a move.
        ///
        /// Answers the position after the move, the canonical move, the tank it
        /// captured, whether the game is over (and who won) and the score. An
        /// illegal move is a 422 whose `code` is the first rule it breaks.
        ok: "The position after the move",
        bad_request: "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT`, `BAD_MOVE_NOTATION` or `INVALID_POSITION`",
        refused: "The move is illegal: `code` is the reason (e.g. `PATH_BLOCKED`, `GAME_OVER`) and `square` where it failed",
    },
    score: {
        /// The current score, with its breakdown.
        ///
        /// Each side scores 3 for its commander on the opponent's commander start,
        /// 2 for its commander elsewhere in the opponent's base, 2 per normal tank
        /// in the opponent's base and 1 per other surviving tank. Also whether the
        /// game is over, and who won.
        ok: "The score",
        bad_request: "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT` or `INVALID_POSITION`",
    },
    replay: {
        /// Replays a whole game and checks every move.
        ///
        /// The first unparsable move is a 400 and the first illegal one a 422, both
        /// with `ply`, the 0-based index into `moves`.
        ok: "The position after each move and the final state",
        bad_request: "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT`, `BAD_MOVE_NOTATION` (with `ply`), `INVALID_POSITION` or `LIMIT_EXCEEDED` (too many moves)",
        refused: "A move is illegal: `code` is the reason, `ply` its index in `moves`",
    },
    ai_move: {
        /// Suggests a move for the side to move.
        ///
        /// An iterative-deepening alpha-beta search, bounded by time, depth and
        /// nodes (each capped by the server) and run off the request threads.
        /// Answers are cached: an identical request (layout, position, limits,
        /// seed, level, multipv) is answered from the cache with `"cached":
        /// true`.
        ///
        /// `level` (1-8) plays like a person of that strength instead: a fixed
        /// recipe of depth and positions, and a choice among all moves weighted
        /// by value (level 1 plays a move a point worse than the best two thirds
        /// as often as the best; level 8 is full strength at 300,000
        /// positions); the same on any machine, repeated exactly with a
        /// `seed`. `multipv` lists the best moves with exact evaluations and
        /// lines from the same search (analysis, a hint button).
        ok: "The AI's move",
        bad_request: "`BAD_REQUEST`, `BAD_POSITION`, `BAD_LAYOUT` or `INVALID_POSITION`",
        refused: "`GAME_OVER`: the position is finished",
        examples: [
            ("full_strength", "Full strength, 4 plies deep", serde_json::json!({"position": crate::games::tank_battle::INITIAL_TBN, "limits": {"max_depth": 4}, "seed": 1})),
            ("level", "Level 3 of 8, as a site's casual opponent", serde_json::json!({"position": crate::games::tank_battle::INITIAL_TBN, "level": 3, "seed": 1})),
            ("multipv", "Analysis: the 3 best moves with their values and lines", serde_json::json!({"position": crate::games::tank_battle::INITIAL_TBN, "limits": {"max_depth": 4}, "multipv": 3})),
        ],
    },
    render: {
        /// The board as an SVG picture: terrain in the rules' colours (blue White
        /// base, green Black base, red contaminated area, black mines, a circle on
        /// each commander start), the tanks (commanders with a star), file and rank
        /// labels, and optionally the last move as an arrow and one tank's legal
        /// moves as dots.
        ///
        /// ![The start position, with the moves of the tank on j4](/v1/tank-battle/render.svg?moves_from=j4)
        bad_request: "`BAD_POSITION`, `BAD_LAYOUT`, `BAD_MOVE_NOTATION` (for `last_move` or `moves_from`), `INVALID_POSITION`, or an unknown query parameter or one longer than its `maxLength` (`BAD_REQUEST`)",
    },
    extra: [
        (Operation::Initial, __path_initial, initial),
        (Operation::Perft, __path_perft_count, perft_count),
        (Operation::Puzzles, __path_puzzles, puzzles),
        (Operation::PuzzlesLines, __path_puzzles_lines, puzzles_lines),
    ],
}
