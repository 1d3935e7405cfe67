// The board as players see it (issue 76), in Debian's Chromium through
// real input events, against a running server: node looks.mjs <base URL>
// <directory for screenshots>.
//
// Each game drawn as render.svg draws it (the same colours, coordinates as
// text, commander starts ringed); no status number, header name or
// backtick shown to a player; the AI moving within 2 s of its turn, ticked
// before a move and after one; The Tank War's clock running while a
// player thinks; a finished game naming its rule; plural forms for 1, 2
// and 5 in both languages; on a 390 x 844 screen no text under 12 px and
// no ring outside its cell; axe-core finding no violation at all on any
// view at either size. Screenshots of each view, both sizes, under the
// directory. Exits 1 on any failure.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const [base, shots] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const GAMES = ["tank-battle", "tank-war", "cobi-tank-wars"];
// Black to move, two plies before White wins by moving a tank into the
// base (level 8 against level 1 from the start).
const NEAR_END = "5T5/2T8/4t3T2/11/11/11/11/8T2/11/8TTT/T6TTTC b 43";
const MACHINERY = /\b[1-5]\d\d\b|x-api-key|authorization|content-type|`/i;

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "PASS" : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

async function api(game, operation, body) {
  const res = await fetch(`${base}/v1/${game}/${operation}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

const idle = (page) => page.waitForFunction(() => !document.body.hasAttribute("aria-busy"));

async function open(page, fragment) {
  await page.goto("about:blank");
  await page.goto(`${base}/board/#${fragment}`);
  const game = new URLSearchParams(fragment).get("game") || "tank-battle";
  await page.waitForSelector(`[data-game="${game}"]:not([hidden]) .grid .piece`);
  await idle(page);
}

