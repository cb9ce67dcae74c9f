// Borne's score display: set-up, live totals, race chart, hand entry and correction.
// Plain JavaScript, no build step. Scores always come from the server (the scoring core);
// this script only mirrors the core's validation so mistakes show before anything is sent.
"use strict";

const DISTANCE_VALUES = [25, 50, 75, 100, 200];
const DECK = { 25: 10, 50: 10, 75: 10, 100: 12, 200: 4 };
const MAX_200S = 2;
const SAFETIES = ["right_of_way", "extra_tank", "puncture_proof", "driving_ace"];
const ITEMS = ["distance", "safeties", "all_safeties", "coups_fourres", "trip", "delayed_action", "safe_trip",
  "shut_out", "extension"];
const COLOURS = ["#e4572e", "#2e86de", "#17a673", "#d99a00", "#8e44ad", "#c0392b", "#16a085", "#7f8c8d"];
const TOKEN_KEY = "borne.token";

const state = {
  game: null,       // the game document shown
  games: [],        // summaries, newest first
  followLatest: false,
  rules: [],
  chartStep: null,  // hand shown by the race chart while replaying (null: all)
  replayTimer: null,
  entry: null,      // the hand being entered or fixed
  camera: null,     // GET /api/camera (null until read; camera: false with borne serve)
  liveHand: null,   // GET /api/camera/hand, then the SSE "camera" events
  zones: null,      // the zone editor: GET /api/camera/layout and the zones being drawn
};

// ---------------------------------------------------------------------------- helpers

// t(), fmt() and the language menu: static/i18n.js.

// Only the nodes among xs: replaceChildren(null) would print "null" on the page.
const nodes = (...xs) => xs.flat().filter((x) => x !== null && x !== undefined && x !== false);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else if (k === "style") node.style.cssText = v;  // through the CSSOM: the policy refuses style attributes
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children.flat()) if (c != null) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function toast(message) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

// ---------------------------------------------------------------------------- API

class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.message || (typeof body.detail === "string" ? body.detail : ""))) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

// One key per entry, sent with each try of it: a retry after a dropped connection is not stored twice.
// (crypto.randomUUID needs https; getRandomValues works on a plain-http LAN address too.)
function newIdempotencyKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function api(method, path, body, { revision, idempotencyKey } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  if (method !== "GET") {
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  if (revision !== undefined && revision !== null) headers["If-Match"] = `"${revision}"`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, { message: t("errors.network") });
  }
  const data = response.headers.get("content-type")?.includes("json") ? await response.json() : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// A write: asks for the token when there is none or it is refused, then tries once more.
async function write(method, path, body, options) {
  options = { idempotencyKey: newIdempotencyKey(), ...options };
  if (!localStorage.getItem(TOKEN_KEY)) await askToken();
  try {
    return await sendSurely(method, path, body, options);
  } catch (e) {
    if (e.status === 401 || e.status === 403) {
      await askToken(e.status === 403 ? t("token.wrong") : "");
      return await sendSurely(method, path, body, options);
    }
    throw e;
  }
}

// The connection dropped (no answer at all): try once more a moment later. The same Idempotency-Key
// makes it safe: if the first try was stored, the server answers with it instead of storing it twice.
async function sendSurely(method, path, body, options) {
  try {
    return await api(method, path, body, options);
  } catch (e) {
    if (e.status !== 0) throw e;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return await api(method, path, body, options);
  }
}

function askToken(problem) {
  const dialog = document.getElementById("token-dialog");
  return new Promise((resolve, reject) => {
    const input = el("input", { id: "token-input", type: "password", autocomplete: "current-password", required: true,
      value: localStorage.getItem(TOKEN_KEY) || "" });
    const form = el("form", { method: "dialog" },
      el("h2", { id: "token-title" }, t("token.title")),
      el("p", {}, t("token.prompt")),
      problem ? el("p", { class: "error" }, problem) : null,
      el("label", { for: "token-input" }, t("token.label")), input,
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "secondary", onclick: () => { dialog.close(); reject(new ApiError(401, { message: t("token.prompt") })); } }, t("entry.cancel")),
        el("button", { type: "submit", class: "primary", id: "token-save" }, t("token.save"))));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const token = input.value.trim();
      if (!token) return;
      localStorage.setItem(TOKEN_KEY, token);
      dialog.close();
      resolve();
    });
    dialog.replaceChildren(form);
    dialog.showModal();
    input.focus();
  });
}

function explain(e) {
  if (!(e instanceof ApiError)) return String(e);
  if (e.status === 409 && e.body && "actual" in e.body) return t("errors.stale");
  if (e.status === 409) return t("errors.game_over", { message: e.message });
  if (e.status === 0) return t("errors.network");
  return t("errors.generic", { message: e.message });
}

// ---------------------------------------------------------------------------- live updates

