// Real-browser check of Swagger UI (run by scripts/swagger-ui-check.sh).
//
//   node scripts/swagger-ui-check.mjs --base http://127.0.0.1:PORT \
//        [--chromium /usr/bin/chromium] [--out target/swagger-ui-check]
//
// Opens BASE/ (which must land on /swagger-ui/ with the title "tank-rules"),
// then, for every operation of /openapi.json as Swagger UI shows it: expands
// it, clicks "Try it out" and "Execute" with the example values Swagger UI
// fills in, and reads the status of the live response. Prints one line per
// operation and a summary; exits 1 unless every operation answered 2xx.
// Saves a screenshot of the page as OUT/swagger.png. playwright-core is
// loaded from OUT/node_modules; the browser is Debian's Chromium.
// SWAGGER_UI_CHECK_VERBOSE=1 also prints each request URL and answer.

import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => {
    if (arg.startsWith("--")) pairs.push([arg.slice(2), all[i + 1]]);
    return pairs;
  }, []),
);
const BASE = (args.base || "").replace(/\/+$/, "");
const CHROMIUM = args.chromium || "/usr/bin/chromium";
const OUT = path.resolve(args.out || "target/swagger-ui-check");
const VERBOSE = Boolean(process.env.SWAGGER_UI_CHECK_VERBOSE);
if (!BASE) {
  console.error("usage: swagger-ui-check.mjs --base http://127.0.0.1:PORT [--chromium PATH] [--out DIR]");
  process.exit(2);
}

const require = createRequire(path.join(OUT, "package.json"));
const { chromium } = require("playwright-core");

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const OP_TIMEOUT_MS = 60_000;

function excerpt(text, n = 300) {
  const flat = (text || "").replace(/\s+/g, " ").trim();
  return flat.length > n ? flat.slice(0, n) + "…" : flat;
}

