// Hand entry and correction, checked as the core checks a hand before anything is sent.

import { fmt, t } from "./i18n.js";
import { DECK, DISTANCE_VALUES, MAX_200S, SAFETIES } from "./rules.js";
import { COLOURS, state } from "./state.js";
import { el } from "./dom.js";
import { api, explain, newIdempotencyKey, write } from "./api.js";
import { refresh } from "./events.js";
import { showGame } from "./display.js";
import { onLiveHand } from "./camera.js";

// ---------------------------------------------------------------------------- hand entry and correction

export function blankHand(doc) {
  return {
    goal: doc.goal || 1000, draw_pile_empty_at_finish: false, extension_called_by: null,
    sides: doc.sides.map((s) => ({ side: s.name, distance: { 25: 0, 50: 0, 75: 0, 100: 0, 200: 0 }, safeties: {} })),
  };
}

export function copyRecord(record) {
  return {
    goal: record.goal, draw_pile_empty_at_finish: record.draw_pile_empty_at_finish, extension_called_by: record.extension_called_by,
    sides: record.sides.map((s) => ({ side: s.side, safeties: { ...s.safeties },
      distance: Object.fromEntries(DISTANCE_VALUES.map((km) => [km, s.distance[String(km)] || 0])) })),
  };
}

// number: the hand to fix (null: a new hand); preset: the record to start from (a photo's count); camera: the
// camera's hand this corrects (saved through /api/camera/hand/correct).
export function openEntry(number, preset = null, camera = null) {
  const doc = state.game;
  if (!doc) return;
  const hand = number ? doc.hands[number - 1] : null;
  const record = preset || (hand && hand.record);
  state.entry = { gameId: doc.id, number, camera, revision: doc.revision, record: record ? copyRecord(record) : blankHand(doc),
    serverErrors: [] };
  const dialog = document.getElementById("hand-dialog");
  renderEntry();
  if (!dialog.open) dialog.showModal();
  dialog.querySelector("button.plus")?.focus();
}

export const kmOf = (side) => DISTANCE_VALUES.reduce((sum, km) => sum + km * side.distance[km], 0);
export const effectiveGoal = (record) => (record.extension_called_by ? 1000 : record.goal);

// The core's checks (scoring/hand.py validate, scoring/game.py check_hand), so errors show before sending.
export function validate(record, doc) {
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

export function renderEntry() {
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

export function closeEntry() {
  state.entry = null;
  document.getElementById("hand-dialog").close();
}

export function toRecord(record) {
  return {
    goal: record.goal, draw_pile_empty_at_finish: record.draw_pile_empty_at_finish, extension_called_by: record.extension_called_by,
    sides: record.sides.map((s) => ({ side: s.side,
      distance: Object.fromEntries(DISTANCE_VALUES.map((km) => [String(km), s.distance[km]])), safeties: { ...s.safeties } })),
  };
}

export async function saveEntry() {
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

export async function deleteHand() {
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