let source = null;
let eventsRetryMs = 1000;
function connectEvents() {
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

function setLive(on) {
  const live = document.getElementById("live");
  live.textContent = on ? t("app.live") : t("app.reconnecting");
  live.className = on ? "live on" : "live off";
  document.body.dataset.live = on ? "1" : "0";
}

async function refresh() {
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

function onGameEvent(event) {
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

function summarise(doc) {
  return { id: doc.id, revision: doc.revision, created_at: doc.created_at, name: doc.name,
    sides: doc.sides.map((s) => s.name), rules: doc.rules, target: doc.target, hands: doc.hands.length,
    totals: doc.totals, winner: doc.winner };
}

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

// ---------------------------------------------------------------------------- set-up page

async function renderSetup() {
  document.title = `${t("setup.title")} · Borne`;
  state.rules = await api("GET", "/api/rules");
  const setup = { players: ["", ""], teams: null, grouping: null, goal: null, extension: null, goalTouched: false };
  const main = document.getElementById("main");
  const playersBox = el("div", { class: "players", id: "players" });
  const sidesBox = el("ol", { class: "sides-preview", id: "sides-preview" });
  const problem = el("p", { class: "error", id: "setup-error", role: "alert" });
  const rulesSelect = el("select", { id: "rules" }, state.rules.map((r) => el("option", { value: r.name }, r.name)));
  const rulesHelp = el("p", { class: "help", id: "rules-help" });
  const target = el("input", { id: "target", type: "number", min: 1, max: 1000000, step: 1, inputmode: "numeric" });
  const targetHelp = el("span", { class: "help" });
  const goal = el("select", { id: "goal" }, [700, 1000].map((km) => el("option", { value: km }, t("setup.goal_km", { km: fmt(km) }))));
  const extension = el("input", { id: "extension", type: "checkbox" });
  const name = el("input", { id: "game-name", type: "text", maxlength: 80, placeholder: t("setup.name_placeholder") });
  const grouping = el("fieldset", { class: "segmented", id: "grouping" },
    el("legend", {}, t("setup.sides")),
    ...[["alone", 1], ["teams", 2]].map(([key, size]) => el("label", {},
      el("input", { type: "radio", name: "grouping", value: size, onchange: () => { setup.grouping = size; setup.teams = null; update(); } }),
      t(`setup.${key}`))));
  const drawButton = el("button", { type: "button", id: "draw-teams", class: "secondary",
    onclick: () => update({ draw: true }) }, t("setup.draw_teams"));
  const blank = el("a", { id: "blank-sheet", href: `/api/sheets/blank.pdf?lang=${i18n.language}`, target: "_blank" }, t("setup.blank_sheet"));

  function names() { return setup.players.map((p) => p.trim()).filter(Boolean); }
  function teamSize() { const n = names().length; return setup.grouping ?? ([4, 6, 8].includes(n) ? 2 : 1); }

  function renderPlayers() {
    playersBox.replaceChildren(...nodes(setup.players.map((p, i) => el("div", { class: "player" },
      el("label", { for: `player-${i}`, class: "sr-only" }, t("setup.player", { n: i + 1 })),
      el("input", { id: `player-${i}`, type: "text", value: p, maxlength: 60, autocomplete: "off",
        placeholder: t("setup.player", { n: i + 1 }),
        oninput: (ev) => { setup.players[i] = ev.target.value; setup.teams = null; scheduleUpdate(); } }),
      setup.players.length > 2 ? el("button", { type: "button", class: "icon", "aria-label": t("setup.remove_player", { name: p || i + 1 }),
        onclick: () => { setup.players.splice(i, 1); setup.teams = null; renderPlayers(); update(); } }, "×") : null)),
    setup.players.length < 16 ? el("button", { type: "button", class: "secondary", id: "add-player",
      onclick: () => { setup.players.push(""); renderPlayers(); document.getElementById(`player-${setup.players.length - 1}`).focus(); } },
    `+ ${t("setup.add_player")}`) : null));
  }

  let timer = null;
  function scheduleUpdate() { clearTimeout(timer); timer = setTimeout(update, 250); }

  async function update({ draw = false } = {}) {
    const rule = state.rules.find((r) => r.name === rulesSelect.value);
    rulesHelp.textContent = tOr(`rule_sets.${rule.name}`, rule.description);
    targetHelp.textContent = rule.counting === "hand_wins" ? t("setup.target_wins_help") : t("setup.target_help");
    if (!target.dataset.touched) target.value = rule.default_target;
    const list = names();
    for (const input of grouping.querySelectorAll("input")) input.checked = Number(input.value) === teamSize();
    problem.textContent = "";
    if (list.length < 2) { sidesBox.replaceChildren(); problem.textContent = t("setup.need_players"); return; }
    if (new Set(list).size !== list.length) { problem.textContent = t("setup.duplicate"); return; }
    if (list.length % teamSize()) { problem.textContent = t("setup.odd_teams"); return; }
    const q = new URLSearchParams();
    list.forEach((p) => q.append("players", p));
    q.set("rules", rule.name);
    q.set("team_size", teamSize());
    if (draw) { q.set("draw_teams", "true"); q.set("seed", String(Math.floor(Math.random() * 2 ** 31))); }
    try {
      const preview = await api("GET", `/api/setup?${q}`);
      if (draw || setup.teams) {
        if (draw) {
          setup.teams = preview.sides.map((s) => s.players);
          sidesBox.dataset.draws = String(Number(sidesBox.dataset.draws || 0) + 1);
          toast(t("setup.drawn"));
        }
      }
      const sides = setup.teams ? setup.teams.map((ps) => ({ name: ps.join(" & "), players: ps })) : preview.sides;
      sidesBox.replaceChildren(...sides.map((s, i) => el("li", { class: "side-chip", style: `--side:${COLOURS[i % COLOURS.length]}` }, s.name)));
      if (!setup.goalTouched) {
        goal.value = preview.goal ?? 1000;
        extension.checked = preview.extension;
      }
      goal.disabled = rule.goals.length < 2;
      extension.disabled = Number(goal.value) !== 700;
      if (extension.disabled) extension.checked = false;
      const bq = new URLSearchParams({ lang: i18n.language });
      sides.forEach((s) => bq.append("sides", s.name));
      blank.href = `/api/sheets/blank.pdf?${bq}`;
    } catch (e) {
      problem.textContent = explain(e);
    }
  }

  rulesSelect.addEventListener("change", () => { target.dataset.touched = ""; delete target.dataset.touched; setup.goalTouched = false; update(); });
  target.addEventListener("input", () => { target.dataset.touched = "1"; });
  goal.addEventListener("change", () => { setup.goalTouched = true; extension.disabled = Number(goal.value) !== 700; if (extension.disabled) extension.checked = false; });
  extension.addEventListener("change", () => { setup.goalTouched = true; });

  const form = el("form", { class: "card setup", id: "setup-form", novalidate: true },
    el("h1", {}, t("setup.title")),
    el("label", { for: "game-name" }, t("setup.name")), name,
    el("h2", {}, t("setup.players")), playersBox,
    grouping, drawButton,
    el("h3", {}, t("setup.sides_preview")), sidesBox,
    el("label", { for: "rules" }, t("setup.rules")), rulesSelect, rulesHelp,
    el("div", { class: "row" },
      el("div", {}, el("label", { for: "target" }, t("setup.target")), target, targetHelp),
      el("div", {}, el("label", { for: "goal" }, t("setup.goal")), goal)),
    el("label", { class: "check" }, extension, t("setup.extension")),
    el("p", { class: "help" }, t("setup.defaults_note")),
    problem,
    el("div", { class: "buttons" }, blank, el("button", { type: "submit", class: "primary big", id: "start-game" }, t("setup.start"))));

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    await update();
    if (problem.textContent) return;
    const body = {
      players: names(), rules: rulesSelect.value, target: Number(target.value), name: name.value.trim(),
      goal: Number(goal.value), extension: extension.checked,
    };
    if (setup.teams) body.teams = setup.teams; else body.team_size = teamSize();
    try {
      const created = await write("POST", "/api/games", body);
      location.href = `/games/${created.id}`;
    } catch (e) {
      problem.textContent = explain(e);
    }
  });
  main.replaceChildren(form);
  renderPlayers();
  update();
}

// ---------------------------------------------------------------------------- live display

function showGame(doc) {
  const previous = state.game;
  state.game = doc;
  if (previous && previous.id === doc.id && state.chartStep !== null && state.replayTimer === null) state.chartStep = null;
  document.title = `${doc.name || sidesTitle(doc)} · Borne`;
  renderGameView();
  if (state.entry && state.entry.number && state.entry.gameId === doc.id && state.entry.revision !== doc.revision) {
    const box = document.getElementById("entry-error");
    if (box) box.textContent = t("errors.stale");
  }
}

function sidesTitle(doc) { return doc.sides.map((s) => s.name).join(" · "); }

function renderGameView() {
  const main = document.getElementById("main");
  const doc = state.game;
  if (!doc) {
    main.replaceChildren(...nodes(livePanel(), cameraPanel(), el("section", { class: "card empty" }, el("h1", {}, t("app.tagline")), el("p", {}, t("app.no_games")),
      el("a", { class: "button primary big", href: "/new" }, t("app.new_game"))), gamesList()));
    return;
  }
  const focusId = document.activeElement && document.activeElement.id;
  main.replaceChildren(
    el("div", { class: "layout" },
      el("section", { class: "scoreboard", "aria-label": t("app.name") }, header(doc), winnerBanner(doc), scoreCards(doc), actions(doc)),
      livePanel(),
      cameraPanel(),
      el("section", { class: "card chart-card" }, raceChart(doc)),
      el("section", { class: "card pad-card" }, scorePad(doc)),
      gamesList()));
  if (focusId) document.getElementById(focusId)?.focus();
}

function header(doc) {
  const bits = [doc.rules, t("display.target", { target: fmt(doc.target) }),
    doc.goal ? t("display.goal", { goal: fmt(doc.goal) }) : t("display.goal_each")];
  if (doc.extension) bits.push(t("display.extension"));
  return el("div", { class: "game-head" },
    el("h1", {}, doc.name || sidesTitle(doc)),
    el("p", { class: "muted" }, `#${doc.id} · ${bits.join(" · ")}`));
}

function scoreCards(doc) {
  const last = doc.hands[doc.hands.length - 1];
  return el("div", { class: "totals", style: `--sides:${doc.sides.length}` }, doc.sides.map((side, i) => {
    const total = doc.totals[side.name];
    const share = Math.max(0, Math.min(1, total / doc.target));
    const togo = doc.target - total;
    return el("article", { class: `side${doc.winner === side.name ? " winner" : ""}`, "data-side": side.name,
      style: `--side:${COLOURS[i % COLOURS.length]}` },
      el("h2", { class: "side-name" }, side.name),
      el("p", { class: "total", "data-total": total }, fmt(total)),
      el("div", { class: "progress", role: "progressbar", "aria-valuemin": 0, "aria-valuemax": doc.target, "aria-valuenow": total,
        "aria-label": `${side.name}: ${fmt(total)} / ${fmt(doc.target)}` }, el("span", { style: `width:${(share * 100).toFixed(1)}%` })),
      el("p", { class: "last" },
        last ? t("display.last_hand", { points: `+${fmt(last.points[side.name])}` }) : "",
        last ? " · " : "",
        togo > 0 ? t("display.to_go", { points: fmt(togo) }) : t("display.reached")));
  }));
}

function winnerBanner(doc) {
  if (!doc.winner) return null;
  return el("div", { class: "banner", id: "winner", role: "status" },
    el("p", { class: "wins" }, t("display.wins", { side: doc.winner })),
    el("p", {}, t("display.won_after", { n: doc.finished_after_hand, total: fmt(doc.totals[doc.winner]) })),
    el("button", { type: "button", class: "primary big", id: "next-game", onclick: nextGame }, t("display.next_game")));
}

async function nextGame() {
  const doc = state.game;
  const players = doc.sides.flatMap((s) => s.players);
  const body = players.length === doc.sides.flatMap((s) => s.players.length ? s.players : [null]).length && players.length
    ? { players, teams: doc.sides.map((s) => s.players) }
    : { sides: doc.sides.map((s) => s.name) };
  Object.assign(body, { rules: doc.rules, target: doc.target, name: doc.name });
  if (doc.goal) { body.goal = doc.goal; body.extension = doc.extension; }
  try {
    const created = await write("POST", "/api/games", body);
    state.followLatest = false;
    history.pushState(null, "", `/games/${created.id}`);
    showGame(await api("GET", `/api/games/${created.id}`));
  } catch (e) { toast(explain(e)); }
}

function actions(doc) {
  const n = doc.hands.length + 1;
  return el("div", { class: "actions" },
    doc.winner ? null : el("button", { type: "button", class: "primary big", id: "enter-hand", onclick: () => openEntry(null),
      "aria-keyshortcuts": "N" }, t("display.enter_hand", { n })),
    el("button", { type: "button", class: "secondary", id: "undo", onclick: undo }, `↶ ${t("display.undo")}`),
    el("a", { class: "button secondary", id: "sheet-link", href: `/api/games/${doc.id}/sheet.pdf?lang=${i18n.language}`, target: "_blank" }, t("display.sheet")),
    el("a", { class: "button secondary", href: `/api/games/${doc.id}/export.csv?lang=${i18n.language}`, download: "" }, t("display.export_csv")),
    el("a", { class: "button secondary", href: `/api/games/${doc.id}/export.json`, download: "" }, t("display.export_json")));
}

async function undo() {
  try {
    showGame(await write("POST", `/api/games/${state.game.id}/undo`, undefined, { revision: state.game.revision }));
  } catch (e) {
    toast(explain(e));
    if (e.status === 409) refresh();
  }
}

// ---- race chart

function raceChart(doc) {
  const room = document.querySelector(".chart-card")?.clientWidth || Math.min(window.innerWidth, 720);
  const W = Math.round(Math.max(300, Math.min(720, room - 30))), H = W < 500 ? 230 : 300, L = 52, R = 14, T = 14, B = 32;
  const n = doc.hands.length;
  const step = state.chartStep === null ? n : state.chartStep;
  const series = doc.sides.map((s) => [0, ...doc.hands.map((h) => h.totals[s.name])]);
  const top = Math.max(doc.target, ...series.flat(), 1);
  const x = (i) => L + (n ? (i / n) : 0) * (W - L - R);
  const y = (v) => T + (1 - v / top) * (H - T - B);
  const ticks = niceTicks(top);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "race", id: "race-chart", role: "img",
    "data-step": step, "aria-label": `${t("display.race")}: ${step ? t("display.after_hand", { n: step }) : t("display.start")}` },
  ticks.map((v) => svg("g", {},
    svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "gridline" }),
    svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, fmt(v)))),
  svg("line", { x1: L, x2: W - R, y1: y(doc.target), y2: y(doc.target), class: "target-line" }),
  Array.from({ length: n + 1 }, (_, i) => svg("text", { x: x(i), y: H - 12, "text-anchor": "middle", class: "tick" }, i)),
  series.map((pts, si) => {
    const shown = pts.slice(0, step + 1);
    const colour = COLOURS[si % COLOURS.length];
    return svg("g", { class: "series", "data-side": doc.sides[si].name },
      svg("polyline", { points: shown.map((v, i) => `${x(i)},${y(v)}`).join(" "), stroke: colour }),
      shown.map((v, i) => svg("circle", { cx: x(i), cy: y(v), r: i === step ? 5 : 3, fill: colour },
        svg("title", {}, `${doc.sides[si].name}: ${fmt(v)}`))));
  }));
  const legend = el("ul", { class: "legend" }, doc.sides.map((s, i) => el("li", { style: `--side:${COLOURS[i % COLOURS.length]}` },
    `${s.name} ${fmt(series[i][step])}`)));
  const slider = el("input", { type: "range", min: 0, max: n, value: step, id: "chart-step", "aria-label": t("display.race"),
    oninput: (ev) => { stopReplay(); state.chartStep = Number(ev.target.value) === n ? null : Number(ev.target.value); rerenderChart(); } });
  const playing = state.replayTimer !== null;
  return el("div", { class: "chart" },
    el("div", { class: "chart-head" },
      el("h2", {}, t("display.race")),
      el("span", { class: "muted", id: "chart-label" }, step ? t("display.after_hand", { n: step }) : t("display.start")),
      el("button", { type: "button", class: "secondary", id: "replay", disabled: n === 0 ? true : null,
        onclick: () => (state.replayTimer === null ? replay() : stopReplay(true)) }, playing ? t("display.pause") : `▶ ${t("display.replay")}`)),
    chart, el("div", { class: "chart-foot" }, slider, legend));
}

