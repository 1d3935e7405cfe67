// Tank Wars' view: one round of orders at a time, a client of
// /v1/cobi-tank-wars holding no rules. A player gives each vehicle an
// order (a click on the vehicle, then on one of its destinations from
// `legal-moves`), places gunfire tokens, and confirms; the other
// player's orders are the AI's (or a second person's, hidden until both
// are in); `apply` resolves the round with its seed and events. The
// review is `annotate`'s. The game is kept in the fragment
// (#game=cobi-tank-wars&rounds=<JSON>&at=<n>&ai=P1|P2|none).

import {
  $, act, buildGrid, client, coordinates, ending, keyboard, levels, roving, say, shell, status, t, writeFragment,
} from "./common.js";
import { written } from "./review.js";
import { Rounds } from "./rounds.js";

const GAME = "cobi-tank-wars";
const api = client(GAME);
const PLAYERS = ["P1", "P2"];
// Gunfire tokens a player places a round (and asks the AI for).
const GUNFIRE = 2;
const COLS = "abcdefghijklmnop";

const state = {
  ai: "P2",
  given: {}, // player → orders confirmed this round (hidden)
  orders: {}, // vehicle → {dir, dist, to}: the orders being given
  gunfire: [], // squares of the gunfire being placed
  placing: false, // a click places gunfire rather than an order
  selected: null, // the vehicle picked
  legal: null, // an answer of legal-moves for the shown state
  score: null,
};

const game = new Rounds({
  api,
  prefix: "cobi-",
  name: "board-game-tank-wars",
  first: "P1",
  roundText: (round) => PLAYERS.map((p) => written(round.orders[p])).join(" · "),
  eventText,
  newRound,
  describe: () => describe(),
});

const current = () => game.current();
const latest = () => game.latest();

function giver() {
  if (!latest() || state.score?.finished) return null;
  return PLAYERS.find((p) => p !== state.ai && !(p in state.given)) || null;
}

function vehicleOn(square) {
  return current().vehicles.find((v) => v.square === square);
}

// --- drawing ---------------------------------------------------------

function render() {
  const s = current();
  if (!s) return;
  const board = $("cobi-board");
  if (board.querySelectorAll(".square").length !== s.rows * s.cols) buildGrid(board, s.rows, s.cols);
  const who = giver();
  const targets = new Map();
  if (who && state.selected) {
    for (const o of state.legal?.[who]?.[state.selected] || []) targets.set(o.to, o);
  }
  const tokens = (kind) => new Set(s[kind]);
  const [artillery, support, gunfire] = [tokens("artillery"), tokens("support"), tokens("gunfire")];
  const planned = new Set(state.gunfire);
  const last = lastRound(s);
  const ordered = new Map(Object.entries(state.orders).map(([id, o]) => [o.to, id]));
  [...board.querySelectorAll(".square")].forEach((cell, i) => {
    const square = `${COLS[i % s.cols]}${s.rows - Math.floor(i / s.cols)}`;
    const vehicle = vehicleOn(square);
    cell.dataset.square = square;
    cell.className = "square";
    if (last.moved.has(square)) cell.classList.add("last");
    cell.replaceChildren();
    const said = [];
    const fallen = vehicle ? null : last.gone.find((v) => v.square === square);
    if (fallen) {
      cell.append(drawnVehicle(fallen, true));
      said.push(t("board-cobi-destroyed", { id: fallen.id }));
    }
    if (vehicle) {
      cell.append(drawnVehicle(vehicle));
      cell.classList.add("occupied");
      said.push(t("board-cobi-vehicle", { id: vehicle.id, armor: vehicle.armor, slot: vehicle.slot }));
      if (vehicle.id === state.selected) cell.classList.add("selected");
    }
    const marks = [["artillery", artillery], ["support", support], ["gunfire", gunfire], ["planned", planned],
      ["fired", new Set(last.fired)]];
    for (const [kind, set] of marks) {
      if (!set.has(square)) continue;
      cell.classList.add(kind);
      said.push(t(`board-cobi-${kind}`));
    }
    if (targets.has(square)) {
      cell.classList.add("target");
      said.push(t("board-cobi-destination", { order: `${targets.get(square).dir}${targets.get(square).dist}` }));
    }
    if (ordered.has(square)) {
      cell.classList.add("ordered");
      said.push(t("board-cobi-ordered", { id: ordered.get(square) }));
    }
    cell.setAttribute("aria-label", [square, ...said].join(", "));
    cell.setAttribute("aria-selected", vehicle?.id === state.selected ? "true" : "false");
  });
  roving(board);
  board.setAttribute("aria-label", t("board-cobi-board", { round: s.round, first: s.first }));
  coordinates($("cobi-ranks"), $("cobi-files"), s.rows, s.cols);
  renderOrders(who);
  game.render();
  $("cobi-ai").value = state.ai;
  $("cobi-gunfire").setAttribute("aria-pressed", String(state.placing));
  $("cobi-gunfire").disabled = !who || shell.busy;
  const entries = game.entries();
  if (state.ai !== "P2") entries.push(["ai", state.ai]);
  writeFragment(GAME, entries);
}

