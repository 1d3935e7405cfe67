// A game's review (an answer of `annotate`) beside the board: each
// player's accuracy, the chart of the first player's chance to win after
// each move (the answer's `curve`), and the judged moves with their
// labels. A click on a point of the chart or on a move shows that
// position, with the move's verdict and its lines. The same for every
// game: an entry's `ply` is the move (or round) it judges, so the
// position after it is step `ply + 1`.

import { $, shell, t } from "./common.js";

const NS = "http://www.w3.org/2000/svg";
const MARKED = ["inaccuracy", "mistake", "blunder"];
// The chart in CSS pixels (its width the page's): the plot and, around
// it, room for the axes' labels (12 px text).
const HEIGHT = 130;
const MARGIN = { left: 40, right: 8, top: 8, bottom: 22 };
let width = 300;

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
  const chance = shell.texts[`board-chance-${firstPlayer}`]
    ? t(`board-chance-${firstPlayer}`)
    : t("board-chance-of", { player: firstPlayer });
  $("chart-title").textContent = t("board-chart-title", { game, chance });
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
  const label = t(`label-${entry.label}`);
  // The judge's own move; a move it labels best beside another (a tie);
  // a move that lost some of the chance.
  const parts = [best.includes(move)
    ? t("board-verdict-best", { player: who(entry.player), move, label })
    : entry.label === "best"
      ? t("board-verdict-as-good", { player: who(entry.player), move, label, best: best.join(" | ") })
      : t("board-verdict", {
        player: who(entry.player),
        move,
        label,
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

const plotWidth = () => width - MARGIN.left - MARGIN.right;
const x = (curve, step) => MARGIN.left + (curve.length > 1 ? (step * plotWidth()) / (curve.length - 1) : 0);
const y = (chance) => MARGIN.top + ((100 - chance) * (HEIGHT - MARGIN.top - MARGIN.bottom)) / 100;
const point = (curve, step) => [x(curve, step), y(curve[step])];

function element(name, attributes, text) {
  const el = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

// The chance after each move: its axes (0, 50 and 100 % up the side, the
// moves along the bottom), the 50 % line, the curve, and a mark on each
// inaccuracy, mistake and blunder.
function chart(answer) {
  const svg = $("chart");
  svg.replaceChildren();
  width = Math.max(200, Math.round(svg.getBoundingClientRect().width) || 300);
  svg.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
  svg.setAttribute("height", String(HEIGHT));
  const curve = answer.curve || [];
  const right = width - MARGIN.right;
  for (const chance of [0, 50, 100]) {
    svg.append(element("line", { x1: MARGIN.left, x2: right, y1: y(chance), y2: y(chance), class: chance === 50 ? "middle" : "edge" }));
    svg.append(element("text", { x: MARGIN.left - 4, y: y(chance) + 4, "text-anchor": "end" }, `${chance} %`));
  }
  const last = Math.max(0, curve.length - 1);
  for (const step of [...new Set([0, Math.round(last / 2), last])]) {
    svg.append(element("text", { x: x(curve, step), y: HEIGHT - 6, "text-anchor": "middle" }, String(step)));
  }
  const line = element("polyline", { points: curve.map((_, i) => point(curve, i).join(",")).join(" ") });
  svg.append(line);
  for (const entry of answer.plies || []) {
    if (!MARKED.includes(entry.label) || entry.ply + 1 >= curve.length) continue;
    const [cx, cy] = point(curve, entry.ply + 1);
    const mark = element("circle", { cx, cy, r: 6, class: entry.label });
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

// The position after `step`, the board brought into sight when the review
// is under it (a phone's width) rather than beside it.
function showStep(step) {
  shown.onShow(step);
  if (window.innerWidth < 900) {
    document.querySelector("section.board-area > div:not([hidden]) .coordinated")?.scrollIntoView({ block: "nearest" });
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
      const at = ((event.clientX - box.left - MARGIN.left) / plotWidth()) * (curve.length - 1);
      step = Math.max(0, Math.min(curve.length - 1, Math.round(at)));
    }
    showStep(step);
  });
  $("review-moves").addEventListener("click", (event) => {
    const step = Number(event.target.closest("button")?.dataset.step);
    if (shown && Number.isInteger(step)) showStep(step);
  });
}
