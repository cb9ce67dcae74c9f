// The phone camera page (/camera): the phone's rear camera, drawn to a canvas and sent as JPEG pictures over the
// WebSocket /api/camera/feed to `borne run --source browser`, with the table's token as the first message.
// It never queues pictures: while the network still holds the last one, the next is skipped (and counted).
import { fmt, fmtDecimal, languageMenu, startLanguage, t } from "./i18n.js";
import { TOKEN_KEY } from "./state.js";

const SEND_PER_SECOND = 8;          // steady rate: the pipeline reads a few frames a second on a small CPU
const QUALITY = 0.8;                // JPEG quality: card numerals stay sharp at about 60 kB a picture
const WANTED = { width: 1280, height: 720 };
const RATE_WINDOW_MS = 3000;
const RETRY_MS = 2000;
const REFUSED = { 4401: "token", 4403: "token", 4404: "not_taken", 4429: "later" };

const phone = {
  token: null, stream: null, ws: null, timer: null, busy: false, running: true,
  sentAt: [], skipped: 0, counts: null, state: "idle", detail: "",
};

const $ = (id) => document.getElementById(id);

// The token: from ?token= (then kept on this device and taken out of the address bar), else the one kept.
function takeToken() {
  const params = new URLSearchParams(location.search);
  const given = params.get("token");
  if (given) {
    try { localStorage.setItem(TOKEN_KEY, given); } catch (e) { /* kept for this visit only */ }
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : ""));
    return given;
  }
  try { return localStorage.getItem(TOKEN_KEY); } catch (e) { return null; }
}

function setState(state, detail) {
  phone.state = state;
  phone.detail = detail || "";
  render();
}

function render() {
  const node = $("phone-state");
  node.dataset.state = phone.state;
  node.className = `camera-status ${phone.state === "sending" ? "on" : "off"}`;
  node.textContent = t(`phone.state_${phone.state}`, { reason: phone.detail });
  const now = performance.now();
  phone.sentAt = phone.sentAt.filter((at) => now - at <= RATE_WINDOW_MS);
  const sending = phone.state === "sending";
  $("phone-sent").textContent = sending ? t("phone.sent", { fps: fmtDecimal(phone.sentAt.length * 1000 / RATE_WINDOW_MS) }) : "";
  $("phone-sent").dataset.fps = String(phone.sentAt.length * 1000 / RATE_WINDOW_MS);
  const counts = phone.counts;
  $("phone-dropped").textContent = counts ? t("phone.dropped", { n: fmt(counts.dropped), received: fmt(counts.received) }) : "";
  $("phone-dropped").dataset.dropped = counts ? String(counts.dropped) : "";
  $("phone-dropped").dataset.received = counts ? String(counts.received) : "";
  $("phone-skipped").textContent = phone.skipped ? t("phone.skipped", { n: fmt(phone.skipped) }) : "";
  $("phone-toggle").textContent = t(phone.running ? "phone.stop" : "phone.start");
}

async function openCamera() {
  if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    setState("insecure");
    return false;
  }
  try {
    phone.stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: "environment" }, width: { ideal: WANTED.width }, height: { ideal: WANTED.height } },
    });
  } catch (e) {
    setState("no_camera", e && e.name ? `${e.name}: ${e.message}` : String(e));
    return false;
  }
  const video = $("phone-video");
  video.srcObject = phone.stream;
  try { await video.play(); } catch (e) { /* muted video plays by itself once it has data */ }
  if (navigator.wakeLock) navigator.wakeLock.request("screen").catch(() => {});  // the screen stays on while it sends
  return true;
}

function connect() {
  if (!phone.running) return;
  setState("connecting");
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/camera/feed`);
  ws.binaryType = "arraybuffer";
  phone.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ token: phone.token }));
  ws.onmessage = (ev) => {
    let message;
    try { message = JSON.parse(ev.data); } catch (e) { return; }
    if (message.type === "ready") setState("sending");
    else if (message.type === "counts") { phone.counts = message; render(); }
  };
  ws.onclose = (ev) => {
    if (phone.ws !== ws) return;
    phone.ws = null;
    const refused = REFUSED[ev.code];
    if (refused) {
      setState("refused", ev.reason || String(ev.code));
      if (refused === "token") $("phone-token").hidden = false;
      if (refused === "later") setTimeout(connect, RETRY_MS * 5);
      return;
    }
    if (!phone.running) { setState("stopped"); return; }
    setState("closed");
    setTimeout(connect, RETRY_MS);
  };
}

// One picture from the camera, unless the last one is still on its way (then it is skipped, never queued).
function sendPicture() {
  const ws = phone.ws;
  const video = $("phone-video");
  if (!ws || ws.readyState !== WebSocket.OPEN || phone.state !== "sending" || !video.videoWidth) return;
  if (phone.busy || ws.bufferedAmount > 0) { phone.skipped += 1; return; }
  phone.busy = true;
  const canvas = phone.canvas || (phone.canvas = document.createElement("canvas"));
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
  canvas.toBlob((blob) => {
    phone.busy = false;
    if (!blob || phone.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send(blob);
    phone.sentAt.push(performance.now());
  }, "image/jpeg", QUALITY);
}

async function start() {
  phone.running = true;
  $("phone-token").hidden = true;
  if (!phone.stream && !(await openCamera())) return;
  connect();
  clearInterval(phone.timer);
  phone.timer = setInterval(sendPicture, 1000 / SEND_PER_SECOND);
}

function stop() {
  phone.running = false;
  clearInterval(phone.timer);
  if (phone.ws) phone.ws.close(1000, "stopped on the phone");
  if (phone.stream) phone.stream.getTracks().forEach((track) => track.stop());
  phone.stream = null;
  setState("stopped");
}

async function main() {
  await startLanguage();
  document.querySelector(".bar").append(languageMenu(render));
  phone.token = takeToken();
  $("phone-toggle").addEventListener("click", () => (phone.running ? stop() : start()));
  $("phone-token").addEventListener("submit", (ev) => {
    ev.preventDefault();
    phone.token = $("phone-token-input").value.trim();
    try { localStorage.setItem(TOKEN_KEY, phone.token); } catch (e) { /* this visit only */ }
    start();
  });
  setInterval(render, 500);
  if (!phone.token) {
    setState("need_token");
    $("phone-token").hidden = false;
    return;
  }
  await start();
}

document.addEventListener("DOMContentLoaded", () => {
  main().catch((e) => { $("toast").textContent = String(e); $("toast").hidden = false; });
});
