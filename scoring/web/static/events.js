// Live updates: the server's event stream, reconnected when it drops.

import { t } from "./i18n.js";
import { state } from "./state.js";
import { api } from "./api.js";
import { renderGameView, renderGames, showGame } from "./display.js";
import { onLiveHand } from "./camera.js";

// ---------------------------------------------------------------------------- live updates

export let source = null;
export let eventsRetryMs = 1000;
export function connectEvents() {
  if (source) source.close();
  source = new EventSource("/api/events");
  source.addEventListener("hello", () => { eventsRetryMs = 1000; setLive(true); refresh(); });
  source.addEventListener("game", (ev) => onGameEvent(JSON.parse(ev.data)));
  source.addEventListener("camera", (ev) => onLiveHand(JSON.parse(ev.data)));
  source.onerror = () => {
    setLive(false);
    // Refused (the server's streams are all taken: 503) or gone: show the games as they are now and try
    // again a little later each time, so the page keeps up by polling until a stream is free.
    if (source.readyState === EventSource.CLOSED) {
      refresh();
      setTimeout(connectEvents, eventsRetryMs);
      eventsRetryMs = Math.min(eventsRetryMs * 2, 5000);
    }
  };
}

export function setLive(on) {
  const live = document.getElementById("live");
  live.textContent = on ? t("app.live") : t("app.reconnecting");
  live.className = on ? "live on" : "live off";
  document.body.dataset.live = on ? "1" : "0";
}

export async function refresh() {
  try {
    state.games = await api("GET", "/api/games");
    if (state.view !== "game") return;
    if (state.followLatest && state.games.length && (!state.game || state.games[0].id !== state.game.id)) {
      showGame(await api("GET", `/api/games/${state.games[0].id}`));
    } else if (state.game) {
      showGame(await api("GET", `/api/games/${state.game.id}`));
    } else {
      renderGameView();
    }
  } catch (e) { /* the next event or reconnect tries again */ }
}

export function onGameEvent(event) {
  const summary = summarise(event.game);
  state.games = [summary, ...state.games.filter((g) => g.id !== summary.id)].sort((a, b) => b.id - a.id);
  if (state.view !== "game") return;
  if (event.kind === "created" && state.followLatest) { showGame(event.game); return; }
  if (state.game && event.game_id === state.game.id) {
    if (event.revision >= state.game.revision) showGame(event.game);
  } else {
    renderGames();
  }
}

export function summarise(doc) {
  return { id: doc.id, revision: doc.revision, created_at: doc.created_at, name: doc.name,
    sides: doc.sides.map((s) => s.name), rules: doc.rules, target: doc.target, hands: doc.hands.length,
    totals: doc.totals, winner: doc.winner };
}
