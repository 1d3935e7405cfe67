"""A game site's calls through the Python client generated from
openapi/openapi.json by openapi-python-client (clients/python/config.yaml):
every game from its start to an AI's move, a batch with typed results and a
picture; then a whole game of each hosted to its end, reviewed and drawn.
Checked with `mypy --strict`: every value read here is typed by the
document.

    python3 flow.py http://127.0.0.1:8080 [api-key]
"""

import json
import sys
from http import HTTPStatus
from typing import Any, Protocol, TypeVar

from tank_rules_client import AuthenticatedClient
from tank_rules_client.api.cobi_tank_wars import (
    cobi_tank_wars_ai_move,
    cobi_tank_wars_annotate,
    cobi_tank_wars_annotate_lines,
    cobi_tank_wars_apply,
    cobi_tank_wars_batch,
    cobi_tank_wars_initial,
    cobi_tank_wars_legal_moves,
    cobi_tank_wars_render,
    cobi_tank_wars_score,
    cobi_tank_wars_puzzles,
    cobi_tank_wars_validate,
)
from tank_rules_client.api.tank_battle import (
    tank_battle_ai_move,
    tank_battle_annotate,
    tank_battle_annotate_lines,
    tank_battle_apply,
    tank_battle_batch,
    tank_battle_initial,
    tank_battle_legal_moves,
    tank_battle_puzzles,
    tank_battle_render,
    tank_battle_score,
    tank_battle_validate,
)
from tank_rules_client.api.tank_war import (
    tank_war_ai_move,
    tank_war_annotate,
    tank_war_annotate_chart,
    tank_war_annotate_lines,
    tank_war_apply,
    tank_war_batch,
    tank_war_initial,
    tank_war_legal_moves,
    tank_war_render,
    tank_war_score,
    tank_war_validate,
)
from tank_rules_client.models import (
    AiLimits,
    AnnotationLabel,
    BatchProblem,
    CobiTankWarsAnnotateLineEntry,
    CobiTankWarsAnnotateLineSummary,
    CobiTankWarsAnnotateRequest,
    CobiTankWarsAnnotateResponse,
    CobiTankWarsReplayRound,
    CobiTankWarsAiMoveRequest,
    CobiTankWarsAiMoveResponse,
    CobiTankWarsApplyRequest,
    CobiTankWarsApplyResponse,
    CobiTankWarsBatchApply,
    CobiTankWarsBatchLegalMoves,
    CobiTankWarsBatchLegalMovesResult,
    CobiTankWarsBatchRequest,
    CobiTankWarsBatchResponse,
    CobiTankWarsBatchValidate,
    CobiTankWarsBatchValidateResult,
    CobiTankWarsDirection,
    CobiTankWarsEventCancelled,
    CobiTankWarsEventMoved,
    CobiTankWarsEventSupplyDrop,
    CobiTankWarsLegalMovesRequest,
    CobiTankWarsLegalMovesResponse,
    CobiTankWarsOrder,
    CobiTankWarsOrderCode,
    CobiTankWarsOrders,
    CobiTankWarsPlayerName,
    CobiTankWarsPuzzlesRequest,
    CobiTankWarsPuzzlesResponse,
    CobiTankWarsScoreResponse,
    CobiTankWarsState,
    CobiTankWarsStateAnswer,
    CobiTankWarsStateRequest,
    CobiTankWarsValidateRequest,
    CobiTankWarsValidateResponse,
    CobiTankWarsVehicleOrders,
    GameRecordResult,
    Problem,
    ProblemCode,
    TankBattleAiMoveRequest,
    TankBattleAiMoveResponse,
    TankBattleAnnotateLineEntry,
    TankBattleAnnotateLineSummary,
    TankBattleAnnotateRequest,
    TankBattleAnnotateResponse,
    TankBattleApplyResponse,
    TankBattleBatchApply,
    TankBattleBatchPerft,
    TankBattleBatchPerftResult,
    TankBattleBatchRequest,
    TankBattleBatchResponse,
    TankBattleBatchValidate,
    TankBattleBatchValidateResult,
    TankBattleInitialResponse,
    TankBattleLegalMovesRequest,
    TankBattleLegalMovesResponse,
    TankBattlePuzzlesRequest,
    TankBattlePuzzlesResponse,
    TankBattleMoveRequest,
    TankBattlePositionRequest,
    TankBattleReasonCode,
    TankBattleRules,
    TankBattleScoreResponse,
    TankBattleValidateResponse,
    TankWarAiMoveRequest,
    TankWarAiMoveResponse,
    TankWarAnnotateLineEntry,
    TankWarAnnotateLineSummary,
    TankWarAnnotateRequest,
    TankWarAnnotateResponse,
    TankWarApplyRequest,
    TankWarApplyResponse,
    TankWarBatchApply,
    TankWarBatchRequest,
    TankWarBatchResponse,
    TankWarBatchScore,
    TankWarBatchScoreResult,
    TankWarBatchValidate,
    TankWarBatchValidateResult,
    TankWarElapsed,
    TankWarEventBlocked,
    TankWarEventDestroyed,
    TankWarEventMove,
    TankWarEventTimeout,
    TankWarLegalMovesRequest,
    TankWarLegalMovesResponse,
    TankWarOptionalPicks,
    TankWarOtherPick,
    TankWarPickCode,
    TankWarPicks,
    TankWarPlayerName,
    TankWarReplayRound,
    TankWarScoreResponse,
    TankWarState,
    TankWarStateAnswer,
    TankWarStateRequest,
    TankWarValidateRequest,
    TankWarValidateResponse,
)
from tank_rules_client.types import Unset

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Answered(Protocol[T_co]):
    """What a call answered, whatever its parsed type (the generated
    `Response` as a reader sees it)."""

    @property
    def status_code(self) -> HTTPStatus: ...

    @property
    def content(self) -> bytes: ...

    @property
    def parsed(self) -> T_co | None: ...


