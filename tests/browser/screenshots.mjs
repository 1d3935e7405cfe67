// The board's screenshots in docs/board/ (issue 76): each game's view
// while playing, at a finished game and with its review, on a wide screen
// (1280 x 900) and a phone's (390 x 844), in Debian's Chromium against a
// running server: node screenshots.mjs <base URL> <directory>.
// The finished games are played through the API (the AI against itself,
// seeded), then opened by their links as a player would.

import { chromium } from "playwright-core";

const [base, out] = process.argv.slice(2);
const SIZES = [[1280, 900, "wide"], [390, 844, "phone"]];
const NEAR_END = "5T5/2T8/4t3T2/11/11/11/11/8T2/11/8TTT/T6TTTC b 43";

async function api(game, operation, body) {
  const res = await fetch(`${base}/v1/${game}/${operation}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${operation}: ${res.status} ${await res.text()}`);
  return res.json();
}

// Tank Battle from NEAR_END to its end, both sides level 8.
async function tankBattle() {
  const moves = [];
  let position = NEAR_END;
  for (let ply = 0; ply < 60; ply++) {
    const score = await api("tank-battle", "score", { position });
    if (score.finished) break;
    const { move } = await api("tank-battle", "ai-move", { position, level: 8, seed: ply });
    position = (await api("tank-battle", "apply", { position, move })).position;
    moves.push(move);
  }
  return `game=tank-battle&start=${encodeURIComponent(NEAR_END)}&moves=${moves.join(",")}`;
}

// The Tank War from its start to its end, the AI picking for both.
async function tankWar() {
  let state = await api("tank-war", "initial");
  const rounds = [];
  for (let round = 0; round < 40; round++) {
    if ((await api("tank-war", "score", { state })).finished) break;
    const [u, d] = await Promise.all(["U", "D"].map((player, i) =>
      api("tank-war", "ai-move", { state, player, seed: 2 * round + i })));
    const elapsed = { U: 2000, D: 3000 };
    state = (await api("tank-war", "apply", { state, moves: { U: u.move, D: d.move }, elapsed_ms: elapsed })).state;
    rounds.push([u.move, d.move, elapsed.U, elapsed.D].join("."));
  }
  return `game=tank-war&rounds=${rounds.join(",")}`;
}

// Tank Wars from its start to its end (or 40 rounds), the AI ordering
// for both players with two gunfire tokens each.
async function tankWars() {
  let state = await api("cobi-tank-wars", "initial");
  const rounds = [];
  for (let round = 0; round < 40; round++) {
    if ((await api("cobi-tank-wars", "score", { state })).finished) break;
    const [p1, p2] = await Promise.all(["P1", "P2"].map((player) =>
      api("cobi-tank-wars", "ai-move", { state, player, level: 5, gunfire_tokens: 2, seed: round })));
    const gunfire = [...new Set([...p1.gunfire, ...p2.gunfire].map((g) => g.square))];
    const orders = { P1: p1.orders, P2: p2.orders };
    const seed = round + 1;
    const answer = await api("cobi-tank-wars", "apply", { state: { ...state, gunfire }, orders, seed });
    state = answer.state;
    rounds.push({ orders, gunfire, seed });
  }
  return `game=cobi-tank-wars&rounds=${encodeURIComponent(JSON.stringify(rounds))}`;
}

const idle = (page) => page.waitForFunction(() => !document.body.hasAttribute("aria-busy"));

async function open(page, fragment) {
  await page.goto("about:blank");
  await page.goto(`${base}/board/#${fragment}`);
  await page.waitForSelector("section.board-area > div:not([hidden]) .grid .piece");
  await idle(page);
}

const finished = { "tank-battle": await tankBattle(), "tank-war": await tankWar(), "cobi-tank-wars": await tankWars() };
const reviewButton = { "tank-battle": "#review-game", "tank-war": "#war-review", "cobi-tank-wars": "#cobi-review" };

// A round or a move played by clicks, for the view "while playing".
async function play(page, game) {
  if (game === "tank-battle") {
    await page.click('[data-square="g1"]');
    await page.waitForSelector('[data-square="c5"].target');
    await page.click('[data-square="c5"]');
    await idle(page);
    await page.click("#ai-move");
    await page.waitForSelector("#lines li");
    await page.click('[data-square="a8"]');
    await page.waitForSelector("#board .square.target");
  } else if (game === "tank-war") {
    await page.click('#war-board [data-square="f1"]');
    await page.waitForFunction(() => document.querySelectorAll("#war-rounds li").length === 1);
  } else {
    for (const [from, to] of [["c1", "c3"], ["d1", "d2"], ["f1", "f2"]]) {
      await page.click(`#cobi-board [data-square="${from}"]`);
      await page.waitForSelector(`#cobi-board [data-square="${to}"].target`);
      await page.click(`#cobi-board [data-square="${to}"]`);
      await page.waitForSelector(`#cobi-board [data-square="${to}"].ordered`);
    }
    await page.click("#cobi-gunfire");
    await page.click('#cobi-board [data-square="e6"]');
    await page.click("#cobi-confirm");
    await page.waitForFunction(() => document.querySelectorAll("#cobi-events li").length >= 3);
  }
  await idle(page);
}

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  for (const [width, height, size] of SIZES) {
    const page = await browser.newPage({ viewport: { width, height }, locale: "en-GB" });
    for (const game of Object.keys(finished)) {
      await open(page, `game=${game}`);
      await play(page, game);
      await page.screenshot({ path: `${out}/${game}-play-${size}.png` });
      await open(page, finished[game]);
      await page.screenshot({ path: `${out}/${game}-finished-${size}.png` });
      await page.click(reviewButton[game]);
      await page.waitForSelector("#chart polyline");
      await idle(page);
      await page.screenshot({ path: `${out}/${game}-review-${size}.png`, fullPage: size === "phone" });
      console.log(`${game} at ${width} px: ${await page.textContent("#status")}`);
    }
    await page.close();
  }
} finally {
  await browser.close();
}