function niceTicks(top) {
  const raw = top / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const stepSize = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = 0; v <= top + 1e-9; v += stepSize) out.push(Math.round(v));
  return out;
}

function rerenderChart() {
  const card = document.querySelector(".chart-card");
  if (!card || !state.game) return;
  const hadFocus = document.activeElement && document.activeElement.id;
  card.replaceChildren(raceChart(state.game));
  if (hadFocus === "replay" || hadFocus === "chart-step") document.getElementById(hadFocus)?.focus();
}

function replay() {
  const n = state.game.hands.length;
  state.chartStep = 0;
  state.replayTimer = setInterval(() => {
    if (state.chartStep >= n) { stopReplay(); return; }
    state.chartStep += 1;
    rerenderChart();
  }, 700);
  rerenderChart();
}

function stopReplay(keep) {
  if (state.replayTimer !== null) clearInterval(state.replayTimer);
  state.replayTimer = null;
  if (!keep && state.game && state.chartStep === state.game.hands.length) state.chartStep = null;
  rerenderChart();
}

// ---- score pad

function scorePad(doc) {
  if (!doc.hands.length) return el("div", {}, el("h2", {}, t("display.hands")), el("p", { class: "muted" }, t("display.no_hands")));
  const head = el("thead", {}, el("tr", {}, el("td", {}),
    doc.sides.map((s, i) => el("th", { scope: "col", style: `--side:${COLOURS[i % COLOURS.length]}` }, s.name))));
  const bodies = doc.hands.slice().reverse().map((hand) => {
    const bySide = Object.fromEntries(hand.score.sides.map((s) => [s.side, s]));
    const fix = el("button", { type: "button", class: "fix", "data-hand": hand.number, id: `fix-${hand.number}`,
      onclick: () => openEntry(hand.number), "aria-label": `${t("display.tap_to_fix")} ${t("display.hand_n", { n: hand.number })}` },
    `✎ ${t("display.tap_to_fix")}`);
    const rows = [el("tr", { class: "hand-row" }, el("th", { scope: "rowgroup", colspan: doc.sides.length + 1 },
      el("span", {}, t("display.hand_n", { n: hand.number })), fix))];
    for (const item of ITEMS) {
      const values = doc.sides.map((s) => bySide[s.name].items[item]);
      rows.push(el("tr", { class: values.some(Boolean) ? "item" : "item zero" }, el("th", { scope: "row" }, t(`items.${item}`)),
        values.map((v) => el("td", { class: v ? null : "zero" }, v ? fmt(v) : "–"))));
    }
    rows.push(el("tr", { class: "sum" }, el("th", { scope: "row" }, t("display.hand_total")),
      doc.sides.map((s) => el("td", {}, fmt(hand.points[s.name])))));
    rows.push(el("tr", { class: "running" }, el("th", { scope: "row" }, t("display.running_total")),
      doc.sides.map((s) => el("td", {}, fmt(hand.totals[s.name])))));
    return el("tbody", { "data-hand": hand.number, onclick: (ev) => { if (!ev.target.closest("button")) openEntry(hand.number); } }, rows);
  });
  return el("div", {}, el("h2", {}, t("display.hands")), el("table", { class: "pad", id: "score-pad" }, head, bodies));
}

