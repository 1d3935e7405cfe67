// A game site's calls through the TypeScript client generated from
// openapi/openapi.json (openapi-typescript types, openapi-fetch calls):
// every game from its start to an AI's move, a batch with typed results
// and a picture; then a whole game of each hosted to its end, reviewed and
// drawn. Compiled with `tsc --strict`; no casts, no `any`: every
// value read here is typed by the document.
//
//   node dist/flow.js http://127.0.0.1:8080 [api-key]

import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];

const [baseUrl = "http://127.0.0.1:8080", apiKey] = process.argv.slice(2);
const headers: Record<string, string> = apiKey ? { "X-Api-Key": apiKey } : {};
const client = createClient<paths>({ baseUrl, headers });

let checks = 0;

/** Fails the flow unless `ok`. */
function check(ok: boolean, what: string): void {
  if (!ok) {
    throw new Error(`check failed: ${what}`);
  }
  checks += 1;
}

/** The answer of a call that must succeed. */
function ok<T>(answer: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (answer.data === undefined) {
    throw new Error(`${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  checks += 1;
  return answer.data;
}

// A review in JSON: `annotate` also speaks NDJSON (lines of their own
// schema, told apart by `line`) and SVG (by `format` or `Accept`), so its
// 200 body is typed as the JSON answer, a line or a string.
function isReview<B extends object>(body: B): body is Extract<B, { plies: unknown }> {
  return "plies" in body;
}

function reviewed<B extends object>(body: B | string, what: string): Extract<B, { plies: unknown }> {
  if (typeof body === "string" || !isReview(body)) {
    throw new Error(`${what}: a JSON review was asked for, got a line or text`);
  }
  return body;
}

// Puzzles in JSON: `puzzles` also streams NDJSON lines (by `Accept`), so
// its 200 body is typed as the JSON answer or a line.
function isPuzzles<B extends object>(body: B): body is Extract<B, { puzzles: unknown }> {
  return "puzzles" in body;
}

function found<B extends object>(body: B, what: string): Extract<B, { puzzles: unknown }> {
  if (!isPuzzles(body)) {
    throw new Error(`${what}: a JSON answer was asked for, got a line`);
  }
  return body;
}

async function tankBattle(): Promise<void> {
  const initial = ok(
    await client.GET("/v1/tank-battle/initial", { params: { query: { layout: "standard" } } }),
    "tank-battle initial",
  );
  const position = initial.position;

  const moves = ok(
    await client.POST("/v1/tank-battle/legal-moves", { body: { position, from: "j4" } }),
    "tank-battle legal-moves",
  );
  check(moves.count === moves.moves.length && moves.count === 5, "j4 has 5 moves");

  const verdict = ok(
    await client.POST("/v1/tank-battle/validate", { body: { position, move: "j4-f8" } }),
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

  const refused = await client.POST("/v1/tank-battle/apply", { body: { position, move: "a8-a7" } });
  switch (refused.error?.code) {
    case "NOT_YOUR_TANK":
      check(refused.response.status === 422 && refused.error.square === "a8", "a8 is Black's");
      break;
    default:
      throw new Error(`a8-a7 should be refused: ${refused.response.status}`);
  }

  const applied = ok(
    await client.POST("/v1/tank-battle/apply", { body: { position, move: "j4-j5" } }),
    "tank-battle apply",
  );
  check(applied.captured === null && applied.winner === null && !applied.finished, "a quiet move");

  const suggestion = ok(
    await client.POST("/v1/tank-battle/ai-move", {
      body: { position: applied.position, level: 2, seed: 1 },
    }),
    "tank-battle ai-move",
  );
  check(suggestion.pv[0] === suggestion.move || suggestion.lines.length > 0, "the AI answers a move");

  const review = reviewed(
    ok(
      await client.POST("/v1/tank-battle/annotate", {
        body: { moves: ["k4-k5", "a8-a7", "k5-k6"], limits: { max_nodes: 10000 } },
      }),
      "tank-battle annotate",
    ),
    "tank-battle annotate",
  );
  check(
    review.plies.length === 3 && review.plies[1]?.player === "black" && review.players.length === 2,
    "a review of three moves",
  );
  check(review.plies.every((entry) => entry.loss >= 0 && entry.label.length > 0), "each move judged");

  // Black moves a tank where White's k2 takes it: the capture is a puzzle.
  const answer = ok(
    await client.POST("/v1/tank-battle/puzzles", {
      body: {
        start: "c10/8t2/7t3/11/11/11/11/11/11/2T7T/10C b 1",
        moves: ["h9-h5", "k2xh5"],
        limits: { max_nodes: 40000 },
        max_puzzles: 5,
      },
    }),
    "tank-battle puzzles",
  );
  const puzzles = found(answer, "tank-battle puzzles").puzzles;
  const puzzle = puzzles[0];
  check(
    puzzles.length === 1 && puzzle?.solution[0] === "k2xh5" && puzzle.player === "white",
    "the capture is the game's one puzzle",
  );
  check(puzzle?.source.label === "best" && puzzle.rating >= 100, "its source and rating");

  const score = ok(
    await client.POST("/v1/tank-battle/score", { body: { position: applied.position } }),
    "tank-battle score",
  );
  check(score.score.white === 14 && score.breakdown.white.tanks_on_field === 14, "14 tanks each");

  const batch = ok(
    await client.POST("/v1/tank-battle/batch", {
      body: {
        requests: [
          { op: "validate", position, move: "k4-k9" },
          { op: "apply", position, move: "a8-a7" },
          { op: "perft", position, depth: 2 },
        ],
      },
    }),
    "tank-battle batch",
  );
  // Each result names its `op` ("problem" for a failed request): the
  // discriminator the union is narrowed by.
  const [validated, problem, perft] = batch.results;
  check(validated?.op === "validate" && validated.legal && validated.move === "k4-k9", "batched validate");
  check(
    problem?.op === "problem" && problem.code === "NOT_YOUR_TANK" && problem.status === 422 && problem.square === "a8",
    "batched 422",
  );
  check(perft?.op === "perft" && perft.nodes === 2025, "batched perft");

  const picture = await client.GET("/v1/tank-battle/render.svg", {
    params: { query: { position: applied.position, last_move: "j4-j5", moves_from: "c9" } },
    parseAs: "text",
  });
  check(picture.data !== undefined && picture.data.includes("<svg"), "tank-battle picture");
}

async function tankWar(): Promise<void> {
  const state = ok(await client.GET("/v1/tank-war/initial"), "tank-war initial");

  const picks = ok(
    await client.POST("/v1/tank-war/legal-moves", { body: { state, player: "U" } }),
    "tank-war legal-moves",
  );
  check(picks.U !== undefined && picks.U.length === 6 && picks.D === undefined, "U's six tanks");

  const verdict = ok(
    await client.POST("/v1/tank-war/validate", { body: { state, moves: { U: "ZZ", D: "RC" } } }),
    "tank-war validate",
  );
  switch (verdict.reasons.U?.code) {
    case "NO_SUCH_TANK":
      check(!verdict.legal && verdict.reasons.D === undefined, "only U's pick is refused");
      break;
    default:
      throw new Error(`unexpected reasons ${JSON.stringify(verdict.reasons)}`);
  }

  const round = ok(
    await client.POST("/v1/tank-war/apply", {
      body: { state, moves: { U: "LA", D: "RC" }, elapsed_ms: { U: 1500, D: 2300 } },
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
  check(round.state.clock_ms?.U === 118500, "U's clock ran 1.5 s");

  const suggestion = ok(
    await client.POST("/v1/tank-war/ai-move", {
      body: { state: round.state, player: "D", level: 3, seed: 1 },
    }),
    "tank-war ai-move",
  );

  const judged = reviewed(
    ok(
      await client.POST("/v1/tank-war/annotate", { body: { rounds: [{ U: "LA", D: "RC" }] } }),
      "tank-war annotate",
    ),
    "tank-war annotate",
  );
  const d = judged.plies[1];
  check(
    judged.plies.length === 2 && d !== undefined && d.exact && d.label === "blunder" && (d.against ?? []).length > 0,
    "RC is D's blunder, judged exactly",
  );
  const total = suggestion.strategy.reduce((sum, entry) => sum + entry.probability, 0);
  check(Math.abs(total - 1) < 1e-9 && suggestion.strategy.some((e) => e.move === suggestion.move), "a strategy");

  const score = ok(await client.POST("/v1/tank-war/score", { body: { state: round.state } }), "tank-war score");
  check(score.surviving.U === 6 && score.surviving.D === 6 && score.winner === null, "six tanks each");

  const batch = ok(
    await client.POST("/v1/tank-war/batch", {
      body: {
        requests: [
          { op: "score", state },
          { op: "apply", state, moves: { U: "LA", D: "XX" } },
          { op: "validate", state, moves: { U: "ZZ", D: "RC" } },
        ],
      },
    }),
    "tank-war batch",
  );
  const [scored, problem, validated] = batch.results;
  check(
    scored?.op === "score" && scored.surviving.U === 6 && scored.surviving.D === 6 && scored.territory.U === 18,
    "batched score",
  );
  check(
    problem?.op === "problem" && problem.code === "NO_SUCH_TANK" && problem.status === 422 && problem.player === "D",
    "batched 422 names D",
  );
  check(
    validated?.op === "validate" && !validated.legal && validated.reasons.U?.code === "NO_SUCH_TANK",
    "batched validate",
  );

  const picture = await client.GET("/v1/tank-war/render.svg", {
    params: { query: { state: JSON.stringify(round.state) } },
    parseAs: "text",
  });
  check(picture.data !== undefined && picture.data.includes("<svg"), "tank-war picture");
}

async function cobiTankWars(): Promise<void> {
  const state = ok(await client.GET("/v1/cobi-tank-wars/initial"), "cobi-tank-wars initial");

  const legal = ok(
    await client.POST("/v1/cobi-tank-wars/legal-moves", { body: { state, player: "P1" } }),
    "cobi-tank-wars legal-moves",
  );
  const first = legal.P1?.["P1-1"]?.[0];
  check(first !== undefined && ["N", "E", "S", "W"].includes(first.dir) && legal.P2 === undefined, "P1's orders");

  const orders: Schemas["CobiTankWarsOrders"] = {
    P1: { "P1-1": { dir: "N", dist: 2 }, "P1-2": { dir: "N", dist: 1 }, "P1-3": { dir: "X", dist: 1 } },
    P2: { "P2-1": { dir: "S", dist: 1 }, "P2-2": { dir: "S", dist: 1 }, "P2-3": { dir: "S", dist: 1 } },
  };
  const verdict = ok(
    await client.POST("/v1/cobi-tank-wars/validate", { body: { state, orders } }),
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

  const suggestion = ok(
    await client.POST("/v1/cobi-tank-wars/ai-move", {
      body: { state, player: "P1", level: 3, seed: 1, gunfire_tokens: 1 },
    }),
    "cobi-tank-wars ai-move",
  );
  const judgedOrders = reviewed(
    ok(
      await client.POST("/v1/cobi-tank-wars/annotate", {
        body: {
          rounds: [{ orders: { P1: suggestion.orders, P2: orders.P2 }, seed: 7 }],
          limits: { max_nodes: 2000 },
        },
      }),
      "cobi-tank-wars annotate",
    ),
    "cobi-tank-wars annotate",
  );
  check(
    judgedOrders.plies.length === 2 && judgedOrders.players[0]?.player === "P1",
    "both players' orders judged",
  );
  // P2's last vehicle stands under gunfire in a corner, its way out a2;
  // P1, moving first, wins by parking there, and orders N 1 instead.
  const cornered = found(
    ok(
      await client.POST("/v1/cobi-tank-wars/puzzles", {
        body: {
          start: {
            cols: 8,
            rows: 8,
            first: "P1",
            round: 3,
            vehicles: [
              { id: "P1-1", owner: "P1", square: "b2", armor: 1, slot: 1 },
              { id: "P2-1", owner: "P2", square: "a1", armor: 1, slot: 1 },
            ],
            artillery: ["b1", "a3"],
            gunfire: ["a1"],
          },
          rounds: [{ orders: { P1: { "P1-1": { dir: "N", dist: 1 } }, P2: { "P2-1": { dir: "N", dist: 1 } } } }],
        },
      }),
      "cobi-tank-wars puzzles",
    ),
    "cobi-tank-wars puzzles",
  ).puzzles;
  const missed = cornered.filter((puzzle) => puzzle.player === "P1");
  const win = missed[0]?.solution[0]?.["P1-1"];
  check(
    missed.length === 1 && win?.dir === "W" && win.dist === 1 && missed[0]?.themes.includes("forced_win") === true,
    "the missed win is P1's puzzle",
  );
  // The AI's orders are valid orders as they are.
  const round = ok(
    await client.POST("/v1/cobi-tank-wars/apply", {
      body: { state, orders: { P1: suggestion.orders, P2: orders.P2 }, seed: 7 },
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

  const score = ok(
    await client.POST("/v1/cobi-tank-wars/score", { body: { state: round.state } }),
    "cobi-tank-wars score",
  );
  check(score.vehicles.P1 === 3 && score.winner === null, "three vehicles each");

  const batch = ok(
    await client.POST("/v1/cobi-tank-wars/batch", {
      body: {
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
  check(listed?.op === "legal-moves" && listed.P2?.["P2-1"] !== undefined, "batched legal-moves");
  check(
    validated?.op === "validate" && !validated.legal && validated.reasons[0]?.code === "BAD_DIRECTION",
    "batched validate",
  );
  check(
    problem?.op === "problem" && problem.code === "BAD_DIRECTION" && problem.status === 422 && problem.vehicle === "P1-3",
    "batched 422 names P1-3",
  );

  const picture = await client.GET("/v1/cobi-tank-wars/render.svg", {
    params: { query: { state: JSON.stringify(round.state) } },
    parseAs: "text",
  });
  check(picture.data !== undefined && picture.data.includes("<svg"), "cobi-tank-wars picture");
}

// --- Hosting whole games ---------------------------------------------------
// A site's game against the AI, each game from its start to its end: one
// `ai-move` with `play` a turn (the other side's step from an `ai-move`
// too), the game record kept from the answers alone, then the record
// reviewed as JSON and as NDJSON lines (`annotate.ndjson`) and the final
// position drawn.

/** A game record's `result`: the standing an answer ends with. */
function standing(answer: {
  finished: boolean;
  winner: string | null;
  draw: boolean;
  reason: string | null;
  score: object;
}): { finished: boolean; winner: string | null; draw: boolean; reason: string | null; score: object } {
  const { finished, winner, draw, reason, score } = answer;
  return { finished, winner, draw, reason, score };
}

/** A streamed review's lines, each a JSON object told apart by `line`. */
function ndjson(answer: { data?: string; response: Response }, what: string): unknown[] {
  const text = ok(answer, what);
  const lines = text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line): unknown => JSON.parse(line));
  check(lines.length >= 2, `${what}: entries, then the summary`);
  return lines;
}

/** Whether a decoded line is the `kind` of line `L` is (its discriminator). */
function isLine<L extends { line: string }>(kind: L["line"]): (value: unknown) => value is L {
  return (value: unknown): value is L =>
    typeof value === "object" && value !== null && "line" in value && value.line === kind;
}

/** A review's NDJSON lines against its JSON answer: the same verdicts, the same end. */
function sameReview<E extends { line: "entry"; played: unknown }, S extends { line: "summary"; final: object }>(
  lines: unknown[],
  review: { plies: { played: unknown }[]; final: object },
  entry: (value: unknown) => value is E,
  summary: (value: unknown) => value is S,
  what: string,
): void {
  const entries = lines.filter(entry);
  const last = lines.at(-1);
  check(
    JSON.stringify(entries.map((e) => e.played)) === JSON.stringify(review.plies.map((e) => e.played)),
    `${what}: the lines judge the same steps`,
  );
  check(summary(last) && JSON.stringify(last.final) === JSON.stringify(review.final), `${what}: the same final`);
}

async function tankBattleHosted(): Promise<void> {
  const rules = { max_plies: 24 };
  let position = ok(
    await client.GET("/v1/tank-battle/initial", { params: { query: { layout: "standard" } } }),
    "tank-battle initial",
  ).position;
  const moves: string[] = [];
  let last: Schemas["TankBattleApplyResponse"] | undefined;
  while (last === undefined || !last.finished) {
    check(moves.length < 24, "tank-battle ends by its ply limit");
    const played = ok(
      await client.POST("/v1/tank-battle/ai-move", {
        body: { position, rules, level: 2, seed: moves.length, play: true },
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
    result: standing(last),
    limits: { max_nodes: 10000 },
  };
  const review = reviewed(
    ok(await client.POST("/v1/tank-battle/annotate", { body: record }), "tank-battle review"),
    "tank-battle review",
  );
  check(review.plies.length === moves.length, "a verdict a move");
  check(JSON.stringify(standing(review.final)) === JSON.stringify(standing(last)), "the review ends where the game did");
  const lines = ndjson(
    await client.POST("/v1/tank-battle/annotate.ndjson", { body: record, parseAs: "text" }),
    "tank-battle lines",
  );
  sameReview(
    lines,
    review,
    isLine<Schemas["TankBattleAnnotateLineEntry"]>("entry"),
    isLine<Schemas["TankBattleAnnotateLineSummary"]>("summary"),
    "tank-battle lines",
  );

  const picture = await client.GET("/v1/tank-battle/render.svg", {
    params: { query: { position, last_move: moves.at(-1) } },
    parseAs: "text",
  });
  check(picture.data !== undefined && picture.data.includes("<svg"), "tank-battle final position");
}

async function tankWarHosted(): Promise<void> {
  let state: Schemas["TankWarState"] = ok(await client.GET("/v1/tank-war/initial"), "tank-war initial");
  const rounds: Schemas["TankWarReplayRound"][] = [];
  let last: Schemas["TankWarApplyResponse"] | undefined;
  while (last === undefined || !last.finished) {
    check(rounds.length < 60, "tank-war ends");
    const seed = rounds.length;
    const other = ok(
      await client.POST("/v1/tank-war/ai-move", { body: { state, player: "D", level: 1, seed } }),
      "tank-war D's pick",
    );
    const elapsed_ms = { U: 4000, D: 3000 };
    const played = ok(
      await client.POST("/v1/tank-war/ai-move", {
        body: { state, player: "U", level: 1, seed, play: true, moves: { D: other.move }, elapsed_ms },
      }),
      "tank-war ai-move play",
    );
    if (played.applied === undefined) {
      throw new Error("ai-move with play answers `applied`");
    }
    last = played.applied;
    rounds.push({ U: played.move, D: other.move, elapsed_ms });
    state = last.state;
  }
  check(last.reason !== null, "tank-war says why it ended");

  const record = { game: "tank-war", rounds, result: standing(last) };
  const review = reviewed(
    ok(await client.POST("/v1/tank-war/annotate", { body: record }), "tank-war review"),
    "tank-war review",
  );
  check(review.plies.length === 2 * rounds.length, "a verdict a player a round");
  check(JSON.stringify(standing(review.final)) === JSON.stringify(standing(last)), "the review ends where the game did");
  const lines = ndjson(
    await client.POST("/v1/tank-war/annotate.ndjson", { body: record, parseAs: "text" }),
    "tank-war lines",
  );
  sameReview(
    lines,
    review,
    isLine<Schemas["TankWarAnnotateLineEntry"]>("entry"),
    isLine<Schemas["TankWarAnnotateLineSummary"]>("summary"),
    "tank-war lines",
  );
  const chart = await client.POST("/v1/tank-war/annotate.svg", { body: record, parseAs: "text" });
  check(chart.data !== undefined && chart.data.includes("<svg"), "tank-war review chart");

  const picture = await client.GET("/v1/tank-war/render.svg", {
    params: { query: { state: JSON.stringify(state) } },
    parseAs: "text",
  });
  check(picture.data !== undefined && picture.data.includes("<svg"), "tank-war final position");
}

async function cobiTankWarsHosted(): Promise<void> {
  let state: Schemas["CobiTankWarsState"] = ok(await client.GET("/v1/cobi-tank-wars/initial"), "cobi-tank-wars initial");
  const rounds: Schemas["CobiTankWarsReplayRound"][] = [];
  let last: Schemas["CobiTankWarsApplyResponse"] | undefined;
  while (last === undefined || !last.finished) {
    check(rounds.length < 60, "cobi-tank-wars ends");
    const seed = 100 + rounds.length;
    const other = ok(
      await client.POST("/v1/cobi-tank-wars/ai-move", { body: { state, player: "P2", level: 3, seed } }),
      "cobi-tank-wars P2's orders",
    );
    const theirFire = other.gunfire.map((target) => target.square);
    const played = ok(
      await client.POST("/v1/cobi-tank-wars/ai-move", {
        body: { state, player: "P1", level: 3, seed, play: true, orders: other.orders, gunfire: theirFire },
      }),
      "cobi-tank-wars ai-move play",
    );
    if (played.applied === undefined) {
      throw new Error("ai-move with play answers `applied`");
    }
    last = played.applied;
    rounds.push({
      orders: { P1: played.orders, P2: other.orders },
      gunfire: [...played.gunfire.map((target) => target.square), ...theirFire],
      seed,
    });
    state = last.state;
  }
  check(last.reason !== null, "cobi-tank-wars says why it ended");

  const record = { game: "cobi-tank-wars", rounds, result: standing(last), limits: { max_nodes: 2000 } };
  const review = reviewed(
    ok(await client.POST("/v1/cobi-tank-wars/annotate", { body: record }), "cobi-tank-wars review"),
    "cobi-tank-wars review",
  );
  check(review.plies.length === 2 * rounds.length, "a verdict a player a round");
  check(JSON.stringify(standing(review.final)) === JSON.stringify(standing(last)), "the review ends where the game did");
  const lines = ndjson(
    await client.POST("/v1/cobi-tank-wars/annotate.ndjson", { body: record, parseAs: "text" }),
    "cobi-tank-wars lines",
  );
  sameReview(
    lines,
    review,
    isLine<Schemas["CobiTankWarsAnnotateLineEntry"]>("entry"),
    isLine<Schemas["CobiTankWarsAnnotateLineSummary"]>("summary"),
    "cobi-tank-wars lines",
  );

  const picture = await client.GET("/v1/cobi-tank-wars/render.svg", {
    params: { query: { state: JSON.stringify(state) } },
    parseAs: "text",
  });
  check(picture.data !== undefined && picture.data.includes("<svg"), "cobi-tank-wars final position");
}

async function keys(): Promise<void> {
  if (!apiKey) {
    return;
  }
  const anonymous = createClient<paths>({ baseUrl });
  const refused = await anonymous.GET("/v1/tank-war/initial");
  switch (refused.error?.code) {
    case "UNAUTHORIZED":
      check(refused.response.status === 401, "no key, 401");
      break;
    default:
      throw new Error(`a call without a key should be refused: ${refused.response.status}`);
  }
}

await keys();
await tankBattle();
await tankWar();
await cobiTankWars();
await tankBattleHosted();
await tankWarHosted();
await cobiTankWarsHosted();
console.log(`typescript: ${checks} checks passed against ${baseUrl}`);
