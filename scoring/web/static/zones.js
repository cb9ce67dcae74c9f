// The zone editor: the table's zones drawn over the camera's picture.

import { t } from "./i18n.js";
import { state } from "./state.js";
import { el, svg, toast } from "./dom.js";
import { api, explain, write } from "./api.js";

// ---------------------------------------------------------------------------- the zone editor
// The zones are drawn over the latest picture in an SVG whose units are the camera's own pixels
// (viewBox = the frame's size), so what is saved is in image pixels whatever the size on screen.

export const ZONE_DOT_PX = 9;       // a corner's dot, in CSS pixels
export const ZONE_GRIP_PX = 22;     // the invisible grip around it, for fingers
export const ZONE_KEY_STEP = 0.01;  // arrow keys move a focused corner by this share of the picture (Shift: five times)
export const ARROWS = ["→", "↘", "↓", "↙", "←", "↖", "↑", "↗"];
// The colours the camera picture draws the zones in (vision/drawing.py ZONE_COLOURS, there as BGR), so the
// zones being edited match the lines already on the picture.
export const ZONE_COLOURS = ["#00aaff", "#ffc800", "#ff00b4", "#78dc00", "#5050ff", "#ff7878"];
export const zoneColour = (i) => ZONE_COLOURS[i % ZONE_COLOURS.length];

export async function openZoneEditor() {
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

export function copyZones(layout) {
  return layout.sides.map((s) => ({ side: s.side, zone: s.zone.map(([x, y]) => [x, y]), up: s.up ? [...s.up] : null }));
}

// The default zones, each side keeping its place in the list (and so its colour on the picture).
export function useDefaultZones() {
  const z = state.zones;
  const fresh = copyZones(z.view.default);
  z.sides = z.sides.map((s) => fresh.find((d) => d.side === s.side) || s);
  showZoneError("");
  drawZones();
}

export function closeZoneEditor() {
  state.zones = null;
  const dialog = document.getElementById("zone-dialog");
  if (dialog.open) dialog.close();
}

export function renderZoneEditor() {
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

export function showZoneError(message) {
  if (state.zones) state.zones.error = message;
  const box = document.getElementById("zone-error");
  if (box) box.textContent = message;
}

export function upArrow(up) {
  if (!up) return t("zones.up_inferred");
  const turn = Math.round(Math.atan2(up[1], up[0]) / (Math.PI / 4));
  return t("zones.up", { arrow: ARROWS[((turn % 8) + 8) % 8] });
}

// Redraw the zones (and the list of sides) from state.zones; the SVG element itself stays, so a drag goes on.
export function drawZones() {
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

export function zonePoint(ev) {
  const z = state.zones;
  const rect = document.getElementById("zone-svg").getBoundingClientRect();
  const W = z.view.frame_size.width, H = z.view.frame_size.height;
  return [(ev.clientX - rect.left) / rect.width * W, (ev.clientY - rect.top) / rect.height * H];
}

export const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

export function zonePointerDown(ev) {
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

export function zonePointerMove(ev) {
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

export function zonePointerUp(ev) {
  const z = state.zones;
  if (!z || !z.drag || z.drag.pointer !== ev.pointerId) return;
  z.drag = null;
  drawZones();
}

export function zoneKey(ev) {
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

export function zonesBody() {
  const round = (v) => Math.round(v * 100) / 100;
  return { sides: state.zones.sides.map((s) => ({ side: s.side, zone: s.zone.map(([x, y]) => [round(x), round(y)]),
    ...(s.up ? { up: s.up } : {}) })) };
}

// Where a refusal points, in words: "North — zone" for loc ["body", "sides", 0, "zone"].
export function zoneWhere(detail) {
  const loc = (detail.loc || []).slice(1);
  if (loc[0] === "sides" && typeof loc[1] === "number" && state.zones.sides[loc[1]]) {
    return [state.zones.sides[loc[1]].side, ...loc.slice(2).filter((p) => typeof p !== "number")].join(" — ");
  }
  return detail.field || loc.join(".");
}

export async function saveZones() {
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

export async function forgetZones() {
  const z = state.zones;
  if (!z || !confirm(t("zones.confirm_forget", { table: z.view.table }))) return;
  try {
    await write("DELETE", "/api/camera/layout");
    closeZoneEditor();
    toast(t("zones.forgotten"));
  } catch (e) { showZoneError(explain(e)); }
}
