// The sides Borne found on the table, proposed over the camera's picture for a one-tap confirm (saving them
// as the table's zones); "Fix the zones" opens the zone editor. Shown while GET /api/camera/layout says the
// sides are being found, or found and not yet saved.

import { t } from "./i18n.js";
import { state } from "./state.js";
import { el, svg, toast } from "./dom.js";
import { api, explain, write } from "./api.js";
import { openZoneEditor, zoneColour } from "./zones.js";

export const PROPOSAL_MS = 2000;

let redraw = () => {};

// Look at the table's zones now and every PROPOSAL_MS; onChange redraws the camera panel when the proposal changes.
export async function watchProposal(onChange) {
  redraw = onChange;
  await lookAtZones();
  setInterval(lookAtZones, PROPOSAL_MS);
}

export async function lookAtZones() {
  let view;
  try { view = await api("GET", "/api/camera/layout"); } catch (e) { return; }
  const proposed = view.finding || (view.origin === "found" && !view.saved) ? view : null;
  const before = JSON.stringify(state.proposal || null);
  state.proposal = proposed;
  if (JSON.stringify(proposed) !== before) redraw();
}

// The proposal box: the camera's picture (the panel's own <img>) with the zones found drawn over it, named,
// and the confirm; while the sides are being looked for, a line saying so. null: nothing is proposed.
export function proposalBox(picture) {
  const view = state.proposal;
  if (!view) return null;
  if (view.finding) {
    return el("p", { class: "muted", id: "sides-finding", role: "status" }, t("found.finding"));
  }
  const { width: W, height: H } = view.frame_size || { width: 960, height: 540 };
  const shapes = view.layout.sides.map((s, i) => {
    const colour = zoneColour(i);
    const cx = s.zone.reduce((a, p) => a + p[0], 0) / s.zone.length;
    const cy = s.zone.reduce((a, p) => a + p[1], 0) / s.zone.length;
    return svg("g", { class: "found-zone", "data-side": s.side },
      svg("polygon", { class: "zone-area", points: s.zone.map(([x, y]) => `${x},${y}`).join(" "), fill: colour, stroke: colour }),
      svg("text", { class: "zone-label", x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central",
        "font-size": Math.max(W, H) * 0.03, "stroke-width": Math.max(W, H) * 0.006 }, s.side));
  });
  const drawing = svg("svg", { class: "found-zones", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", "aria-hidden": "true" }, ...shapes);
  const stage = el("div", { class: "found-stage", style: `--ratio:${W} / ${H}` }, picture, drawing);
  return el("div", { class: "found-sides", id: "found-sides" },
    el("h3", {}, t("found.title", { n: view.layout.sides.length })),
    el("p", { class: "help" }, t("found.help")),
    el("figure", { class: "camera-picture found-picture", "aria-label": t("found.picture") }, stage),
    el("ul", { class: "found-names" }, view.layout.sides.map((s, i) =>
      el("li", { style: `--side:${zoneColour(i)}`, "data-side": s.side }, s.side))),
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "secondary", id: "fix-sides", onclick: openZoneEditor }, t("found.fix")),
      el("button", { type: "button", class: "primary big", id: "confirm-sides", onclick: confirmSides }, t("found.confirm"))));
}

export async function confirmSides() {
  const view = state.proposal;
  if (!view) return;
  let saved;
  try { saved = await write("PUT", "/api/camera/layout", view.layout); } catch (e) { toast(explain(e)); return; }
  state.proposal = null;
  toast(t("found.confirmed", { table: saved.table }));
  redraw();
}
