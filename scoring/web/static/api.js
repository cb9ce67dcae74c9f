// The HTTP API: reads, writes with the token, errors a person understands.

import { t } from "./i18n.js";
import { TOKEN_KEY } from "./state.js";
import { el } from "./dom.js";

// ---------------------------------------------------------------------------- API

export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.message || (typeof body.detail === "string" ? body.detail : ""))) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

// One key per entry, sent with each try of it: a retry after a dropped connection is not stored twice.
// (crypto.randomUUID needs https; getRandomValues works on a plain-http LAN address too.)
export function newIdempotencyKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function api(method, path, body, { revision, idempotencyKey } = {}) {
  const headers = { Accept: "application/json" };
  const form = body instanceof FormData;  // a photo: the browser writes the multipart type and boundary
  if (body !== undefined && !form) headers["Content-Type"] = "application/json";
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  if (method !== "GET") {
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  if (revision !== undefined && revision !== null) headers["If-Match"] = `"${revision}"`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined || form ? body : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, { message: t("errors.network") });
  }
  const data = response.headers.get("content-type")?.includes("json") ? await response.json() : null;
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// A write: asks for the token when there is none or it is refused, then tries once more.
export async function write(method, path, body, options) {
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
export async function sendSurely(method, path, body, options) {
  try {
    return await api(method, path, body, options);
  } catch (e) {
    if (e.status !== 0) throw e;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return await api(method, path, body, options);
  }
}

export function askToken(problem) {
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

export function explain(e) {
  if (!(e instanceof ApiError)) return String(e);
  if (e.status === 409 && e.body && "actual" in e.body) return t("errors.stale");
  if (e.status === 409) return t("errors.game_over", { message: e.message });
  if (e.status === 0) return t("errors.network");
  return t("errors.generic", { message: e.message });
}
