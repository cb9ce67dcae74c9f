// The set-up page: a new game's sides or players, rules and goal.

import { fmt, i18n, t, tOr } from "./i18n.js";
import { COLOURS, state } from "./state.js";
import { el, nodes, toast } from "./dom.js";
import { api, explain, write } from "./api.js";

// ---------------------------------------------------------------------------- set-up page

export async function renderSetup() {
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
