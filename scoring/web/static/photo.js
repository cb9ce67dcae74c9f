// Score from a photo: the phone's own camera app takes it (full resolution, over plain HTTP on the LAN),
// POST /api/photos counts it, and the hand it proposes is shown over the photo — every card counted outlined
// in its side's colour, each side's count and points — for a one-tap confirm or a correction. Nothing is
// stored until it is confirmed. A photo does not say who sits where: each side found has a menu of the
// game's sides (choosing a name another side holds swaps the two).

import { fmt, t } from "./i18n.js";
import { DISTANCE_VALUES } from "./rules.js";
import { COLOURS, state } from "./state.js";
import { el, svg, toast } from "./dom.js";
import { api, explain, write } from "./api.js";
import { showGame } from "./display.js";
import { openEntry } from "./entry.js";
import { onLiveHand } from "./camera.js";

// The button and its file input. forCamera: the photo corrects the camera's pending hand instead of adding one.
export function photoButton({ forCamera = false } = {}) {
  const id = forCamera ? "camera-photo-input" : "photo-input";
  const input = el("input", { type: "file", accept: "image/*", capture: "environment", id, class: "sr-only",
    tabindex: "-1", "aria-hidden": "true", onchange: (ev) => { const file = ev.target.files[0]; ev.target.value = ""; if (file) countPhoto(file, forCamera); } });
  return el("span", { class: "photo-take" }, input,
    el("button", { type: "button", class: "secondary", id: forCamera ? "camera-score-photo" : "score-photo",
      onclick: () => input.click() }, `📷 ${t("photo.take")}`));
}

function photoDialog() {
  let dialog = document.getElementById("photo-dialog");
  if (!dialog) {
    dialog = el("dialog", { id: "photo-dialog", "aria-labelledby": "photo-title" });
    dialog.addEventListener("close", forgetPhoto);
    document.body.append(dialog);
  }
  return dialog;
}

function forgetPhoto() {
  if (state.photo && state.photo.url) URL.revokeObjectURL(state.photo.url);
  state.photo = null;
}

