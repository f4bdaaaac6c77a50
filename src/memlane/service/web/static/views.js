// The page's views: each loads what it shows from the /v1 API and renders it with textContent only.
import { api, ask, download, editText, el, failed, label, number, state, t, toast, when } from "/assets/core.js";

const PAGE = 50; // memories per request: the first page paints fast even with thousands
const MASK = /\[(redacted: [^\]]+|已隐藏:[^\]]+)\]/;
const changed = new Set(); // views to reload when shown next (after a change elsewhere)

export function invalidate() {
  for (const view of ["overview", "memories", "sessions", "search", "activity", "data"]) changed.add(view);
}
export function stale(view) {
  return changed.has(view);
}

const uid = () => state.user;

// -- one memory ----------------------------------------------------------------------------------

function chips(m) {
  const out = [el("span", { class: "chip", text: label("kind", m.kind) })];
  if (m.category) out.push(el("span", { class: "chip", text: label("cat", m.category) }));
  if (m.event_status) out.push(el("span", { class: `chip status-${m.event_status}`, text: label("event", m.event_status) }));
  if (m.status && m.status !== "active") out.push(el("span", { class: "chip", text: label("status", m.status) }));
  for (const tag of m.tags || []) if (!tag.includes(":")) out.push(el("span", { class: "chip", text: `#${tag}` }));
  return out;
}

function lazy(summaryText, load) {
  const list = el("ul", { class: "sub" });
  const box = el("details", {}, el("summary", { text: summaryText }), list);
  let loaded = false;
  box.addEventListener("toggle", async () => {
    if (!box.open || loaded) return;
    loaded = true;
    list.replaceChildren(el("li", { text: t("loading") }));
    try {
      list.replaceChildren(...(await load()));
    } catch (error) {
      loaded = false;
      list.replaceChildren(el("li", { text: t("error", { message: error.message }) }));
    }
  });
  return box;
}

async function sources(m) {
  const found = (await api("GET", `/v1/memories/${encodeURIComponent(m.id)}/sources`, { query: { user_id: uid() } })).memories;
  if (!found.length) return [el("li", { text: t("no_sources") })];
  return found.map((s) => {
    const role = (s.tags || []).find((x) => x.startsWith("role:"))?.slice(5);
    const who = s.kind === "log" ? label("role", role || "user") : label("kind", s.kind);
    return el("li", {}, el("span", { class: "when", text: when(s.valid_from || s.created_at) }), `${who}: `, el("span", { text: s.text }));
  });
}

async function history(m) {
  const found = (await api("GET", `/v1/memories/${encodeURIComponent(m.id)}/history`, { query: { user_id: uid() } })).history;
  if (!found.length) return [el("li", { text: t("no_history") })];
  return found.map((h) => {
    const change = h.before && h.after ? `${h.before} → ${h.after}` : h.after || "";
    return el("li", {}, el("span", { class: "when", text: when(h.at) }), `${h.op} · ${h.reason}`, change ? el("div", { text: change }) : null);
  });
}

async function act(m, verb) {
  const user_id = uid();
  const path = `/v1/memories/${encodeURIComponent(m.id)}`;
  if (verb === "edit") {
    const text = await editText(m.text);
    if (text === null || text === m.text) return false;
    await api("PATCH", path, { body: { user_id, text } });
    toast(t("done_edit"));
  } else if (verb === "delete") {
    if (!(await ask(t("ask_delete", { text: m.text })))) return false;
    await api("DELETE", path, { query: { user_id } });
    toast(t("done_delete"));
  } else {
    if (verb !== "helpful" && !(await ask(t(`ask_${verb}`)))) return false;
    await api("POST", `${path}/feedback`, { body: { user_id, verdict: verb } });
    toast(t("done_feedback"));
  }
  return true;
}