// Every violation axe-core finds, whatever its impact.
async function axe(page, what) {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`);
  });
  check(found.length === 0, `${what}: axe-core finds no violation (${found.join(", ")})`);
}

// What the player is told: the status line, the message, the key box.
const told = (page) => page.evaluate(() =>
  ["status", "message", "key-box"].map((id) => document.getElementById(id)?.textContent || "").join(" | "));

const hex = (rgb) => `#${rgb.match(/\d+/g).slice(0, 3).map((n) => Number(n).toString(16).padStart(2, "0")).join("")}`;

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-GB" });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));

  // Tank Battle as render.svg draws it.
  await open(page, "game=tank-battle");
  const svg = await (await fetch(`${base}/v1/tank-battle/render.svg`)).text();
  const fill = (kind) => svg.match(new RegExp(`class="square [^"]*${kind}[^"]*"[^>]*fill="(#[0-9a-f]{6})"`))?.[1];
  for (const kind of ["mine", "contaminated", "base-white", "base-black"]) {
    const drawn = fill(kind === "base-white" ? "white-base" : kind === "base-black" ? "black-base" : kind);
    const shown = await page.$eval(`#board .square.${kind}`, (c) => getComputedStyle(c).backgroundColor);
    check(drawn && hex(shown) === drawn, `the page's ${kind} colour is render.svg's (${hex(shown)}, ${drawn})`);
  }
  const starts = await page.$$eval("#board .square.commander-start", (cells) =>
    cells.map((c) => [c.dataset.square, getComputedStyle(c, "::before").borderTopStyle]));
  check(starts.length === 2 && starts.every(([, style]) => style === "solid"),
    `both commander starts ringed (${JSON.stringify(starts)})`);
  check(await page.textContent("#files") === "abcdefghijk" && await page.textContent("#ranks") === "1110987654321",
    "Tank Battle's files and ranks written on its edges");

  // Refusals in a player's words: a notation the service refuses (400)
  // and a move refused by a rule (422).
  await page.fill("#tbn", "not a position");
  await page.click("#set-position");
  await idle(page);
  const refused = await told(page);
  check(!MACHINERY.test(refused) && (await page.textContent("#message")).length > 0,
    `a refused position in words: "${refused}"`);
  await page.click('[data-square="g1"]');
  await idle(page);
  check(!MACHINERY.test(await page.textContent("#message")), "the earlier refusal cleared by the next action");
  await page.click('[data-square="a8"]');
  await idle(page);
  check((await page.textContent("#status")).includes("White to move"), "a dropped pick says whose move it is");

  // The AI plays at once on its turn: ticked after our move, and ticked
  // before it. Timed from the tick, or from our move, to the AI's.
  const plies = () => page.$$eval("#moves button", (b) => b.length);
  await page.selectOption("#level", "3");
  await page.click('[data-square="g1"]');
  await page.waitForSelector('[data-square="c5"].target');
  await page.click('[data-square="c5"]');
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  await idle(page);
  let started = Date.now();
  await page.check("#play-ai");
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 2, null, { timeout: 2000 })
    .catch(() => null);
  check(await plies() === 2, `ticked on its turn, the AI moved in ${Date.now() - started} ms (at most 2,000)`);
  await idle(page);
  const [from, to] = (await api("tank-battle", "ai-move", { position: await page.inputValue("#tbn"), level: 1 })).move.split(/[-x]/);
  await page.click(`[data-square="${from}"]`);
  await page.waitForSelector(`[data-square="${to}"].target`);
  started = Date.now();
  await page.click(`[data-square="${to}"]`);
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 4, null, { timeout: 2000 })
    .catch(() => null);
  check(await plies() === 4, `after our move, the AI answered in ${Date.now() - started} ms (at most 2,000)`);
  await idle(page);
  await page.uncheck("#play-ai");
  const lines = await (async () => {
    await page.click("#ai-move");
    await page.waitForSelector("#lines li");
    await idle(page);
    return page.$$eval("#lines li", (l) => l.map((x) => x.textContent));
  })();
  check(lines.length > 0 && lines.every((l) => /ahead|even|wins/.test(l) && !/\(\d+\)/.test(l)),
    `the AI's lines in words: ${JSON.stringify(lines)}`);

  // The end policy offered: a position standing twice ends the game.
  await open(page, "game=tank-battle");
  await page.fill("#repetition", "2");
  await page.dispatchEvent("#repetition", "change");
  await idle(page);
  for (const [a, b] of [["g1", "c5"], ["a8", "a7"], ["c5", "g1"], ["a7", "a8"]]) {
    await page.click(`[data-square="${a}"]`);
    await page.waitForSelector(`[data-square="${b}"].target`);
    await page.click(`[data-square="${b}"]`);
    await page.waitForFunction((square) => document.querySelector(`[data-square="${square}"] .piece`), b);
    await idle(page);
  }
  const repeated = await page.textContent("#status");
  const endTexts = await (await fetch(`${base}/board/texts/en.json`)).json();
  check(repeated.includes(endTexts["board-end-repetition"]), `the repetition rule chosen on the page ends the game: "${repeated}"`);
  await page.fill("#repetition", "");

  // A finished game names the rule that ended it.
  await open(page, `game=tank-battle&start=${encodeURIComponent(NEAR_END)}`);
  for (let ply = 0; ply < 40 && !(await page.textContent("#status")).includes("over"); ply++) {
    const position = await page.inputValue("#tbn");
    const { move } = await api("tank-battle", "ai-move", { position, level: 8, seed: ply });
    const [a, b] = move.split(/[-x]/);
    await page.click(`[data-square="${a}"]`);
    await page.waitForSelector(`[data-square="${b}"].target`);
    await page.click(`[data-square="${b}"]`);
    await page.waitForFunction((p) => document.querySelector("#tbn").value !== p, position);
    await idle(page);
  }
  const score = await api("tank-battle", "score", { position: await page.inputValue("#tbn") });
  const texts = await (await fetch(`${base}/board/texts/en.json`)).json();
  const end = await page.textContent("#status");
  check(score.finished && end.includes(texts[`board-end-${score.reason}`]), `a finished game names its rule: "${end}"`);
  check(await page.isDisabled("#ai-move"), "no suggestion asked for in a finished game");
  await page.screenshot({ path: `${shots}/tank-battle-finished.png` });
  await page.click("#review-game");
  await page.waitForSelector("#chart polyline");
  await idle(page);
  const axes = await page.$$eval("#chart text", (t) => t.map((x) => x.textContent));
  check(axes.includes("50 %") && axes.includes("0") && await page.isVisible(".chart-legend"),
    `the review's chart has its axes and legend (${axes.join(" ")})`);
  const beside = await page.evaluate(() => {
    const board = document.querySelector("#board").getBoundingClientRect();
    const chart = document.querySelector("#chart").getBoundingClientRect();
    return chart.left >= board.right && chart.top < board.bottom;
  });
  check(beside, "the review beside the board on a wide screen");
  await page.screenshot({ path: `${shots}/tank-battle-review.png` });

  // Plural forms for 1, 2 and 5, as the page writes them in each language.
  const plural = (lang) => page.evaluate(async (lang) => {
    const { loadTexts, t } = await import("/board/common.js");
    await loadTexts(lang);
    return [1, 2, 5].map((count) => t("board-selected", { square: "a1", count }));
  }, lang);
  const english = await plural("en");
  check(english.join(" ") === "a1 picked: 1 legal move. a1 picked: 2 legal moves. a1 picked: 5 legal moves.",
    `English plurals: ${english.join(" ")}`);
  const czech = await plural("cs");
  check(czech[0].endsWith("1 možný tah.") && czech[1].endsWith("2 možné tahy.") && czech[2].endsWith("5 možných tahů."),
    `Czech plurals: ${czech.join(" ")}`);
  await plural("en");

  // The Tank War: its clock runs while a player thinks.
  await open(page, "game=tank-war");
  const before = await page.textContent("#war-clocks");
  await page.waitForTimeout(1600);
  const after = await page.textContent("#war-clocks");
  check(before !== after, `The Tank War's clock runs while D thinks: "${before}" then "${after}"`);
  check((await page.textContent("#war-files")) === "abcdef", "The Tank War's files written on its edge");
  check(await page.$$eval(".pattern svg", (p) => p.length) === 3, "the A, B and C firing patterns in the legend");
  await page.click('#war-board [data-square="f1"]');
  await page.waitForFunction(() => document.querySelectorAll("#war-rounds li").length === 1);
  await idle(page);
  check(await page.$$eval("#war-board .square.last", (c) => c.length) >= 2, "the last round's squares marked");

  // Tank Wars: the AI's gunfire told.
  await open(page, "game=cobi-tank-wars");
  for (const [a, b] of [["c1", "c3"], ["d1", "d2"], ["f1", "f2"]]) {
    await page.click(`#cobi-board [data-square="${a}"]`);
    await page.waitForSelector(`#cobi-board [data-square="${b}"].target`);
    await page.click(`#cobi-board [data-square="${b}"]`);
    await page.waitForSelector(`#cobi-board [data-square="${b}"].ordered`);
  }
  await page.click("#cobi-confirm");
  await page.waitForFunction(() => document.querySelectorAll("#cobi-events li").length >= 2);
  await idle(page);
  const events = await page.$$eval("#cobi-events li", (l) => l.map((x) => x.textContent));
  check(events.some((e) => e.startsWith("P2 places gunfire on")), `the AI's gunfire among the events (${events.join("; ")})`);

  // Every view at both sizes: no violation, no text under 12 px, no ring
  // outside its cell, nothing wider than the screen; screenshots.
  for (const [width, height, size] of [[1280, 900, "wide"], [390, 844, "phone"]]) {
    const view = await browser.newPage({ viewport: { width, height } });
    view.on("pageerror", (e) => errors.push(String(e)));
    for (const game of GAMES) {
      await open(view, `game=${game}`);
      await axe(view, `${game} at ${width} px`);
      const small = await view.evaluate(() => {
        const found = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const el = node.parentElement;
          if (!node.textContent.trim() || !el || !el.getClientRects().length) continue;
          if (el.closest("[hidden], .defs")) continue;
          const px = parseFloat(getComputedStyle(el).fontSize);
          if (px < 12) found.push(`${node.textContent.trim().slice(0, 20)} (${px} px)`);
        }
        return found;
      });
      check(size === "wide" || small.length === 0, `${game} at ${width} px: no text under 12 px (${small.slice(0, 5).join(", ")})`);
      const rings = await view.evaluate(() => [...document.querySelectorAll(".square.target, .square.gunfire, .square.planned")]
        .filter((cell) => !cell.closest("[hidden]"))
        .filter((cell) => ["::after", "::before"].some((part) => {
          const style = getComputedStyle(cell, part);
          return style.content !== "none" && parseFloat(style.width) > cell.getBoundingClientRect().width + 0.5;
        })).length);
      check(rings === 0, `${game} at ${width} px: every ring inside its cell (${rings} outside)`);
      const wide = await view.evaluate(() => document.documentElement.scrollWidth);
      check(wide <= width, `${game} at ${width} px: nothing wider than the screen (${wide} px)`);
      await view.screenshot({ path: `${shots}/${game}-${size}.png` });
    }
    await view.close();
  }
  check(errors.length === 0, `no error on the pages (${JSON.stringify(errors)})`);
} finally {
  await browser.close();
}
if (failures.length) {
  console.log(`looks: FAIL — ${failures.length} failed: ${failures.join("; ")}`);
  process.exit(1);
}
console.log("looks: PASS");