function gamesList() {
  if (!state.games.length) return null;
  return el("section", { class: "card games", id: "games" }, el("h2", {}, t("display.earlier_games")),
    el("ul", {}, state.games.slice(0, 30).map((g) => el("li", { class: state.game && g.id === state.game.id ? "current" : "" },
      el("a", { href: `/games/${g.id}` }, `#${g.id} ${g.name || g.sides.join(" · ")}`),
      el("span", { class: "muted" }, ` ${g.sides.map((s) => fmt(g.totals[s] ?? 0)).join(" – ")} · `,
        g.winner ? t("display.winner", { side: g.winner }) : t("display.in_progress"))))));
}

function renderGames() {
  const old = document.getElementById("games");
  const fresh = gamesList();
  if (old && fresh) old.replaceWith(fresh);
}

// ---------------------------------------------------------------------------- the camera

const CAMERA_STATUS_MS = 2000;
const CAMERA_FRAME_MS = 1000;

async function startCamera() {
  try { state.camera = await api("GET", "/api/camera"); } catch (e) { state.camera = null; }
  if (!state.camera || !state.camera.camera) return;
  try { state.liveHand = await api("GET", "/api/camera/hand"); } catch (e) { /* no hand yet */ }
  rerenderCamera();
  setInterval(async () => {
    try { state.camera = await api("GET", "/api/camera"); rerenderCamera(); } catch (e) { /* next time */ }
  }, CAMERA_STATUS_MS);
  setInterval(() => {
    const img = cameraImage();
    if (state.camera && state.camera.has_frame && !state.camera.ended && !document.hidden) img.src = `/api/camera/frame.jpg?t=${Date.now()}`;
  }, CAMERA_FRAME_MS);
}

function onLiveHand(hand) {
  const before = state.liveHand;
  state.liveHand = hand;
  rerenderCamera();
  if (before && before.pending && !hand.pending && before.hand === hand.hand) refresh();
}

// One <img> for the whole session, so a re-render never blanks the picture while it reloads.
let cameraImg = null;
function cameraImage() {
  if (!cameraImg) {
    cameraImg = el("img", { id: "camera-frame", alt: t("camera.picture"), width: 960, height: 540 });
    if (state.camera && state.camera.has_frame) cameraImg.src = `/api/camera/frame.jpg?t=${Date.now()}`;
  }
  return cameraImg;
}

function rerenderCamera() {
  const panel = document.getElementById("camera-panel");
  const live = document.getElementById("live-panel");
  if (panel && (live || !state.liveHand)) {
    panel.replaceWith(...nodes(cameraPanel()));
    if (live) live.replaceWith(...nodes(livePanel()));
  } else if (state.view === "game") renderGameView();
}

function livePanel() {
  const cam = state.camera;
  if (!cam || !cam.camera || !state.liveHand) return null;
  return el("section", { class: "card live-card", id: "live-panel", "aria-label": t("camera.title") }, liveHand(state.liveHand));
}

function cameraPanel() {
  const cam = state.camera;
  if (!cam || !cam.camera) return null;
  const status = cam.ended ? t("camera.ended") : cam.connected ? t("camera.connected") : t("camera.lost");
  const bits = [t("camera.fps", { fps: fmtDecimal(cam.frames_per_second ?? 0) })];
  if (cam.corrupt_frames) bits.push(t("camera.corrupt", { n: cam.corrupt_frames }));
  if (cam.reconnects) bits.push(t("camera.reconnects", { n: cam.reconnects }));
  return el("section", { class: "card camera-card", id: "camera-panel", "aria-label": t("camera.title") },
    el("div", { class: "camera-head" },
      el("h2", {}, t("camera.title")),
      el("span", { class: `camera-status ${cam.connected ? "on" : "off"}`, id: "camera-status", role: "status" }, status),
      el("span", { class: "muted" }, bits.join(" · ")),
      cam.message && !cam.ended ? el("span", { class: "muted" }, cam.message) : null,
      el("button", { type: "button", class: "secondary", id: "edit-zones", disabled: cam.has_frame ? null : true,
        onclick: openZoneEditor }, t("zones.edit")),
      cam.can_choose ? el("button", { type: "button", class: "secondary", id: "choose-camera", onclick: openCameraChooser },
        t("camera.choose")) : null),
    cam.agent ? el("p", { class: "muted", id: "camera-agent" }, agentLine(cam.agent)) : null,
    cam.too_small ? el("p", { class: "warning", id: "camera-too-small" },
      t("camera.too_small", { px: Math.round(cam.card_px || 0) })) : null,
    el("figure", { class: "camera-picture" }, cam.has_frame ? cameraImage() : el("p", { class: "muted" }, t("camera.no_picture"))));
}

// The Borne cameras (borne-cam) that answer on the network; a person picks one and gives its token.
// A dialog of its own: the camera panel is redrawn every few seconds, a token being typed must not be.
async function openCameraChooser() {
  let dialog = document.getElementById("camera-dialog");
  if (!dialog) {
    dialog = el("dialog", { id: "camera-dialog", "aria-labelledby": "camera-choose-title" });
    document.body.append(dialog);
  }
  const error = el("p", { class: "warning", id: "camera-choice-error", role: "alert", hidden: true });
  const list = el("div", { id: "camera-list" }, el("p", { class: "muted" }, t("camera.searching")));
  dialog.replaceChildren(el("form", { method: "dialog", class: "camera-chooser" },
    el("h2", { id: "camera-choose-title" }, t("camera.choose_title")),
    el("p", { class: "muted", id: "camera-current" }, t("camera.following", { source: (state.camera && state.camera.source) || "" })),
    list, error,
    el("div", { class: "actions" },
      el("button", { type: "button", class: "secondary", id: "find-again", onclick: () => listCameras(list, error) }, t("camera.look_again")),
      el("button", { type: "button", class: "secondary", id: "close-cameras", onclick: () => dialog.close() }, t("camera.close")))));
  if (!dialog.open) dialog.showModal();
  await listCameras(list, error);
}

async function listCameras(list, error) {
  let found;
  try { found = await api("GET", "/api/camera/cameras"); } catch (e) { showCameraError(error, explain(e)); return; }
  if (!found.cameras.length) { list.replaceChildren(el("p", { class: "muted", id: "no-cameras" }, t("camera.none_found"))); return; }
  list.replaceChildren(el("ul", { class: "found-cameras" }, found.cameras.map((c) => {
    const token = el("input", { type: "password", class: "camera-token", autocomplete: "off",
      placeholder: t("camera.token_placeholder"), "aria-label": `${c.name}: ${t("camera.token_placeholder")}` });
    return el("li", { class: "found-camera", "data-name": c.name },
      el("strong", {}, c.name), " ", el("span", { class: "muted" }, c.url), " ", token,
      el("button", { type: "button", class: "use-camera", onclick: () => useCamera(c.name, token.value, error) }, t("camera.use")));
  })));
}

function showCameraError(error, message) {
  error.textContent = message;
  error.hidden = !message;
}

async function useCamera(name, token, error) {
  showCameraError(error, "");
  try {
    state.camera = await write("POST", "/api/camera/source", { name, token });
  } catch (e) { showCameraError(error, explain(e)); return; }
  document.getElementById("camera-dialog").close();
  toast(t("camera.switched", { name }));
  rerenderCamera();
}

