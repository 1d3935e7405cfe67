// A game site's calls through the client openapi-generator's
// `typescript-fetch` generates from openapi/openapi.json (classes per tag,
// models with FromJSON/ToJSON that rename fields to camelCase): every game
// from its start to an AI's move, a batch whose results are decoded to
// their types (a failed request among them) and a picture; then a whole
// game of each hosted to its end, reviewed and drawn. Compiled with
// `tsc --strict`; no casts, no `any`: every value read here is typed by
// the document.
//
//   node dist/flow.js http://127.0.0.1:8080 [api-key]

import {
  CobiTankWarsAnnotateLineFromJSON,
  CobiTankWarsApi,
  CobiTankWarsApplyResponseToJSONTyped,
  CobiTankWarsStateAnswerToJSON,
  CobiTankWarsStateToJSON,
  Configuration,
  ProblemFromJSON,
  ResponseError,
  TankBattleAnnotateLineFromJSON,
  TankBattleApi,
  TankBattleApplyResponseToJSONTyped,
  TankWarAnnotateLineFromJSON,
  TankWarApi,
  TankWarApplyResponseToJSONTyped,
  TankWarStateAnswerToJSON,
  TankWarStateToJSON,
} from "./generated/index.js";
import type {
  CobiTankWarsApplyResponse,
  CobiTankWarsOrders,
  CobiTankWarsReplayRound,
  CobiTankWarsState,
  Problem,
  TankBattleApplyResponse,
  TankWarApplyResponse,
  TankWarReplayRound,
  TankWarState,
} from "./generated/index.js";

const [baseUrl = "http://127.0.0.1:8080", apiKey] = process.argv.slice(2);
// Only the `ApiKey` scheme (`X-Api-Key`); `accessToken` would also send it
// as a bearer token.
const configuration = new Configuration(apiKey ? { basePath: baseUrl, apiKey } : { basePath: baseUrl });
const tankBattleApi = new TankBattleApi(configuration);
const tankWarApi = new TankWarApi(configuration);
const cobiApi = new CobiTankWarsApi(configuration);

let checks = 0;

/** Fails the flow unless `ok`. */
function check(ok: boolean, what: string): void {
  if (!ok) {
    throw new Error(`check failed: ${what}`);
  }
  checks += 1;
}

/** The answer of a call that must succeed. */
async function ok<T>(call: Promise<T>, what: string): Promise<T> {
  try {
    const answer = await call;
    checks += 1;
    return answer;
  } catch (error: unknown) {
    if (error instanceof ResponseError) {
      throw new Error(`${what}: ${error.response.status} ${await error.response.text()}`);
    }
    throw error;
  }
}

/** The problem document of a call that must be refused, with its status. */
async function refused(call: Promise<unknown>, what: string): Promise<{ status: number; problem: Problem }> {
  try {
    await call;
  } catch (error: unknown) {
    if (error instanceof ResponseError) {
      const body: unknown = await error.response.json();
      return { status: error.response.status, problem: ProblemFromJSON(body) };
    }
    throw error;
  }
  throw new Error(`${what}: should have been refused`);
}

