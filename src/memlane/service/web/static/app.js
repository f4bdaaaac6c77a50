// The memory page: signs in (a user's link in the address's fragment, or staff with an API key),
// then shows one user's memory through the ordinary /v1 API with the page's cookie. See docs/web.md.
import { api, ApiFailure, el, failed, onEnded, state, t, toast, translate, when } from "/assets/core.js";
import * as views from "/assets/views.js";

const TABS = ["overview", "memories", "sessions", "search", "activity", "data"];
const $ = (id) => document.getElementById(id);
let current = "overview";

// -- language: the browser's, unless the reader picked one -----------------------------------------

function browserLanguage() {
  const prefs = navigator.languages?.length ? navigator.languages : [navigator.language || ""];
  for (const p of prefs) {
    const tag = p.toLowerCase().slice(0, 2);
    if (tag === "zh" || tag === "en") return tag;
  }
  return document.documentElement.lang === "zh" ? "zh" : "en";
}

function setLanguage(lang, save) {
  state.lang = lang === "zh" ? "zh" : "en";
  if (save) localStorage.setItem("memlane.lang", state.lang);
  document.documentElement.lang = state.lang;
  $("lang").value = state.lang;
  translate();
  views.auditFilters();
  describeSession();
}

// -- signing in ------------------------------------------------------------------------------------

async function signIn(body) {
  state.session = await api("POST", "/v1/web/session", { body });
}

function notice(text) {
  $("notice").textContent = text;
  $("notice").hidden = !text;
}

function describeSession() {
  const s = state.session;
  if (!s) {
    $("who").textContent = "";
    return;
  }
  const until = when(s.expires_at);
  $("who").textContent = s.role === "user" ? t("who_user", { user: s.user_id, until }) : t("who_staff", { tenant: s.tenant, until });
}

function showSignIn() {
  state.session = null;
  $("app").hidden = true;
  $("sign-out").hidden = true;
  $("signin").hidden = false;
  describeSession();
}

async function enter() {
  notice("");
  $("signin").hidden = true;
  $("app").hidden = false;
  $("sign-out").hidden = false;
  describeSession();
  const staff = state.session.role === "staff";
  $("staff").hidden = !staff;
  $("search-sensitive-box").hidden = !state.session.reveals_sensitive;
  if (staff) {
    const users = (await api("GET", "/v1/users")).users;
    $("users").replaceChildren(...users.map((u) => el("option", { value: u })));
    const chosen = new URLSearchParams(location.search).get("user");
    if (chosen) openUser(chosen);
    else notice(t("no_user"));
    return;
  }
  openUser(state.session.user_id);
}

function openUser(user) {
  state.user = user;
  $("pick-user").value = user;
  $("link-made").hidden = true;
  notice("");
  views.invalidate();
  select(current);
}

// -- tabs ------------------------------------------------------------------------------------------

const loaders = {
  overview: () => views.overview(refresh),
  memories: () => views.memories(refresh),
  sessions: () => views.sessions(refresh),
  search: () => views.search(refresh),
  activity: () => views.activity(),
  data: () => views.data(),
};

async function load(view) {
  if (!state.user) return;
  try {
    await loaders[view]();
  } catch (error) {
    if (!(error instanceof ApiFailure && error.status === 401)) failed(error);
  }
}

function select(view, focus = false) {
  current = view;
  history.replaceState(null, "", `${location.pathname}${location.search}#${view}`); // a view can be bookmarked
  for (const name of TABS) {
    const tab = $(`tab-${name}`);
    const on = name === view;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    $(name).hidden = !on;
    if (on && focus) tab.focus();
  }
  if (views.stale(view)) load(view);
}

function refresh() {
  views.invalidate();
  load(current);
}

function wireTabs() {
  for (const name of TABS) $(`tab-${name}`).addEventListener("click", () => select(name));
  $("tabs").addEventListener("keydown", (event) => {
    const i = TABS.indexOf(current);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(TABS[(next + TABS.length) % TABS.length], true);
  });
}

