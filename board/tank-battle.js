// Tank Battle's view: a client of the public API, holding no rules.
// Every legal move, refusal, position, score, suggestion and verdict is
// an answer of /v1/tank-battle; the view reads the notation (TBN) only to
// draw it. The game is kept in the URL's fragment
// (#game=tank-battle&start=<TBN>&moves=<m1,m2,...>&at=<n>&flip=1).

import {
  $, act, buildGrid, client, coordinates, ending, FILES, levels, say, sayFailure, shell, status, t, writeFragment,
} from "./common.js";
import { clearReview, showReview, verdictAt } from "./review.js";

const GAME = "tank-battle";
const api = client(GAME);
const SIZE = 11;

const state = {
  layout: [], // rows of layout characters, rank 11 first
  initial: null, // the start position (TBN)
  start: null, // the game's first position (TBN)
  moves: [], // the moves played from it
  positions: [], // positions[i]: after i moves (positions[0] = start)
  at: 0, // the position shown
  flipped: false,
  selected: null, // the square picked
  targets: new Map(), // square → move, for the picked tank
  legal: new Map(), // position → its legal moves (an answer of legal-moves)
  arrow: null, // [from, to] of the AI's suggestion
  lastMove: null,
  focus: "a1",
  reviewed: null, // the moves the shown review judged
  draft: null, // the position being edited (a TBN), when editing
  finished: false, // whether the shown position's game is over
  solving: null, // the puzzles being solved: { puzzles, review, index, game }
};

// What a click puts on a square being edited: the next of these.
const EDIT_CYCLE = ["", "T", "t", "C", "c"];

// --- the notation, read to draw it -----------------------------------

function placement(tbn) {
  const rows = tbn.split(" ")[0].split("/");
  const pieces = new Map();
  rows.forEach((row, i) => {
    const rank = SIZE - i;
    let file = 0;
    for (const token of row.match(/\d+|[^\d]/g) || []) {
      if (/\d/.test(token)) file += Number(token);
      else pieces.set(`${FILES[file++]}${rank}`, token);
    }
  });
  return pieces;
}

const sideToMove = (tbn) => (tbn.split(" ")[1] === "b" ? "black" : "white");
const squareOf = (file, rank) => `${FILES[file]}${rank}`;
const current = () => state.draft ?? state.positions[state.at];

// A placement written back as a TBN (the notation only: whether it is a
// position the rules accept is the service's answer).
function written(pieces, side, ply) {
  const ranks = [];
  for (let rank = SIZE; rank >= 1; rank--) {
    let row = "";
    let empty = 0;
    for (let file = 0; file < SIZE; file++) {
      const piece = pieces.get(squareOf(file, rank));
      if (!piece) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += piece;
    }
    ranks.push(empty ? row + String(empty) : row);
  }
  return `${ranks.join("/")} ${side} ${ply}`;
}

// Editing: a click cycles a square's piece; the side to move is chosen.
function edit(square) {
  const [, side, ply] = state.draft.split(" ");
  const pieces = placement(state.draft);
  const next = EDIT_CYCLE[(EDIT_CYCLE.indexOf(pieces.get(square) ?? "") + 1) % EDIT_CYCLE.length];
  if (next) pieces.set(square, next);
  else pieces.delete(square);
  state.draft = written(pieces, side, ply);
  status(t("board-edited", { square, piece: next ? t(`board-piece-${next}`) : t("board-empty") }));
}
const squaresOf = (move) => move.split(/[-x]/);

// --- drawing ---------------------------------------------------------

function buildBoard() {
  buildGrid($("board"), SIZE, SIZE);
}

// The square drawn at (row, col) of the grid, the board flipped or not.
function squareAt(row, col) {
  return state.flipped ? squareOf(SIZE - 1 - col, row + 1) : squareOf(col, SIZE - row);
}

function kindsOf(square) {
  const file = FILES.indexOf(square[0]);
  const rank = Number(square.slice(1));
  const c = state.layout[SIZE - rank]?.[file] || ".";
  const kinds = [];
  if (c === "#") kinds.push("mine");
  if (c === "~") kinds.push("contaminated");
  if (c === "w" || c === "W") kinds.push("base-white");
  if (c === "b" || c === "B") kinds.push("base-black");
  if (c === "W" || c === "B") kinds.push("commander-start");
  return kinds;
}

