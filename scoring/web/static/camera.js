// The camera panel: status, picture, the hand it follows, confirm and correct.

import { fmt, fmtDecimal, t } from "./i18n.js";
import { DISTANCE_VALUES } from "./rules.js";
import { COLOURS, state } from "./state.js";
import { el, morph, nodes, toast } from "./dom.js";
import { api, explain, write } from "./api.js";
import { refresh, source } from "./events.js";
import { renderGameView } from "./display.js";
import { openZoneEditor } from "./zones.js";
import { proposalBox, watchProposal } from "./proposal.js";
import { copyRecord, renderEntry } from "./entry.js";
import { photoButton } from "./photo.js";

// ---------------------------------------------------------------------------- the camera

export const CAMERA_STATUS_MS = 2000;
export const CAMERA_FRAME_MS = 1000;

export async function startCamera() {
  try { state.camera = await api("GET", "/api/camera"); } catch (e) { state.camera = null; }
  if (!state.camera || !state.camera.camera) return;
  try { state.liveHand = await api("GET", "/api/camera/hand"); } catch (e) { /* no hand yet */ }
  rerenderCamera();
  watchProposal(rerenderCamera);
  setInterval(async () => {
    try { state.camera = await api("GET", "/api/camera"); rerenderCamera(); } catch (e) { /* next time */ }
  }, CAMERA_STATUS_MS);
  setInterval(() => {
    const img = cameraImage();
    if (state.camera && state.camera.has_frame && !state.camera.ended && !document.hidden) img.src = `/api/camera/frame.jpg?t=${Date.now()}`;
  }, CAMERA_FRAME_MS);
}

export function onLiveHand(hand) {
  const before = state.liveHand;
  state.liveHand = hand;
  rerenderCamera();
  if (before && before.pending && !hand.pending && before.hand === hand.hand) refresh();
}

// One <img> for the whole session, so a re-render never blanks the picture while it reloads.
export let cameraImg = null;
export function cameraImage() {
  if (!cameraImg) {
    cameraImg = el("img", { id: "camera-frame", alt: t("camera.picture"), width: 960, height: 540 });
    if (state.camera && state.camera.has_frame) cameraImg.src = `/api/camera/frame.jpg?t=${Date.now()}`;
  }
  return cameraImg;
}

// The camera panel is brought up to date in place (its buttons read the state when pressed), so a tap on
// Confirm or a focused button survives the status polled every CAMERA_STATUS_MS; the live hand's panel, whose
// buttons hold the hand they act on, is drawn again only when what it shows changed.
export function rerenderCamera() {
  const panel = document.getElementById("camera-panel");
  const live = document.getElementById("live-panel");
  if (panel && (live || !state.liveHand)) {
    const fresh = cameraPanel();
    if (fresh) morph(panel, fresh); else panel.remove();
    const hand = livePanel();
    if (live && (!hand || hand.outerHTML !== live.outerHTML)) live.replaceWith(...nodes(hand));
  } else if (state.view === "game") renderGameView();
}

export function livePanel() {
  const cam = state.camera;
  if (!cam || !cam.camera || !state.liveHand) return null;
  return el("section", { class: "card live-card", id: "live-panel", "aria-label": t("camera.title") }, liveHand(state.liveHand));
}

export function cameraPanel() {
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
    (cam.has_frame && proposalBox(cameraImage()))
      || el("figure", { class: "camera-picture" }, cam.has_frame ? cameraImage() : el("p", { class: "muted" }, t("camera.no_picture"))));
}