// What the last round did to the shown state: the squares vehicles moved
// from and to, the vehicles it destroyed (on the square its events name,
// else their last), and the gunfire it placed.
function lastRound(s) {
  const before = game.at > 0 ? game.states[game.at - 1] : null;
  const moved = new Set();
  const gone = [];
  if (!before) return { moved, gone, fired: [] };
  const events = (game.latest() && game.events) || [];
  for (const v of before.vehicles) {
    const now = s.vehicles.find((x) => x.id === v.id);
    if (now && now.square !== v.square) {
      moved.add(v.square);
      moved.add(now.square);
    } else if (!now) {
      const destroyed = events.find((e) => e.kind === "destroyed" && e.vehicle === v.id);
      gone.push({ ...v, armor: 0, square: destroyed?.square ?? v.square });
    }
  }
  return { moved, gone, fired: game.rounds[game.at - 1]?.gunfire || [] };
}

// A vehicle as the picture draws it: a box in its owner's colour with its
// id, its armor as pips (a number above 6) and its card slot in a badge;
// one the last round destroyed, faded.
function drawnVehicle(vehicle, fading = false) {
  const mark = document.createElement("span");
  mark.className = `piece cobi ${vehicle.owner}${fading ? " fading" : ""}`;
  const id = Object.assign(document.createElement("span"), { textContent: vehicle.id });
  const pips = Object.assign(document.createElement("span"), { className: "pips" });
  if (vehicle.armor <= 6) pips.append(...Array.from({ length: vehicle.armor }, () => document.createElement("i")));
  else pips.textContent = String(vehicle.armor);
  const slot = Object.assign(document.createElement("span"), { className: "slot-badge", textContent: String(vehicle.slot) });
  // On a phone's narrow squares, one pip and the number.
  const armor = Object.assign(document.createElement("span"), { className: "armor", textContent: String(vehicle.armor) });
  const top = Object.assign(document.createElement("span"), { className: "top" });
  top.append(slot, pips, armor);
  mark.append(top, id);
  return mark;
}

function own(who) {
  return current().vehicles.filter((v) => v.owner === who);
}

function renderOrders(who) {
  const list = $("cobi-orders");
  list.replaceChildren();
  $("cobi-orders-label").textContent = who ? t("board-cobi-orders-for", { player: who }) : "";
  const vehicles = who ? own(who) : [];
  for (const v of vehicles) {
    const item = document.createElement("li");
    const o = state.orders[v.id];
    item.textContent = o
      ? t("board-cobi-order", { id: v.id, order: `${o.dir}${o.dist}`, to: o.to })
      : t("board-cobi-no-order", { id: v.id });
    list.append(item);
  }
  if (who) {
    const item = document.createElement("li");
    item.textContent = t("board-cobi-gunfire-placed", { squares: state.gunfire.join(", ") || "—", max: GUNFIRE });
    list.append(item);
  }
  $("cobi-confirm").disabled = !who || vehicles.some((v) => !state.orders[v.id]) || shell.busy;
}

function eventText(e) {
  return t(`board-cobi-event-${e.kind.replace("_", "-")}`, { ...e, to: e.to ?? "—" });
}

// --- the round -----------------------------------------------------------

async function describe(happened = "") {
  const score = await api("POST", "score", { state: current() });
  state.score = score;
  $("cobi-score").textContent = t("board-cobi-score", {
    v1: score.vehicles.P1,
    v2: score.vehicles.P2,
    a1: score.armor.P1,
    a2: score.armor.P2,
    s1: score.support_cards.P1,
    s2: score.support_cards.P2,
  });
  let line;
  if (score.finished) line = ending(score, score.winner);
  else if (!latest()) line = t("board-cobi-looking", { round: game.at });
  else {
    state.legal ??= await api("POST", "legal-moves", { state: current() });
    const who = giver();
    line = who ? t("board-cobi-to-order", { round: game.at + 1, player: who }) : "";
  }
  status(happened ? `${happened} ${line}` : line);
}