// A Borne camera agent's own status (borne-cam's /status, fetched by `borne run`): frames, temperature, throttling.
function agentLine(agent) {
  if (!agent.reachable) return t("camera.agent_unreachable", { error: agent.error || "" });
  const up = agent.uptime_s >= 3600 ? `${fmtDecimal(agent.uptime_s / 3600)} h`
    : agent.uptime_s >= 60 ? `${Math.round(agent.uptime_s / 60)} min` : `${Math.round(agent.uptime_s)} s`;
  const bits = [t("camera.agent", { frames: fmt(agent.frames), dropped: fmt(agent.dropped), uptime: up })];
  if (agent.camera !== "ok") bits.push(t("camera.agent_lost"));
  if (agent.temperature_c != null) bits.push(t("camera.agent_temp", { c: fmtDecimal(agent.temperature_c) }));
  if (agent.throttled_flags && agent.throttled_flags.length) bits.push(t("camera.agent_throttled", { flags: agent.throttled_flags.join(", ") }));
  return bits.join(" · ");
}

function liveHand(hand) {
  const pending = hand.pending;
  const goal = hand.extension_called_by ? 1000 : hand.goal;
  // Number the camera's hand as the hand it will be in the game on screen, not the camera's own count.
  const n = state.game ? state.game.hands.length + 1 : (pending ? pending.number : hand.hand);
  let head;
  if (pending) head = t("camera.pending", { n });
  else if (hand.phase === "in_play") head = t("camera.hand_live", { n });
  else if (hand.phase === "finished") head = t("camera.hand_done", { n: hand.hand });
  else head = t("camera.hand_waiting");
  const sides = hand.sides.map((s, i) => {
    const counts = DISTANCE_VALUES.filter((km) => (s.distance[String(km)] || 0) > 0)
      .map((km) => `${km}×${s.distance[String(km)]}`);
    const safeties = Object.entries(s.safeties).map(([id, how]) => t(`cards.${id}`) + (how === "coup_fourre" ? " ⟂" : ""));
    const score = pending && pending.score ? pending.score.sides.find((x) => x.side === s.side) : null;
    const low = s.confidence < 0.7;
    return el("article", { class: "live-side", "data-side": s.side, style: `--side:${sideColour(s.side, i)}` },
      el("h3", {}, s.side),
      el("p", { class: "live-km" }, t("camera.km_of", { km: fmt(s.km), goal: fmt(goal) })),
      el("p", { class: "live-cards" }, counts.length ? counts.join("  ") : t("camera.none")),
      safeties.length ? el("p", { class: "live-safeties" }, safeties.join(", ")) : null,
      el("p", { class: `confidence${low ? " low" : ""}` }, t("camera.confidence", { percent: Math.round(s.confidence * 100) })),
      score ? el("p", { class: "pending-points", "data-points": score.total }, t("camera.hand_points", { points: fmt(score.total) })) : null);
  });
  const flags = hand.flags.length ? el("div", { class: "flags", id: "camera-flags", role: "alert" },
    el("h4", {}, t("camera.flags")),
    flagList(hand.flags)) : null;
  // A hand the cleared table put into the game while the camera still had doubts: ask for a look at the pad.
  const doubt = hand.in_doubt && !pending ? el("div", { class: "flags", id: "camera-in-doubt", role: "alert" },
    el("h4", {}, t("camera.in_doubt", { n: state.game ? state.game.hands.length : hand.in_doubt.number })),
    flagList(hand.in_doubt.flags),
    el("p", { class: "help" }, t("camera.in_doubt_help"))) : null;
  let pendingBox = null;
  if (pending) {
    pendingBox = el("div", { class: "pending", id: "pending-hand" },
      pending.score && pending.score.winner ? el("p", { class: "pending-winner" }, t("camera.hand_winner", { side: pending.score.winner })) : null,
      pending.problem ? el("p", { class: "error" }, t("camera.problem", { message: pending.problem })) : null,
      pending.ask_extension ? el("p", { class: "warning", id: "ask-extension" }, t("camera.ask_extension", { side: pending.ask_extension })) : null,
      pending.corrected ? el("p", { class: "muted" }, t("camera.corrected")) : null,
      el("p", { class: "help" }, t("camera.pending_help")),
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary big", id: "confirm-hand", onclick: confirmCameraHand }, t("camera.confirm")),
        el("button", { type: "button", class: "secondary", id: "correct-hand", onclick: () => correctCameraHand(pending.record, pending.number) }, t("camera.correct"))));
  }
  const fix = !pending && hand.phase === "in_play" ? el("button", { type: "button", class: "secondary", id: "correct-live",
    onclick: () => correctCameraHand(liveRecord(hand), hand.hand) }, t("camera.correct_live")) : null;
  return el("div", { class: `live-hand${pending ? " is-pending" : ""}`, id: "live-hand", "data-phase": hand.phase },
    el("h3", { class: "live-title" }, head),
    el("div", { class: "live-sides", style: `--sides:${hand.sides.length}` }, sides),
    doubt, flags, pendingBox, fix);
}

function flagList(flags) {
  return el("ul", {}, flags.map((f) => el("li", {}, f.side ? t("camera.flag", { side: f.side, message: f.message }) : f.message)));
}

function sideColour(name, fallback) {
  const i = state.game ? state.game.sides.findIndex((s) => s.name === name) : -1;
  return COLOURS[(i >= 0 ? i : fallback) % COLOURS.length];
}

function liveRecord(hand) {
  return { goal: hand.goal, draw_pile_empty_at_finish: hand.draw_pile === false, extension_called_by: hand.extension_called_by,
    sides: hand.sides.map((s) => ({ side: s.side, distance: s.distance, safeties: s.safeties })) };
}

async function confirmCameraHand() {
  const n = state.liveHand && state.liveHand.pending && state.liveHand.pending.number;
  try {
    onLiveHand(await write("POST", "/api/camera/hand/confirm"));
    toast(t("camera.confirmed", { n }));
    refresh();
  } catch (e) { toast(explain(e)); }
}

function correctCameraHand(record, number) {
  const sides = record.sides.map((s) => ({ name: s.side, players: [] }));
  const doc = { id: null, sides, goal: null, extension: record.goal === 700, hands: [] };
  state.entry = { gameId: null, number: null, camera: number, doc, revision: null, record: copyRecord(record), serverErrors: [] };
  const dialog = document.getElementById("hand-dialog");
  renderEntry();
  if (!dialog.open) dialog.showModal();
  dialog.querySelector("#save-hand")?.focus();
}

// ---------------------------------------------------------------------------- the zone editor
// The zones are drawn over the latest picture in an SVG whose units are the camera's own pixels
// (viewBox = the frame's size), so what is saved is in image pixels whatever the size on screen.

const ZONE_DOT_PX = 9;       // a corner's dot, in CSS pixels
const ZONE_GRIP_PX = 22;     // the invisible grip around it, for fingers
const ZONE_KEY_STEP = 0.01;  // arrow keys move a focused corner by this share of the picture (Shift: five times)
const ARROWS = ["→", "↘", "↓", "↙", "←", "↖", "↑", "↗"];
// The colours the camera picture draws the zones in (vision/drawing.py ZONE_COLOURS, there as BGR), so the
// zones being edited match the lines already on the picture.
const ZONE_COLOURS = ["#00aaff", "#ffc800", "#ff00b4", "#78dc00", "#5050ff", "#ff7878"];
const zoneColour = (i) => ZONE_COLOURS[i % ZONE_COLOURS.length];

async function openZoneEditor() {
  let view;
  try { view = await api("GET", "/api/camera/layout"); } catch (e) { toast(explain(e)); return; }
  if (!view.frame_size) { toast(t("zones.no_picture")); return; }
  state.zones = { view, sides: copyZones(view.layout), drag: null, error: "" };
  const dialog = document.getElementById("zone-dialog");
  renderZoneEditor();
  dialog.showModal();
  drawZones();
  dialog.querySelector("#zone-save")?.focus();
}

