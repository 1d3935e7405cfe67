import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const errors = [];
const game = process.argv[2] || "tank-war";
for (const [w, h, name] of [[1280, 900, "wide"], [390, 844, "phone"]]) {
  const page = await browser.newPage({ viewport: { width: w, height: h } });
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`http://127.0.0.1:18080/board/#game=${game}` + (process.argv[3] || ""));
  await page.waitForSelector(`[data-game="${game}"] .grid .piece`);
  await page.waitForTimeout(1500);
  if (process.argv[4]) { await page.click(process.argv[4]); await page.waitForTimeout(2500); }
  await page.screenshot({ path: `/tmp/${game}-${name}.png`, fullPage: true });
  console.log(name, await page.textContent("#status"));
}
console.log("errors", errors);
await browser.close();
