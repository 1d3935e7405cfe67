// What every game's view shares: the texts (the service's catalogues,
// /board/texts/<lang>.json), the API client with its refusals as
// messages, one action at a time, and the grid of squares a view draws
// its board on. Holds no rules.

export const $ = (id) => document.getElementById(id);

export const shell = {
  lang: "en",
  texts: {},
  key: sessionStorage.getItem("tank-rules-key") || "",
  busy: false,
  // The shown view's drawing, called after every action.
  render: () => {},
};

// --- texts -----------------------------------------------------------

// The catalogue's text `id` with `vars` filled in: numbers written as the
// page's language writes them (74.7, 74,7), and a text that depends on a
// number's plural category (`{"plural": "count", "one": …, "other": …}`)
// picked by the language's own plural rules.
export function t(id, vars = {}) {
  let text = shell.texts[id] ?? id;
  const { plurals, numbers } = rulesOf(shell.lang);
  if (typeof text === "object") {
    const n = Number(vars[text.plural]);
    text = text[String(n)] ?? text[plurals.select(n)] ?? text[text["*"]];
  }
  const written = (value) => (typeof value === "number" ? numbers.format(value) : String(value ?? ""));
  return text.replace(/\{(\w+)\}/g, (_, name) => written(vars[name]));
}

// A language's plural rules and number format, made once.
const RULES = new Map();
function rulesOf(lang) {
  if (!RULES.has(lang)) {
    RULES.set(lang, {
      plurals: new Intl.PluralRules(lang),
      numbers: new Intl.NumberFormat(lang, { maximumFractionDigits: 1, useGrouping: false }),
    });
  }
  return RULES.get(lang);
}

export async function loadTexts(lang) {
  const res = await fetch(`/board/texts/${lang}.json`);
  shell.texts = await res.json();
  shell.lang = lang;
  document.documentElement.lang = lang;
  document.title = t("board-title");
  for (const el of document.querySelectorAll("[data-text]")) el.textContent = t(el.dataset.text);
  for (const el of document.querySelectorAll("[data-label]")) {
    el.setAttribute("aria-label", t(el.dataset.label));
    el.title = t(el.dataset.label);
  }
}

// --- the API ---------------------------------------------------------

export class Refused extends Error {
  constructor(status, problem) {
    super(problem?.detail || String(status));
    this.status = status;
    this.problem = problem;
  }
}