async function tankBattle(): Promise<void> {
  const initial = await ok(tankBattleApi.tankBattleInitial({ layout: "standard" }), "tank-battle initial");
  const position = initial.position;

  const moves = await ok(
    tankBattleApi.tankBattleLegalMoves({ tankBattleLegalMovesRequest: { position, from: "j4" } }),
    "tank-battle legal-moves",
  );
  check(moves.count === moves.moves.length && moves.count === 5, "j4 has 5 moves");

  const verdict = await ok(
    tankBattleApi.tankBattleValidate({ tankBattleMoveRequest: { position, move: "j4-f8" } }),
    "tank-battle validate",
  );
  check(!verdict.legal, "j4-f8 is illegal");
  switch (verdict.reason?.code) {
    case "CONTAMINATED":
      check(verdict.reason.square === "g7", "it fails on g7");
      break;
    default:
      throw new Error(`unexpected reason ${JSON.stringify(verdict.reason)}`);
  }

  const refusal = await refused(
    tankBattleApi.tankBattleApply({ tankBattleMoveRequest: { position, move: "a8-a7" } }),
    "a8-a7",
  );
  switch (refusal.problem.code) {
    case "NOT_YOUR_TANK":
      check(refusal.status === 422 && refusal.problem.square === "a8", "a8 is Black's");
      break;
    default:
      throw new Error(`a8-a7 refused with ${refusal.problem.code}`);
  }

  const applied = await ok(
    tankBattleApi.tankBattleApply({ tankBattleMoveRequest: { position, move: "j4-j5" } }),
    "tank-battle apply",
  );
  check(applied.captured === null && applied.winner === null && !applied.finished, "a quiet move");

  const suggestion = await ok(
    tankBattleApi.tankBattleAiMove({ tankBattleAiMoveRequest: { position: applied.position, level: 2, seed: 1 } }),
    "tank-battle ai-move",
  );
  check(suggestion.pv[0] === suggestion.move || suggestion.lines.length > 0, "the AI answers a move");

  const review = await ok(
    tankBattleApi.tankBattleAnnotate({
      tankBattleAnnotateRequest: { moves: ["k4-k5", "a8-a7", "k5-k6"], limits: { maxNodes: 10000 } },
    }),
    "tank-battle annotate",
  );
  check(
    review.plies.length === 3 && review.plies[1]?.player === "black" && review.players.length === 2,
    "a review of three moves",
  );
  check(review.plies.every((entry) => entry.loss >= 0 && entry.label.length > 0), "each move judged");
  check(review.players.every((player) => player.averageLoss >= 0), "average_loss read into averageLoss");

  // Black moves a tank where White's k2 takes it: the capture is a puzzle.
  const found = await ok(
    tankBattleApi.tankBattlePuzzles({
      tankBattlePuzzlesRequest: {
        start: "c10/8t2/7t3/11/11/11/11/11/11/2T7T/10C b 1",
        moves: ["h9-h5", "k2xh5"],
        limits: { maxNodes: 40000 },
        maxPuzzles: 5,
      },
    }),
    "tank-battle puzzles",
  );
  const puzzle = found.puzzles[0];
  check(
    found.puzzles.length === 1 && puzzle?.solution[0] === "k2xh5" && puzzle.player === "white",
    "the capture is the game's one puzzle",
  );
  check(puzzle?.source.label === "best" && puzzle.rating >= 100 && puzzle.winChance > puzzle.secondChance,
    "its source, rating and chances read into camelCase");

  const score = await ok(
    tankBattleApi.tankBattleScore({ tankBattlePositionRequest: { position: applied.position } }),
    "tank-battle score",
  );
  check(score.score.white === 14 && score.breakdown.white.tanksOnField === 14, "14 tanks each");

  const batch = await ok(
    tankBattleApi.tankBattleBatch({
      tankBattleBatchRequest: {
        requests: [
          { op: "validate", position, move: "k4-k9" },
          { op: "apply", position, move: "a8-a7" },
          { op: "perft", position, depth: 2 },
        ],
      },
    }),
    "tank-battle batch",
  );
  const [validated, problem, perft] = batch.results;
  check(validated?.op === "validate" && validated.legal && validated.move === "k4-k9", "batched validate");
  check(
    problem?.op === "problem" && problem.code === "NOT_YOUR_TANK" && problem.status === 422 && problem.square === "a8",
    "batched 422",
  );
  check(perft?.op === "perft" && perft.nodes === 2025, "batched perft");

  const picture = await ok(
    tankBattleApi.tankBattleRender({ position: applied.position, lastMove: "j4-j5", movesFrom: "c9" }),
    "tank-battle render",
  );
  check(picture.includes("<svg"), "tank-battle picture");
}

