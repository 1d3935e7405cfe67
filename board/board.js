// The board: a client of the public API, holding no rules. Every legal
// move, refusal, position, score and suggestion is an answer of /v1; the
// page reads the notation (TBN) only to draw it. Its texts are the
// service's catalogues (/board/texts/<lang>.json). The game is kept in
// the URL's fragment (#start=<TBN>&moves=<m1,m2,...>&at=<n>), so a link
// reopens it and no request line grows with it.

const GAME = "tank-battle";
const FILES = "abcdefghijk";
const SIZE = 11;
const LEVELS = 8;

const $ = (id) => document.getElementById(id);

const state = {
  lang: "en",
  texts: {},
  layout: [], // rows of layout characters, rank 11 first
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
  busy: false,
  key: sessionStorage.getItem("tank-rules-key") || "",
};

// --- texts -----------------------------------------------------------

function t(id, vars = {}) {
  const text = state.texts[id] ?? id;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}

async function loadTexts(lang) {
  const res = await fetch(`/board/texts/${lang}.json`);
  state.texts = await res.json();
  state.lang = lang;
  document.documentElement.lang = lang;
  document.title = t("board-title");
  for (const el of document.querySelectorAll("[data-text]")) el.textContent = t(el.dataset.text);
  for (const el of document.querySelectorAll("[data-label]")) {
    el.setAttribute("aria-label", t(el.dataset.label));
    el.title = t(el.dataset.label);
  }
}

// --- the API ---------------------------------------------------------

class Refused extends Error {
  constructor(status, problem) {
    super(problem?.detail || String(status));
    this.status = status;
    this.problem = problem;
  }
}