function render() {
  const position = current();
  if (!position) return;
  const pieces = placement(position);
  const cells = $("board").querySelectorAll(".square");
  cells.forEach((cell, i) => {
    const square = squareAt(Math.floor(i / SIZE), i % SIZE);
    const piece = pieces.get(square);
    const kinds = kindsOf(square);
    cell.dataset.square = square;
    cell.className = "square";
    for (const kind of kinds) cell.classList.add(kind);
    if (piece) cell.classList.add("occupied");
    if (square === state.selected) cell.classList.add("selected");
    if (state.targets.has(square)) cell.classList.add("target");
    if (state.lastMove && state.lastMove.includes(square)) cell.classList.add("last");
    cell.tabIndex = square === state.focus ? 0 : -1;
    cell.replaceChildren();
    let label = piece
      ? t("board-square-piece", { square, piece: t(`board-piece-${piece}`) })
      : t("board-square-empty", { square });
    if (kinds.length) label += `, ${kinds.map((k) => t(`board-kind-${k}`)).join(", ")}`;
    if (state.targets.has(square)) label += ` (${t("board-square-target", { square })})`;
    cell.setAttribute("aria-label", label);
    cell.setAttribute("aria-selected", square === state.selected ? "true" : "false");
    if (piece) cell.append(drawn(piece));
  });
  coordinates($("ranks"), $("files"), SIZE, SIZE, state.flipped);
  const side = t(`board-${sideToMove(position)}`);
  $("board").setAttribute("aria-label", t("board-board", { side }));
  drawArrow();
  renderMoves();
  $("tbn").value = position;
  $("edit").setAttribute("aria-pressed", String(state.draft !== null));
  $("edit").textContent = state.draft === null ? t("board-edit") : t("board-edit-done");
  $("side").value = position.split(" ")[1];
  $("side").disabled = state.draft === null;
  $("take-back").disabled = state.moves.length === 0 || shell.busy;
  $("ai-move").disabled = state.finished || state.draft !== null;
  $("review-game").disabled = state.moves.length === 0 || shell.busy;
  $("find-puzzles").disabled = state.moves.length === 0 || shell.busy || state.solving !== null;
  $("previous").disabled = $("first").disabled = state.at === 0;
  $("next").disabled = $("last").disabled = state.at === state.moves.length;
  if (state.reviewed !== state.moves.join(",")) {
    state.reviewed = null;
    clearReview();
  }
  verdictAt(state.at);
  const entries = [["start", state.start]];
  if (state.moves.length) entries.push(["moves", state.moves.join(",")]);
  if (state.at !== state.moves.length) entries.push(["at", String(state.at)]);
  if (state.flipped) entries.push(["flip", "1"]);
  writeFragment(GAME, entries);
}

// A piece as render.svg draws it (its symbols, tank-battle.pieces.svg).
function drawn(piece) {
  const ns = "http://www.w3.org/2000/svg";
  const side = piece === piece.toUpperCase() ? "white" : "black";
  const role = piece.toLowerCase() === "c" ? "commander" : "normal";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", `piece tb-piece ${side} ${role}`);
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(ns, "use");
  use.setAttribute("href", `#tb-${side}-${role}`);
  svg.append(use);
  return svg;
}

// The pieces' symbols, fetched once into the page (an SVG of the same
// origin; `use` then refers to them within the page).
async function loadPieces() {
  const res = await fetch("/board/tank-battle.pieces.svg");
  const doc = new DOMParser().parseFromString(await res.text(), "image/svg+xml");
  $("piece-defs").replaceChildren(...doc.querySelectorAll("symbol"));
}

function centre(square) {
  const file = FILES.indexOf(square[0]);
  const rank = Number(square.slice(1));
  return state.flipped ? [SIZE - 1 - file + 0.5, rank - 0.5] : [file + 0.5, SIZE - rank + 0.5];
}