async function tankWar(): Promise<void> {
  const state = await ok(tankWarApi.tankWarInitial(), "tank-war initial");

  const picks = await ok(
    tankWarApi.tankWarLegalMoves({ tankWarLegalMovesRequest: { state, player: "U" } }),
    "tank-war legal-moves",
  );
  check(picks.u !== undefined && picks.u.length === 6 && picks.d === undefined, "U's six tanks");

  const verdict = await ok(
    tankWarApi.tankWarValidate({ tankWarValidateRequest: { state, moves: { u: "ZZ", d: "RC" } } }),
    "tank-war validate",
  );
  switch (verdict.reasons.u?.code) {
    case "NO_SUCH_TANK":
      check(!verdict.legal && verdict.reasons.d === undefined, "only U's pick is refused");
      break;
    default:
      throw new Error(`unexpected reasons ${JSON.stringify(verdict.reasons)}`);
  }

  const round = await ok(
    tankWarApi.tankWarApply({
      tankWarApplyRequest: { state, moves: { u: "LA", d: "RC" }, elapsedMs: { u: 1500, d: 2300 } },
    }),
    "tank-war apply",
  );
  let moved = 0;
  for (const event of round.events) {
    switch (event.kind) {
      case "move":
        moved += 1;
        check(event.to.length >= 2, "a move names its square");
        break;
      case "blocked":
      case "destroyed":
      case "timeout":
        break;
    }
  }
  check(moved === 2 && round.winner === null && round.reason === null, "both tanks moved");
  check(round.state.clockMs.u === 118500, "U's clock ran 1.5 s");

  const refusal = await refused(
    tankWarApi.tankWarApply({ tankWarApplyRequest: { state, moves: { u: "LA", d: "XX" } } }),
    "LA/XX",
  );
  switch (refusal.problem.code) {
    case "NO_SUCH_TANK":
      check(refusal.status === 422 && refusal.problem.player === "D", "D has no tank XX");
      break;
    default:
      throw new Error(`LA/XX refused with ${refusal.problem.code}`);
  }

  const suggestion = await ok(
    tankWarApi.tankWarAiMove({ tankWarAiMoveRequest: { state: round.state, player: "D", level: 3, seed: 1 } }),
    "tank-war ai-move",
  );

  const judged = await ok(
    tankWarApi.tankWarAnnotate({ tankWarAnnotateRequest: { rounds: [{ u: "LA", d: "RC" }] } }),
    "tank-war annotate",
  );
  const d = judged.plies[1];
  check(
    judged.plies.length === 2 && d !== undefined && d.exact && d.label === "blunder" && (d.against ?? []).length > 0,
    "RC is D's blunder, judged exactly",
  );
  const total = suggestion.strategy.reduce((sum, entry) => sum + entry.probability, 0);
  check(Math.abs(total - 1) < 1e-9 && suggestion.strategy.some((e) => e.move === suggestion.move), "a strategy");

  const score = await ok(tankWarApi.tankWarScore({ tankWarStateRequest: { state: round.state } }), "tank-war score");
  check(score.surviving.u === 6 && score.surviving.d === 6 && score.winner === null, "six tanks each");

  const batch = await ok(
    tankWarApi.tankWarBatch({
      tankWarBatchRequest: {
        requests: [
          { op: "score", state },
          { op: "apply", state, moves: { u: "LA", d: "XX" } },
          { op: "validate", state, moves: { u: "ZZ", d: "RC" } },
        ],
      },
    }),
    "tank-war batch",
  );
  const [scored, problem, validated] = batch.results;
  check(
    scored?.op === "score" && scored.surviving.u === 6 && scored.surviving.d === 6 && scored.territory.u === 18,
    "batched score",
  );
  check(
    problem?.op === "problem" && problem.code === "NO_SUCH_TANK" && problem.status === 422 && problem.player === "D",
    "batched 422 names D",
  );
  check(
    validated?.op === "validate" && !validated.legal && validated.reasons.u?.code === "NO_SUCH_TANK",
    "batched validate",
  );

  const picture = await ok(
    tankWarApi.tankWarRender({ state: JSON.stringify(TankWarStateAnswerToJSON(round.state)) }),
    "tank-war render",
  );
  check(picture.includes("<svg"), "tank-war picture");
}

