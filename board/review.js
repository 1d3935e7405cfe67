// A game's review (an answer of `annotate`) under the board: each
// player's accuracy, the chart of the first player's chance to win after
// each move (the answer's `curve`), and the judged moves with their
// labels. A click on a point of the chart or on a move shows that
// position, with the move's verdict and its lines. The same for every
// game: an entry's `ply` is the move (or round) it judges, so the
// position after it is step `ply + 1`.

import { $, shell, t } from "./common.js";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 300;
const HEIGHT = 80;
const PAD = 5;
const MARKED = ["inaccuracy", "mistake", "blunder"];

// A player as the page says it (Tank Battle's sides translated; the
// simultaneous games' players are their names).
const who = (player) => (shell.texts[`board-${player}`] ? t(`board-${player}`) : player);

let shown = null; // { answer, onShow }

// A move as written: a move or a pick as is, a player's orders (Tank
// Wars) as each vehicle's direction and distance.
export function written(move) {
  if (typeof move === "string") return move;
  return Object.entries(move || {}).map(([id, o]) => `${id} ${o.dir}${o.dist}`).join(", ");
}

export function clearReview() {
  shown = null;
  $("review").hidden = true;
  $("chart").replaceChildren();
  $("review-moves").replaceChildren();
  $("review-players").replaceChildren();
  $("verdict").textContent = "";
}

// Shows `answer` of the game called `game`, `firstPlayer` being whose
// chance the curve is; `onShow(step)` shows the position after `step`
// moves (or rounds).
export function showReview(answer, game, firstPlayer, onShow) {
  shown = { answer, onShow };
  $("review").hidden = false;
  $("chart-title").textContent = t("chart-title", { game, player: firstPlayer });
  players(answer.players || []);
  chart(answer);
  moves(answer.plies || []);
  $("verdict").textContent = "";
}

// The verdict on the move that led to `step`, when the review judged it.
export function verdictAt(step) {
  if (!shown) return;
  const entries = (shown.answer.plies || []).filter((e) => e.ply + 1 === step);
  $("verdict").replaceChildren(...entries.map(verdict));
  for (const button of $("review-moves").querySelectorAll("button")) {
    if (Number(button.dataset.step) === step) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
}

function verdict(entry) {
  const p = document.createElement("p");
  const best = [].concat(entry.best || []).map(written);
  const move = written(entry.played);
  const parts = [best.includes(move)
    ? t("board-verdict-best", { player: who(entry.player), move, label: t(`label-${entry.label}`) })
    : t("board-verdict", {
      player: who(entry.player),
      move,
      label: t(`label-${entry.label}`),
      loss: Math.round(entry.win_chance_loss * 10) / 10,
      best: best.join(" | "),
    })];
  const forced = entry.forced || {};
  if (forced.value_played && !forced.value) {
    parts.push(t("board-forced-after", { player: who(forced.value_played.winner), plies: forced.value_played.plies }));
  } else if (forced.value && !forced.value_played) {
    parts.push(t("board-forced-thrown", { player: who(forced.value.winner), plies: forced.value.plies }));
  }
  if (entry.best_line?.length) parts.push(t("board-best-line", { line: entry.best_line.join(" ") }));
  if (entry.refutation?.length) parts.push(t("board-refutation", { line: entry.refutation.join(" ") }));
  p.textContent = parts.join(" ");
  return p;
}

function players(summaries) {
  const list = $("review-players");
  list.replaceChildren();
  for (const s of summaries) {
    const item = document.createElement("li");
    item.textContent = t("board-accuracy", {
      player: who(s.player),
      accuracy: Math.round(s.accuracy * 10) / 10,
      blunders: t("board-count-blunders", { count: s.labels.blunder }),
      mistakes: t("board-count-mistakes", { count: s.labels.mistake }),
      inaccuracies: t("board-count-inaccuracies", { count: s.labels.inaccuracy }),
    });
    list.append(item);
  }
}

function point(curve, step) {
  const x = curve.length > 1 ? (step * WIDTH) / (curve.length - 1) : 0;
  return [x, HEIGHT - PAD - (curve[step] * (HEIGHT - 2 * PAD)) / 100];
}

function chart(answer) {
  const svg = $("chart");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  const curve = answer.curve || [];
  const middle = document.createElementNS(NS, "line");
  for (const [k, v] of Object.entries({ x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2, class: "middle" })) {
    middle.setAttribute(k, v);
  }
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("points", curve.map((_, i) => point(curve, i).join(",")).join(" "));
  svg.append(middle, line);
  for (const entry of answer.plies || []) {
    if (!MARKED.includes(entry.label) || entry.ply + 1 >= curve.length) continue;
    const [cx, cy] = point(curve, entry.ply + 1);
    const mark = document.createElementNS(NS, "circle");
    for (const [k, v] of Object.entries({ cx, cy, r: 3.5, class: entry.label })) mark.setAttribute(k, v);
    mark.dataset.step = String(entry.ply + 1);
    const title = document.createElementNS(NS, "title");
    title.textContent = `${entry.ply + 1}. ${who(entry.player)} ${written(entry.played)}: ${t(`label-${entry.label}`)}`;
    mark.append(title);
    svg.append(mark);
  }
}

function moves(entries) {
  const list = $("review-moves");
  list.replaceChildren();
  for (const entry of entries) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = `judged ${entry.label}`;
    button.dataset.step = String(entry.ply + 1);
    button.textContent = `${entry.ply + 1}. ${who(entry.player)} ${written(entry.played)} · ${t(`label-${entry.label}`)}`;
    item.append(button);
    list.append(item);
  }
}

// A click on the chart shows the position at the nearest point (or the
// marked one); a click on a judged move, the position after it.
export function wireReview() {
  $("chart").addEventListener("click", (event) => {
    if (!shown) return;
    const curve = shown.answer.curve || [];
    let step = Number(event.target.dataset?.step);
    if (!Number.isInteger(step) || event.target.tagName !== "circle") {
      const box = $("chart").getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width) * (curve.length - 1);
      step = Math.max(0, Math.min(curve.length - 1, Math.round(x)));
    }
    shown.onShow(step);
  });
  $("review-moves").addEventListener("click", (event) => {
    const step = Number(event.target.closest("button")?.dataset.step);
    if (shown && Number.isInteger(step)) shown.onShow(step);
  });
}