function drawArrow() {
  const svg = $("arrows");
  svg.replaceChildren();
  if (!state.arrow) return;
  const [x1, y1] = centre(state.arrow[0]);
  const [x2, y2] = centre(state.arrow[1]);
  const ns = "http://www.w3.org/2000/svg";
  const angle = Math.atan2(y2 - y1, x2 - x1);
  const head = 0.35;
  const line = document.createElementNS(ns, "line");
  const [ex, ey] = [x2 - Math.cos(angle) * head, y2 - Math.sin(angle) * head];
  for (const [k, v] of Object.entries({ x1, y1, x2: ex, y2: ey })) line.setAttribute(k, v);
  const tip = document.createElementNS(ns, "path");
  const side = (a) => `${x2 - Math.cos(a) * head * 1.4},${y2 - Math.sin(a) * head * 1.4}`;
  tip.setAttribute("d", `M${x2},${y2} L${side(angle + 0.45)} L${side(angle - 0.45)} Z`);
  svg.append(line, tip);
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  state.moves.forEach((move, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `${i + 1}. ${move}`;
    if (state.at === i + 1) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => show(i + 1));
    item.append(button);
    list.append(item);
  });
}

// The position's score and whose move it is (after `happened`, when
// something did), as the status a screen reader announces; `score`, the
// position's when it is known already.
async function describe(happened = "", score = null) {
  const position = current();
  // A repetition rule needs the game's moves (`replay`); a position alone
  // tells the rest (`score`).
  const policy = rules();
  if (!score && policy.repetition && state.draft === null && state.at > 0) {
    const moves = state.moves.slice(0, state.at);
    score = (await api("POST", "replay", { start: state.start, moves, rules: policy })).final;
  }
  score ??= await api("POST", "score", { position, rules: policy });
  state.finished = score.finished;
  $("score").textContent = t("board-score", score.score);
  const line = score.finished
    ? ending(score, t(`board-${score.winner}`))
    : t("board-to-move", { side: t(`board-${sideToMove(position)}`) });
  status(happened ? `${happened} ${line}` : line);
  return score;
}

// --- playing ---------------------------------------------------------

async function legalMoves(position) {
  if (!state.legal.has(position)) {
    const answer = await api("POST", "legal-moves", { position, rules: rules() });
    state.legal.set(position, answer.moves);
  }
  return state.legal.get(position);
}

function letGo() {
  state.selected = null;
  state.targets = new Map();
}

async function pick(square) {
  if (state.draft) return edit(square);
  if (state.finished) return;
  const position = current();
  const pieces = placement(position);
  const piece = pieces.get(square);
  if (state.selected && state.targets.has(square)) return play(state.targets.get(square));
  if (state.selected && square !== state.selected && !(piece && isOwn(piece, position))) {
    const move = `${state.selected}-${square}`;
    const verdict = await api("POST", "validate", { position, move, rules: rules() });
    letGo();
    await describe();
    say(verdict.legal ? "" : t("board-refused", { move, reason: verdict.reason?.message || "" }));
    return;
  }
  const dropped = state.selected !== null;
  letGo();
  if (!piece || !isOwn(piece, position)) return dropped ? describe() : undefined;
  const moves = (await legalMoves(position)).filter((m) => m.from === square);
  say("");
  state.selected = square;
  for (const m of moves) state.targets.set(m.to, m.move);
  status(t("board-selected", { square, count: moves.length }));
}

const isOwn = (piece, position) => (piece === piece.toUpperCase()) === (sideToMove(position) === "white");

// Plays `move` (a try, while solving a puzzle); then, when the AI plays
// the other side and this was not its move, the AI's answer.
async function play(move, byAi = false) {
  if (state.solving && !byAi) return tryPuzzle(move);
  const score = await apply(move);
  if ($("play-ai").checked && !byAi && !score.finished) {
    render();
    await aiPlays();
  }
}