function copyZones(layout) {
  return layout.sides.map((s) => ({ side: s.side, zone: s.zone.map(([x, y]) => [x, y]), up: s.up ? [...s.up] : null }));
}

// The default zones, each side keeping its place in the list (and so its colour on the picture).
function useDefaultZones() {
  const z = state.zones;
  const fresh = copyZones(z.view.default);
  z.sides = z.sides.map((s) => fresh.find((d) => d.side === s.side) || s);
  showZoneError("");
  drawZones();
}

function closeZoneEditor() {
  state.zones = null;
  const dialog = document.getElementById("zone-dialog");
  if (dialog.open) dialog.close();
}

function renderZoneEditor() {
  const z = state.zones;
  const { width: W, height: H } = z.view.frame_size;
  const picture = el("img", { id: "zone-picture", alt: t("zones.picture"), src: `/api/camera/frame.jpg?t=${Date.now()}`, draggable: "false" });
  const drawing = svg("svg", { id: "zone-svg", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", "data-width": W, "data-height": H });
  drawing.addEventListener("pointerdown", zonePointerDown);
  drawing.addEventListener("pointermove", zonePointerMove);
  drawing.addEventListener("pointerup", zonePointerUp);
  drawing.addEventListener("pointercancel", zonePointerUp);
  drawing.addEventListener("keydown", zoneKey);
  const stage = el("div", { class: "zone-stage", id: "zone-stage" }, picture, drawing);
  const frame = el("div", { class: "zone-frame", style: `--ratio:${W} / ${H}` }, stage);
  new ResizeObserver(() => { if (state.zones) drawZones(); }).observe(stage);
  const origin = t(`zones.origin_${z.view.origin}`, { table: z.view.table });
  const form = el("form", { method: "dialog", class: "zone-editor", id: "zone-form", novalidate: true },
    el("div", { class: "entry-head" },
      el("h2", { id: "zone-title" }, t("zones.title")),
      el("button", { type: "button", class: "icon", "aria-label": t("zones.cancel"), onclick: closeZoneEditor }, "×")),
    el("p", { class: "help" }, t("zones.help"), " ", el("span", { id: "zone-origin", "data-origin": z.view.origin }, origin), " ",
      el("span", { class: "zone-size" }, t("zones.size", { width: W, height: H }))),
    frame,
    el("ul", { class: "zone-sides", id: "zone-sides" }),
    el("div", { class: "buttons" },
      el("p", { class: "error", id: "zone-error", role: "alert" }, z.error),
      z.view.saved ? el("button", { type: "button", class: "danger", id: "zone-forget", onclick: forgetZones }, t("zones.forget")) : null,
      el("button", { type: "button", class: "secondary", id: "zone-default", disabled: z.view.default ? null : true,
        onclick: useDefaultZones }, t("zones.default")),
      el("button", { type: "button", class: "secondary", id: "zone-cancel", onclick: closeZoneEditor }, t("zones.cancel")),
      el("button", { type: "submit", class: "primary big", id: "zone-save" }, t("zones.save"))));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); saveZones(); });
  document.getElementById("zone-dialog").replaceChildren(form);
}

function showZoneError(message) {
  if (state.zones) state.zones.error = message;
  const box = document.getElementById("zone-error");
  if (box) box.textContent = message;
}

function upArrow(up) {
  if (!up) return t("zones.up_inferred");
  const turn = Math.round(Math.atan2(up[1], up[0]) / (Math.PI / 4));
  return t("zones.up", { arrow: ARROWS[((turn % 8) + 8) % 8] });
}

// Redraw the zones (and the list of sides) from state.zones; the SVG element itself stays, so a drag goes on.
function drawZones() {
  const z = state.zones;
  const drawing = document.getElementById("zone-svg");
  if (!z || !drawing) return;
  const W = z.view.frame_size.width, H = z.view.frame_size.height;
  const shown = drawing.getBoundingClientRect().width;
  const unit = shown > 0 ? W / shown : W / 800;  // image pixels per CSS pixel
  const focused = document.activeElement && drawing.contains(document.activeElement) ? document.activeElement.id : null;
  const areas = [], marks = [], corners = [];
  z.sides.forEach((s, i) => {
    const colour = zoneColour(i);
    const points = s.zone.map(([x, y]) => `${x},${y}`).join(" ");
    areas.push(svg("polygon", { class: "zone-area", points, fill: colour, stroke: colour, "data-drag": "zone", "data-side": i,
      "data-name": s.side, id: `zone-area-${i}` }, svg("title", {}, t("zones.area", { side: s.side }))));
    const cx = s.zone.reduce((a, p) => a + p[0], 0) / s.zone.length;
    const cy = s.zone.reduce((a, p) => a + p[1], 0) / s.zone.length;
    const up = s.up || [0, 0];
    const font = 17 * unit;
    marks.push(svg("text", { class: "zone-label", x: cx - up[0] * font, y: cy - up[1] * font, "text-anchor": "middle",
      "dominant-baseline": "central", "font-size": font, "stroke-width": 4 * unit }, s.side));
    if (s.up) {
      const length = Math.min(W, H) * 0.13, head = 11 * unit;
      const start = [cx + up[0] * font * 0.6, cy + up[1] * font * 0.6];
      const tip = [start[0] + up[0] * length, start[1] + up[1] * length];
      const back = [tip[0] - up[0] * head * 1.6, tip[1] - up[1] * head * 1.6];
      const side = [-up[1] * head, up[0] * head];
      marks.push(svg("g", { class: "zone-arrow", "data-side": i, "data-up": s.up.join(",") },
        svg("line", { x1: start[0], y1: start[1], x2: back[0], y2: back[1], stroke: colour, "stroke-width": 5 * unit }),
        svg("polygon", { points: `${tip[0]},${tip[1]} ${back[0] + side[0]},${back[1] + side[1]} ${back[0] - side[0]},${back[1] - side[1]}`,
          fill: colour })));
    }
    s.zone.forEach(([x, y], k) => {
      corners.push(svg("g", { class: "zone-corner", id: `zone-corner-${i}-${k}`, tabindex: 0, role: "button", "data-drag": "corner",
        "data-side": i, "data-corner": k, "data-x": Math.round(x), "data-y": Math.round(y),
        "aria-label": t("zones.corner", { side: s.side, n: k + 1, x: Math.round(x), y: Math.round(y) }) },
      svg("circle", { class: "zone-grip", cx: x, cy: y, r: ZONE_GRIP_PX * unit }),
      svg("circle", { class: "zone-dot", cx: x, cy: y, r: ZONE_DOT_PX * unit, fill: colour, "stroke-width": 2.5 * unit })));
    });
  });
  drawing.replaceChildren(...areas, ...marks, ...corners);
  if (focused) document.getElementById(focused)?.focus();
  const list = document.getElementById("zone-sides");
  list.replaceChildren(...z.sides.map((s, i) => el("li", { class: "zone-side", style: `--side:${zoneColour(i)}`, "data-side": s.side },
    el("span", { class: "zone-name" }, s.side),
    el("span", { class: "muted zone-up", id: `zone-up-${i}` }, upArrow(s.up)),
    el("button", { type: "button", class: "secondary zone-turn", id: `zone-turn-${i}`, "aria-label": t("zones.turn", { side: s.side }),
      onclick: () => { s.up = s.up ? [-s.up[1], s.up[0]] : [0, -1]; drawZones(); } }, `↻ ${t("zones.turn_short")}`))));
}

function zonePoint(ev) {
  const z = state.zones;
  const rect = document.getElementById("zone-svg").getBoundingClientRect();
  const W = z.view.frame_size.width, H = z.view.frame_size.height;
  return [(ev.clientX - rect.left) / rect.width * W, (ev.clientY - rect.top) / rect.height * H];
}

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