checks = 0


def check(ok: bool, what: str) -> None:
    """Fails the flow unless `ok`."""
    global checks
    if not ok:
        raise AssertionError(f"check failed: {what}")
    checks += 1


def answer(response: Answered[object], kind: type[T], what: str) -> T:
    """The parsed answer of a call that must succeed, as `kind`."""
    global checks
    parsed = response.parsed
    if not isinstance(parsed, kind):
        raise AssertionError(f"{what}: {response.status_code} {response.content!r}")
    checks += 1
    return parsed


def problem(response: Answered[object], what: str) -> Problem:
    """The problem document of a call that must be refused."""
    parsed = response.parsed
    if not isinstance(parsed, Problem):
        raise AssertionError(f"{what}: {response.status_code} {response.content!r}")
    return parsed


def tank_war_state(given: TankWarStateAnswer) -> TankWarState:
    """An answered state (every field present) as a request's state: the
    document gives answers their own schema, so they are other classes."""
    return TankWarState.from_dict(given.to_dict())


def cobi_tank_wars_state(given: CobiTankWarsStateAnswer) -> CobiTankWarsState:
    """An answered state as a request's state (see `tank_war_state`)."""
    return CobiTankWarsState.from_dict(given.to_dict())


def tank_battle(client: AuthenticatedClient) -> None:
    initial = answer(
        tank_battle_initial.sync_detailed(client=client, layout="standard"),
        TankBattleInitialResponse,
        "tank-battle initial",
    )
    position = initial.position

    moves = answer(
        tank_battle_legal_moves.sync_detailed(
            client=client, body=TankBattleLegalMovesRequest(position=position, from_="j4")
        ),
        TankBattleLegalMovesResponse,
        "tank-battle legal-moves",
    )
    check(moves.count == len(moves.moves) == 5, "j4 has 5 moves")

    verdict = answer(
        tank_battle_validate.sync_detailed(
            client=client, body=TankBattleMoveRequest(position=position, move="j4-f8")
        ),
        TankBattleValidateResponse,
        "tank-battle validate",
    )
    reason = verdict.reason
    check(not verdict.legal and not isinstance(reason, Unset), "j4-f8 is illegal")
    if isinstance(reason, Unset):
        return
    match reason.code:
        case TankBattleReasonCode.CONTAMINATED:
            check(reason.square == "g7", "it fails on g7")
        case unexpected_reason:
            raise AssertionError(f"unexpected reason {unexpected_reason}")

    refused = problem(
        tank_battle_apply.sync_detailed(
            client=client, body=TankBattleMoveRequest(position=position, move="a8-a7")
        ),
        "a8-a7",
    )
    match refused.code:
        case ProblemCode.NOT_YOUR_TANK:
            check(refused.status == 422 and refused.square == "a8", "a8 is Black's")
        case other:
            raise AssertionError(f"a8-a7 refused with {other}")

    applied = answer(
        tank_battle_apply.sync_detailed(
            client=client, body=TankBattleMoveRequest(position=position, move="j4-j5")
        ),
        TankBattleApplyResponse,
        "tank-battle apply",
    )
    check(applied.captured is None and applied.winner is None and not applied.finished, "a quiet move")

    suggestion = answer(
        tank_battle_ai_move.sync_detailed(
            client=client,
            body=TankBattleAiMoveRequest(position=applied.position, level=2, seed=1),
        ),
        TankBattleAiMoveResponse,
        "tank-battle ai-move",
    )
    check(len(suggestion.move) >= 5 and len(suggestion.lines) >= 1, "the AI answers a move")

    review = answer(
        tank_battle_annotate.sync_detailed(
            client=client,
            body=TankBattleAnnotateRequest(moves=["k4-k5", "a8-a7", "k5-k6"], limits=AiLimits(max_nodes=10000)),
        ),
        TankBattleAnnotateResponse,
        "tank-battle annotate",
    )
    check(len(review.plies) == 3 and review.plies[1].player == "black" and len(review.players) == 2, "a review")
    check(all(entry.loss >= 0 for entry in review.plies), "each move judged")

    # Black moves a tank where White's k2 takes it: the capture is a puzzle.
    found = answer(
        tank_battle_puzzles.sync_detailed(
            client=client,
            body=TankBattlePuzzlesRequest(
                start="c10/8t2/7t3/11/11/11/11/11/11/2T7T/10C b 1",
                moves=["h9-h5", "k2xh5"],
                limits=AiLimits(max_nodes=40000),
                max_puzzles=5,
            ),
        ),
        TankBattlePuzzlesResponse,
        "tank-battle puzzles",
    )
    check(
        len(found.puzzles) == 1 and found.puzzles[0].solution[0] == "k2xh5" and found.puzzles[0].player == "white",
        "the capture is the game's one puzzle",
    )
    check(found.puzzles[0].source.label.value == "best" and found.puzzles[0].rating >= 100, "its source and rating")

    score = answer(
        tank_battle_score.sync_detailed(
            client=client, body=TankBattlePositionRequest(position=applied.position)
        ),
        TankBattleScoreResponse,
        "tank-battle score",
    )
    check(score.score.white == 14 and score.breakdown.white.tanks_on_field == 14, "14 tanks each")

    batch = answer(
        tank_battle_batch.sync_detailed(
            client=client,
            body=TankBattleBatchRequest(
                requests=[
                    TankBattleBatchValidate(op="validate", position=position, move="k4-k9"),
                    TankBattleBatchApply(op="apply", position=position, move="a8-a7"),
                    TankBattleBatchPerft(op="perft", position=position, depth=2),
                ]
            ),
        ),
        TankBattleBatchResponse,
        "tank-battle batch",
    )
    # Each result is decoded to the class its `op` names (`BatchProblem`
    # for a failed request).
    validated, refusal, perft = batch.results
    check(
        isinstance(validated, TankBattleBatchValidateResult) and validated.legal and validated.move == "k4-k9",
        "batched validate",
    )
    check(
        isinstance(refusal, BatchProblem)
        and refusal.code == ProblemCode.NOT_YOUR_TANK
        and refusal.status == 422
        and refusal.square == "a8",
        "batched 422",
    )
    check(isinstance(perft, TankBattleBatchPerftResult) and perft.nodes == 2025, "batched perft")

    picture = tank_battle_render.sync_detailed(
        client=client, position=applied.position, last_move="j4-j5", moves_from="c9"
    )
    check(isinstance(picture.parsed, str) and "<svg" in picture.parsed, "tank-battle picture")