async function cobiTankWars(): Promise<void> {
  const state = await ok(cobiApi.cobiTankWarsInitial(), "cobi-tank-wars initial");

  const legal = await ok(
    cobiApi.cobiTankWarsLegalMoves({ cobiTankWarsLegalMovesRequest: { state, player: "P1" } }),
    "cobi-tank-wars legal-moves",
  );
  const first = legal.p1?.["P1-1"]?.[0];
  check(first !== undefined && ["N", "E", "S", "W"].includes(first.dir) && legal.p2 === undefined, "P1's orders");

  const orders: CobiTankWarsOrders = {
    p1: { "P1-1": { dir: "N", dist: 2 }, "P1-2": { dir: "N", dist: 1 }, "P1-3": { dir: "X", dist: 1 } },
    p2: { "P2-1": { dir: "S", dist: 1 }, "P2-2": { dir: "S", dist: 1 }, "P2-3": { dir: "S", dist: 1 } },
  };
  const verdict = await ok(
    cobiApi.cobiTankWarsValidate({ cobiTankWarsValidateRequest: { state, orders } }),
    "cobi-tank-wars validate",
  );
  const reason = verdict.reasons[0];
  switch (reason?.code) {
    case "BAD_DIRECTION":
      check(reason.vehicle === "P1-3" && reason.player === "P1", "P1-3's direction");
      break;
    default:
      throw new Error(`unexpected reasons ${JSON.stringify(verdict.reasons)}`);
  }

  const suggestion = await ok(
    cobiApi.cobiTankWarsAiMove({
      cobiTankWarsAiMoveRequest: { state, player: "P1", level: 3, seed: 1, gunfireTokens: 1 },
    }),
    "cobi-tank-wars ai-move",
  );
  const judgedOrders = await ok(
    cobiApi.cobiTankWarsAnnotate({
      cobiTankWarsAnnotateRequest: {
        rounds: [{ orders: { p1: suggestion.orders, p2: orders.p2 }, seed: 7 }],
        limits: { maxNodes: 2000 },
      },
    }),
    "cobi-tank-wars annotate",
  );
  check(
    judgedOrders.plies.length === 2 && judgedOrders.players[0]?.player === "P1",
    "both players' orders judged",
  );
  // The AI's orders are valid orders the way they are.
  const round = await ok(
    cobiApi.cobiTankWarsApply({
      cobiTankWarsApplyRequest: { state, orders: { p1: suggestion.orders, p2: orders.p2 }, seed: 7 },
    }),
    "cobi-tank-wars apply",
  );
  let executed = 0;
  for (const event of round.events) {
    switch (event.kind) {
      case "moved":
      case "cancelled":
        executed += 1;
        break;
      case "supply_drop":
        check(event.square.length >= 2, "a supply drop names its square");
        break;
      default:
        break;
    }
  }
  check(executed === 6, "every vehicle's command ran or was cancelled");
  check(round.state.supportCards.p1 >= 0 && round.state.round === 1, "the state after one round");

  const refusal = await refused(
    cobiApi.cobiTankWarsApply({ cobiTankWarsApplyRequest: { state, orders } }),
    "P1-3 X",
  );
  switch (refusal.problem.code) {
    case "BAD_DIRECTION":
      check(refusal.status === 422 && refusal.problem.vehicle === "P1-3", "P1-3's direction refused");
      break;
    default:
      throw new Error(`P1-3 X refused with ${refusal.problem.code}`);
  }

  const score = await ok(
    cobiApi.cobiTankWarsScore({ cobiTankWarsStateRequest: { state: round.state } }),
    "cobi-tank-wars score",
  );
  check(score.vehicles.p1 === 3 && score.winner === null, "three vehicles each");

  const batch = await ok(
    cobiApi.cobiTankWarsBatch({
      cobiTankWarsBatchRequest: {
        requests: [
          { op: "legal-moves", state },
          { op: "validate", state, orders },
          { op: "apply", state, orders },
        ],
      },
    }),
    "cobi-tank-wars batch",
  );
  const [listed, validated, problem] = batch.results;
  check(listed?.op === "legal-moves" && listed.p2?.["P2-1"] !== undefined, "batched legal-moves");
  check(
    validated?.op === "validate" && !validated.legal && validated.reasons[0]?.code === "BAD_DIRECTION",
    "batched validate",
  );
  check(
    problem?.op === "problem" && problem.code === "BAD_DIRECTION" && problem.status === 422 && problem.vehicle === "P1-3",
    "batched 422 names P1-3",
  );

  const picture = await ok(
    cobiApi.cobiTankWarsRender({ state: JSON.stringify(CobiTankWarsStateAnswerToJSON(round.state)) }),
    "cobi-tank-wars render",
  );
  check(picture.includes("<svg"), "cobi-tank-wars picture");
}

// --- Hosting whole games ---------------------------------------------------
// A site's game against the AI, each game from its start to its end: one
// `ai-move` with `play` a turn (the other side's step from an `ai-move`
// too), the game record kept from the answers alone, then the record
// reviewed as JSON and as NDJSON lines (`annotate.ndjson`, each line
// decoded by the generated `…AnnotateLineFromJSON`) and the final position
// drawn.

/** The standing fields of an answer (the models' camelCase names). */
function standing(answer: { finished: boolean; winner: string | null; draw: boolean; reason: string | null; score: object }): string {
  return JSON.stringify([answer.finished, answer.winner, answer.draw, answer.reason, answer.score]);
}