function newRound() {
  state.given = {};
  state.orders = {};
  state.gunfire = [];
  state.placing = false;
  state.selected = null;
  state.legal = null;
  $("cobi-seed").value = String(game.at + 1);
}

// A click on `square`: gunfire placed or taken back; a vehicle of the
// player giving orders picked; a destination of the picked vehicle
// ordered.
async function click(square) {
  const who = giver();
  if (!who) return;
  if (state.placing) {
    if (state.gunfire.includes(square)) state.gunfire = state.gunfire.filter((s) => s !== square);
    else if (state.gunfire.length < GUNFIRE) state.gunfire.push(square);
    return;
  }
  const vehicle = vehicleOn(square);
  const order = (state.legal?.[who]?.[state.selected] || []).find((o) => o.to === square);
  if (order) {
    state.orders[state.selected] = { dir: order.dir, dist: order.dist, to: order.to };
    state.selected = null;
  } else if (vehicle?.owner === who) {
    state.selected = vehicle.id === state.selected ? null : vehicle.id;
  } else {
    state.selected = null;
  }
}

const bare = (orders) =>
  Object.fromEntries(Object.entries(orders).map(([id, o]) => [id, { dir: o.dir, dist: o.dist }]));

// The orders given are hidden until the other player's are in; then the
// round is resolved.
async function confirm() {
  const who = giver();
  if (!who) return;
  state.given[who] = { orders: bare(state.orders), gunfire: state.gunfire };
  state.orders = {};
  state.gunfire = [];
  state.selected = null;
  state.placing = false;
  say("");
  if (giver()) {
    await describe(t("board-cobi-given", { player: who }));
    return;
  }
  const seed = Math.max(0, Math.floor(Number($("cobi-seed").value) || 0));
  if (state.ai !== "none") {
    status(t("board-thinking"));
    const level = Number($("cobi-level").value);
    const answer = await api("POST", "ai-move", { state: current(), player: state.ai, level, gunfire_tokens: GUNFIRE, seed: game.at });
    state.given[state.ai] = { orders: answer.orders, gunfire: answer.gunfire.map((g) => g.square) };
  }
  const s = current();
  const gunfire = [...new Set(PLAYERS.flatMap((p) => state.given[p].gunfire))].filter((g) => !s.gunfire.includes(g));
  const round = { orders: { P1: state.given.P1.orders, P2: state.given.P2.orders }, gunfire, seed };
  const answer = await api("POST", "apply", {
    state: { ...s, gunfire: [...s.gunfire, ...gunfire] },
    orders: round.orders,
    seed,
  });
  // Each player's gunfire, the AI's included, leads the round's events.
  const placed = PLAYERS.filter((p) => state.given[p].gunfire.length)
    .map((p) => ({ kind: "gunfire_placed", player: p, squares: state.given[p].gunfire.join(", ") }));
  game.played(round, answer);
  game.events = [...placed, ...game.events];
  await describe(t("board-cobi-resolved", { round: game.at }));
}

async function review() {
  status(t("board-reviewing"));
  const answer = await game.review();
  await describe(t("board-reviewed", { count: (answer.plies || []).length }));
}

function parseRounds(text) {
  try {
    const rounds = JSON.parse(text || "[]");
    return Array.isArray(rounds) ? rounds : [];
  } catch {
    return [];
  }
}

// --- the view ----------------------------------------------------------

function wire() {
  const board = $("cobi-board");
  board.addEventListener("click", (event) => {
    const square = event.target.closest?.(".square")?.dataset.square;
    if (square) act(() => click(square));
  });
  keyboard(board, 8, { pick: click, letGo: () => { state.selected = null; } });
  $("cobi-gunfire").addEventListener("click", () => {
    state.placing = !state.placing;
    state.selected = null;
    render();
  });
  $("cobi-confirm").addEventListener("click", () => act(confirm));
  $("cobi-ai").addEventListener("change", () => act(async () => {
    state.ai = $("cobi-ai").value;
    newRound();
    await describe();
  }));
  $("cobi-review").addEventListener("click", () => act(review));
  game.wire();
}

export const view = {
  game: GAME,
  init() {
    levels($("cobi-level"));
    buildGrid($("cobi-board"), 8, 8);
    wire();
  },
  render,
  async open(params) {
    state.ai = ["P1", "P2", "none"].includes(params.get("ai")) ? params.get("ai") : "P2";
    const rounds = parseRounds(params.get("rounds"));
    await game.open(rounds, params.has("at") ? Number(params.get("at")) : rounds.length);
  },
  refresh: () => describe(),
};