function zonePointerDown(ev) {
  const z = state.zones;
  const target = ev.target.closest("[data-drag]");
  if (!z || !target || (ev.pointerType === "mouse" && ev.button !== 0)) return;
  ev.preventDefault();
  const side = Number(target.dataset.side);
  z.drag = { pointer: ev.pointerId, kind: target.dataset.drag, side, corner: Number(target.dataset.corner),
    start: zonePoint(ev), zone: z.sides[side].zone.map((p) => [...p]) };
  ev.currentTarget.setPointerCapture(ev.pointerId);
  if (target.dataset.drag === "corner") target.focus();
}

function zonePointerMove(ev) {
  const z = state.zones;
  if (!z || !z.drag || z.drag.pointer !== ev.pointerId) return;
  ev.preventDefault();
  const W = z.view.frame_size.width, H = z.view.frame_size.height;
  const [x, y] = zonePoint(ev);
  const d = z.drag;
  const zone = z.sides[d.side].zone;
  if (d.kind === "corner") {
    zone[d.corner] = [clamp(x, 0, W), clamp(y, 0, H)];
  } else {  // the whole zone, kept inside the picture
    const xs = d.zone.map((p) => p[0]), ys = d.zone.map((p) => p[1]);
    const dx = clamp(x - d.start[0], -Math.min(...xs), W - Math.max(...xs));
    const dy = clamp(y - d.start[1], -Math.min(...ys), H - Math.max(...ys));
    z.sides[d.side].zone = d.zone.map(([px, py]) => [px + dx, py + dy]);
  }
  drawZones();
}

function zonePointerUp(ev) {
  const z = state.zones;
  if (!z || !z.drag || z.drag.pointer !== ev.pointerId) return;
  z.drag = null;
  drawZones();
}

function zoneKey(ev) {
  const z = state.zones;
  const target = ev.target.closest("[data-drag=corner]");
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (!z || !target || !moves[ev.key]) return;
  ev.preventDefault();
  const W = z.view.frame_size.width, H = z.view.frame_size.height;
  const step = Math.max(1, Math.round(Math.max(W, H) * ZONE_KEY_STEP)) * (ev.shiftKey ? 5 : 1);
  const [mx, my] = moves[ev.key];
  const zone = z.sides[Number(target.dataset.side)].zone;
  const k = Number(target.dataset.corner);
  zone[k] = [clamp(zone[k][0] + mx * step, 0, W), clamp(zone[k][1] + my * step, 0, H)];
  drawZones();
}

function zonesBody() {
  const round = (v) => Math.round(v * 100) / 100;
  return { sides: state.zones.sides.map((s) => ({ side: s.side, zone: s.zone.map(([x, y]) => [round(x), round(y)]),
    ...(s.up ? { up: s.up } : {}) })) };
}

// Where a refusal points, in words: "North — zone" for loc ["body", "sides", 0, "zone"].
function zoneWhere(detail) {
  const loc = (detail.loc || []).slice(1);
  if (loc[0] === "sides" && typeof loc[1] === "number" && state.zones.sides[loc[1]]) {
    return [state.zones.sides[loc[1]].side, ...loc.slice(2).filter((p) => typeof p !== "number")].join(" — ");
  }
  return detail.field || loc.join(".");
}

async function saveZones() {
  const z = state.zones;
  if (!z) return;
  showZoneError("");
  try {
    const view = await write("PUT", "/api/camera/layout", zonesBody());
    closeZoneEditor();
    toast(t("zones.saved", { table: view.table }));
  } catch (e) {
    if (e.status === 422 && e.body && Array.isArray(e.body.detail) && e.body.detail.length) {
      showZoneError(e.body.detail.map((d) => t("zones.refused", { where: zoneWhere(d), message: d.msg })).join(" "));
    } else {
      showZoneError(explain(e));
    }
  }
}

async function forgetZones() {
  const z = state.zones;
  if (!z || !confirm(t("zones.confirm_forget", { table: z.view.table }))) return;
  try {
    await write("DELETE", "/api/camera/layout");
    closeZoneEditor();
    toast(t("zones.forgotten"));
  } catch (e) { showZoneError(explain(e)); }
}

// ---------------------------------------------------------------------------- hand entry and correction

function blankHand(doc) {
  return {
    goal: doc.goal || 1000, draw_pile_empty_at_finish: false, extension_called_by: null,
    sides: doc.sides.map((s) => ({ side: s.name, distance: { 25: 0, 50: 0, 75: 0, 100: 0, 200: 0 }, safeties: {} })),
  };
}

function copyRecord(record) {
  return {
    goal: record.goal, draw_pile_empty_at_finish: record.draw_pile_empty_at_finish, extension_called_by: record.extension_called_by,
    sides: record.sides.map((s) => ({ side: s.side, safeties: { ...s.safeties },
      distance: Object.fromEntries(DISTANCE_VALUES.map((km) => [km, s.distance[String(km)] || 0])) })),
  };
}

function openEntry(number) {
  const doc = state.game;
  if (!doc) return;
  const hand = number ? doc.hands[number - 1] : null;
  state.entry = { gameId: doc.id, number, revision: doc.revision, record: hand ? copyRecord(hand.record) : blankHand(doc),
    serverErrors: [] };
  const dialog = document.getElementById("hand-dialog");
  renderEntry();
  if (!dialog.open) dialog.showModal();
  dialog.querySelector("button.plus")?.focus();
}

const kmOf = (side) => DISTANCE_VALUES.reduce((sum, km) => sum + km * side.distance[km], 0);
const effectiveGoal = (record) => (record.extension_called_by ? 1000 : record.goal);

// The core's checks (scoring/hand.py validate, scoring/game.py check_hand), so errors show before sending.
function validate(record, doc) {
  const errors = [];
  const add = (side, field, msg) => errors.push({ side, field, msg });
  const goal = effectiveGoal(record);
  const table = { 25: 0, 50: 0, 75: 0, 100: 0, 200: 0 };
  const owner = {};
  record.sides.forEach((s) => {
    for (const km of DISTANCE_VALUES) {
      const count = s.distance[km];
      if (count < 0) add(s.side, `distance.${km}`, t("entry.err_negative"));
      table[km] += count;
      if (table[km] > DECK[km]) add(s.side, `distance.${km}`, t("entry.err_deck", { count: DECK[km], km, n: table[km] }));
    }
    if (s.distance[200] > MAX_200S) add(s.side, "distance.200", t("entry.err_200s"));
    const km = kmOf(s);
    if (km > goal) add(s.side, "distance", t("entry.err_past_goal", { km: fmt(km), goal: fmt(goal) }));
    for (const safety of Object.keys(s.safeties)) {
      if (owner[safety]) add(s.side, `safeties.${safety}`, t("entry.err_safety_twice", { side: owner[safety] }));
      else owner[safety] = s.side;
    }
  });
  const completers = record.sides.filter((s) => kmOf(s) === goal);
  if (completers.length > 1) add(completers[1].side, "distance", t("entry.err_two_completers", { side: completers[0].side }));
  if (record.extension_called_by) {
    const caller = record.sides.find((s) => s.side === record.extension_called_by);
    if (caller && kmOf(caller) < 700) add(caller.side, "extension_called_by", t("entry.err_extension_km", { km: fmt(kmOf(caller)) }));
  }
  return errors;
}