def tank_war(client: AuthenticatedClient) -> None:
    state = tank_war_state(
        answer(tank_war_initial.sync_detailed(client=client), TankWarStateAnswer, "tank-war initial")
    )

    picks = answer(
        tank_war_legal_moves.sync_detailed(
            client=client, body=TankWarLegalMovesRequest(state=state, player=TankWarPlayerName.U)
        ),
        TankWarLegalMovesResponse,
        "tank-war legal-moves",
    )
    check(not isinstance(picks.u, Unset) and len(picks.u) == 6 and isinstance(picks.d, Unset), "U's six tanks")

    verdict = answer(
        tank_war_validate.sync_detailed(
            client=client,
            body=TankWarValidateRequest(state=state, moves=TankWarOptionalPicks(u="ZZ", d="RC")),
        ),
        TankWarValidateResponse,
        "tank-war validate",
    )
    reason_u = verdict.reasons.u
    if isinstance(reason_u, Unset):
        raise AssertionError(f"U's pick ZZ should be refused: {verdict.reasons}")
    match reason_u.code:
        case TankWarPickCode.NO_SUCH_TANK:
            check(not verdict.legal and isinstance(verdict.reasons.d, Unset), "only U's pick is refused")
        case other:
            raise AssertionError(f"unexpected reason {other}")

    round_ = answer(
        tank_war_apply.sync_detailed(
            client=client,
            body=TankWarApplyRequest(
                state=state,
                moves=TankWarPicks(u="LA", d="RC"),
                elapsed_ms=TankWarElapsed(u=1500, d=2300),
            ),
        ),
        TankWarApplyResponse,
        "tank-war apply",
    )
    moved = 0
    for event in round_.events:
        match event:
            case TankWarEventMove():
                moved += 1
                check(len(event.to) >= 2, "a move names its square")
            case TankWarEventBlocked() | TankWarEventDestroyed() | TankWarEventTimeout():
                pass
    check(moved == 2 and round_.winner is None and round_.reason is None, "both tanks moved")
    clocks = round_.state.clock_ms
    check(not isinstance(clocks, Unset) and clocks.u == 118500, "U's clock ran 1.5 s")

    suggestion = answer(
        tank_war_ai_move.sync_detailed(
            client=client,
            body=TankWarAiMoveRequest(
                state=tank_war_state(round_.state), player=TankWarPlayerName.D, level=3, seed=1
            ),
        ),
        TankWarAiMoveResponse,
        "tank-war ai-move",
    )

    judged = answer(
        tank_war_annotate.sync_detailed(
            client=client, body=TankWarAnnotateRequest(rounds=[TankWarReplayRound(u="LA", d="RC")])
        ),
        TankWarAnnotateResponse,
        "tank-war annotate",
    )
    d = judged.plies[1]
    check(
        len(judged.plies) == 2 and d.exact and d.label == AnnotationLabel.BLUNDER and not isinstance(d.against, Unset),
        "RC is D's blunder, judged exactly",
    )
    total = sum(entry.probability for entry in suggestion.strategy)
    check(abs(total - 1) < 1e-9 and any(e.move == suggestion.move for e in suggestion.strategy), "a strategy")

    score = answer(
        tank_war_score.sync_detailed(client=client, body=TankWarStateRequest(state=tank_war_state(round_.state))),
        TankWarScoreResponse,
        "tank-war score",
    )
    check(score.surviving.u == 6 and score.surviving.d == 6 and score.winner is None, "six tanks each")

    batch = answer(
        tank_war_batch.sync_detailed(
            client=client,
            body=TankWarBatchRequest(
                requests=[
                    TankWarBatchScore(op="score", state=state),
                    TankWarBatchApply(op="apply", state=state, moves=TankWarPicks(u="LA", d="XX")),
                    TankWarBatchValidate(op="validate", state=state, moves=TankWarOptionalPicks(u="ZZ", d="RC")),
                ]
            ),
        ),
        TankWarBatchResponse,
        "tank-war batch",
    )
    scored, refusal, validated = batch.results
    check(
        isinstance(scored, TankWarBatchScoreResult)
        and scored.surviving.u == 6
        and scored.surviving.d == 6
        and scored.territory.u == 18,
        "batched score",
    )
    check(
        isinstance(refusal, BatchProblem)
        and refusal.code == ProblemCode.NO_SUCH_TANK
        and refusal.status == 422
        and refusal.player == "D",
        "batched 422 names D",
    )
    check(
        isinstance(validated, TankWarBatchValidateResult)
        and not validated.legal
        and not isinstance(validated.reasons.u, Unset)
        and validated.reasons.u.code == TankWarPickCode.NO_SUCH_TANK,
        "batched validate",
    )

    picture = tank_war_render.sync_detailed(client=client, state=json.dumps(round_.state.to_dict()))
    check(isinstance(picture.parsed, str) and "<svg" in picture.parsed, "tank-war picture")


