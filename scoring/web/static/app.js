// Borne's score display: set-up, live totals, race chart, hand entry and correction.
// Plain JavaScript, no build step. Scores always come from the server (the scoring core);
// this script only mirrors the core's validation so mistakes show before anything is sent.
// The page's entry module: it starts the page; each concern has a module of its own (ES modules, no build step).
import { languageMenu, startLanguage, t } from "./i18n.js";
import { state } from "./state.js";
import { el, toast } from "./dom.js";
import { api } from "./api.js";
import { connectEvents, setLive } from "./events.js";
import { renderSetup } from "./setup.js";
import { renderGameView, showGame, sidesTitle } from "./display.js";
import { cameraImg, startCamera } from "./camera.js";
import { openEntry } from "./entry.js";

// ---------------------------------------------------------------------------- start

async function start() {
  await startLanguage();
  document.querySelector(".bar").append(languageMenu(onLanguageChange));
  const path = location.pathname;
  const match = path.match(/^\/games\/(\d+)\/?$/);
  if (path === "/new") {
    state.view = "setup";
    await renderSetup();
  } else {
    state.view = "game";
    state.followLatest = !match;
    state.games = await api("GET", "/api/games");
    const id = match ? Number(match[1]) : (state.games[0] && state.games[0].id);
    if (id) {
      try { showGame(await api("GET", `/api/games/${id}`)); } catch (e) {
        document.getElementById("main").replaceChildren(el("p", { class: "error" }, t("app.not_found", { id })));
      }
    } else {
      renderGameView();
    }
  }
  connectEvents();
  startCamera();
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, select, textarea, dialog")) return;
    if (state.view === "game" && state.game && !state.game.winner && (ev.key === "n" || ev.key === "+")) {
      ev.preventDefault();
      openEntry(null);
    }
  });
}

// A new language: everything on screen is drawn again in it (a set-up page starts afresh).
function onLanguageChange() {
  if (state.view === "setup") { renderSetup(); return; }
  if (state.game) document.title = `${state.game.name || sidesTitle(state.game)} · Borne`;
  if (cameraImg) cameraImg.alt = t("camera.picture");
  renderGameView();
  setLive(document.body.dataset.live === "1");
}

window.addEventListener("popstate", () => location.reload());
document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("hand-dialog").addEventListener("close", () => { state.entry = null; });
  document.getElementById("zone-dialog").addEventListener("close", () => { state.zones = null; });
});
document.addEventListener("DOMContentLoaded", () => { start().catch((e) => toast(String(e))); });
