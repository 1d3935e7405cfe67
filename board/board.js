// The board: the page's entry. One view a game (tank-battle.js,
// tank-war.js, tank-wars.js), each a client of the public API holding no
// rules; the game and its state are in the URL's fragment
// (#game=<game>&…), so a link reopens it and no request line grows with
// it. The language and an API key (when the API asks for one) are kept
// in the tab only.

import { $, act, loadTexts, readFragment, say, shell } from "./common.js";
import { wireReview } from "./review.js";
import { view as tankBattle } from "./tank-battle.js";
import { view as tankWar } from "./tank-war.js";
import { view as tankWars } from "./tank-wars.js";

const VIEWS = [tankBattle, tankWar, tankWars];
let shown = null;
const started = new Set();

// The view the fragment names (Tank Battle when it names none), opened
// on the state the fragment holds.
async function fromFragment() {
  const params = readFragment();
  const view = VIEWS.find((v) => v.game === params.get("game")) || tankBattle;
  if (view !== shown) {
    // A view builds its board when first shown.
    if (!started.has(view)) {
      view.init();
      started.add(view);
    }
    shown = view;
    shell.render = view.render;
    for (const v of VIEWS) {
      for (const el of document.querySelectorAll(`[data-game="${v.game}"]`)) el.hidden = v !== view;
    }
    for (const link of document.querySelectorAll("#games a")) {
      if (link.dataset.for === view.game) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  }
  say("");
  await view.open(params);
}

function wire() {
  $("lang").addEventListener("change", () => act(async () => {
    await loadTexts($("lang").value);
    sessionStorage.setItem("tank-rules-lang", shell.lang);
    await shown.refresh();
  }));
  $("use-key").addEventListener("click", () => act(async () => {
    shell.key = $("api-key").value.trim();
    sessionStorage.setItem("tank-rules-key", shell.key);
    $("key-box").hidden = true;
    say("");
    await fromFragment();
  }));
  // A link opened in this tab (a view writes its own fragment with
  // replaceState, which fires no event).
  window.addEventListener("hashchange", () => act(fromFragment));
  wireReview();
}

async function main() {
  const asked = sessionStorage.getItem("tank-rules-lang")
    || (navigator.languages || []).map((l) => l.slice(0, 2)).find((l) => l === "cs" || l === "en")
    || "en";
  $("lang").value = asked;
  await loadTexts(asked);
  wire();
  await act(fromFragment);
}

main();