// The Borne cameras (borne-cam) that answer on the network; a person picks one and gives its token.
// A dialog of its own: the camera panel is redrawn every few seconds, a token being typed must not be.
export async function openCameraChooser() {
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

export async function listCameras(list, error) {
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

export function showCameraError(error, message) {
  error.textContent = message;
  error.hidden = !message;
}

export async function useCamera(name, token, error) {
  showCameraError(error, "");
  try {
    state.camera = await write("POST", "/api/camera/source", { name, token });
  } catch (e) { showCameraError(error, explain(e)); return; }
  document.getElementById("camera-dialog").close();
  toast(t("camera.switched", { name }));
  rerenderCamera();
}

// A Borne camera agent's own status (borne-cam's /status, fetched by `borne run`): frames, temperature, throttling.
export function agentLine(agent) {
  if (!agent.reachable) return t("camera.agent_unreachable", { error: agent.error || "" });
  const up = agent.uptime_s >= 3600 ? `${fmtDecimal(agent.uptime_s / 3600)} h`
    : agent.uptime_s >= 60 ? `${Math.round(agent.uptime_s / 60)} min` : `${Math.round(agent.uptime_s)} s`;
  const bits = [t("camera.agent", { frames: fmt(agent.frames), dropped: fmt(agent.dropped), uptime: up })];
  if (agent.camera !== "ok") bits.push(t("camera.agent_lost"));
  if (agent.temperature_c != null) bits.push(t("camera.agent_temp", { c: fmtDecimal(agent.temperature_c) }));
  if (agent.throttled_flags && agent.throttled_flags.length) bits.push(t("camera.agent_throttled", { flags: agent.throttled_flags.join(", ") }));
  return bits.join(" · ");
}

export function liveHand(hand) {
  const pending = hand.pending;
  const goal = hand.extension_called_by ? 1000 : hand.goal;
  // Number the camera's hand as the hand it will be in the game on screen, not the camera's own count.
  const held = hand.held || [];
  const n = state.game ? state.game.hands.length + 1 + held.length : (pending ? pending.number : hand.hand);
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
  const doubt = held.length ? heldBox(held) : null;
  let pendingBox = null;
  if (pending) {
    pendingBox = el("div", { class: "pending", id: "pending-hand" },
      pending.score && pending.score.winner ? el("p", { class: "pending-winner" }, t("camera.hand_winner", { side: pending.score.winner })) : null,
      pending.problem ? el("p", { class: "error" }, t("camera.problem", { message: pending.problem })) : null,
      pending.ask_extension ? el("p", { class: "warning", id: "ask-extension" }, t("camera.ask_extension", { side: pending.ask_extension })) : null,
      pending.corrected ? el("p", { class: "muted" }, t("camera.corrected")) : null,
      held.length ? el("p", { class: "help", id: "pending-after-held" }, t("camera.pending_after_held", { n: heldNumber(held[0]) }))
        : el("p", { class: "help" }, t("camera.pending_help")),
      held.length ? null : el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary big", id: "confirm-hand", onclick: confirmCameraHand }, t("camera.confirm")),
        el("button", { type: "button", class: "secondary", id: "correct-hand", onclick: () => correctCameraHand(pending.record, pending.number) }, t("camera.correct")),
        state.game ? photoButton({ forCamera: true }) : null));
  }
  const fix = !pending && !held.length && hand.phase === "in_play" ? el("button", { type: "button", class: "secondary", id: "correct-live",
    onclick: () => correctCameraHand(liveRecord(hand), hand.hand) }, t("camera.correct_live")) : null;
  return el("div", { class: `live-hand${pending ? " is-pending" : ""}`, id: "live-hand", "data-phase": hand.phase },
    el("h3", { class: "live-title" }, head),
    el("div", { class: "live-sides", style: `--sides:${hand.sides.length}` }, sides),
    doubt, flags, pendingBox, fix);
}

export function flagList(flags) {
  return el("ul", { class: "flag-list" }, flags.map((f) => el("li", { class: "flag", "data-reason": f.reason },
    f.picture ? el("img", { class: "flag-picture", src: f.picture, alt: t("camera.flag_picture", { frame: f.frame }),
      width: 240, loading: "lazy" }) : null,
    el("span", {}, f.side ? t("camera.flag", { side: f.side, message: f.message }) : f.message))));
}

// The hand a held hand will be in the game (the camera's own number without a game on screen).
function heldNumber(h) {
  return state.game ? state.game.hands.length + 1 : h.number;
}

// Hands the table was cleared after while the camera had a doubt: never in the game until a person looks.
// The first one is shown with its flags and pictures, and confirmed or corrected in one tap.
export function heldBox(held) {
  const first = held[0];
  const n = heldNumber(first);
  const sides = first.record.sides.map((s) => {
    const km = Object.entries(s.distance || {}).reduce((sum, [v, c]) => sum + Number(v) * c, 0);
    const safeties = Object.entries(s.safeties || {}).map(([id, how]) => t(`cards.${id}`) + (how === "coup_fourre" ? " ⟂" : ""));
    return el("li", {}, t("camera.held_side", { side: s.side, km: fmt(km) }) + (safeties.length ? ` · ${safeties.join(", ")}` : ""));
  });
  return el("div", { class: "flags held", id: "held-hand", role: "alert", "data-hand": first.number },
    el("h4", {}, first.flags.length ? t("camera.held", { n }) : t("camera.held_in_line", { n })),
    el("ul", { class: "held-record" }, sides),
    first.flags.length ? flagList(first.flags) : null,
    held.length > 1 ? el("p", { class: "muted" }, t("camera.held_more", { count: held.length - 1 })) : null,
    el("p", { class: "help" }, t("camera.held_help")),
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "primary", id: "confirm-held", onclick: confirmCameraHand }, t("camera.confirm")),
      el("button", { type: "button", class: "secondary", id: "correct-held", onclick: () => correctCameraHand(first.record, n) }, t("camera.correct"))));
}

export function sideColour(name, fallback) {
  const i = state.game ? state.game.sides.findIndex((s) => s.name === name) : -1;
  return COLOURS[(i >= 0 ? i : fallback) % COLOURS.length];
}

export function liveRecord(hand) {
  return { goal: hand.goal, draw_pile_empty_at_finish: hand.draw_pile === false, extension_called_by: hand.extension_called_by,
    sides: hand.sides.map((s) => ({ side: s.side, distance: s.distance, safeties: s.safeties })) };
}

export async function confirmCameraHand() {
  const live = state.liveHand;
  const n = live && live.held && live.held.length ? live.held[0].number : live && live.pending && live.pending.number;
  try {
    onLiveHand(await write("POST", "/api/camera/hand/confirm"));
    toast(t("camera.confirmed", { n }));
    refresh();
  } catch (e) { toast(explain(e)); }
}

export function correctCameraHand(record, number) {
  const sides = record.sides.map((s) => ({ name: s.side, players: [] }));
  const doc = { id: null, sides, goal: null, extension: record.goal === 700, hands: [] };
  state.entry = { gameId: null, number: null, camera: number, doc, revision: null, record: copyRecord(record), serverErrors: [] };
  const dialog = document.getElementById("hand-dialog");
  renderEntry();
  if (!dialog.open) dialog.showModal();
  dialog.querySelector("#save-hand")?.focus();
}