// Applies `move` to the shown position: the moves after it go.
async function apply(move) {
  letGo();
  const position = current();
  const answer = await api("POST", "apply", { position, move, rules: rules() });
  state.moves = state.moves.slice(0, state.at).concat(move);
  state.positions = state.positions.slice(0, state.at + 1).concat(answer.position);
  state.at = state.moves.length;
  state.lastMove = squaresOf(move);
  state.arrow = null;
  $("lines").replaceChildren();
  say("");
  return describe(t("board-played", { move }));
}

function level() {
  return Number($("level").value);
}

// The end policy the player chose: a ply limit, or the rules as written
// (`{}`, whatever the server's default), so that a game on the board ends
// where the player said.
function rules() {
  const limit = Number($("max-plies").value);
  const times = Number($("repetition").value);
  const rules = {};
  if ($("max-plies").value && Number.isInteger(limit) && limit >= 1) rules.max_plies = limit;
  if ($("repetition").value && Number.isInteger(times) && times >= 2) rules.repetition = times;
  return rules;
}

async function aiPlays() {
  status(t("board-thinking"));
  const answer = await api("POST", "ai-move", { position: current(), level: level(), rules: rules() });
  await play(answer.move, true);
}

// An evaluation (centipoints for `side`, the side to move; near ±1000000
// a forced result, 1000000 less the plies to it) in a player's words.
function judged(centipoints, side) {
  const other = side === "white" ? "black" : "white";
  const ahead = t(`board-${centipoints >= 0 ? side : other}`);
  const size = Math.abs(centipoints);
  if (size > 1000000 - 1000) return t("board-eval-wins", { side: ahead, plies: 1000000 - size });
  if (size < 50) return t("board-eval-even");
  return t("board-eval-ahead", { side: ahead, points: Math.round(size / 10) / 10 });
}

async function suggest() {
  status(t("board-thinking"));
  const answer = await api("POST", "ai-move", { position: current(), level: level(), multipv: 3, rules: rules() });
  state.arrow = squaresOf(answer.move);
  const lines = $("lines");
  lines.replaceChildren();
  const side = sideToMove(current());
  for (const line of answer.lines || []) {
    const item = document.createElement("li");
    const then = line.pv.slice(1).join(" ");
    const evaluation = judged(line.evaluation, side);
    item.textContent = then
      ? t("board-ai-line-then", { move: line.move, evaluation, then })
      : t("board-ai-line", { move: line.move, evaluation });
    lines.append(item);
  }
  say("");
  await describe(t("board-suggested", { move: answer.move, evaluation: judged(answer.evaluation, side) }));
}

// Shows the position after `at` moves, with `arrow` (a move) drawn.
async function show(at, arrow = null) {
  state.draft = null;
  state.at = Math.max(0, Math.min(at, state.moves.length));
  state.lastMove = state.at > 0 ? squaresOf(state.moves[state.at - 1]) : null;
  letGo();
  state.arrow = arrow ? squaresOf(arrow) : null;
  render();
  await act(describe);
}

// Sets up `start` and the moves from it, once the service has accepted
// them (a refused one leaves the shown game as it was).
async function setUp(start, moves = [], at = moves.length) {
  let positions = [start];
  if (moves.length) {
    const replayed = await api("POST", "replay", { start, moves, rules: rules() });
    positions = positions.concat(replayed.positions);
  }
  const score = moves.length ? null : await api("POST", "score", { position: start, rules: rules() });
  state.draft = null;
  state.start = start;
  state.moves = moves;
  state.positions = positions;
  state.at = Math.min(at, moves.length);
  state.lastMove = state.at > 0 ? squaresOf(moves[state.at - 1]) : null;
  state.arrow = null;
  letGo();
  say("");
  await describe("", score);
}

// --- input -----------------------------------------------------------

function onBoard(event) {
  const cell = event.target.closest?.(".square");
  return cell?.dataset.square;
}

function focusSquare(square) {
  state.focus = square;
  render();
  $("board").querySelector(`[data-square="${square}"]`)?.focus();
}

function moveFocus(key) {
  const [dc, dr] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  const cells = [...$("board").querySelectorAll(".square")];
  const i = cells.findIndex((cell) => cell.dataset.square === state.focus);
  const row = Math.min(SIZE - 1, Math.max(0, Math.floor(i / SIZE) + dr));
  const col = Math.min(SIZE - 1, Math.max(0, (i % SIZE) + dc));
  focusSquare(squareAt(row, col));
}