def cobi_tank_wars(client: AuthenticatedClient) -> None:
    state = cobi_tank_wars_state(
        answer(cobi_tank_wars_initial.sync_detailed(client=client), CobiTankWarsStateAnswer, "cobi-tank-wars initial")
    )

    legal = answer(
        cobi_tank_wars_legal_moves.sync_detailed(
            client=client,
            body=CobiTankWarsLegalMovesRequest(state=state, player=CobiTankWarsPlayerName.P1),
        ),
        CobiTankWarsLegalMovesResponse,
        "cobi-tank-wars legal-moves",
    )
    check(not isinstance(legal.p1, Unset) and isinstance(legal.p2, Unset), "P1's orders only")
    if isinstance(legal.p1, Unset):
        return
    first = legal.p1["P1-1"][0]
    check(first.dir_ in CobiTankWarsDirection, "a direction is an enum")

    def orders_of(player: str, moves: list[tuple[str, int]]) -> CobiTankWarsVehicleOrders:
        given = CobiTankWarsVehicleOrders()
        for slot, (dir_, dist) in enumerate(moves, start=1):
            given[f"{player}-{slot}"] = CobiTankWarsOrder(dir_=dir_, dist=dist)
        return given

    p2 = orders_of("P2", [("S", 1), ("S", 1), ("S", 1)])
    orders = CobiTankWarsOrders(p1=orders_of("P1", [("N", 2), ("N", 1), ("X", 1)]), p2=p2)
    verdict = answer(
        cobi_tank_wars_validate.sync_detailed(
            client=client, body=CobiTankWarsValidateRequest(state=state, orders=orders)
        ),
        CobiTankWarsValidateResponse,
        "cobi-tank-wars validate",
    )
    reason = verdict.reasons[0]
    match reason.code:
        case CobiTankWarsOrderCode.BAD_DIRECTION:
            check(reason.vehicle == "P1-3" and reason.player == CobiTankWarsPlayerName.P1, "P1-3's direction")
        case other:
            raise AssertionError(f"unexpected reason {other}")

    suggestion = answer(
        cobi_tank_wars_ai_move.sync_detailed(
            client=client,
            body=CobiTankWarsAiMoveRequest(
                state=state, player=CobiTankWarsPlayerName.P1, level=3, seed=1, gunfire_tokens=1
            ),
        ),
        CobiTankWarsAiMoveResponse,
        "cobi-tank-wars ai-move",
    )
    # The AI's orders, sent back as orders.
    p1 = CobiTankWarsVehicleOrders.from_dict(suggestion.orders.to_dict())
    reviewed = answer(
        cobi_tank_wars_annotate.sync_detailed(
            client=client,
            body=CobiTankWarsAnnotateRequest(
                rounds=[CobiTankWarsReplayRound(orders=CobiTankWarsOrders(p1=p1, p2=p2), seed=7)],
                limits=AiLimits(max_nodes=2000),
            ),
        ),
        CobiTankWarsAnnotateResponse,
        "cobi-tank-wars annotate",
    )
    check(len(reviewed.plies) == 2 and reviewed.players[0].player == "P1", "both players' orders judged")
    # P2's last vehicle stands under gunfire in a corner, its way out a2;
    # P1, moving first, wins by parking there, and orders N 1 instead.
    cornered = answer(
        cobi_tank_wars_puzzles.sync_detailed(
            client=client,
            body=CobiTankWarsPuzzlesRequest.from_dict({
                "start": {
                    "cols": 8, "rows": 8, "first": "P1", "round": 3,
                    "vehicles": [
                        {"id": "P1-1", "owner": "P1", "square": "b2", "armor": 1, "slot": 1},
                        {"id": "P2-1", "owner": "P2", "square": "a1", "armor": 1, "slot": 1},
                    ],
                    "artillery": ["b1", "a3"],
                    "gunfire": ["a1"],
                },
                "rounds": [{"orders": {"P1": {"P1-1": {"dir": "N", "dist": 1}},
                                       "P2": {"P2-1": {"dir": "N", "dist": 1}}}}],
            }),
        ),
        CobiTankWarsPuzzlesResponse,
        "cobi-tank-wars puzzles",
    )
    missed = [p.to_dict() for p in cornered.puzzles if p.player == CobiTankWarsPlayerName.P1]
    check(
        len(missed) == 1 and missed[0]["solution"] == [{"P1-1": {"dir": "W", "dist": 1}}]
        and missed[0]["themes"] == ["forced_win"],
        "the missed win is P1's puzzle",
    )
    round_ = answer(
        cobi_tank_wars_apply.sync_detailed(
            client=client,
            body=CobiTankWarsApplyRequest(state=state, orders=CobiTankWarsOrders(p1=p1, p2=p2), seed=7),
        ),
        CobiTankWarsApplyResponse,
        "cobi-tank-wars apply",
    )
    executed = 0
    for event in round_.events:
        match event:
            case CobiTankWarsEventMoved() | CobiTankWarsEventCancelled():
                executed += 1
            case CobiTankWarsEventSupplyDrop():
                check(len(event.square) >= 2, "a supply drop names its square")
            case _:
                pass
    check(executed == 6, "every vehicle's command ran or was cancelled")

    score = answer(
        cobi_tank_wars_score.sync_detailed(
            client=client, body=CobiTankWarsStateRequest(state=cobi_tank_wars_state(round_.state))
        ),
        CobiTankWarsScoreResponse,
        "cobi-tank-wars score",
    )
    check(score.vehicles.p1 == 3 and score.winner is None, "three vehicles each")

    batch = answer(
        cobi_tank_wars_batch.sync_detailed(
            client=client,
            body=CobiTankWarsBatchRequest(
                requests=[
                    CobiTankWarsBatchLegalMoves(op="legal-moves", state=state),
                    CobiTankWarsBatchValidate(op="validate", state=state, orders=orders),
                    CobiTankWarsBatchApply(op="apply", state=state, orders=orders),
                ]
            ),
        ),
        CobiTankWarsBatchResponse,
        "cobi-tank-wars batch",
    )
    listed, validated, refusal = batch.results
    check(
        isinstance(listed, CobiTankWarsBatchLegalMovesResult)
        and not isinstance(listed.p2, Unset)
        and "P2-1" in listed.p2,
        "batched legal-moves",
    )
    check(
        isinstance(validated, CobiTankWarsBatchValidateResult)
        and not validated.legal
        and validated.reasons[0].code == CobiTankWarsOrderCode.BAD_DIRECTION,
        "batched validate",
    )
    check(
        isinstance(refusal, BatchProblem)
        and refusal.code == ProblemCode.BAD_DIRECTION
        and refusal.status == 422
        and refusal.vehicle == "P1-3",
        "batched 422 names P1-3",
    )

    picture = cobi_tank_wars_render.sync_detailed(client=client, state=json.dumps(round_.state.to_dict()))
    check(isinstance(picture.parsed, str) and "<svg" in picture.parsed, "cobi-tank-wars picture")