export function memoryCard(m, { actions = true, onChange, extra = [] } = {}) {
  const textId = `text-${m.id}`;
  const text = el("p", { class: "text", id: textId, text: m.text });
  const meta = el("div", { class: "meta" }, chips(m));
  const happened = m.period_unit === "week" ? t("week_of", { day: m.period }) : m.period || when(m.valid_from, "date");
  const dated = m.kind === "episodic" && m.valid_from ? el("p", { class: "hint", text: t("event_date", { when: happened }) }) : null;
  const recalled = m.last_accessed_at ? t("last_recalled", { when: when(m.last_accessed_at), n: m.access_count }) : t("never_recalled");
  const why = el(
    "details",
    {},
    el("summary", { text: t("why_kept") }),
    el("p", { text: m.reason || "–" }),
    el("p", { class: "score", text: t("scores", { i: number(m.importance), c: number(m.confidence), s: number(m.stability), x: number(m.sensitivity) }) }),
    el("p", { class: "hint", text: `${label("source", m.source)} · ${t("created", { when: when(m.created_at) })}` }),
    m.last_verified_at ? el("p", { class: "hint", text: t("verified", { when: when(m.last_verified_at) }) }) : null,
    el("p", { class: "hint", text: recalled }),
  );
  const card = el("li", { class: "card", "data-id": m.id }, text, meta, dated, ...extra);
  const masked = MASK.test(m.text);
  if (masked) card.append(el("p", { class: "hint", text: t("masked") }));
  card.append(why);
  if (m.kind !== "log") card.append(lazy(t("sources"), () => sources(m)), lazy(t("history"), () => history(m)));
  if (actions && m.kind !== "log" && m.status === "active") {
    const row = el("div", { class: "actions" });
    const button = (verb, cls = "quiet") =>
      el("button", {
        type: "button",
        class: `small ${cls}`,
        "aria-describedby": textId,
        "data-action": verb,
        text: t(verb),
        onclick: async (event) => {
          const pressed = event.currentTarget;
          pressed.disabled = true;
          try {
            if (await act(m, verb)) onChange?.();
          } catch (error) {
            failed(error);
          } finally {
            pressed.disabled = false;
          }
        },
      });
    row.append(button("edit"), button("helpful"), button("outdated"), button("wrong"), button("delete", "quiet danger-text"));
    if (masked && state.session?.reveals_sensitive) {
      row.append(
        el("button", {
          type: "button",
          class: "small quiet",
          "aria-describedby": textId,
          text: t("reveal"),
          onclick: async () => {
            try {
              const opened = (await api("GET", `/v1/memories/${encodeURIComponent(m.id)}`, { query: { user_id: uid() } })).text;
              if (opened === m.text) toast(t("no_original"));
              text.textContent = opened;
            } catch (error) {
              failed(error);
            }
          },
        }),
      );
    }
    card.append(row);
  }
  return card;
}

// -- overview: summary, preferences to confirm, profile ------------------------------------------------

