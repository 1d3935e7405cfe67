// The Tank War's view: simultaneous picks, a client of /v1/tank-war
// holding no rules. Each round both players pick a tank; a pick is
// hidden until both are chosen (by two people at one screen, or one
// against the AI), then `apply` resolves the round with its events and
// clocks. The equilibrium (`ai-move`, exact) is shown as probabilities
// per pick; the review is `annotate`'s, exact. The game is kept in the
// fragment (#game=tank-war&rounds=U.D.msU.msD,…&at=<n>&ai=U|D|none).

import {
  $, act, buildGrid, client, clock, coordinates, ending, keyboard, roving, say, shell, status, t, writeFragment,
} from "./common.js";
import { Rounds } from "./rounds.js";

const GAME = "tank-war";
const api = client(GAME);
const PLAYERS = ["U", "D"];

const state = {
  ai: "U", // the player the AI plays, or "none"
  picks: {}, // this round's picks so far (hidden)
  spent: {}, // ms each player took for this round's pick
  since: 0, // when the round began (performance.now())
  legal: null, // this round's pickable tanks per player
  score: null,
  strategy: null, // the equilibrium per player, when asked
};

const game = new Rounds({
  api,
  prefix: "war-",
  name: "board-game-tank-war",
  first: "U",
  roundText: (round) => `U ${round.U} · D ${round.D}`,
  eventText,
  newRound,
  describe: () => describe(),
  // A round as U.D.msU.msD, the rounds joined by commas.
  writeRounds: (rounds) =>
    rounds.map((r) => [r.U, r.D, r.elapsed_ms?.U ?? 0, r.elapsed_ms?.D ?? 0].join(".")).join(","),
});

const current = () => game.current();
const latest = () => game.latest();

// The player whose pick is awaited: U, then D (the AI's is asked for
// when the person's is in).
function picker() {
  if (!latest() || state.score?.finished) return null;
  return PLAYERS.find((p) => p !== state.ai && !(p in state.picks)) || null;
}

// --- drawing ---------------------------------------------------------

function tankOn(square) {
  return current().tanks.find((tank) => tank.track[tank.at] === square);
}

// What the last round did to the shown state: the squares tanks moved
// from and to, and the tanks it destroyed on their last square (from the
// round's events when it was played here, else where they stood).
function lastRound(s) {
  const before = game.at > 0 ? game.states[game.at - 1] : null;
  const moved = new Set();
  const gone = [];
  if (!before) return { moved, gone };
  const events = (game.latest() && game.events) || [];
  for (const tank of before.tanks) {
    const now = s.tanks.find((x) => x.owner === tank.owner && x.name === tank.name);
    if (now && now.at !== tank.at) {
      moved.add(tank.track[tank.at]);
      moved.add(now.track[now.at]);
    } else if (!now) {
      const destroyed = events.find((e) => e.kind === "destroyed" && e.player === tank.owner && e.tank === tank.name);
      gone.push({ ...tank, square: destroyed?.square ?? tank.track[tank.at] });
    }
  }
  return { moved, gone };
}

// A tank as the picture draws it: a square in its owner's colour with its
// type letter and, small, its name.
function drawnTank(tank, fading = false) {
  const mark = document.createElement("span");
  mark.className = `piece war-tank ${tank.owner}${fading ? " fading" : ""}`;
  const type = Object.assign(document.createElement("span"), { className: "type", textContent: tank.type });
  const name = Object.assign(document.createElement("span"), { className: "name", textContent: tank.name });
  mark.append(type, name);
  return mark;
}

// Each living tank's track, a faint line in its owner's colour (U's a
// little up and left, D's down and right, as the picture draws them).
function drawTracks(s) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = $("war-tracks");
  svg.setAttribute("viewBox", `0 0 ${s.cols} ${s.rows}`);
  svg.replaceChildren(...s.tanks.map((tank) => {
    const shift = tank.owner === "U" ? -0.08 : 0.08;
    const points = tank.track.map((square) => {
      const col = square.charCodeAt(0) - 97;
      const row = Number(square.slice(1));
      return `${col + 0.5 + shift},${s.rows - row + 0.5 + shift}`;
    });
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("class", tank.owner);
    line.setAttribute("points", points.join(" "));
    return line;
  }));
  // What fired in the last round played here: a line from each shooter to
  // the tank it destroyed.
  const at = (square) => [square.charCodeAt(0) - 97 + 0.5, s.rows - Number(square.slice(1)) + 0.5];
  for (const e of (game.latest() && game.events) || []) {
    if (e.kind !== "destroyed") continue;
    for (const shooter of e.by) {
      const [x1, y1] = at(shooter.square);
      const [x2, y2] = at(e.square);
      const shot = document.createElementNS(ns, "line");
      for (const [k, v] of Object.entries({ x1, y1, x2, y2, class: `shot ${shooter.player}` })) shot.setAttribute(k, v);
      svg.append(shot);
    }
  }
}