# --- Hosting whole games ---------------------------------------------------
# A site's game against the AI, each game from its start to its end: one
# `ai-move` with `play` a turn (the other side's step from an `ai-move`
# too), the game record kept from the answers alone, then the record
# reviewed as JSON and as NDJSON lines and the final position drawn.

STANDING = ("finished", "winner", "draw", "reason", "score")


def standing(answer_fields: dict[str, Any]) -> dict[str, Any]:
    """A game record's `result`: the standing fields of an answer."""
    return {name: value for name, value in answer_fields.items() if name in STANDING}


def ndjson(response: Answered[object], what: str) -> list[dict[str, Any]]:
    """A streamed review's lines, each a JSON object told apart by `line`."""
    text = answer(response, str, what)
    decoded: list[dict[str, Any]] = [json.loads(line) for line in text.splitlines() if line]
    check(len(decoded) >= 2 and decoded[-1].get("line") == "summary", f"{what}: entries, then the summary")
    return decoded


def tank_battle_hosted(client: AuthenticatedClient) -> None:
    rules = TankBattleRules(max_plies=24)
    position = answer(
        tank_battle_initial.sync_detailed(client=client, layout="standard"),
        TankBattleInitialResponse,
        "tank-battle initial",
    ).position
    moves: list[str] = []
    last: TankBattleApplyResponse | None = None
    while last is None or not last.finished:
        check(len(moves) < 24, "tank-battle ends by its ply limit")
        played = answer(
            tank_battle_ai_move.sync_detailed(
                client=client,
                body=TankBattleAiMoveRequest(position=position, rules=rules, level=2, seed=len(moves), play=True),
            ),
            TankBattleAiMoveResponse,
            "tank-battle ai-move play",
        )
        if isinstance(played.applied, Unset):
            raise AssertionError("ai-move with play answers `applied`")
        last = played.applied
        check(last.move == played.move, "applied is the AI's move")
        moves.append(played.move)
        position = last.position
    check(len(moves) == 24 and last.reason is not None and last.reason.value == "ply_limit", "ended at the limit")

    record = TankBattleAnnotateRequest(
        game="tank-battle",
        layout="standard",
        rules=rules,
        moves=moves,
        result=GameRecordResult.from_dict(standing(last.to_dict())),
        limits=AiLimits(max_nodes=10000),
    )
    review = answer(
        tank_battle_annotate.sync_detailed(client=client, body=record),
        TankBattleAnnotateResponse,
        "tank-battle review",
    )
    check(len(review.plies) == len(moves), "a verdict a move")
    check(standing(review.final.to_dict()) == standing(last.to_dict()), "the review ends where the game did")
    lines = ndjson(
        tank_battle_annotate_lines.sync_detailed(client=client, body=record), "tank-battle lines"
    )
    entries = [TankBattleAnnotateLineEntry.from_dict(line) for line in lines if line["line"] == "entry"]
    summary = TankBattleAnnotateLineSummary.from_dict(lines[-1])
    check([e.played for e in entries] == [e.played for e in review.plies], "the lines judge the same moves")
    check(summary.final.to_dict() == review.final.to_dict(), "the summary's final is the review's")

    picture = tank_battle_render.sync_detailed(client=client, position=position, last_move=moves[-1])
    check(isinstance(picture.parsed, str) and "<svg" in picture.parsed, "tank-battle final position")