/** A game record's `result`: the standing of an answer in its JSON form
 * (the names the generated `…ToJSONTyped` writes). */
function result(wire: { [key: string]: unknown }): { [key: string]: unknown } {
  const { finished, winner, draw, reason, score } = wire;
  return { finished, winner, draw, reason, score };
}

/** A streamed review's lines, each decoded by `decode`. */
function ndjson<L>(text: string, decode: (json: unknown) => L, what: string): L[] {
  const lines = text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => decode(JSON.parse(line)));
  check(lines.length >= 2, `${what}: entries, then the summary`);
  return lines;
}

/** A review's NDJSON lines against its JSON answer: the same verdicts, the same end. */
function sameReview(
  lines: ({ line: "entry"; played: unknown } | { line: "summary"; _final: object } | { line: "problem" })[],
  review: { plies: { played: unknown }[]; _final: object },
  what: string,
): void {
  const played = lines.flatMap((line) => (line.line === "entry" ? [line.played] : []));
  check(JSON.stringify(played) === JSON.stringify(review.plies.map((e) => e.played)), `${what}: the same steps judged`);
  const last = lines.at(-1);
  check(
    last !== undefined && last.line === "summary" && JSON.stringify(last._final) === JSON.stringify(review._final),
    `${what}: the same final`,
  );
}

async function tankBattleHosted(): Promise<void> {
  const rules = { maxPlies: 24 };
  let position = (await ok(tankBattleApi.tankBattleInitial({ layout: "standard" }), "tank-battle initial")).position;
  const moves: string[] = [];
  let last: TankBattleApplyResponse | undefined;
  while (last === undefined || !last.finished) {
    check(moves.length < 24, "tank-battle ends by its ply limit");
    const played = await ok(
      tankBattleApi.tankBattleAiMove({
        tankBattleAiMoveRequest: { position, rules, level: 2, seed: moves.length, play: true },
      }),
      "tank-battle ai-move play",
    );
    if (played.applied === undefined) {
      throw new Error("ai-move with play answers `applied`");
    }
    last = played.applied;
    moves.push(played.move);
    position = last.position;
  }
  check(moves.length === 24 && last.reason === "ply_limit", "ended at the limit");

  const record = {
    game: "tank-battle",
    layout: "standard",
    rules,
    moves,
    result: result(TankBattleApplyResponseToJSONTyped(last)),
    limits: { maxNodes: 10000 },
  };
  const review = await ok(tankBattleApi.tankBattleAnnotate({ tankBattleAnnotateRequest: record }), "tank-battle review");
  check(review.plies.length === moves.length, "a verdict a move");
  check(standing(review._final) === standing(last), "the review ends where the game did");
  const text = await ok(
    tankBattleApi.tankBattleAnnotateLines({ tankBattleAnnotateRequest: record }),
    "tank-battle lines",
  );
  sameReview(ndjson(text, TankBattleAnnotateLineFromJSON, "tank-battle lines"), review, "tank-battle lines");

  const picture = await ok(
    tankBattleApi.tankBattleRender({ position, lastMove: moves.at(-1) }),
    "tank-battle render",
  );
  check(picture.includes("<svg"), "tank-battle final position");
}

async function tankWarHosted(): Promise<void> {
  let state: TankWarState = await ok(tankWarApi.tankWarInitial(), "tank-war initial");
  const rounds: TankWarReplayRound[] = [];
  let last: TankWarApplyResponse | undefined;
  while (last === undefined || !last.finished) {
    check(rounds.length < 60, "tank-war ends");
    const seed = rounds.length;
    const other = await ok(
      tankWarApi.tankWarAiMove({ tankWarAiMoveRequest: { state, player: "D", level: 1, seed } }),
      "tank-war D's pick",
    );
    const elapsedMs = { u: 4000, d: 3000 };
    const played = await ok(
      tankWarApi.tankWarAiMove({
        tankWarAiMoveRequest: { state, player: "U", level: 1, seed, play: true, moves: { d: other.move }, elapsedMs },
      }),
      "tank-war ai-move play",
    );
    if (played.applied === undefined) {
      throw new Error("ai-move with play answers `applied`");
    }
    last = played.applied;
    rounds.push({ u: played.move, d: other.move, elapsedMs });
    state = last.state;
  }
  check(last.reason !== null, "tank-war says why it ended");

  const record = { game: "tank-war", rounds, result: result(TankWarApplyResponseToJSONTyped(last)) };
  const review = await ok(tankWarApi.tankWarAnnotate({ tankWarAnnotateRequest: record }), "tank-war review");
  check(review.plies.length === 2 * rounds.length, "a verdict a player a round");
  check(standing(review._final) === standing(last), "the review ends where the game did");
  const text = await ok(tankWarApi.tankWarAnnotateLines({ tankWarAnnotateRequest: record }), "tank-war lines");
  sameReview(ndjson(text, TankWarAnnotateLineFromJSON, "tank-war lines"), review, "tank-war lines");
  const chart = await ok(tankWarApi.tankWarAnnotateChart({ tankWarAnnotateRequest: record }), "tank-war chart");
  check(chart.includes("<svg"), "tank-war review chart");

  const picture = await ok(
    tankWarApi.tankWarRender({ state: JSON.stringify(TankWarStateToJSON(state)) }),
    "tank-war render",
  );
  check(picture.includes("<svg"), "tank-war final position");
}