async function api(method, path, body) {
  const headers = { accept: "application/json", "accept-language": state.lang };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (state.key) headers["x-api-key"] = state.key;
  let res;
  try {
    res = await fetch(`/v1/${GAME}/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Refused(0, { detail: t("board-offline") });
  }
  const answer = await res.json().catch(() => null);
  if (res.ok) return answer;
  const wait = res.headers.get("retry-after") || "1";
  if (res.status === 401) $("key-box").hidden = false;
  if (res.status === 429) throw new Refused(429, { detail: t("board-too-many", { seconds: wait }) });
  if (res.status === 503) throw new Refused(503, { detail: t("board-busy", { seconds: wait }) });
  throw new Refused(res.status, answer);
}

function say(text) {
  $("message").textContent = text;
}

function sayFailure(error) {
  if (!(error instanceof Refused)) throw error;
  const problem = error.problem || {};
  say(error.status === 0 || error.status === 429 || error.status === 503
    ? problem.detail
    : t("board-failed", { status: error.status, detail: problem.detail || problem.title || "" }));
}

// One action at a time; a failure is a message, never a broken page.
async function act(action) {
  if (state.busy) return;
  state.busy = true;
  document.body.setAttribute("aria-busy", "true");
  try {
    await action();
  } catch (error) {
    sayFailure(error);
  } finally {
    state.busy = false;
    document.body.removeAttribute("aria-busy");
    render();
  }
}

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
const current = () => state.positions[state.at];
const squaresOf = (move) => move.split(/[-x]/);

// --- drawing ---------------------------------------------------------

function buildBoard() {
  const board = $("board");
  board.replaceChildren();
  for (let row = 0; row < SIZE; row++) {
    const line = document.createElement("div");
    line.setAttribute("role", "row");
    for (let col = 0; col < SIZE; col++) {
      const cell = document.createElement("div");
      cell.setAttribute("role", "gridcell");
      cell.className = "square";
      cell.tabIndex = -1;
      line.append(cell);
    }
    board.append(line);
  }
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
    const file = FILES.indexOf(square[0]);
    const rank = Number(square.slice(1));
    cell.dataset.square = square;
    cell.className = "square";
    if ((file + rank) % 2 === 0) cell.classList.add("dark");
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
    if (piece) {
      const mark = document.createElement("span");
      const white = piece === piece.toUpperCase();
      mark.className = `piece ${white ? "white" : "black"} ${piece.toLowerCase() === "c" ? "commander" : "tank"}`;
      cell.append(mark);
    }
  });
  const side = t(`board-${sideToMove(position)}`);
  $("board").setAttribute("aria-label", t("board-board", { side }));
  drawArrow();
  renderMoves();
  $("tbn").value = position;
  $("take-back").disabled = state.moves.length === 0 || state.busy;
  $("previous").disabled = $("first").disabled = state.at === 0;
  $("next").disabled = $("last").disabled = state.at === state.moves.length;
  writeFragment();
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
// something did), as the status a screen reader announces.
async function describe(happened = "") {
  const position = current();
  const score = await api("POST", "score", { position });
  $("score").textContent = t("board-score", score.score);
  let status;
  if (score.finished && score.winner) status = t("board-finished-winner", { side: t(`board-${score.winner}`) });
  else if (score.finished) status = t("board-finished-draw");
  else status = t("board-to-move", { side: t(`board-${sideToMove(position)}`) });
  $("status").textContent = happened ? `${happened} ${status}` : status;
  return score;
}

// --- playing ---------------------------------------------------------

async function legalMoves(position) {
  if (!state.legal.has(position)) {
    const answer = await api("POST", "legal-moves", { position });
    state.legal.set(position, answer.moves);
  }
  return state.legal.get(position);
}

function letGo() {
  state.selected = null;
  state.targets = new Map();
}

async function pick(square) {
  const position = current();
  const pieces = placement(position);
  const piece = pieces.get(square);
  if (state.selected && state.targets.has(square)) return play(state.targets.get(square));
  if (state.selected && square !== state.selected && !(piece && isOwn(piece, position))) {
    const move = `${state.selected}-${square}`;
    const verdict = await api("POST", "validate", { position, move });
    letGo();
    say(verdict.legal ? "" : t("board-refused", { move, reason: verdict.reason?.message || "" }));
    return;
  }
  letGo();
  if (!piece || !isOwn(piece, position)) return;
  const moves = (await legalMoves(position)).filter((m) => m.from === square);
  say("");
  state.selected = square;
  for (const m of moves) state.targets.set(m.to, m.move);
  $("status").textContent = t("board-selected", { square, count: moves.length });
}

const isOwn = (piece, position) => (piece === piece.toUpperCase()) === (sideToMove(position) === "white");

// Plays `move`; then, when the AI plays the other side and this was not
// its move, the AI's answer.
async function play(move, byAi = false) {
  letGo();
  const position = current();
  const answer = await api("POST", "apply", { position, move });
  state.moves = state.moves.slice(0, state.at).concat(move);
  state.positions = state.positions.slice(0, state.at + 1).concat(answer.position);
  state.at = state.moves.length;
  state.lastMove = squaresOf(move);
  state.arrow = null;
  $("lines").replaceChildren();
  say("");
  const score = await describe(t("board-played", { move }));
  if ($("play-ai").checked && !byAi && !score.finished) {
    render();
    await aiPlays();
  }
}

function level() {
  return Number($("level").value);
}

async function aiPlays() {
  $("status").textContent = t("board-thinking");
  const answer = await api("POST", "ai-move", { position: current(), level: level() });
  await play(answer.move, true);
}

async function suggest() {
  $("status").textContent = t("board-thinking");
  const answer = await api("POST", "ai-move", { position: current(), level: level(), multipv: 3 });
  state.arrow = squaresOf(answer.move);
  const lines = $("lines");
  lines.replaceChildren();
  for (const line of answer.lines || []) {
    const item = document.createElement("li");
    item.textContent = t("board-ai-line", { move: line.move, evaluation: line.evaluation, pv: line.pv.join(" ") });
    lines.append(item);
  }
  say("");
  await describe(t("board-suggested", { move: answer.move, evaluation: answer.evaluation }));
}

async function show(at) {
  state.at = Math.max(0, Math.min(at, state.moves.length));
  state.lastMove = state.at > 0 ? squaresOf(state.moves[state.at - 1]) : null;
  letGo();
  state.arrow = null;
  render();
  await act(describe);
}

async function setUp(start, moves = [], at = moves.length) {
  let positions = [start];
  if (moves.length) {
    const replayed = await api("POST", "replay", { start, moves });
    positions = positions.concat(replayed.positions);
  }
  state.start = start;
  state.moves = moves;
  state.positions = positions;
  state.at = Math.min(at, moves.length);
  state.lastMove = state.at > 0 ? squaresOf(moves[state.at - 1]) : null;
  state.arrow = null;
  letGo();
  say("");
  await describe();
}

// --- the URL's fragment ---------------------------------------------

function writeFragment() {
  const params = new URLSearchParams();
  params.set("start", state.start);
  if (state.moves.length) params.set("moves", state.moves.join(","));
  if (state.at !== state.moves.length) params.set("at", String(state.at));
  if (state.flipped) params.set("flip", "1");
  const fragment = `#${params}`;
  if (location.hash !== fragment) history.replaceState(null, "", fragment);
}

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const moves = (params.get("moves") || "").split(",").filter(Boolean);
  const at = params.has("at") ? Number(params.get("at")) : moves.length;
  return { start: params.get("start"), moves, at, flip: params.get("flip") === "1" };
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
      const waitForPick = () => (state.busy ? setTimeout(waitForPick, 20) : act(() => pick(square)));
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
      render();
    }
  });
  board.addEventListener("focusin", (event) => {
    const square = onBoard(event);
    if (square) state.focus = square;
  });
  $("lang").addEventListener("change", () => act(async () => {
    await loadTexts($("lang").value);
    sessionStorage.setItem("tank-rules-lang", state.lang);
    await describe();
  }));
  $("ai-move").addEventListener("click", () => act(suggest));
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
    const initial = await api("GET", "initial");
    await setUp(initial.position);
  }));
  $("set-position").addEventListener("click", () => act(() => setUp($("tbn").value.trim())));
  // A link opened in this tab (the page writes its own fragment with
  // replaceState, which fires no event).
  window.addEventListener("hashchange", () => act(() => fromFragment()));
  $("first").addEventListener("click", () => show(0));
  $("previous").addEventListener("click", () => show(state.at - 1));
  $("next").addEventListener("click", () => show(state.at + 1));
  $("last").addEventListener("click", () => show(state.moves.length));
  $("use-key").addEventListener("click", () => act(async () => {
    state.key = $("api-key").value.trim();
    sessionStorage.setItem("tank-rules-key", state.key);
    $("key-box").hidden = true;
    say("");
    await start();
  }));
}

// --- start -----------------------------------------------------------

async function start() {
  const initial = await api("GET", "initial");
  state.layout = initial.layout.split("/");
  await fromFragment(initial);
}

// The position or game the URL's fragment names (the start position when
// it names none, or one the service refuses).
async function fromFragment(initial) {
  initial ??= await api("GET", "initial");
  const wanted = readFragment();
  state.flipped = wanted.flip;
  try {
    await setUp(wanted.start || initial.position, wanted.moves, wanted.at);
  } catch (error) {
    // A link to a position or game the service refuses: its reason, and
    // the start position.
    await setUp(initial.position);
    sayFailure(error);
  }
}

async function main() {
  const asked = sessionStorage.getItem("tank-rules-lang")
    || (navigator.languages || []).map((l) => l.slice(0, 2)).find((l) => l === "cs" || l === "en")
    || "en";
  $("lang").value = asked;
  await loadTexts(asked);
  for (let n = 1; n <= LEVELS; n++) $("level").append(new Option(String(n), String(n), false, n === 3));
  buildBoard();
  wire();
  await act(start);
}

main();