// The API of one game: `api(method, operation, body)` asks
// /v1/<game>/<operation>; a refusal is thrown as `Refused`, its text the
// service's (401 opens the key box; 429 and 503 say how long to wait).
export function client(game) {
  return async (method, operation, body) => {
    const headers = { accept: "application/json", "accept-language": shell.lang };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (shell.key) headers["x-api-key"] = shell.key;
    let res;
    try {
      res = await fetch(`/v1/${game}/${operation}`, {
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
  };
}

export function say(text) {
  $("message").textContent = text;
}

export function status(text) {
  $("status").textContent = text;
}

// A refusal in a player's words: the service's own text in the page's
// language (the rule, what is wrong), with the notation's quotes written
// as quotation marks; a missing key is the key box's text. Never a status
// number or a header's name.
export function sayFailure(error) {
  if (!(error instanceof Refused)) throw error;
  const problem = error.problem || {};
  if (error.status === 401) return say(t("board-key-needed"));
  const detail = (problem.detail || problem.title || t("board-failed"))
    .replace(/`([^`]*)`/g, (_, quoted) => t("board-quoted", { text: quoted }));
  say(detail.charAt(0).toUpperCase() + detail.slice(1));
}

// One action at a time; a failure is a message, never a broken page (the
// status as it was before the action, e.g. not "thinking"). A message of
// an earlier action goes when the next begins.
export async function act(action) {
  if (shell.busy) return;
  say("");
  shell.busy = true;
  document.body.setAttribute("aria-busy", "true");
  const before = $("status").textContent;
  try {
    await action();
  } catch (error) {
    status(before);
    sayFailure(error);
  } finally {
    shell.busy = false;
    document.body.removeAttribute("aria-busy");
    shell.render();
  }
}

// --- a grid of squares -------------------------------------------------

export const FILES = "abcdefghijk";

// Fills `board` (role grid) with rows × cols focusable cells; the cell at
// grid row r, column c is `cells[r * cols + c]`.
export function buildGrid(board, rows, cols) {
  board.replaceChildren();
  board.style.setProperty("--cols", String(cols));
  board.style.setProperty("--rows", String(rows));
  for (let row = 0; row < rows; row++) {
    const line = document.createElement("div");
    line.setAttribute("role", "row");
    for (let col = 0; col < cols; col++) {
      const cell = document.createElement("div");
      cell.setAttribute("role", "gridcell");
      cell.className = "square";
      cell.tabIndex = -1;
      line.append(cell);
    }
    board.append(line);
  }
  return [...board.querySelectorAll(".square")];
}

// Arrow keys move the focus between a grid's cells; Enter or Space
// calls `pick(square)`; Escape calls `letGo()`.
export function keyboard(board, cols, { pick, letGo }) {
  board.addEventListener("focusin", (event) => {
    const square = event.target.dataset?.square;
    if (square) board.dataset.focus = square;
  });
  board.addEventListener("keydown", (event) => {
    const cells = [...board.querySelectorAll(".square")];
    const i = cells.indexOf(document.activeElement);
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols }[event.key];
    if (step !== undefined) {
      event.preventDefault();
      const sideways = step === -1 || step === 1;
      const j = i + step;
      if (i < 0 || j < 0 || j >= cells.length) return;
      if (sideways && Math.floor(j / cols) !== Math.floor(i / cols)) return;
      board.dataset.focus = cells[j].dataset.square;
      roving(board);
      cells[j].focus();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const square = document.activeElement?.dataset?.square;
      if (square) act(() => pick(square));
    } else if (event.key === "Escape") {
      letGo();
      shell.render();
    }
  });
}

// The one cell of a grid in the tab order: the last focused (the first
// cell before any).
export function roving(board) {
  const cells = [...board.querySelectorAll(".square")];
  const focused = cells.find((c) => c.dataset.square === board.dataset.focus) || cells[0];
  for (const cell of cells) cell.tabIndex = cell === focused ? 0 : -1;
}

// Fills a select with the AI's levels 1 to 8, `chosen` selected.
export function levels(select, chosen = 3) {
  for (let n = 1; n <= 8; n++) select.append(new Option(String(n), String(n), false, n === chosen));
}

// The file letters and rank numbers along a board's edges (`ranks`
// beside it, `files` under it), rank 1 and file a where the board puts
// them (the other corner when it is flipped).
export function coordinates(ranks, files, rows, cols, flipped = false) {
  const label = (text) => Object.assign(document.createElement("span"), { textContent: text });
  const fileNames = [..."abcdefghijklmnopqrstuvwxyz".slice(0, cols)];
  const rankNames = Array.from({ length: rows }, (_, i) => String(rows - i));
  if (flipped) {
    fileNames.reverse();
    rankNames.reverse();
  }
  ranks.style.setProperty("--rows", String(rows));
  files.style.setProperty("--cols", String(cols));
  ranks.replaceChildren(...rankNames.map(label));
  files.replaceChildren(...fileNames.map(label));
}

// How a finished game ended, for its status line: who won (or a draw) and
// the rule that ended it (`score.reason`), `side` the winner's name.
export function ending(score, side) {
  const over = score.winner ? t("board-finished-winner", { side }) : t("board-finished-draw");
  return score.reason ? `${over} ${t(`board-end-${score.reason}`)}` : over;
}

// A clock's milliseconds as m:ss.
export function clock(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// --- the URL's fragment ----------------------------------------------

// Writes the shown game's state into the fragment (without an event: the
// page follows only links opened in the tab).
export function writeFragment(game, entries) {
  const params = new URLSearchParams({ game });
  for (const [name, value] of entries) params.set(name, value);
  const fragment = `#${params}`;
  if (location.hash !== fragment) history.replaceState(null, "", fragment);
}

export function readFragment() {
  return new URLSearchParams(location.hash.slice(1));
}