async function cobiTankWarsHosted(): Promise<void> {
  let state: CobiTankWarsState = await ok(cobiApi.cobiTankWarsInitial(), "cobi-tank-wars initial");
  const rounds: CobiTankWarsReplayRound[] = [];
  let last: CobiTankWarsApplyResponse | undefined;
  while (last === undefined || !last.finished) {
    check(rounds.length < 60, "cobi-tank-wars ends");
    const seed = 100 + rounds.length;
    const other = await ok(
      cobiApi.cobiTankWarsAiMove({ cobiTankWarsAiMoveRequest: { state, player: "P2", level: 3, seed } }),
      "cobi-tank-wars P2's orders",
    );
    const theirFire = other.gunfire.map((target) => target.square);
    const played = await ok(
      cobiApi.cobiTankWarsAiMove({
        cobiTankWarsAiMoveRequest: {
          state,
          player: "P1",
          level: 3,
          seed,
          play: true,
          orders: other.orders,
          gunfire: theirFire,
        },
      }),
      "cobi-tank-wars ai-move play",
    );
    if (played.applied === undefined) {
      throw new Error("ai-move with play answers `applied`");
    }
    last = played.applied;
    rounds.push({
      orders: { p1: played.orders, p2: other.orders },
      gunfire: [...played.gunfire.map((target) => target.square), ...theirFire],
      seed,
    });
    state = last.state;
  }
  check(last.reason !== null, "cobi-tank-wars says why it ended");

  const record = {
    game: "cobi-tank-wars",
    rounds,
    result: result(CobiTankWarsApplyResponseToJSONTyped(last)),
    limits: { maxNodes: 2000 },
  };
  const review = await ok(
    cobiApi.cobiTankWarsAnnotate({ cobiTankWarsAnnotateRequest: record }),
    "cobi-tank-wars review",
  );
  check(review.plies.length === 2 * rounds.length, "a verdict a player a round");
  check(standing(review._final) === standing(last), "the review ends where the game did");
  const text = await ok(
    cobiApi.cobiTankWarsAnnotateLines({ cobiTankWarsAnnotateRequest: record }),
    "cobi-tank-wars lines",
  );
  sameReview(ndjson(text, CobiTankWarsAnnotateLineFromJSON, "cobi-tank-wars lines"), review, "cobi-tank-wars lines");

  const picture = await ok(
    cobiApi.cobiTankWarsRender({ state: JSON.stringify(CobiTankWarsStateToJSON(state)) }),
    "cobi-tank-wars render",
  );
  check(picture.includes("<svg"), "cobi-tank-wars final position");
}

async function keys(): Promise<void> {
  if (!apiKey) {
    return;
  }
  const anonymous = new TankWarApi(new Configuration({ basePath: baseUrl }));
  const refusal = await refused(anonymous.tankWarInitial(), "a call without a key");
  switch (refusal.problem.code) {
    case "UNAUTHORIZED":
      check(refusal.status === 401, "no key, 401");
      break;
    default:
      throw new Error(`a call without a key was refused with ${refusal.problem.code}`);
  }
}

await keys();
await tankBattle();
await tankWar();
await cobiTankWars();
await tankBattleHosted();
await tankWarHosted();
await cobiTankWarsHosted();
console.log(`typescript-fetch: ${checks} checks passed against ${baseUrl}`);