function renderEntry() {
  const entry = state.entry;
  const doc = entry.doc || state.game;
  const record = entry.record;
  const dialog = document.getElementById("hand-dialog");
  const errors = validate(record, doc);
  const all = [...errors, ...entry.serverErrors];
  const errorFor = (side, field) => all.filter((e) => e.side === side && e.field === field).map((e) => e.msg).join(" ");
  const goal = effectiveGoal(record);
  const rerender = () => { entry.serverErrors = []; const focus = document.activeElement?.id; renderEntry(); if (focus) document.getElementById(focus)?.focus(); };
  const slug = (name) => name.replace(/[^A-Za-z0-9]+/g, "_");

  const sides = record.sides.map((s, si) => {
    const km = kmOf(s);
    const id = `s${si}`;
    const kmError = errorFor(s.side, "distance");
    const counters = DISTANCE_VALUES.map((value) => {
      const msg = errorFor(s.side, `distance.${value}`);
      return el("div", { class: `counter${msg ? " invalid" : ""}`, "data-km": value },
        el("span", { class: "value" }, t("entry.card", { km: value })),
        el("button", { type: "button", class: "minus", id: `${id}-minus-${value}`, "aria-label": t("entry.remove", { km: value, side: s.side }),
          disabled: s.distance[value] === 0 ? true : null, onclick: () => { s.distance[value] -= 1; rerender(); } }, "−"),
        el("output", { class: "count", id: `${id}-count-${value}`, "aria-live": "polite" }, s.distance[value]),
        el("button", { type: "button", class: "plus", id: `${id}-plus-${value}`, "aria-label": t("entry.add", { km: value, side: s.side }),
          disabled: s.distance[value] >= DECK[value] ? true : null, onclick: () => { s.distance[value] += 1; rerender(); } }, "+"),
        msg ? el("p", { class: "field-error", role: "alert" }, msg) : null);
    });
    const safeties = SAFETIES.map((safety) => {
      const msg = errorFor(s.side, `safeties.${safety}`);
      const current = s.safeties[safety] || "none";
      return el("fieldset", { class: `safety${msg ? " invalid" : ""}`, "data-safety": safety },
        el("legend", {}, t(`cards.${safety}`)),
        el("div", { class: "segmented" }, ["none", "played", "coup_fourre"].map((how) => el("label", { for: `${id}-${safety}-${how}` },
          el("input", { type: "radio", name: `${id}-${safety}`, value: how, id: `${id}-${safety}-${how}`, checked: current === how ? true : null,
            onchange: () => { if (how === "none") delete s.safeties[safety]; else s.safeties[safety] = how; rerender(); } }),
          t(`entry.${how}`)))),
        msg ? el("p", { class: "field-error", role: "alert" }, msg) : null);
    });
    const extMsg = errorFor(s.side, "extension_called_by");
    return el("section", { class: "entry-side", "data-side": s.side, id: `entry-${slug(s.side)}`, style: `--side:${COLOURS[si % COLOURS.length]}` },
      el("h3", {}, s.side),
      el("p", { class: `km${kmError ? " invalid" : ""}${km === goal ? " complete" : ""}`, id: `${id}-km` },
        t("entry.km_of", { km: fmt(km), goal: fmt(goal) }), km === goal ? ` ✓ ${t("entry.completes")}` : ""),
      kmError ? el("p", { class: "field-error", role: "alert" }, kmError) : null,
      el("div", { class: "counters", role: "group", "aria-label": `${t("entry.distance")} — ${s.side}` }, counters),
      el("h4", {}, t("entry.safeties")), safeties,
      extMsg ? el("p", { class: "field-error", role: "alert" }, extMsg) : null);
  });

  const general = all.filter((e) => !e.side || !record.sides.some((s) => s.side === e.side));
  const goalControl = doc.goal ? null : el("label", {}, t("entry.goal"), " ",
    el("select", { id: "entry-goal", onchange: (ev) => { record.goal = Number(ev.target.value); if (record.goal !== 700) record.extension_called_by = null; rerender(); } },
      [700, 1000].map((g) => el("option", { value: g, selected: record.goal === g ? true : null }, t("setup.goal_km", { km: fmt(g) })))));
  const extensionControl = (doc.extension || (!doc.goal && record.goal === 700)) ? el("label", {}, t("entry.extension_caller"), " ",
    el("select", { id: "entry-extension", onchange: (ev) => { record.extension_called_by = ev.target.value || null; rerender(); } },
      el("option", { value: "" }, t("entry.nobody")),
      record.sides.map((s) => el("option", { value: s.side, selected: record.extension_called_by === s.side ? true : null }, s.side)))) : null;
  const blocked = errors.length > 0;

  const form = el("form", { method: "dialog", class: "entry", id: "entry-form", novalidate: true },
    el("div", { class: "entry-head" },
      el("h2", { id: "hand-title" }, entry.camera ? t("camera.correct_title", { n: entry.camera })
        : entry.number ? t("entry.edit_title", { n: entry.number }) : t("entry.new_title", { n: doc.hands.length + 1 })),
      el("button", { type: "button", class: "icon", "aria-label": t("entry.cancel"), onclick: closeEntry }, "×")),
    el("div", { class: "entry-hand" }, goalControl, extensionControl,
      el("label", { class: "check" }, el("input", { type: "checkbox", id: "draw-pile-empty", checked: record.draw_pile_empty_at_finish ? true : null,
        onchange: (ev) => { record.draw_pile_empty_at_finish = ev.target.checked; rerender(); } }), t("entry.draw_pile_empty"))),
    el("div", { class: "entry-sides", style: `--sides:${record.sides.length}` }, sides),
    el("p", { class: "error", id: "entry-error", role: "alert" }, general.map((e) => e.msg).join(" ") || (blocked ? t("entry.fix_first") : "")),
    el("div", { class: "buttons" },
      entry.number ? el("button", { type: "button", class: "danger", id: "delete-hand", onclick: deleteHand }, t("entry.delete")) : null,
      el("button", { type: "button", class: "secondary", onclick: closeEntry }, t("entry.cancel")),
      el("button", { type: "submit", class: "primary big", id: "save-hand", disabled: blocked ? true : null },
        entry.number ? t("entry.save_fix") : t("entry.save"))));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); saveEntry(); });
  dialog.replaceChildren(form);
}

function closeEntry() {
  state.entry = null;
  document.getElementById("hand-dialog").close();
}

function toRecord(record) {
  return {
    goal: record.goal, draw_pile_empty_at_finish: record.draw_pile_empty_at_finish, extension_called_by: record.extension_called_by,
    sides: record.sides.map((s) => ({ side: s.side,
      distance: Object.fromEntries(DISTANCE_VALUES.map((km) => [String(km), s.distance[km]])), safeties: { ...s.safeties } })),
  };
}

async function saveEntry() {
  const entry = state.entry;
  if (validate(entry.record, entry.doc || state.game).length) return;
  const path = entry.number ? `/api/games/${entry.gameId}/hands/${entry.number}` : `/api/games/${entry.gameId}/hands`;
  entry.key = entry.key || newIdempotencyKey();  // one per entry: Save pressed again after a lost answer is a retry
  try {
    if (entry.camera) {
      onLiveHand(await write("POST", "/api/camera/hand/correct", toRecord(entry.record), { idempotencyKey: entry.key }));
      closeEntry();
      refresh();
      return;
    }
    await write(entry.number ? "PUT" : "POST", path, toRecord(entry.record), { revision: entry.revision, idempotencyKey: entry.key });
    closeEntry();
    showGame(await api("GET", `/api/games/${entry.gameId}`));
  } catch (e) {
    if (e.status === 422 && e.body && Array.isArray(e.body.detail)) {
      entry.serverErrors = e.body.detail.map((d) => ({ side: d.side || null, field: d.field || (d.loc || []).slice(1).join("."), msg: d.msg }));
      renderEntry();
    } else {
      renderEntry();
      document.getElementById("entry-error").textContent = explain(e);
      if (e.status === 409) {
        const fresh = await api("GET", `/api/games/${entry.gameId}`).catch(() => null);
        if (fresh) { entry.revision = fresh.revision; showGame(fresh); }
      }
    }
  }
}

async function deleteHand() {
  const entry = state.entry;
  if (!confirm(t("entry.confirm_delete", { n: entry.number }))) return;
  try {
    const doc = await write("DELETE", `/api/games/${entry.gameId}/hands/${entry.number}`, undefined, { revision: entry.revision });
    closeEntry();
    showGame(doc);
  } catch (e) {
    document.getElementById("entry-error").textContent = explain(e);
  }
}

window.addEventListener("popstate", () => location.reload());
document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("hand-dialog").addEventListener("close", () => { state.entry = null; });
  document.getElementById("zone-dialog").addEventListener("close", () => { state.zones = null; });
});
document.addEventListener("DOMContentLoaded", () => { start().catch((e) => toast(String(e))); });