def tank_war_hosted(client: AuthenticatedClient) -> None:
    state = tank_war_state(
        answer(tank_war_initial.sync_detailed(client=client), TankWarStateAnswer, "tank-war initial")
    )
    rounds: list[TankWarReplayRound] = []
    last: TankWarApplyResponse | None = None
    while last is None or not last.finished:
        check(len(rounds) < 60, "tank-war ends")
        seed = len(rounds)
        other = answer(
            tank_war_ai_move.sync_detailed(
                client=client,
                body=TankWarAiMoveRequest(state=state, player=TankWarPlayerName.D, level=1, seed=seed),
            ),
            TankWarAiMoveResponse,
            "tank-war D's pick",
        )
        elapsed = TankWarElapsed(u=4000, d=3000)
        played = answer(
            tank_war_ai_move.sync_detailed(
                client=client,
                body=TankWarAiMoveRequest(
                    state=state,
                    player=TankWarPlayerName.U,
                    level=1,
                    seed=seed,
                    play=True,
                    moves=TankWarOtherPick(d=other.move),
                    elapsed_ms=elapsed,
                ),
            ),
            TankWarAiMoveResponse,
            "tank-war ai-move play",
        )
        if isinstance(played.applied, Unset):
            raise AssertionError("ai-move with play answers `applied`")
        last = played.applied
        rounds.append(TankWarReplayRound(u=played.move, d=other.move, elapsed_ms=elapsed))
        state = tank_war_state(last.state)
    check(last.reason is not None, "tank-war says why it ended")

    record = TankWarAnnotateRequest(
        game="tank-war",
        rounds=rounds,
        result=GameRecordResult.from_dict(standing(last.to_dict())),
    )
    review = answer(
        tank_war_annotate.sync_detailed(client=client, body=record), TankWarAnnotateResponse, "tank-war review"
    )
    check(len(review.plies) == 2 * len(rounds), "a verdict a player a round")
    check(standing(review.final.to_dict()) == standing(last.to_dict()), "the review ends where the game did")
    lines = ndjson(tank_war_annotate_lines.sync_detailed(client=client, body=record), "tank-war lines")
    entries = [TankWarAnnotateLineEntry.from_dict(line) for line in lines if line["line"] == "entry"]
    summary = TankWarAnnotateLineSummary.from_dict(lines[-1])
    check([e.played for e in entries] == [e.played for e in review.plies], "the lines judge the same picks")
    check(summary.final.to_dict() == review.final.to_dict(), "the summary's final is the review's")
    chart = tank_war_annotate_chart.sync_detailed(client=client, body=record)
    check(isinstance(chart.parsed, str) and "<svg" in chart.parsed, "tank-war review chart")

    picture = tank_war_render.sync_detailed(client=client, state=json.dumps(state.to_dict()))
    check(isinstance(picture.parsed, str) and "<svg" in picture.parsed, "tank-war final position")


