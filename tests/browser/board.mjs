// The board in Debian's Chromium, driven through real input events
// (playwright-core's trusted clicks and key presses), against a running
// server: node board.mjs <base URL> <directory for screenshots> [<URL of a
// server that asks for API keys> <a key of 8 requests a minute>].
//
// Tank Battle: a game played to its end by clicks from a near-finished
// position opened by its link (our side's moves chosen by the API's
// level 1, the page's AI playing the other side at level 8; at most
// MAX_PLIES), reviewed, and a blunder opened from the review's chart; a
// refused move and its rule, a move limit ending the game, the AI's lines,
// a move by the keyboard alone, Czech. The Tank War: a round against the AI by a click, a
// round between two people at one screen (the first pick hidden), the
// equilibrium, the review. Tank Wars: a round of orders and gunfire by
// clicks against the AI, its events, the review. Every page: no console
// error, no failed request, and axe-core finds no serious or critical
// violation. Prints the time to a usable board. Exits 1 on any failure.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const [base, shots, keyedBase, key] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const MAX_PLIES = 40;
// Twelve plies before White wins, Black to move (level 8 against level 1,
// seeds 0, 1, …, from the start).
const NEAR_END = "5T5/2T8/4t3T2/11/11/11/11/8T2/11/8TTT/T6TTTC b 43";

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "PASS" : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