function render() {
  const s = current();
  if (!s) return;
  const board = $("war-board");
  const cells = [...board.querySelectorAll(".square")];
  const who = picker();
  const pickable = new Set(who ? state.legal?.[who] || [] : []);
  const { moved, gone } = lastRound(s);
  cells.forEach((cell, i) => {
    const row = s.rows - Math.floor(i / s.cols);
    const square = `${"abcdef"[i % s.cols]}${row}`;
    const owner = s.territory[s.rows - row]?.[i % s.cols];
    const tank = tankOn(square);
    cell.dataset.square = square;
    cell.className = `square territory-${owner}`;
    if (moved.has(square)) cell.classList.add("last");
    cell.replaceChildren();
    let label = t("board-war-square", { square, owner });
    if (tank) {
      cell.append(drawnTank(tank));
      cell.classList.add("occupied");
      label = t("board-war-tank", { square, owner: tank.owner, name: tank.name, type: tank.type });
      if (tank.owner === who && pickable.has(tank.name)) {
        cell.classList.add("target");
        label += ` (${t("board-war-pickable")})`;
      }
    } else {
      const fallen = gone.find((x) => x.square === square);
      if (fallen) {
        cell.append(drawnTank(fallen, true));
        label += `, ${t("board-war-destroyed", { owner: fallen.owner, name: fallen.name })}`;
      }
    }
    cell.setAttribute("aria-label", label);
  });
  roving(board);
  board.setAttribute("aria-label", t("board-war-board", { round: s.round }));
  coordinates($("war-ranks"), $("war-files"), s.rows, s.cols);
  drawTracks(s);
  clocks();
  renderPicks(who, [...pickable]);
  renderStrategy();
  game.render();
  $("war-equilibrium").disabled = Boolean(state.score?.finished) || shell.busy;
  $("war-ai").value = state.ai;
  const entries = game.entries();
  if (state.ai !== "U") entries.push(["ai", state.ai]);
  writeFragment(GAME, entries);
}

// The clocks as they run: a player's runs from the round's start until
// the player's pick is in (the AI's only while it searches).
function clocks() {
  const s = current();
  if (!s) return;
  const running = latest() && !state.score?.finished;
  const used = (player) => {
    if (player in state.spent) return state.spent[player];
    return running && player !== state.ai ? performance.now() - state.since : 0;
  };
  $("war-clocks").textContent = t("board-war-clocks", {
    u: clock(s.clock_ms.U - used("U")),
    d: clock(s.clock_ms.D - used("D")),
  });
}

// The firing patterns of the legend: the tank in the middle of a 5 x 5
// square, the squares it fires at marked.
function drawPatterns() {
  const ns = "http://www.w3.org/2000/svg";
  const targets = { A: [[-1, -1], [-1, 1], [1, -1], [1, 1]], B: [[0, -1], [0, 1], [-1, 0], [1, 0]], C: [[0, -2], [0, 2], [-2, 0], [2, 0]] };
  for (const [type, squares] of Object.entries(targets)) {
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 5 5");
    const square = (x, y, kind) => {
      const rect = document.createElementNS(ns, "rect");
      for (const [k, v] of Object.entries({ x: x + 2.1, y: y + 2.1, width: 0.8, height: 0.8, class: kind })) rect.setAttribute(k, v);
      return rect;
    };
    svg.append(square(0, 0, "shooter"), ...squares.map(([x, y]) => square(x, y, "fired")));
    document.querySelector(`.pattern-${type}`)?.replaceChildren(svg);
  }
}

function renderPicks(who, names) {
  const box = $("war-picks");
  box.replaceChildren();
  $("war-picks-label").textContent = who ? t("board-war-pick-for", { player: who }) : "";
  for (const name of names) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = name;
    button.dataset.pick = name;
    box.append(button);
  }
}

function eventText(e) {
  if (e.kind === "destroyed") {
    const by = e.by.map((b) => `${b.player} ${b.tank} (${b.square})`).join(", ");
    return t("board-war-event-destroyed", { player: e.player, tank: e.tank, square: e.square, by });
  }
  return t(`board-war-event-${e.kind}`, e);
}

function renderStrategy() {
  const box = $("war-strategy");
  box.replaceChildren();
  if (!state.strategy) return;
  for (const player of PLAYERS) {
    const title = document.createElement("h4");
    title.textContent = t("board-war-strategy-of", { player });
    const list = document.createElement("ul");
    list.className = "strategy";
    for (const entry of state.strategy[player].strategy) {
      const item = document.createElement("li");
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.setProperty("--p", String(entry.probability));
      item.append(bar, `${entry.move} ${(100 * entry.probability).toFixed(1)} %`);
      list.append(item);
    }
    box.append(title, list);
  }
}