export async function countPhoto(file, forCamera) {
  const doc = state.game;
  if (!doc) return;
  const dialog = photoDialog();
  forgetPhoto();
  const url = URL.createObjectURL(file);
  dialog.replaceChildren(el("div", { class: "photo-counting" },
    el("h2", { id: "photo-title" }, t("photo.take")),
    el("p", { class: "muted", id: "photo-status", role: "status" }, t("photo.counting"))));
  if (!dialog.open) dialog.showModal();
  const form = new FormData();
  form.append("photo", file);
  form.append("game", String(doc.id));
  let counted;
  try {
    counted = await write("POST", "/api/photos", form, { idempotencyKey: null });
  } catch (e) {
    URL.revokeObjectURL(url);
    dialog.replaceChildren(el("div", { class: "photo-counting" },
      el("h2", { id: "photo-title" }, t("photo.take")),
      el("p", { class: "error", id: "photo-error", role: "alert" }, explain(e)),
      el("div", { class: "buttons" }, el("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, t("entry.cancel")))));
    return;
  }
  const proposal = counted.proposal;
  state.photo = { url, counted, proposal, forCamera, gameId: doc.id, revision: doc.revision,
    seats: { ...proposal.seats } };
  renderPhoto();
}

// The record with each side found under the name a person gave it (scores do not depend on the names).
export function photoRecord(photo) {
  const original = Object.fromEntries(photo.proposal.record.sides.map((s) => [s.side, s]));
  const bySide = {}, renamed = {};
  for (const [found, name] of Object.entries(photo.seats)) {
    bySide[name] = original[photo.proposal.seats[found]];
    renamed[photo.proposal.seats[found]] = name;
  }
  const caller = photo.proposal.record.extension_called_by;
  const empty = { distance: {}, safeties: {} };
  return { ...photo.proposal.record, extension_called_by: caller ? renamed[caller] || null : null,
    sides: state.game.sides.map((s) => ({ ...(bySide[s.name] || empty), side: s.name })) };
}

function seat(found, name) {
  const seats = state.photo.seats;
  const holder = Object.keys(seats).find((f) => seats[f] === name);
  if (holder) seats[holder] = seats[found];
  seats[found] = name;
  renderPhoto();
}

export function renderPhoto() {
  const photo = state.photo;
  const { counted, proposal } = photo;
  const names = state.game.sides.map((s) => s.name);
  const colourOf = (found) => COLOURS[Math.max(0, names.indexOf(photo.seats[found])) % COLOURS.length];
  const W = counted.width, H = counted.height;
  const outlines = counted.sides.flatMap((s) => s.cards.map((c) => svg("polygon", {
    class: "photo-card", "data-side": s.side, "data-card": c.card, points: c.corners.map(([x, y]) => `${x},${y}`).join(" "),
    stroke: colourOf(s.side), "stroke-width": Math.max(W, H) * 0.004, fill: "none" })));
  const picture = el("figure", { class: "photo-picture", "aria-label": t("photo.picture") },
    el("div", { class: "found-stage", style: `--ratio:${W} / ${H}` },
      el("img", { src: photo.url, alt: t("photo.picture"), id: "photo-image" }),
      svg("svg", { class: "found-zones", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", "aria-hidden": "true" }, ...outlines)));
  const score = proposal.score;
  const sides = counted.sides.map((s) => {
    const points = score ? score.sides.find((x) => x.side === proposal.seats[s.side]) : null;
    const km = DISTANCE_VALUES.reduce((sum, v) => sum + v * (s.distance[String(v)] || 0), 0);
    const counts = DISTANCE_VALUES.filter((v) => (s.distance[String(v)] || 0) > 0).map((v) => `${v}×${s.distance[String(v)]}`);
    const safeties = Object.entries(s.safeties).map(([id, how]) => t(`cards.${id}`) + (how === "coup_fourre" ? " ⟂" : ""));
    return el("article", { class: "live-side photo-side", "data-found": s.side, style: `--side:${colourOf(s.side)}` },
      el("label", {}, t("photo.sits"), " ",
        el("select", { class: "photo-seat", "data-found": s.side, onchange: (ev) => seat(s.side, ev.target.value) },
          names.map((n) => el("option", { value: n, selected: photo.seats[s.side] === n ? true : null }, n)))),
      el("p", { class: "live-km" }, t("camera.km_of", { km: fmt(km), goal: fmt(proposal.record.goal) })),
      el("p", { class: "live-cards" }, counts.length ? counts.join("  ") : t("photo.none")),
      safeties.length ? el("p", { class: "live-safeties" }, safeties.join(", ")) : null,
      el("p", { class: "muted" }, t("photo.cards", { n: s.cards.length })),
      points ? el("p", { class: "pending-points", "data-points": points.total }, t("camera.hand_points", { points: fmt(points.total) })) : null);
  });
  const n = state.game.hands.length + 1;
  photoDialog().replaceChildren(el("form", { method: "dialog", class: "photo-hand", id: "photo-hand" },
    el("div", { class: "entry-head" },
      el("h2", { id: "photo-title" }, t("photo.title", { n })),
      el("button", { type: "button", class: "icon", "aria-label": t("entry.cancel"), onclick: () => photoDialog().close() }, "×")),
    el("p", { class: "help" }, t("photo.help")),
    picture,
    el("div", { class: "live-sides", style: `--sides:${sides.length}` }, sides),
    el("p", { class: "muted", id: "photo-draw-pile" }, counted.draw_pile ? t("photo.draw_pile") : t("photo.no_draw_pile")),
    proposal.problem ? el("p", { class: "error", id: "photo-problem", role: "alert" }, t("photo.problem", { message: proposal.problem })) : null,
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "secondary", onclick: () => photoDialog().close() }, t("entry.cancel")),
      el("button", { type: "button", class: "secondary", id: "correct-photo", onclick: correctPhoto }, t("camera.correct")),
      el("button", { type: "button", class: "primary big", id: "confirm-photo", disabled: proposal.problem ? true : null,
        onclick: confirmPhoto }, t("camera.confirm")))));
}

export async function confirmPhoto() {
  const photo = state.photo;
  const record = photoRecord(photo);
  const n = state.game.hands.length + 1;
  try {
    if (photo.forCamera) onLiveHand(await write("POST", "/api/camera/hand/correct", record));
    else await write("POST", `/api/games/${photo.gameId}/hands`, record, { revision: photo.revision });
  } catch (e) {
    const box = document.getElementById("photo-problem") || el("p", { class: "error", id: "photo-problem", role: "alert" });
    box.textContent = explain(e);
    document.getElementById("photo-hand").querySelector(".buttons").before(box);
    return;
  }
  photoDialog().close();
  toast(t("photo.added", { n }));
  showGame(await api("GET", `/api/games/${photo.gameId}`));
}

export function correctPhoto() {
  const photo = state.photo;
  const record = photoRecord(photo);
  photoDialog().close();
  openEntry(null, record, photo.forCamera ? state.game.hands.length + 1 : null);
}