async function api(path, body) {
  const res = await fetch(`${base}/v1/tank-battle/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return res.json();
}

const idle = (page) => page.waitForFunction(() => !document.body.hasAttribute("aria-busy"));

async function axe(page, what) {
  // Evaluated by the browser's debugging protocol: the page's policy
  // would refuse it as an inline script (checked below).
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  const grave = result.filter((v) => v.impact === "serious" || v.impact === "critical");
  check(grave.length === 0, `${what}: axe-core, no serious or critical violation (${JSON.stringify(result)})`);
}

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  const context = await browser.newContext({ viewport: { width: 1100, height: 820 }, locale: "en-GB" });
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("requestfailed", (r) => errors.push(`${r.url()}: ${r.failure()?.errorText}`));

  // The start position: time to a usable board.
  const started = Date.now();
  await page.goto(`${base}/board/`);
  await page.waitForSelector('[data-square="k1"] .piece');
  await idle(page);
  console.log(`time to a usable board: ${Date.now() - started} ms`);
  check((await page.textContent("#status")).includes("White to move"), "the start position, White to move");
  await axe(page, "the start position");

  // A move by clicks: the tank's legal moves as dots, then the move.
  await page.click('[data-square="g1"]');
  await page.waitForSelector('[data-square="c5"].target');
  const dots = await page.$$eval(".square.target", (cells) => cells.map((c) => c.dataset.square).sort());
  const legal = (await api("legal-moves", { position: await page.inputValue("#tbn") })).moves
    .filter((m) => m.from === "g1").map((m) => m.to).sort();
  check(JSON.stringify(dots) === JSON.stringify(legal), `g1's dots are the API's legal moves (${dots.length})`);
  await page.click('[data-square="c5"]');
  await page.waitForSelector('[data-square="c5"] .piece');
  await idle(page);
  check((await page.textContent("#status")).includes("Black to move"), "g1-c5 played by clicks");

  // A move by dragging: the pointer down on a8, up on a7 (Black's move),
  // then taken back with the button.
  const box = async (square) => page.locator(`[data-square="${square}"]`).boundingBox();
  const [a8, a7] = [await box("a8"), await box("a7")];
  await page.mouse.move(a8.x + a8.width / 2, a8.y + a8.height / 2);
  await page.mouse.down();
  await page.mouse.move(a7.x + a7.width / 2, a7.y + a7.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForSelector('[data-square="a7"] .piece');
  await idle(page);
  check((await page.$$eval("#moves button", (b) => b.length)) === 2, "a8-a7 played by dragging");
  await page.click("#take-back");
  await page.waitForSelector('[data-square="a8"] .piece');
  await idle(page);
  check((await page.$$eval("#moves button", (b) => b.length)) === 1, "the move taken back");

  // The end policy: a move limit reached ends the game there, the score
  // deciding; no limit, and the game goes on.
  await page.fill("#max-plies", "1");
  await page.dispatchEvent("#max-plies", "change");
  await idle(page);
  const limited = await page.textContent("#status");
  check(limited.includes("The move limit is reached") && limited.includes("a draw"),
    `a move limit of 1 ends the game after g1-c5: "${limited}"`);
  await page.fill("#max-plies", "");
  await page.dispatchEvent("#max-plies", "change");
  await idle(page);
  check((await page.textContent("#status")).includes("Black to move"), "without a limit the game goes on");

  // A refused move names its rule.
  await page.click('[data-square="a8"]');
  await page.waitForSelector('[data-square="a8"].selected');
  await page.click('[data-square="c7"]');
  await idle(page);
  const refusal = await page.textContent("#message");
  check(/refused: .+/.test(refusal), `a8-c7 refused with its reason: "${refusal}"`);

  // The AI's lines and its arrow.
  await page.click("#ai-move");
  await page.waitForSelector("#lines li");
  await idle(page);
  const lines = await page.$$eval("#lines li", (items) => items.length);
  const arrow = await page.$$eval("#arrows line", (items) => items.length);
  check(lines >= 1 && arrow === 1, `the AI's suggestion: ${lines} lines and its arrow`);
  await axe(page, "a position with the AI's lines");
  await page.screenshot({ path: `${shots}/tank-battle-lines.png` });

  // A move by the keyboard alone: focus on a8, Enter, down, Enter.
  await page.focus('[data-square="a8"]');
  await page.keyboard.press("Enter");
  await page.waitForSelector('[data-square="a8"].selected');
  await idle(page);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.waitForSelector('[data-square="a7"] .piece');
  await idle(page);
  const played = await page.$$eval("#moves button", (b) => b.map((x) => x.textContent));
  check(played.at(-1) === "2. a8-a7", `a8-a7 by the keyboard (moves: ${played.join(" ")})`);

  // Czech.
  await page.selectOption("#lang", "cs");
  await page.waitForFunction(() => document.documentElement.lang === "cs");
  await idle(page);
  check((await page.textContent("#status")).includes("Na tahu je"), "the page in Czech");
  await page.selectOption("#lang", "en");
  await page.waitForFunction(() => document.documentElement.lang === "en");
  await idle(page);

  // A position set up by editing squares: a white tank on a6, Black to
  // move. A tank on a mine (b6) is refused with its rule, and the edit
  // goes on until the service accepts it.
  await page.click("#new-game");
  await idle(page);
  await page.click("#edit");
  await page.click('[data-square="a6"]');
  await page.waitForSelector('[data-square="a6"] .piece.white');
  await page.selectOption("#side", "b");
  await page.click("#edit");
  await idle(page);
  const edited = await page.inputValue("#tbn");
  check((await page.textContent("#status")).includes("Black to move") && edited.split(" ")[0].split("/")[5] === "T10",
    `a position set up by editing: ${edited}`);
  const seen = errors.length;
  await page.click("#edit");
  await page.click('[data-square="b6"]');
  await page.click("#edit");
  await idle(page);
  // The refusal is a 400 the browser logs as a failed resource: that one
  // is expected, nothing else.
  const logged = errors.splice(seen);
  errors.push(...logged.filter((e) => !e.includes("status of 400")));
  check(logged.length === 1, `the refusal's one 400 (${logged.length} logged)`);
  const onMine = await page.textContent("#message");
  check(/mine at b6/.test(onMine) && (await page.getAttribute("#edit", "aria-pressed")) === "true",
    `a tank on a mine refused: "${onMine}"`);
  for (let i = 0; i < 4; i++) await page.click('[data-square="b6"]');
  await page.click("#edit");
  await idle(page);
  check((await page.inputValue("#tbn")) === edited, "the edit taken back and set up again");

  // A game to its end by clicks, from a link to a near-finished position.
  const link = `${base}/board/#start=${encodeURIComponent(NEAR_END)}`;
  await page.goto(link);
  await page.waitForSelector('[data-square="a1"] .piece');
  await idle(page);
  await page.selectOption("#level", "8");
  await page.check("#play-ai");
  let plies = 0;
  for (; plies < MAX_PLIES; plies++) {
    const status = await page.textContent("#status");
    if (status.includes("over")) break;
    const position = await page.inputValue("#tbn");
    const { move } = await api("ai-move", { position, level: 1, seed: plies });
    const [from, to] = move.split(/[-x]/);
    await page.click(`[data-square="${from}"]`);
    await page.waitForSelector(`[data-square="${to}"].target`);
    await idle(page);
    await page.click(`[data-square="${to}"]`);
    await page.waitForFunction((p) => document.querySelector("#tbn").value !== p, position);
    await idle(page);
  }
  const end = await page.textContent("#status");
  const sequence = await page.$$eval("#moves button", (b) => b.length);
  check(sequence === 2 * plies - 1 || sequence === 2 * plies, `our ${plies} moves and the AI's answers: ${sequence} plies`);
  check(end.includes("The game is over"), `a game played to its end by clicks in ${plies} of our moves: "${end}"`);
  const reopened = page.url();
  await page.screenshot({ path: `${shots}/tank-battle-end.png` });
  await axe(page, "a finished game");

  // Its link reopens it.
  const again = await context.newPage();
  await again.goto(reopened);
  await again.waitForSelector('[data-square="a1"]');
  await idle(again);
  check((await again.textContent("#status")).includes("The game is over"), "the game's link reopens the finished game");
  await again.close();

  // The game reviewed; a blunder opened from the chart shows the
  // position after it, its verdict and the move that refutes it.
  await page.click("#review-game");
  await page.waitForSelector("#chart polyline");
  await idle(page);
  const curve = await page.$eval("#chart polyline", (l) => l.getAttribute("points").split(" ").length);
  check(curve === sequence + 1, `the review's chart: ${curve} points for ${sequence} moves and the start`);
  // The chart marks exactly the faults the review names (the judge's
  // business, not the board's: in this game, lost before it starts, issue
  // 72's judge names none), and one opened from the chart, a blunder first,
  // shows its verdict and refutation.
  const faults = await page.$$eval("#chart circle", (c) =>
    c.map((x) => [Number(x.dataset.step), x.getAttribute("class")]));
  const reviewed = await page.$$eval("#moves button", (b) => b.map((x) => x.textContent.replace(/^\d+\.\s*/, "").trim()));
  const review = await api("annotate", { start: NEAR_END, moves: reviewed });
  const named = (review.plies || [])
    .filter((e) => ["inaccuracy", "mistake", "blunder"].includes(e.label) && e.ply < reviewed.length)
    .map((e) => [e.ply + 1, e.label]);
  check(Array.isArray(review.plies) && review.plies.length === reviewed.length
    && JSON.stringify(faults) === JSON.stringify(named),
    `the chart marks the faults the review names: ${JSON.stringify(faults)} (the review: ${JSON.stringify(named)})`);
  if (faults.length) {
    const [step, label] = faults.find(([, l]) => l === "blunder") || faults[0];
    await page.click(`#chart circle[data-step="${step}"]`);
    await idle(page);
    const verdict = await page.textContent("#verdict");
    const current = await page.$eval("#moves [aria-current]", (b) => b.textContent).catch(() => "");
    check(verdict.includes(label) && current.startsWith(`${step}.`),
      `the ${label} opened from the chart: move ${current}, "${verdict}"`);
    check(page.url().includes(`at=${step}`), "its position is the link's");
    check((await page.$$eval("#arrows line", (l) => l.length)) === 1, "the refutation drawn as an arrow");
  }
  await page.screenshot({ path: `${shots}/tank-battle-review.png`, fullPage: true });
  await axe(page, "a reviewed game");

  // The Tank War: a round against the AI (it plays U) by a click on a
  // tank of D's.
  await page.click('#games a[data-for="tank-war"]');
  await page.waitForSelector('#war-board [data-square="f1"] .piece');
  await idle(page);
  check((await page.textContent("#status")).includes("D to pick"), "The Tank War: D to pick");
  await page.click('#war-board [data-square="f1"]');
  await page.waitForFunction(() => document.querySelectorAll("#war-events li").length >= 2);
  await idle(page);
  const warEvents = await page.$$eval("#war-events li", (l) => l.map((x) => x.textContent));
  check(warEvents.some((e) => e.startsWith("D's RC moves f1")), `a round against the AI: ${warEvents.join("; ")}`);
  check(/Clocks: U \d+:\d\d, D \d+:\d\d/.test(await page.textContent("#war-clocks")), "the clocks shown");
  // Two people at one screen: U's pick is hidden until D's is in.
  await page.selectOption("#war-ai", "none");
  await idle(page);
  await page.click('#war-board [data-square="a6"]');
  await idle(page);
  const hidden = await page.textContent("#status");
  const roundsBefore = await page.$$eval("#war-rounds li", (l) => l.length);
  check(hidden.includes("U has picked") && !hidden.includes("RC") && roundsBefore === 1,
    `U's pick hidden until D's: "${hidden}"`);
  // D's pick by the keyboard alone: from a6 down to a1, Enter.
  await page.focus('#war-board [data-square="a6"]');
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowDown");
  check(await page.evaluate(() => document.activeElement?.dataset.square) === "a1", "the arrow keys reach a1");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelectorAll("#war-rounds li").length === 2);
  await idle(page);
  const round2 = await page.$$eval("#war-rounds li", (l) => l.at(-1).textContent);
  check(round2 === "2. U RC · D LC", `the round resolved with both picks: ${round2}`);
  await page.click("#war-equilibrium");
  await page.waitForSelector("#war-strategy .strategy");
  await idle(page);
  const strategies = await page.$$eval("#war-strategy .strategy", (l) => l.length);
  const sums = await page.$$eval("#war-strategy .strategy", (lists) => lists.map((list) =>
    [...list.querySelectorAll("li")].reduce((sum, li) => sum + Number(li.textContent.split(" ").at(-2)), 0)));
  check(strategies === 2 && sums.every((s) => Math.abs(s - 100) < 0.5), `the equilibrium of each player (${sums.join(", ")} %)`);
  await page.click("#war-review");
  await page.waitForSelector("#chart polyline");
  await idle(page);
  const warJudged = await page.$$eval("#review-moves button", (b) => b.length);
  check(warJudged === 4, `The Tank War's review: ${warJudged} picks judged`);
  await page.screenshot({ path: `${shots}/tank-war.png`, fullPage: true });
  await axe(page, "The Tank War");

  // Tank Wars: each vehicle's order by clicks, gunfire on e6, the round
  // against the AI with its events.
  await page.click('#games a[data-for="cobi-tank-wars"]');
  await page.waitForSelector('#cobi-board [data-square="c1"] .piece');
  await idle(page);
  for (const [from, to] of [["c1", "c3"], ["d1", "d2"], ["f1", "f2"]]) {
    await page.click(`#cobi-board [data-square="${from}"]`);
    await page.waitForSelector(`#cobi-board [data-square="${to}"].target`);
    await page.click(`#cobi-board [data-square="${to}"]`);
    await page.waitForSelector(`#cobi-board [data-square="${to}"].ordered`);
  }
  await page.click("#cobi-gunfire");
  await page.click('#cobi-board [data-square="e6"]');
  await page.waitForSelector('#cobi-board [data-square="e6"].planned');
  await page.click("#cobi-confirm");
  await page.waitForFunction(() => document.querySelectorAll("#cobi-events li").length >= 3);
  await idle(page);
  const cobiEvents = await page.$$eval("#cobi-events li", (l) => l.map((x) => x.textContent));
  check(cobiEvents.includes("P1-1 moves c1 → c3") && cobiEvents.some((e) => e.startsWith("a supply drop lands")),
    `Tank Wars: the round resolved (${cobiEvents.join("; ")})`);
  check(page.url().includes("rounds="), "the round in the link");
  await page.click("#cobi-review");
  await page.waitForSelector("#chart polyline");
  await idle(page);
  const cobiJudged = await page.$$eval("#review-moves button", (b) => b.length);
  check(cobiJudged === 2, `Tank Wars' review: ${cobiJudged} orders judged`);
  await page.screenshot({ path: `${shots}/tank-wars.png`, fullPage: true });
  await axe(page, "Tank Wars");

  check(errors.length === 0, `no console error or failed request (${JSON.stringify(errors)})`);

  // A phone's width: the board and the panel one under the other, nothing
  // wider than the screen.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.goto(reopened);
  await phone.waitForSelector('[data-square="a1"]');
  await idle(phone);
  const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= 390, `a phone's width (390 px): the page is ${wide} px wide`);
  await phone.screenshot({ path: `${shots}/tank-battle-phone.png`, fullPage: true });
  for (const game of ["tank-war", "cobi-tank-wars"]) {
    await phone.goto(`${base}/board/#game=${game}`);
    await phone.waitForSelector(`[data-game="${game}"] .grid .piece`);
    await idle(phone);
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    check(width <= 390, `${game} at a phone's width: ${width} px`);
  }
  await phone.close();

  // A server that asks for keys: the page loads, asks for a key at the
  // first 401, goes on with it, and shows its 429 as a message with its
  // wait; only those refusals are logged.
  if (keyedBase) {
    const keyed = await browser.newPage({ viewport: { width: 1100, height: 820 } });
    const logged = [];
    keyed.on("console", (m) => m.type() === "error" && logged.push(m.text()));
    keyed.on("pageerror", (e) => logged.push(String(e)));
    await keyed.goto(`${keyedBase}/board/`);
    await keyed.waitForSelector("#key-box:not([hidden])");
    await idle(keyed);
    check((await keyed.textContent("#key-box")).includes("asks for an API key"), "the key asked for at the first 401");
    await keyed.fill("#api-key", key);
    await keyed.click("#use-key");
    await keyed.waitForSelector('[data-square="k1"] .piece');
    await idle(keyed);
    check((await keyed.textContent("#status")).includes("White to move") && await keyed.isHidden("#key-box"),
      "the page goes on with the key");
    let message = "";
    await keyed.selectOption("#level", "1");
    for (let i = 0; i < 10 && !message.includes("Too many requests"); i++) {
      await keyed.click("#ai-move");
      await idle(keyed);
      message = await keyed.textContent("#message");
    }
    const after = await keyed.textContent("#status");
    check(/Too many requests: try again in \d+ s\./.test(message) && await keyed.isVisible('[data-square="k1"] .piece')
      && after.includes("White to move"),
      `a 429 as a message, the board and its status still there: "${message}" "${after}"`);
    const unexpected = logged.filter((e) => !/status of (401|429)/.test(e));
    check(unexpected.length === 0, `only the 401 and 429 logged (${JSON.stringify(unexpected)})`);
    await keyed.screenshot({ path: `${shots}/tank-battle-429.png` });
    await keyed.close();
  }

  // The page's Content-Security-Policy refuses an inline script.
  const probe = await context.newPage();
  const refused = [];
  probe.on("console", (m) => m.type() === "error" && refused.push(m.text()));
  await probe.goto(`${base}/board/`);
  await probe.addScriptTag({ content: "window.inlineRan = true;" }).catch(() => null);
  const ran = await probe.evaluate(() => window.inlineRan === true);
  check(!ran && refused.some((e) => e.includes("Content Security Policy")), "an inline script is refused by the page's policy");
  await probe.close();
} finally {
  await browser.close();
}
if (failures.length) {
  console.log(`board-test: FAIL — ${failures.length} failed: ${failures.join("; ")}`);
  process.exit(1);
}
console.log("board-test: PASS");