function wire() {
  const board = $("board");
  let pressed = null;
  board.addEventListener("pointerdown", (event) => {
    const square = onBoard(event);
    if (!square) return;
    pressed = square;
    state.focus = square;
    act(() => pick(square));
  });
  // A drag: the tank picked where the pointer went down, the move played
  // where it comes up.
  board.addEventListener("pointerup", (event) => {
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const square = under?.closest?.(".square")?.dataset.square;
    if (pressed && square && square !== pressed) {
      const waitForPick = () => (shell.busy ? setTimeout(waitForPick, 20) : act(() => pick(square)));
      waitForPick();
    }
    pressed = null;
  });
  board.addEventListener("keydown", (event) => {
    if (event.key.startsWith("Arrow")) {
      event.preventDefault();
      moveFocus(event.key);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const square = onBoard(event) || state.focus;
      act(() => pick(square));
    } else if (event.key === "Escape") {
      letGo();
      act(describe);
    }
  });
  board.addEventListener("focusin", (event) => {
    const square = onBoard(event);
    if (square) state.focus = square;
  });
  $("ai-move").addEventListener("click", () => act(suggest));
  // Ticked after a move, the AI answers it at once (the player made it);
  // ticked before the first, it answers the player's first move.
  $("play-ai").addEventListener("change", () => {
    if ($("play-ai").checked && state.at > 0 && !state.finished && state.draft === null) act(aiPlays);
  });
  $("flip").addEventListener("click", () => {
    state.flipped = !state.flipped;
    render();
  });
  $("take-back").addEventListener("click", () => act(async () => {
    const back = $("play-ai").checked && state.moves.length >= 2 ? 2 : 1;
    state.moves = state.moves.slice(0, -back);
    state.positions = state.positions.slice(0, -back);
    state.at = state.moves.length;
    state.lastMove = state.at > 0 ? squaresOf(state.moves[state.at - 1]) : null;
    state.arrow = null;
    letGo();
    await describe();
  }));
  $("new-game").addEventListener("click", () => act(async () => {
    await leavePuzzles(false);
    await setUp(state.initial);
  }));
  $("set-position").addEventListener("click", () => act(async () => {
    await leavePuzzles(false);
    await setUp($("tbn").value.trim());
  }));
  $("edit").addEventListener("click", () => act(async () => {
    if (state.draft === null) {
      state.draft = current();
      letGo();
      state.arrow = null;
      status(t("board-editing"));
    } else {
      await setUp(state.draft);
    }
  }));
  $("side").addEventListener("change", () => {
    if (state.draft === null) return;
    const [pieces, , ply] = state.draft.split(" ");
    state.draft = `${pieces} ${$("side").value} ${ply}`;
    render();
  });
  $("review-game").addEventListener("click", () => act(review));
  $("find-puzzles").addEventListener("click", () => act(findPuzzles));
  $("next-puzzle").addEventListener("click", () => act(async () => {
    state.solving.index += 1;
    await showPuzzle();
  }));
  $("leave-puzzles").addEventListener("click", () => act(() => leavePuzzles()));
  for (const policy of ["max-plies", "repetition"]) {
    $(policy).addEventListener("change", () => {
      state.legal.clear();
      act(describe);
    });
  }
  $("first").addEventListener("click", () => show(0));
  $("previous").addEventListener("click", () => show(state.at - 1));
  $("next").addEventListener("click", () => show(state.at + 1));
  $("last").addEventListener("click", () => show(state.moves.length));
}

// --- the review --------------------------------------------------------

// The game played, judged by `annotate`: its chart and moves under the
// board; a point or a move shows its position, with the verdict and the
// move that refutes it as the arrow.
async function review() {
  status(t("board-reviewing"));
  const answer = await api("POST", "annotate", { start: state.start, moves: state.moves, rules: rules() });
  state.reviewed = state.moves.join(",");
  showReview(answer, t("board-game-tank-battle"), "white", (step) => {
    const entry = (answer.plies || []).find((e) => e.ply + 1 === step);
    show(step, entry?.refutation?.[0] ?? null);
  });
  await describe(t("board-reviewed", { count: (answer.plies || []).length }));
}

