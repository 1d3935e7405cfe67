// The board's puzzle mode (issue 77), in Debian's Chromium through real
// input events, against a running server: node puzzles.mjs <base URL>.
//
// A game whose last move is a capture Black gave away: "Puzzles from this
// game" finds it; a wrong try is refused in words and not played; the
// capture solves it; "Back to the game" shows the game again; axe-core
// finds no violation with the puzzle shown. Exits 1 on any failure.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const [base] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
// Black moves its h9 tank where White's k2 takes it along the diagonal.
const START = "c10/8t2/7t3/11/11/11/11/11/11/2T7T/10C b 1";
const MOVES = ["h9-h5", "k2xh5"];

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "PASS" : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};
const idle = (page) => page.waitForFunction(() => !document.body.hasAttribute("aria-busy"), null, { timeout: 120_000 });
const text = (page, id) => page.locator(`#${id}`).innerText();

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${base}/board/#start=${encodeURIComponent(START)}&moves=${MOVES.join(",")}`);
  await page.waitForSelector('[data-square="h5"] .piece.white');
  await idle(page);
  await page.click("#find-puzzles");
  await page.waitForSelector("#puzzle:not([hidden])", { timeout: 120_000 });
  await idle(page);
  const task = await text(page, "puzzle-task");
  check(/Puzzle 1 of 1: White to move/.test(task) && /a capture/.test(task), `the puzzle is set: "${task}"`);
  check(await page.locator('[data-square="k2"] .piece.white').count() === 1
    && await page.locator('[data-square="h5"] .piece.black').count() === 1, "the board shows the position before the capture");

  // A wrong try: k2-k3 is legal, not the only move.
  await page.click('[data-square="k2"]');
  await page.waitForSelector('[data-square="k3"].target');
  await page.click('[data-square="k3"]');
  await idle(page);
  const wrong = await text(page, "puzzle-result");
  check(/k2-k3 is not the only move/.test(wrong), `a wrong try is refused in words: "${wrong}"`);
  check(await page.locator('[data-square="k2"] .piece.white').count() === 1, "a wrong try is not played");
  await page.evaluate(AXE);
  const found = await page.evaluate(async () =>
    (await window.axe.run(document, { resultTypes: ["violations"] })).violations.map((v) => v.id));
  check(found.length === 0, `axe-core finds no violation with the puzzle shown (${found.join(", ")})`);

  // The capture solves it.
  await page.click('[data-square="k2"]');
  await page.waitForSelector('[data-square="h5"].target');
  await page.click('[data-square="h5"]');
  await idle(page);
  const solved = await text(page, "puzzle-result");
  check(/Solved: k2xh5/.test(solved), `the capture solves it: "${solved}"`);
  check(await page.locator('[data-square="h5"] .piece.white').count() === 1, "the capture is played");
  check(await page.locator("#next-puzzle").isDisabled(), "no next puzzle after the only one");

  await page.click("#leave-puzzles");
  await idle(page);
  check(await page.locator("#puzzle").isHidden(), "back to the game");
  const moves = await page.locator("#moves li").count();
  check(moves === MOVES.length, `the game's moves are back (${moves})`);
  check(errors.length === 0, `no error on the page (${JSON.stringify(errors)})`);
} finally {
  await browser.close();
}
if (failures.length) {
  console.log(`puzzles: FAIL — ${failures.length} failed: ${failures.join("; ")}`);
  process.exit(1);
}
console.log("puzzles: PASS");
