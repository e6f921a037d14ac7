// Status page: renders the appliance's state and follows it live over server-sent events.
"use strict";

const $ = (sel) => document.querySelector(sel);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function fmt(seconds) {
  return typeof seconds === "number" ? seconds.toFixed(3) : "–";
}

function renderCitation(c) {
  const label = c.drawing_number
    ? `[${c.n}] ${c.drawing_number}${c.revision ? " rev " + c.revision : ""} — ${c.source}`
    : `[${c.n}] ${c.source}${c.page ? " p." + c.page : ""}`;
  const box = el("div", { class: "citation", "data-source": c.source });
  box.append(el("div", { text: label }));
  if (c.text) box.append(el("div", { class: "muted", text: c.text }));
  if (c.thumbnail) {
    const wrap = el("div", { class: "thumb" });
    const img = el("img", { src: "/artifacts/" + c.thumbnail.replace(/^artifacts\//, ""), alt: "cited drawing " + (c.drawing_number || c.source) });
    wrap.append(img);
    if (c.region) {
      const [x0, y0, x1, y1] = c.region;
      const r = el("div", { class: "region", title: "cited region" });
      r.style.left = (x0 * 100).toFixed(2) + "%";
      r.style.top = (y0 * 100).toFixed(2) + "%";
      r.style.width = ((x1 - x0) * 100).toFixed(2) + "%";
      r.style.height = ((y1 - y0) * 100).toFixed(2) + "%";
      wrap.append(r);
    }
    box.append(wrap);
  }
  return box;
}

function renderQuestions(questions) {
  const list = $("#questions");
  list.replaceChildren();
  for (const q of questions) {
    const item = el("li", { class: "question", "data-id": q.id });
    item.append(el("div", { class: "q", text: q.question }));
    // A reply to "Which drawing do you mean?": the question it answered.
    if (q.reply_to) item.append(el("div", { class: "reply muted", text: `reply to "${q.reply_to}"` }));
    if (q.error) item.append(el("div", { class: "a err", text: `${q.error.code}: ${q.error.message}` }));
    else item.append(el("div", { class: "a", text: q.answer }));
    const stages = Object.entries(q.latency || {}).map(([k, v]) => `${k} ${fmt(v)}`).join(" · ");
    const why = q.extra && q.extra.fallback_reason ? ` (${q.extra.fallback_reason})` : "";
    // A question that named no drawing was about the drawing in hand (just scanned or quoted).
    const hand = q.extra && q.extra.in_hand ? ` · about the drawing in hand, ${q.extra.in_hand.split("/").pop()}` : "";
    const mode = q.mode === "asked" ? "asked which drawing" : q.mode;
    item.append(el("div", { class: "lat", text: `${mode}${why}${hand} · ${(q.namespaces || []).join(", ")} · ${stages}` }));
    const cites = el("div", { class: "citations" });
    for (const c of q.citations || []) cites.append(renderCitation(c));
    item.append(cites);
    list.append(item);
  }
  if (!questions.length) list.append(el("li", { class: "muted", text: "No questions yet." }));
}

function renderJobs(jobs) {
  const list = $("#jobs");
  list.replaceChildren();
  for (const j of jobs) {
    const item = el("li", { "data-state": j.state });
    item.append(el("div", { text: `${j.action} ${j.source} (${j.namespace}) — ${j.state}${j.message ? ": " + j.message : ""}` }));
    if (j.state === "queued" || j.state === "running") {
      const bar = el("progress", { max: "1" });
      bar.value = j.progress || 0;
      item.append(bar);
    }
    list.append(item);
  }
  if (!jobs.length) list.append(el("li", { class: "muted", text: "Nothing queued." }));
}

function renderComponents(components) {
  const body = $("#components tbody");
  body.replaceChildren();
  const select = $("#restart-name");
  const current = select.value;
  select.replaceChildren();
  for (const c of components) {
    const detail = c.last_error ? `${c.detail} ${c.last_error_code}: ${c.last_error}`.trim() : c.detail;
    body.append(el("tr", { "data-component": c.name },
      el("td", { text: c.name }),
      // Disabled with an error: configured to run but cannot start (a missing model).
      c.status === "disabled" && c.last_error_code
        ? el("td", { class: "status-fault", text: "cannot start" })
        : el("td", { class: "status-" + c.status, text: c.status }),
      el("td", { text: String(c.restarts) }), el("td", { text: detail || "" })));
    if (c.status !== "disabled") select.append(el("option", { value: c.name, text: c.name }));
  }
  select.value = current || select.value;
}

function renderLatency(latency) {
  const body = $("#latency tbody");
  body.replaceChildren();
  for (const [stage, v] of Object.entries(latency)) {
    body.append(el("tr", {}, el("td", { text: stage }), el("td", { text: fmt(v.last) }),
      el("td", { text: fmt(v.p50) }), el("td", { text: fmt(v.p95) }), el("td", { text: String(v.count) })));
  }
}

function renderRoom(room, beacons) {
  $("#room").textContent = room.name ? "room: " + room.name : "no room";
  const own = (room.namespaces || []).filter((n) => n !== "global");
  $("#room-detail").textContent = `namespaces: ${own.length ? own.join(", ") + " + " : ""}global` + (room.reason ? ` — ${room.reason}` : "") + (room.manual ? " (held manually)" : "");
  const list = $("#beacons");
  list.replaceChildren();
  for (const b of beacons) list.append(el("li", { text: `${b.name || b.id || b.address || "?"}: ${b.rssi ?? "?"} dBm${b.room ? " (" + b.room + ")" : ""}` }));
}

let handTimer = null;

function renderHand(hand) {
  // The drawing a question that names none is about, until it is let go.
  const pill = $("#in-hand");
  const left = hand && hand.name ? hand.until * 1000 - Date.now() : 0;
  pill.hidden = left <= 0;
  pill.textContent = left > 0 ? `in hand: ${hand.name.split("/").pop()} (${hand.why})` : "";
  clearTimeout(handTimer);
  if (left > 0) handTimer = setTimeout(() => { pill.hidden = true; }, left);
}

function render(state) {
  const activity = $("#activity");
  activity.textContent = state.indexing && state.activity === "idle" ? "indexing" : state.activity;
  activity.dataset.activity = activity.textContent;
  $("#transcript").textContent = state.transcript ? "heard: " + state.transcript : "";
  renderQuestions(state.questions);
  renderJobs(state.jobs);
  renderComponents(state.components);
  renderLatency(state.latency);
  renderRoom(state.room, state.beacons);
  renderHand(state.in_hand);
  if (state.loop && state.loop.last_ms !== undefined) {
    $("#loop").textContent = `loop lag ${state.loop.last_ms} / ${state.loop.max_1m_ms} ms`;
  }
  document.body.dataset.version = String(state.version);
}

async function loadSources() {
  try {
    const response = await fetch("/api/sources");
    const data = await response.json();
    const box = $("#sources");
    box.replaceChildren();
    for (const [ns, sources] of Object.entries(data)) {
      const list = el("ul");
      for (const s of sources) {
        const item = el("li", { "data-source": s.source, text: `${s.source}${s.drawing_number ? " — " + s.drawing_number + (s.revision ? " rev " + s.revision : "") : ""} (${s.slices} slices) ` });
        const forget = el("button", { class: "forget", type: "button", text: "forget" });
        forget.addEventListener("click", async () => {
          await admin("/api/admin/forget", { namespace: ns, source: s.source });
          loadSources();
        });
        item.append(forget);
        list.append(item);
      }
      box.append(el("div", { class: "ns", "data-namespace": ns }, el("h3", { text: `${ns} (${sources.length})` }), list));
    }
  } catch (err) { /* the next state change retries */ }
}

let lastJobsDone = -1;
function follow() {
  const live = $("#live");
  const source = new EventSource("/api/events");
  source.addEventListener("open", () => { live.textContent = "live"; live.className = "pill on"; });
  source.addEventListener("error", () => { live.textContent = "reconnecting…"; live.className = "pill off"; });
  source.addEventListener("state", (event) => {
    const state = JSON.parse(event.data);
    render(state);
    const done = state.counters.indexed + state.counters.index_failed;
    if (done !== lastJobsDone) { lastJobsDone = done; loadSources(); }
  });
}

async function admin(path, body, raw) {
  const result = $("#admin-result");
  const headers = {};
  const token = $("#token").value.trim();
  if (token) headers["Authorization"] = "Bearer " + token;
  if (!raw) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method: "POST", headers, body: raw ? body : JSON.stringify(body || {}) });
  let data = {};
  try { data = await response.json(); } catch (err) { data = { message: response.statusText }; }
  result.className = response.ok ? "ok" : "bad";
  result.textContent = response.ok ? "done: " + JSON.stringify(data) : `refused (${response.status}): ${data.message || ""}`;
}

function wireAdmin() {
  $("#upload-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const file = $("#upload-file").files[0];
    if (!file) return;
    const ns = encodeURIComponent($("#upload-ns").value || "global");
    admin(`/api/admin/upload?namespace=${ns}&filename=${encodeURIComponent(file.name)}`, file, true);
  });
  $("#reindex-form").addEventListener("submit", (e) => { e.preventDefault(); admin("/api/admin/reindex", {}); });
  $("#room-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const room = $("#room-name").value.trim();
    admin("/api/admin/room", { room: room || null });
  });
  $("#restart-form").addEventListener("submit", (e) => { e.preventDefault(); admin("/api/admin/restart", { component: $("#restart-name").value }); });
}

document.addEventListener("DOMContentLoaded", async () => {
  wireAdmin();
  try { render(await (await fetch("/api/state")).json()); } catch (err) { /* live stream will fill in */ }
  loadSources();
  follow();
});