// --- puzzles -----------------------------------------------------------

// The game's puzzles (`puzzles`), solved on the board: a try is checked
// against the answer's `solution` (data, not rules); a wrong one is not
// played and, where it is the move played in the game, the review's
// answer to it is shown (the review asked first, whose verdicts the
// puzzles then reuse).
async function findPuzzles() {
  status(t("board-finding-puzzles"));
  const game = { start: state.start, moves: state.moves, rules: rules() };
  const review = await api("POST", "annotate", game);
  const answer = await api("POST", "puzzles", game);
  if (!answer.puzzles.length) {
    say(t("board-no-puzzles"));
    return describe();
  }
  state.solving = { puzzles: answer.puzzles, review, index: 0, game: { ...game, at: state.at } };
  await showPuzzle();
}

async function showPuzzle() {
  const solving = state.solving;
  const puzzle = solving.puzzles[solving.index];
  $("puzzle").hidden = false;
  $("puzzle-result").textContent = "";
  $("next-puzzle").disabled = solving.index + 1 >= solving.puzzles.length;
  state.flipped = puzzle.player === "black";
  await setUp(puzzle.position);
  $("puzzle-task").textContent = t("board-puzzle-task", {
    index: solving.index + 1,
    count: solving.puzzles.length,
    side: t(`board-${puzzle.player}`),
    rating: puzzle.rating,
    themes: puzzle.themes.map((theme) => t(`board-theme-${theme}`)).join(", "),
  });
}

// A try at the shown position: the moves applied since the puzzle's
// position are the solution's so far (the player may step back).
async function tryPuzzle(move) {
  const solving = state.solving;
  const puzzle = solving.puzzles[solving.index];
  const expected = puzzle.solution[state.at];
  letGo();
  if (expected === undefined) return render();
  if (move !== expected) {
    const entry = (solving.review.plies || []).find((e) => e.ply === puzzle.ply);
    const refutation = state.at === 0 && move === puzzle.source.played ? entry?.refutation || [] : [];
    $("puzzle-result").textContent = refutation.length
      ? t("board-puzzle-refuted", { move, label: t(`label-${puzzle.source.label}`), refutation: refutation.join(" ") })
      : t("board-puzzle-wrong", { move });
    return render();
  }
  await apply(move);
  const reply = puzzle.solution[state.at];
  if (reply === undefined) {
    $("puzzle-result").textContent = t("board-puzzle-solved", { move, moves: puzzle.solution.join(" ") });
    return;
  }
  await apply(reply);
  $("puzzle-result").textContent = t("board-puzzle-reply", { move, reply });
}

// Back to the game the puzzles came from (or on to another: `restore`
// false).
async function leavePuzzles(restore = true) {
  const game = state.solving?.game;
  state.solving = null;
  $("puzzle").hidden = true;
  if (restore && game) await setUp(game.start, game.moves, game.at);
}

// --- the view ----------------------------------------------------------

export const view = {
  game: GAME,
  init() {
    levels($("level"));
    buildBoard();
    wire();
    loadPieces().catch(() => {});
  },
  render,
  // The position or game the fragment names (the start position when it
  // names none, or one the service refuses: with its reason).
  async open(params) {
    if (!state.initial) {
      const initial = await api("GET", "initial");
      state.layout = initial.layout.split("/");
      state.initial = initial.position;
    }
    const moves = (params.get("moves") || "").split(",").filter(Boolean);
    const at = params.has("at") ? Number(params.get("at")) : moves.length;
    state.flipped = params.get("flip") === "1";
    await leavePuzzles(false);
    try {
      await setUp(params.get("start") || state.initial, moves, at);
    } catch (error) {
      await setUp(state.initial);
      sayFailure(error);
    }
  },
  // The texts of the shown state, in a newly chosen language.
  refresh: () => describe(),
};