def cobi_tank_wars_hosted(client: AuthenticatedClient) -> None:
    state = cobi_tank_wars_state(
        answer(
            cobi_tank_wars_initial.sync_detailed(client=client), CobiTankWarsStateAnswer, "cobi-tank-wars initial"
        )
    )
    rounds: list[CobiTankWarsReplayRound] = []
    last: CobiTankWarsApplyResponse | None = None
    while last is None or not last.finished:
        check(len(rounds) < 60, "cobi-tank-wars ends")
        seed = 100 + len(rounds)
        other = answer(
            cobi_tank_wars_ai_move.sync_detailed(
                client=client,
                body=CobiTankWarsAiMoveRequest(state=state, player=CobiTankWarsPlayerName.P2, level=3, seed=seed),
            ),
            CobiTankWarsAiMoveResponse,
            "cobi-tank-wars P2's orders",
        )
        # An answer's orders as a request's (answers have their own schemas).
        their_orders = CobiTankWarsVehicleOrders.from_dict(other.orders.to_dict())
        their_fire = [target.square for target in other.gunfire]
        played = answer(
            cobi_tank_wars_ai_move.sync_detailed(
                client=client,
                body=CobiTankWarsAiMoveRequest(
                    state=state,
                    player=CobiTankWarsPlayerName.P1,
                    level=3,
                    seed=seed,
                    play=True,
                    orders=their_orders,
                    gunfire=their_fire,
                ),
            ),
            CobiTankWarsAiMoveResponse,
            "cobi-tank-wars ai-move play",
        )
        if isinstance(played.applied, Unset):
            raise AssertionError("ai-move with play answers `applied`")
        last = played.applied
        rounds.append(
            CobiTankWarsReplayRound(
                orders=CobiTankWarsOrders(
                    p1=CobiTankWarsVehicleOrders.from_dict(played.orders.to_dict()), p2=their_orders
                ),
                gunfire=[target.square for target in played.gunfire] + their_fire,
                seed=seed,
            )
        )
        state = cobi_tank_wars_state(last.state)
    check(last.reason is not None, "cobi-tank-wars says why it ended")

    record = CobiTankWarsAnnotateRequest(
        game="cobi-tank-wars",
        rounds=rounds,
        result=GameRecordResult.from_dict(standing(last.to_dict())),
        limits=AiLimits(max_nodes=2000),
    )
    review = answer(
        cobi_tank_wars_annotate.sync_detailed(client=client, body=record),
        CobiTankWarsAnnotateResponse,
        "cobi-tank-wars review",
    )
    check(len(review.plies) == 2 * len(rounds), "a verdict a player a round")
    check(standing(review.final.to_dict()) == standing(last.to_dict()), "the review ends where the game did")
    lines = ndjson(
        cobi_tank_wars_annotate_lines.sync_detailed(client=client, body=record), "cobi-tank-wars lines"
    )
    entries = [CobiTankWarsAnnotateLineEntry.from_dict(line) for line in lines if line["line"] == "entry"]
    summary = CobiTankWarsAnnotateLineSummary.from_dict(lines[-1])
    check([e.played for e in entries] == [e.played for e in review.plies], "the lines judge the same orders")
    check(summary.final.to_dict() == review.final.to_dict(), "the summary's final is the review's")

    picture = cobi_tank_wars_render.sync_detailed(client=client, state=json.dumps(state.to_dict()))
    check(isinstance(picture.parsed, str) and "<svg" in picture.parsed, "cobi-tank-wars final position")


def keys(base_url: str, key: str | None) -> None:
    """Without a key, a server run with keys answers 401."""
    if key is None:
        return
    anonymous = AuthenticatedClient(base_url=base_url, token="", prefix="", auth_header_name="X-Unused")
    refused = problem(tank_war_initial.sync_detailed(client=anonymous), "no key")
    match refused.code:
        case ProblemCode.UNAUTHORIZED:
            check(refused.status == 401, "no key, 401")
        case other:
            raise AssertionError(f"a call without a key was answered {other}")


def main() -> None:
    base_url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    key = sys.argv[2] if len(sys.argv) > 2 else None
    client = AuthenticatedClient(
        base_url=base_url,
        token=key or "",
        prefix="",
        auth_header_name="X-Api-Key",
        raise_on_unexpected_status=True,
    )
    keys(base_url, key)
    tank_battle(client)
    tank_war(client)
    cobi_tank_wars(client)
    tank_battle_hosted(client)
    tank_war_hosted(client)
    cobi_tank_wars_hosted(client)
    print(f"python: {checks} checks passed against {base_url}")


if __name__ == "__main__":
    main()