// -- the forms -------------------------------------------------------------------------------------

function on(id, event, handler) {
  $(id).addEventListener(event, async (e) => {
    if (event === "submit") e.preventDefault();
    try {
      await handler(e);
    } catch (error) {
      failed(error);
    }
  });
}

function wireForms() {
  on("lang", "change", (e) => {
    setLanguage(e.target.value, true);
    refresh();
  });
  on("sign-out", "click", async () => {
    await api("DELETE", "/v1/web/session");
    showSignIn();
  });
  on("link-form", "submit", async () => {
    const raw = $("link-input").value.trim();
    // a whole link (…/#link=TOKEN) or the token alone
    const token = new URLSearchParams(raw.split("#")[1] || "").get("link") || raw;
    try {
      await signIn({ link: token });
    } catch {
      notice(t("bad_link"));
      return;
    }
    await enter();
  });
  on("key-form", "submit", async () => {
    await signIn({ key: $("key-input").value.trim() });
    $("key-input").value = "";
    await enter();
  });
  on("pick-form", "submit", () => {
    const user = $("pick-user").value.trim();
    if (user) openUser(user);
    else notice(t("no_user"));
  });
  on("make-link", "click", async () => {
    if (!state.user) return notice(t("no_user"));
    const made = await api("POST", "/v1/links", { body: { user_id: state.user, hours: 24 } });
    $("link-made-text").textContent = t("link_made", { user: made.user_id, until: when(made.expires_at) });
    $("link-url").value = made.url;
    $("link-made").hidden = false;
  });
  on("copy-link", "click", async () => {
    await navigator.clipboard.writeText($("link-url").value);
    toast(t("copied"));
  });
  on("kind-select", "change", () => views.memories(refresh));
  on("status-select", "change", () => views.memories(refresh));
  on("more", "click", () => views.memories(refresh, true));
  on("search-form", "submit", () => views.search(refresh));
  on("audit-form", "submit", () => views.activity());
  on("export-json", "click", () => views.exportAs("json"));
  on("export-md", "click", () => views.exportAs("markdown"));
  on("import-form", "submit", async () => {
    const file = $("import-file").files[0];
    if (!file) return;
    await views.importFile(file);
    refresh();
  });
  on("tag-form", "submit", async () => {
    const tag = $("tag-input").value.trim();
    if (tag && (await views.forgetTag(tag))) {
      $("tag-input").value = "";
      refresh();
    }
  });
  on("forget-all", "click", async () => {
    if (await views.forgetAll()) refresh();
  });
}

// -- start -----------------------------------------------------------------------------------------

function takeLink() {
  const link = new URLSearchParams(location.hash.slice(1)).get("link");
  if (link) history.replaceState(null, "", location.pathname + location.search); // the token leaves the address bar
  return link;
}

async function openLink(link) {
  try {
    await signIn({ link });
  } catch {
    showSignIn();
    notice(t("bad_link"));
    return false;
  }
  return true;
}

async function start() {
  const link = takeLink();
  if (TABS.includes(location.hash.slice(1))) current = location.hash.slice(1);
  // the session is asked for beside the strings, not after them
  const session = link ? null : api("GET", "/v1/web/session").catch(() => null);
  state.messages = JSON.parse($("messages").textContent); // both languages, put in the page by the server
  // a link opened in a tab already showing the page changes only the fragment
  window.addEventListener("hashchange", async () => {
    const next = takeLink();
    if (next && (await openLink(next))) await enter();
    else if (TABS.includes(location.hash.slice(1)) && state.user) select(location.hash.slice(1));
  });
  wireTabs();
  wireForms();
  onEnded(() => {
    showSignIn();
    notice(t("ended"));
  });
  setLanguage(localStorage.getItem("memlane.lang") || browserLanguage(), false);
  if (link) {
    if (!(await openLink(link))) return;
  } else {
    state.session = await session;
    if (!state.session) {
      showSignIn();
      return;
    }
  }
  await enter();
}

start();