async function waitForService() {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const r = await fetch(`${BASE}/healthz`);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${BASE}/healthz did not answer within 30 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function expectedOperations() {
  const r = await fetch(`${BASE}/openapi.json`);
  if (!r.ok) throw new Error(`GET /openapi.json answered ${r.status}`);
  const doc = await r.json();
  const ops = [];
  for (const [p, item] of Object.entries(doc.paths || {})) {
    for (const m of METHODS) if (item[m]) ops.push(`${m.toUpperCase()} ${p}`);
  }
  return { title: doc.info?.title, ops };
}

async function main() {
  await waitForService();
  const expected = await expectedOperations();
  console.log(`openapi.json: "${expected.title}", ${expected.ops.length} operations`);

  const userDataDir = mkdtempSync(path.join(tmpdir(), "swagger-ui-check-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const failures = [];
  const results = [];
  try {
    const page = context.pages()[0] || (await context.newPage());
    page.setDefaultTimeout(OP_TIMEOUT_MS);
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));

    // Landing: / redirects to Swagger UI, which shows the API's title.
    await page.goto(`${BASE}/`, { waitUntil: "load" });
    await page.waitForURL(/\/swagger-ui\/(#.*)?$/);
    const landed = page.url().replace(/#.*$/, "");
    if (!landed.endsWith("/swagger-ui/")) failures.push(`landing URL is ${landed}, not …/swagger-ui/`);
    const title = page.locator(".swagger-ui .info .title");
    await title.waitFor();
    const titleText = (await title.innerText()).trim();
    if (!/^tank-rules\b/.test(titleText)) failures.push(`title is "${titleText}", not "tank-rules"`);
    console.log(`landing: ${landed} title: "${excerpt(titleText, 80)}"`);

    // Open every tag section that is collapsed, then wait for all operations.
    for (const tag of await page.locator(".opblock-tag-section:not(.is-open) .opblock-tag").all()) {
      await tag.click();
    }
    const blocks = page.locator(".opblock");
    await page.waitForFunction(
      (n) => document.querySelectorAll(".opblock").length >= n,
      expected.ops.length,
    );
    const count = await blocks.count();
    const seen = [];
    await page.screenshot({ path: path.join(OUT, "swagger.png"), fullPage: true });

    for (let i = 0; i < count; i++) {
      const block = blocks.nth(i);
      const method = (await block.locator(".opblock-summary-method").innerText()).trim().toUpperCase();
      const pathEl = block.locator(".opblock-summary-path");
      const opPath = ((await pathEl.getAttribute("data-path")) || (await pathEl.innerText())).trim();
      const name = `${method} ${opPath}`;
      seen.push(name);
      let status = null;
      let body = "";
      try {
        // Expand (the summary toggles the operation open).
        const body0 = block.locator(".opblock-body");
        if (!(await body0.isVisible().catch(() => false))) {
          const control = block.locator(".opblock-summary-control");
          await ((await control.count()) ? control.first() : block.locator(".opblock-summary").first()).click();
        }
        await body0.waitFor();
        await block.locator(".try-out__btn").click();
        const execute = block.locator("button.execute");
        await execute.waitFor();
        await execute.click();
        const cell = block.locator(".live-responses-table .response .response-col_status").first();
        await cell.waitFor();
        const cellText = (await cell.innerText()).trim();
        const m = cellText.match(/\d{3}/);
        status = m ? Number(m[0]) : null;
        const desc = block.locator(".live-responses-table .response .response-col_description").first();
        body = (await desc.innerText().catch(() => "")) || "";
        if (status === null) body = `${cellText} ${body}`;
        // Validation errors that keep Swagger UI from sending anything.
        const invalid = await block.locator(".invalid, .validation-errors").allInnerTexts();
        if (status === null && invalid.length) body += ` invalid input: ${invalid.join(" | ")}`;
      } catch (e) {
        const invalid = await block.locator(".validation-errors, .invalid").allInnerTexts().catch(() => []);
        body = `${String(e).split("\n")[0]}${invalid.length ? ` (Swagger UI: ${invalid.join(" | ")})` : ""}`;
      }
      const ok = status !== null && status >= 200 && status < 300;
      results.push({ name, status, ok });
      console.log(`${ok ? "ok  " : "FAIL"} ${method.padEnd(6)} ${opPath.padEnd(34)} ${status ?? "-"}`);
      if (VERBOSE) {
        const url = await block.locator(".request-url pre").first().innerText().catch(() => "");
        console.log(`     request: ${url.trim()}`);
        console.log(`     answer: ${excerpt(body, 200)}`);
      }
      if (!ok) {
        console.log(`     answer: ${excerpt(body, 400)}`);
        failures.push(`${name}: ${status ?? "no status"}`);
      }
      // Collapse it again so the page stays small.
      const control = block.locator(".opblock-summary-control");
      await ((await control.count()) ? control.first() : block.locator(".opblock-summary").first())
        .click()
        .catch(() => {});
    }

    const missing = expected.ops.filter((o) => !seen.includes(o));
    const extra = seen.filter((o) => !expected.ops.includes(o));
    if (missing.length) failures.push(`operations not shown by Swagger UI: ${missing.join(", ")}`);
    if (extra.length) failures.push(`operations shown but not in openapi.json: ${extra.join(", ")}`);
    if (pageErrors.length) console.log(`page errors: ${pageErrors.map((e) => excerpt(e, 200)).join(" | ")}`);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(OUT, "swagger.png"), fullPage: true });
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }

  const passed = results.filter((r) => r.ok).length;
  console.log(
    `${passed} passed, ${results.length - passed} failed` +
      ` (${results.length} operations shown, ${expected.ops.length} in openapi.json)`,
  );
  console.log(`screenshot: ${path.join(OUT, "swagger.png")}`);
  if (failures.length) {
    for (const f of failures) console.error(`failure: ${f}`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(`swagger-ui-check: ${e.stack || e}`);
  process.exit(1);
});
