// What every part of the memory page shares: its strings, the API client, dates, dialogs, toasts
// and a way to build elements. Text from the server is only ever set with textContent: a stored
// "<script>" or "[link](...)" is shown as the characters it is, never run or linked.

export const state = {
  lang: "en",
  messages: { en: {}, zh: {} },
  session: null, // what GET /v1/web/session said
  user: null, // whose memory is shown
};

export function t(key, vars = {}) {
  const table = state.messages[state.lang] || {};
  const text = table[key] ?? state.messages.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in vars ? String(vars[name]) : all));
}

export function label(prefix, value) {
  if (value === null || value === undefined || value === "") return "";
  const key = `${prefix}.${value}`;
  const text = t(key);
  return text === key ? String(value) : text;
}

// -- the API -------------------------------------------------------------------------------------

export class ApiFailure extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const listeners = { ended: [] };
export function onEnded(fn) {
  listeners.ended.push(fn);
}

export async function api(method, path, { query, body, raw } = {}) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(query || {})) {
    if (Array.isArray(v)) v.forEach((x) => url.searchParams.append(k, x));
    else if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, v);
  }
  const headers = { Accept: "application/json" };
  if (method !== "GET") headers["X-CSRF-Token"] = state.session?.csrf_token || "";
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    cache: "no-store",
  });
  if (!response.ok) {
    let message = response.statusText || String(response.status);
    try {
      message = (await response.json()).error.message;
    } catch {
      // not the API's JSON error: keep the status text
    }
    if (response.status === 401 && state.session) listeners.ended.forEach((fn) => fn());
    throw new ApiFailure(response.status, message);
  }
  if (raw) return response;
  return response.status === 204 ? null : response.json();
}

// -- dates in the reader's locale and time zone ----------------------------------------------------

export function locale() {
  const prefs = navigator.languages?.length ? navigator.languages : [navigator.language || ""];
  const match = prefs.find((p) => p.toLowerCase().startsWith(state.lang));
  return match || (state.lang === "zh" ? "zh-CN" : "en-US");
}

const formats = new Map();
function format(kind) {
  const key = `${locale()}|${kind}`;
  if (!formats.has(key)) {
    const options = kind === "date" ? { dateStyle: "medium" } : { dateStyle: "medium", timeStyle: "short" };
    formats.set(key, new Intl.DateTimeFormat(locale(), options));
  }
  return formats.get(key);
}

export function when(iso, kind = "datetime") {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : format(kind).format(d);
}

export function number(x) {
  return typeof x === "number" ? x.toFixed(2) : "–";
}

// -- elements --------------------------------------------------------------------------------------

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = String(v);
    else if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function translate(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
}

// -- feedback to the reader -----------------------------------------------------------------------

let toastTimer = 0;
export function toast(message, bad = false) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.classList.toggle("bad", bad);
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), bad ? 6000 : 3000);
}

export function failed(error) {
  toast(t("error", { message: error?.message || String(error) }), true);
}

// A confirmation for every destructive action; ``typed`` asks for a word to be typed first.
export function ask(text, { typed } = {}) {
  const dialog = document.getElementById("ask");
  const box = document.getElementById("ask-typed-box");
  const input = document.getElementById("ask-typed");
  const ok = document.getElementById("ask-ok");
  document.getElementById("ask-text").textContent = text;
  box.hidden = !typed;
  input.value = "";
  if (typed) document.getElementById("ask-typed-label").textContent = t("type_to_confirm", { word: typed });
  ok.disabled = Boolean(typed);
  const check = () => {
    ok.disabled = Boolean(typed) && input.value.trim() !== typed;
  };
  input.addEventListener("input", check);
  return new Promise((resolve) => {
    const finish = (answer) => {
      input.removeEventListener("input", check);
      ok.removeEventListener("click", yes);
      cancel.removeEventListener("click", no);
      dialog.removeEventListener("cancel", no);
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    const yes = () => finish(true);
    const no = (event) => {
      event?.preventDefault?.();
      finish(false);
    };
    const cancel = document.getElementById("ask-cancel");
    ok.addEventListener("click", yes);
    cancel.addEventListener("click", no);
    dialog.addEventListener("cancel", no);
    dialog.showModal();
    (typed ? input : cancel).focus();
  });
}

export function editText(initial) {
  const dialog = document.getElementById("editor");
  const area = document.getElementById("editor-text");
  const save = document.getElementById("editor-save");
  const cancel = document.getElementById("editor-cancel");
  area.value = initial;
  return new Promise((resolve) => {
    const finish = (value) => {
      save.removeEventListener("click", yes);
      cancel.removeEventListener("click", no);
      dialog.removeEventListener("cancel", no);
      if (dialog.open) dialog.close();
      resolve(value);
    };
    const yes = () => finish(area.value.trim() || null);
    const no = (event) => {
      event?.preventDefault?.();
      finish(null);
    };
    save.addEventListener("click", yes);
    cancel.addEventListener("click", no);
    dialog.addEventListener("cancel", no);
    dialog.showModal();
    area.focus();
  });
}

export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
