"""The memory page itself: ``/`` (its HTML, in the language the browser asks for) and ``/assets/``
(its stylesheet, script and messages), all from the package's ``static/`` folder, never a CDN.

Every response carries a strict Content-Security-Policy: scripts, styles and requests only from this
origin, no inline script or style, no frames, no plugins, no forms posting elsewhere. The HTML is
rendered with its labels already in the browser's language (``Accept-Language``), so the first paint
needs no script; the script then follows ``navigator.language`` and the switch on the page.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from importlib import resources
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)

LANGUAGES = ("en", "zh")
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
_TYPES = {
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
}
_ASSETS = ("app.css", "app.js", "core.js", "views.js", "messages.json", "icon.svg")
_PLACEHOLDER = re.compile(r"\{\{(\w[\w.]*)\}\}")
_LANGUAGE = re.compile(r"\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]{1,5}))?\s*")


def _read(name: str) -> bytes:
    return (resources.files("memlane.service.web") / "static" / name).read_bytes()


@cache
def messages() -> dict[str, dict[str, str]]:
    """The page's strings in each language (``static/messages.json``)."""
    found: dict[str, dict[str, str]] = json.loads(_read("messages.json"))
    return found


def language(accept: str | None) -> str:
    """The page language for an ``Accept-Language`` header: the first of zh and en the browser
    prefers, English when it names neither."""
    best, weight = "en", -1.0
    for part in (accept or "").split(",")[:20]:
        m = _LANGUAGE.fullmatch(part)
        if m is None:
            continue
        try:
            q = float(m.group(2)) if m.group(2) else 1.0
        except ValueError:
            continue
        tag = m.group(1).lower()
        if tag in LANGUAGES and q > weight:
            best, weight = tag, q
    return best


@cache
def _page(lang: str) -> bytes:
    strings: dict[str, Any] = {**messages()[lang], "lang": lang, "messages_json": "{{messages_json}}"}
    html = _read("index.html").decode("utf-8")
    # the strings ride along as a JSON data block (not a script: CSP has nothing to run), which
    # saves the page a round trip before it can draw anything; "<" is escaped so no "</script>"
    data = json.dumps(messages(), ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    labelled = _PLACEHOLDER.sub(lambda m: _escape(str(strings.get(m.group(1), m.group(0)))), html)
    return labelled.replace("{{messages_json}}", data).encode()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


@cache
def _asset(name: str) -> tuple[bytes, str]:
    body = _read(name)
    return body, '"' + hashlib.sha256(body).hexdigest()[:16] + '"'


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> Response:
    """The page, labelled in the browser's language."""
    lang = language(request.headers.get("accept-language"))
    headers = {**_HEADERS, "Cache-Control": "no-store", "Content-Language": lang, "Vary": "Accept-Language"}
    return Response(_page(lang), media_type="text/html; charset=utf-8", headers=headers)


@router.get("/assets/{name}")
def asset(name: str, request: Request) -> Response:
    """One of the page's files (a fixed list: no path reaches anything else)."""
    if name not in _ASSETS:
        return Response("not found", status_code=404, media_type="text/plain", headers=_HEADERS)
    body, etag = _asset(name)
    headers = {**_HEADERS, "ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=_TYPES[name[name.rindex(".") :]], headers=headers)