// --- the round -----------------------------------------------------------

async function describe(happened = "") {
  const score = await api("POST", "score", { state: current() });
  state.score = score;
  $("war-score").textContent = t("board-war-score", {
    u: score.surviving.U,
    d: score.surviving.D,
    tu: score.territory.U,
    td: score.territory.D,
  });
  let line;
  if (score.finished) line = ending(score, score.winner);
  else if (!latest()) line = t("board-war-looking", { round: game.at });
  else {
    state.legal ??= await api("POST", "legal-moves", { state: current() });
    const who = picker();
    line = who ? t("board-war-to-pick", { round: game.at + 1, player: who }) : "";
  }
  status(happened ? `${happened} ${line}` : line);
}

function newRound() {
  state.picks = {};
  state.spent = {};
  state.legal = null;
  state.strategy = null;
  state.since = performance.now();
}

// `player` picks `name`: hidden until every pick is in; then the AI's
// (when it plays) and the round resolved.
async function pick(player, name) {
  if (player !== picker() || !state.legal?.[player]?.includes(name)) return;
  state.picks[player] = name;
  state.spent[player] = Math.round(performance.now() - state.since);
  say("");
  if (picker()) {
    await describe(t("board-war-picked", { player }));
    return;
  }
  if (state.ai !== "none") {
    status(t("board-thinking"));
    const answer = await api("POST", "ai-move", { state: current(), player: state.ai, seed: game.at });
    state.picks[state.ai] = answer.move;
    state.spent[state.ai] = answer.time_ms;
  }
  const round = { U: state.picks.U, D: state.picks.D, elapsed_ms: { U: state.spent.U, D: state.spent.D } };
  const answer = await api("POST", "apply", { state: current(), moves: { U: round.U, D: round.D }, elapsed_ms: round.elapsed_ms });
  game.played(round, answer);
  await describe(t("board-war-resolved", { round: game.at, u: round.U, d: round.D }));
}

// The game's value for U with best play from here (1 a win, 0 a draw,
// −1 a loss, an expectation under both players' mixed strategies), in
// words.
function outlook(value) {
  if (Math.abs(value) < 0.0005) return t("board-war-value-draw");
  if (Math.abs(value) > 0.9995) return t("board-war-value-wins", { player: value > 0 ? "U" : "D" });
  return t("board-war-value-mixed", { value: Math.round(value * 100) / 100 });
}

async function equilibrium() {
  status(t("board-thinking"));
  const [u, d] = await Promise.all(PLAYERS.map((player) => api("POST", "ai-move", { state: current(), player })));
  state.strategy = { U: u, D: d };
  await describe(outlook(u.expected_result));
}

async function review() {
  status(t("board-reviewing"));
  const answer = await game.review();
  await describe(t("board-reviewed", { count: (answer.plies || []).length }));
}

function parseRounds(text) {
  return (text || "").split(",").filter(Boolean).map((r) => {
    const [U, D, u, d] = r.split(".");
    return { U, D, elapsed_ms: { U: Number(u) || 0, D: Number(d) || 0 } };
  });
}

// --- the view ----------------------------------------------------------

function wire() {
  const board = $("war-board");
  const pickOn = (square) => {
    const tank = tankOn(square);
    if (tank) return pick(tank.owner, tank.name);
  };
  board.addEventListener("click", (event) => {
    const square = event.target.closest?.(".square")?.dataset.square;
    if (square) act(() => pickOn(square));
  });
  keyboard(board, 6, { pick: pickOn, letGo: () => {} });
  $("war-picks").addEventListener("click", (event) => {
    const name = event.target.closest("button")?.dataset.pick;
    if (name) act(() => pick(picker(), name));
  });
  $("war-ai").addEventListener("change", () => act(async () => {
    state.ai = $("war-ai").value;
    newRound();
    await describe();
  }));
  $("war-equilibrium").addEventListener("click", () => act(equilibrium));
  $("war-review").addEventListener("click", () => act(review));
  game.wire();
}

export const view = {
  game: GAME,
  init() {
    buildGrid($("war-board"), 6, 6);
    drawPatterns();
    wire();
    setInterval(() => {
      if (!document.querySelector('[data-game="tank-war"]').hidden) clocks();
    }, 250);
  },
  render,
  async open(params) {
    state.ai = ["U", "D", "none"].includes(params.get("ai")) ? params.get("ai") : "U";
    const rounds = parseRounds(params.get("rounds"));
    await game.open(rounds, params.has("at") ? Number(params.get("at")) : rounds.length);
  },
  refresh: () => describe(),
};
