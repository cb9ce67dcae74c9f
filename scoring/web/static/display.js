// The live display: totals, race chart, score pad, the games list.

import { fmt, i18n, t } from "./i18n.js";
import { ITEMS } from "./rules.js";
import { COLOURS, state } from "./state.js";
import { el, nodes, svg, toast } from "./dom.js";
import { api, explain, write } from "./api.js";
import { refresh } from "./events.js";
import { cameraPanel, livePanel } from "./camera.js";
import { openEntry } from "./entry.js";
import { photoButton } from "./photo.js";

// ---------------------------------------------------------------------------- live display

export function showGame(doc) {
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

export function sidesTitle(doc) { return doc.sides.map((s) => s.name).join(" · "); }

export function renderGameView() {
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

export function header(doc) {
  const bits = [doc.rules, t("display.target", { target: fmt(doc.target) }),
    doc.goal ? t("display.goal", { goal: fmt(doc.goal) }) : t("display.goal_each")];
  if (doc.extension) bits.push(t("display.extension"));
  return el("div", { class: "game-head" },
    el("h1", {}, doc.name || sidesTitle(doc)),
    el("p", { class: "muted" }, `#${doc.id} · ${bits.join(" · ")}`));
}

export function scoreCards(doc) {
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

export function winnerBanner(doc) {
  if (!doc.winner) return null;
  return el("div", { class: "banner", id: "winner", role: "status" },
    el("p", { class: "wins" }, t("display.wins", { side: doc.winner })),
    el("p", {}, t("display.won_after", { n: doc.finished_after_hand, total: fmt(doc.totals[doc.winner]) })),
    el("button", { type: "button", class: "primary big", id: "next-game", onclick: nextGame }, t("display.next_game")));
}

export async function nextGame() {
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

export function actions(doc) {
  const n = doc.hands.length + 1;
  return el("div", { class: "actions" },
    doc.winner ? null : el("button", { type: "button", class: "primary big", id: "enter-hand", onclick: () => openEntry(null),
      "aria-keyshortcuts": "N" }, t("display.enter_hand", { n })),
    doc.winner ? null : photoButton(),
    el("button", { type: "button", class: "secondary", id: "undo", onclick: undo }, `↶ ${t("display.undo")}`),
    el("a", { class: "button secondary", id: "sheet-link", href: `/api/games/${doc.id}/sheet.pdf?lang=${i18n.language}`, target: "_blank" }, t("display.sheet")),
    el("a", { class: "button secondary", href: `/api/games/${doc.id}/export.csv?lang=${i18n.language}`, download: "" }, t("display.export_csv")),
    el("a", { class: "button secondary", href: `/api/games/${doc.id}/export.json`, download: "" }, t("display.export_json")));
}

export async function undo() {
  try {
    showGame(await write("POST", `/api/games/${state.game.id}/undo`, undefined, { revision: state.game.revision }));
  } catch (e) {
    toast(explain(e));
    if (e.status === 409) refresh();
  }
}

// ---- race chart

export function raceChart(doc) {
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

export function niceTicks(top) {
  const raw = top / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const stepSize = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = 0; v <= top + 1e-9; v += stepSize) out.push(Math.round(v));
  return out;
}

export function rerenderChart() {
  const card = document.querySelector(".chart-card");
  if (!card || !state.game) return;
  const hadFocus = document.activeElement && document.activeElement.id;
  card.replaceChildren(raceChart(state.game));
  if (hadFocus === "replay" || hadFocus === "chart-step") document.getElementById(hadFocus)?.focus();
}

export function replay() {
  const n = state.game.hands.length;
  state.chartStep = 0;
  state.replayTimer = setInterval(() => {
    if (state.chartStep >= n) { stopReplay(); return; }
    state.chartStep += 1;
    rerenderChart();
  }, 700);
  rerenderChart();
}

export function stopReplay(keep) {
  if (state.replayTimer !== null) clearInterval(state.replayTimer);
  state.replayTimer = null;
  if (!keep && state.game && state.chartStep === state.game.hands.length) state.chartStep = null;
  rerenderChart();
}

// ---- score pad

export function scorePad(doc) {
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

export function gamesList() {
  if (!state.games.length) return null;
  return el("section", { class: "card games", id: "games" }, el("h2", {}, t("display.earlier_games")),
    el("ul", {}, state.games.slice(0, 30).map((g) => el("li", { class: state.game && g.id === state.game.id ? "current" : "" },
      el("a", { href: `/games/${g.id}` }, `#${g.id} ${g.name || g.sides.join(" · ")}`),
      el("span", { class: "muted" }, ` ${g.sides.map((s) => fmt(g.totals[s] ?? 0)).join(" – ")} · `,
        g.winner ? t("display.winner", { side: g.winner }) : t("display.in_progress"))))));
}

export function renderGames() {
  const old = document.getElementById("games");
  const fresh = gamesList();
  if (old && fresh) old.replaceWith(fresh);
}