function show(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

export async function overview(reload) {
  changed.delete("overview");
  const user_id = uid();
  const [summary, staleOnes, versions, ...profiles] = await Promise.all([
    api("GET", "/v1/summary", { query: { user_id } }),
    api("GET", "/v1/stale", { query: { user_id } }),
    api("GET", "/v1/profile/history", { query: { user_id } }),
    ...["active", "superseded"].map((status) => api("GET", "/v1/memories", { query: { user_id, kind: "profile", status, limit: 1000 } })),
  ]);
  document.getElementById("summary-text").textContent = summary.summary?.text || t("no_summary");
  const staleList = document.getElementById("stale-list");
  staleList.replaceChildren(...staleOnes.memories.map((m) => memoryCard(m, { onChange: reload })));
  if (!staleOnes.memories.length) staleList.append(el("li", { class: "hint", text: t("nothing_to_confirm") }));
  const texts = new Map(profiles.flatMap((p) => p.memories).map((m) => [m.id, m.text]));
  const slots = new Map();
  for (const v of versions.versions) slots.set(v.slot, [...(slots.get(v.slot) || []), v]);
  const box = document.getElementById("profile-list");
  box.replaceChildren();
  if (!slots.size) box.append(el("p", { class: "hint", text: t("no_profile") }));
  const cards = el("ul", { class: "cards", id: "profile-cards" });
  for (const [slot, all] of slots) {
    const current = all.find((v) => v.current) || all[all.length - 1];
    const from = current.memory_id && texts.get(current.memory_id);
    const past = [...all].reverse().map((v) =>
      el(
        "li",
        {},
        el("span", { class: "when", text: when(v.created_at) }),
        `${t("version", { n: v.version })}${v.current ? ` (${t("current")})` : ""}: `,
        el("strong", { text: show(v.value) }),
        v.memory_id && texts.get(v.memory_id) ? el("div", { text: `${t("from_memory")}: “${texts.get(v.memory_id)}”` }) : null,
        v.reason ? el("div", { class: "hint", text: v.reason }) : null,
      ),
    );
    cards.append(
      el(
        "li",
        { class: "card", "data-slot": slot },
        el("h3", { text: slot.replaceAll("_", " ") }),
        el("p", { class: "text", text: show(current.value) }),
        el("p", { class: "meta", text: `${t("since")} ${when(current.created_at)}${from ? ` · ${t("from_memory")} “${from}”` : ""}` }),
        el("details", {}, el("summary", { text: t("slot_history") }), el("ul", { class: "sub" }, past)),
      ),
    );
  }
  if (slots.size) box.append(cards);
  performance.mark("memlane:overview");
}

// -- memories by kind, a page at a time ----------------------------------------------------------

let shown = 0;
export async function memories(reload, more = false) {
  changed.delete("memories");
  const list = document.getElementById("memory-list");
  const kind = document.getElementById("kind-select").value;
  const status = document.getElementById("status-select").value;
  if (!more) shown = 0;
  const page = (await api("GET", "/v1/memories", { query: { user_id: uid(), kind, status, limit: PAGE, offset: shown } })).memories;
  const cards = page.map((m) => memoryCard(m, { onChange: reload }));
  if (more) list.append(...cards);
  else list.replaceChildren(...cards);
  shown += page.length;
  list.dataset.kind = kind; // what the list now shows (tests and styles can tell)
  if (!shown) list.append(el("li", { class: "hint", text: t("no_memories") }));
  document.getElementById("more").hidden = page.length < PAGE;
  document.getElementById("memory-count").textContent = t("shown", { n: shown });
  performance.mark("memlane:memories");
}

// -- live sessions -------------------------------------------------------------------------------

export async function sessions(reload) {
  changed.delete("sessions");
  const user_id = uid();
  const found = (await api("GET", "/v1/sessions", { query: { user_id } })).sessions;
  const box = document.getElementById("session-list");
  box.replaceChildren();
  if (!found.length) box.append(el("p", { class: "hint", text: t("no_sessions") }));
  for (const s of found) {
    const turns = el("ul", { class: "sub" }, s.turns.map((turn) => el("li", {}, el("span", { class: "when", text: when(turn.at) }), `${label("role", turn.role)}: `, el("span", { text: turn.content }))));
    const slots = Object.entries(s.slots || {}).map(([k, v]) => el("li", { text: `${k}: ${show(v)}` }));
    box.append(
      el(
        "div",
        { class: "panel", "data-session": s.id },
        el("h3", { text: s.id }),
        el("p", { class: "meta", text: `${t("session_turns", { n: s.turns.length })} · ${t("session_expires", { when: when(s.expires_at) })}` }),
        s.summary ? el("div", {}, el("h4", { text: t("session_summary") }), el("p", { class: "summary", text: s.summary })) : null,
        s.notes.length ? el("div", {}, el("h4", { text: t("session_notes") }), el("ul", { class: "sub" }, s.notes.map((n) => el("li", { text: n })))) : null,
        slots.length ? el("div", {}, el("h4", { text: t("session_slots") }), el("ul", { class: "sub" }, slots)) : null,
        turns,
        el("div", { class: "actions" }, el("button", {
          type: "button",
          class: "danger small",
          text: t("forget_session"),
          onclick: async () => {
            if (!(await ask(t("ask_forget_session")))) return;
            try {
              const r = await api("POST", "/v1/sessions/forget", { body: { user_id, session_id: s.id } });
              toast(t("done_forget", { n: r.deleted }));
              reload();
            } catch (error) {
              failed(error);
            }
          },
        })),
      ),
    );
  }
}

// -- search with explanations --------------------------------------------------------------------

function explain(x) {
  const why = [];
  if (x.matched_terms?.length) why.push(t("ex_terms", { terms: x.matched_terms.join(", ") }));
  if (x.vector > 0) why.push(t("ex_similar", { s: number(x.similarity) }));
  if (x.time_rank !== null && x.time_rank !== undefined) why.push(t("ex_period"));
  if (x.source === "log") why.push(t("ex_log"));
  return [
    el("p", { class: "hint", text: why.join(" · ") }),
    el("p", { class: "score", text: t("ex_parts", { r: number(x.relevance), i: number(x.importance), c: number(x.confidence), t: number(x.recency) }) }),
  ];
}

export async function search(reload) {
  changed.delete("search");
  const query = document.getElementById("search-input").value.trim();
  const list = document.getElementById("search-list");
  if (!query) {
    list.replaceChildren();
    return;
  }
  const include_sensitive = Boolean(state.session?.reveals_sensitive && document.getElementById("search-sensitive").checked);
  const hits = (await api("POST", "/v1/search", { body: { user_id: uid(), query, limit: 20, include_sensitive } })).results;
  list.replaceChildren(...hits.map((h) => memoryCard(h.memory, { onChange: reload, extra: [el("p", { class: "score", text: t("score", { s: number(h.score) }) }), ...explain(h.explain)] })));
  if (!hits.length) list.append(el("li", { class: "hint", text: t("search_none") }));
}

// -- the audit trail -----------------------------------------------------------------------------

const OPS = ["write", "update", "delete", "forget", "export", "restore", "context", "consent", "feedback", "search", "read"];

export function auditFilters() {
  const select = document.getElementById("audit-op");
  const chosen = select.value;
  select.replaceChildren(el("option", { value: "", text: t("all") }), ...OPS.map((op) => el("option", { value: op, text: label("op", op) })));
  select.value = chosen;
}

export async function activity() {
  changed.delete("activity");
  const op = document.getElementById("audit-op").value;
  const since = document.getElementById("audit-since").value;
  const who = document.getElementById("audit-caller").value.trim().toLowerCase();
  const query = { user_id: uid(), limit: 500, op: op || undefined, since: since ? new Date(`${since}T00:00:00`).toISOString() : undefined };
  const entries = (await api("GET", "/v1/audit", { query })).entries.filter((e) => !who || (e.caller || "").toLowerCase().includes(who));
  const body = document.querySelector("#audit-table tbody");
  body.replaceChildren(
    ...entries.map((e) =>
      el("tr", {}, el("td", { text: when(e.at) }), el("td", { text: label("op", e.op) }), el("td", { text: e.caller || "–" }), el("td", { text: e.detail }), el("td", { text: String(e.memory_ids.length) })),
    ),
  );
  if (!entries.length) body.append(el("tr", {}, el("td", { colspan: 5, text: t("no_activity") })));
}

// -- the user's data: export, import, delete by tag, delete everything ------------------------------------

export async function data() {
  changed.delete("data");
  const found = (await api("GET", "/v1/memories", { query: { user_id: uid(), limit: 1000 } })).memories;
  const tags = [...new Set(found.flatMap((m) => m.tags || []).filter((x) => !x.includes(":")))].sort();
  document.getElementById("tag-options").replaceChildren(...tags.map((x) => el("option", { value: x })));
}

export async function exportAs(format) {
  const response = await api("GET", "/v1/export", { query: { user_id: uid(), format, lang: state.lang }, raw: true });
  download(await response.blob(), `memlane-${uid()}.${format === "markdown" ? "md" : "json"}`);
}

export async function importFile(file) {
  let document_;
  try {
    document_ = JSON.parse(await file.text());
  } catch {
    throw new Error(t("not_export"));
  }
  const report = await api("POST", "/v1/restore", { body: { user_id: uid(), document: document_ } });
  toast(t("done_import", { n: report.memories }));
}

export async function forgetTag(tag) {
  if (!(await ask(t("ask_forget_tag", { tag })))) return false;
  const r = await api("POST", "/v1/forget", { body: { user_id: uid(), tags: [tag] } });
  toast(t("done_forget", { n: r.deleted }));
  return true;
}

export async function forgetAll() {
  const word = t("confirm_word");
  if (!(await ask(t("ask_forget_all", { user: uid() }), { typed: word }))) return false;
  const r = await api("POST", "/v1/forget", { body: { user_id: uid(), all: true } });
  toast(t("done_forget", { n: r.deleted }));
  return true;
}
