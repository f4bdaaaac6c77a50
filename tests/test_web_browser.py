"""The memory page in a real browser: Debian's Chromium (headless, driven by Playwright) against a
real ``memlane serve`` process on a free port with a temporary data directory.

Users are seeded through the REST API; links are made with ``memlane link create`` and the API.
Screenshots of the main views in both languages go to this run's temporary directory, and to
``$MEMLANE_SCREENSHOTS`` when it names a folder (``MEMLANE_SCREENSHOTS=docs`` refreshes the ones
the README shows).
"""

from __future__ import annotations

import base64
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import webserver

MASKED = re.compile(r"\[(已隐藏:手机号|redacted: phone)\]")

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.slow

if not webserver.CHROMIUM.exists():  # make install puts it there (deploy/browser.sh)
    pytest.fail(f"{webserver.CHROMIUM} is missing: run `make install` (it installs Debian's chromium)")


# -- one server, one browser per language, for the whole module ------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webserver.Server]:
    from memlane.privacy.crypto import DataKey

    env = {
        "MEMLANE_SENSITIVE_POLICY": json.dumps({"phone": "encrypt"}),
        "MEMLANE_DATA_KEY": DataKey.generate().encoded(),
    }
    with webserver.serve(tmp_path_factory.mktemp("web-server"), **env) as s:
        s.say("u1", "我叫阿白，平时喜欢喝美式，优先邮件联系。", "上周三我投诉了物流延迟，还没解决。")
        s.say("u1", "I love hiking.", "我的手机号是13812345678。", session="s2")
        remember(s, "u1", "I plan to visit Kyoto in spring", tags=["travel"])
        s.say("u2", "我叫小林，我喜欢喝绿茶。")
        yield s


def remember(server: webserver.Server, user: str, text: str, tags: list[str] | None = None) -> dict[str, Any]:
    response = server.http.post("/v1/memories", json={"user_id": user, "text": text, "tags": tags or []})
    assert response.status_code == 201, response.text
    memory: dict[str, Any] = response.json()["memory"]
    return memory


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("web-screenshots")


@pytest.fixture(scope="module")
def browsers() -> Iterator[dict[str, Any]]:
    with playwright_api.sync_playwright() as p:
        opened: dict[str, Any] = {}

        def browser(lang: str) -> Any:
            if lang not in opened:
                locale = {"en": "en-US", "zh": "zh-CN"}[lang]
                opened[lang] = webserver.launch(p, locale=locale, viewport={"width": 1200, "height": 900})
            return opened[lang]

        yield {"get": browser}
        for context in opened.values():
            context.close()


class Tab:
    """A fresh page (no cookies, no stored language), which fails the test on a CSP violation or a
    script error."""

    def __init__(self, context: Any) -> None:
        context.clear_cookies()
        self.page = context.new_page()
        self.problems: list[str] = []
        self.page.on("pageerror", lambda e: self.problems.append(f"script error: {e}"))
        self.page.on(
            "console",
            lambda m: self.problems.append(m.text) if "Content Security Policy" in m.text else None,
        )

    def open(self, url: str) -> Any:
        self.page.goto(url)
        return self.page

    def close(self) -> None:
        try:
            self.page.evaluate("localStorage.clear()")
        finally:
            self.page.close()
        assert not self.problems, self.problems


@pytest.fixture
def tab(browsers: dict[str, Any]) -> Iterator[Tab]:
    t = Tab(browsers["get"]("en"))
    yield t
    t.close()


@pytest.fixture
def tab_zh(browsers: dict[str, Any]) -> Iterator[Tab]:
    t = Tab(browsers["get"]("zh"))
    yield t
    t.close()


def card(page: Any, text: str) -> Any:
    return page.locator("#memory-list .card", has_text=text)


def show_kind(page: Any, kind: str) -> None:
    page.click("#tab-memories")
    page.select_option("#kind-select", kind)
    expect(page.locator(f"#memory-list[data-kind={kind}]")).to_be_attached()


def confirm(page: Any, typed: str | None = None) -> None:
    dialog = page.locator("#ask")
    expect(dialog).to_be_visible()
    if typed is not None:
        page.fill("#ask-typed", typed)
    page.click("#ask-ok")
    expect(dialog).to_be_hidden()


def fetch(page: Any, method: str, path: str, body: Any = None) -> int:
    """The status of a request the page's own origin makes with its cookie and CSRF token."""
    status: int = page.evaluate(
        """async ([method, path, body]) => {
            const s = await (await fetch('/v1/web/session')).json();
            const headers = {'X-CSRF-Token': s.csrf_token || '', 'Content-Type': 'application/json'};
            const init = {method, headers};
            if (body !== null) init.body = JSON.stringify(body);
            return (await fetch(path, init)).status;
        }""",
        [method, path, body],
    )
    return status


# -- seeing -------------------------------------------------------------------------------------------


def test_a_users_link_shows_their_memories_profile_and_where_they_came_from(
    tab: Tab, server: webserver.Server
) -> None:
    page = tab.open(server.link("u1"))
    expect(page.locator("#who")).to_contain_text("u1")
    assert "#link=" not in page.url  # the token leaves the address bar
    name = page.locator("#profile-cards .card[data-slot=name]")
    expect(name).to_contain_text("阿白")
    expect(page.locator("#profile-cards .card[data-slot=preferred_channel]")).to_contain_text("email")
    show_kind(page, "semantic")
    coffee = card(page, "平时喜欢喝美式")
    expect(coffee).to_be_visible()
    expect(card(page, "I love hiking")).to_be_visible()
    coffee.locator("summary", has_text="Why it was kept").click()
    expect(coffee).to_contain_text("Importance 0.")
    coffee.locator("summary", has_text="Where it came from").click()
    expect(coffee.locator(".sub").first).to_contain_text("我叫阿白")
    show_kind(page, "episodic")
    expect(card(page, "物流延迟")).to_contain_text("unresolved")
    page.click("#tab-sessions")
    expect(page.locator("[data-session=s1]")).to_contain_text("我叫阿白")
    page.click("#tab-search")
    page.fill("#search-input", "怎么联系我")
    page.click("#search-form button[type=submit]")
    expect(page.locator("#search-list .card").first).to_contain_text("score")
    page.click("#tab-activity")
    expect(page.locator("#audit-table tbody")).to_contain_text("write")
    page.select_option("#audit-op", "read")
    page.click("#audit-form button[type=submit]")
    expect(page.locator("#audit-table tbody tr").first).to_contain_text("web")


def test_an_event_named_by_its_year_or_week_shows_that_period_not_a_day(
    tab: Tab, server: webserver.Server
) -> None:
    from datetime import date, timedelta

    server.say("u7", "去年我去了一趟冰岛，玩得超开心", "I sold my old bike last week")
    page = tab.open(server.link("u7"))
    show_kind(page, "episodic")
    last_year = date.today().year - 1
    expect(card(page, "冰岛")).to_contain_text(f"Happened {last_year}")
    expect(card(page, "冰岛")).not_to_contain_text(f"{last_year}-01-01")
    monday = date.today() - timedelta(days=date.today().weekday() + 7)
    expect(card(page, "old bike")).to_contain_text(f"Happened the week of {monday.isoformat()}")


def test_the_user_opens_their_own_encrypted_original_and_staff_cannot(
    tab: Tab, server: webserver.Server
) -> None:
    page = tab.open(server.link("u1"))
    show_kind(page, "semantic")
    phone = card(page, MASKED)
    expect(phone).to_be_visible()
    phone = page.locator(f"#memory-list .card[data-id='{phone.get_attribute('data-id')}']")
    phone.get_by_role("button", name="Show original").click()
    expect(phone.locator(".text")).to_contain_text("13812345678")
    page.click("#sign-out")
    expect(page.locator("#signin")).to_be_visible()
    page.fill("#key-input", server.key)
    page.click("#key-form button[type=submit]")
    page.fill("#pick-user", "u1")
    page.click("#pick-form button[type=submit]")
    show_kind(page, "semantic")
    phone = card(page, MASKED)
    expect(phone).to_be_visible()
    expect(phone.get_by_role("button", name="Show original")).to_have_count(0)
    expect(page.locator("#search-sensitive-box")).to_be_hidden()
    body = {"user_id": "u1", "query": "手机号", "include_sensitive": True}
    assert fetch(page, "POST", "/v1/search", body) == 403
    assert fetch(page, "GET", f"/v1/memories/{phone.get_attribute('data-id')}?user_id=u1") == 403
    page.click("#make-link")
    expect(page.locator("#link-made")).to_be_visible()
    assert page.locator("#link-url").input_value().startswith(f"{server.url}/#link=")


# -- correcting and deleting -------------------------------------------------------------------------


def test_editing_a_memory_changes_the_store_and_the_profile_follows(
    tab: Tab, server: webserver.Server
) -> None:
    server.say("e1", "我叫阿白，优先邮件联系。")
    page = tab.open(server.link("e1"))
    show_kind(page, "profile")
    name = card(page, "我叫阿白")
    name.locator("[data-action=edit]").click()
    expect(page.locator("#editor")).to_be_visible()
    page.fill("#editor-text", "我叫小白")
    page.click("#editor-save")
    expect(card(page, "我叫小白")).to_be_visible()
    assert server.get("/v1/profile", user_id="e1")["profile"]["name"] == "小白"
    stored = [
        m for m in server.get("/v1/memories", user_id="e1", kind="profile")["memories"] if m["slot"] == "name"
    ]
    assert [(m["text"], m["source"], m["confidence"]) for m in stored] == [("我叫小白", "explicit", 1.0)]
    page.click("#tab-overview")
    expect(page.locator("#profile-cards .card[data-slot=name] .text")).to_have_text("小白")
    audit = server.get("/v1/audit", user_id="e1", op="update")["entries"]
    assert audit
    assert audit[0]["caller"] == "web"


def test_marking_a_memory_outdated_asks_first_and_escape_cancels(tab: Tab, server: webserver.Server) -> None:
    server.say("o1", "我喜欢喝美式。")
    page = tab.open(server.link("o1"))
    show_kind(page, "semantic")
    coffee = card(page, "我喜欢喝美式")
    coffee.locator("[data-action=outdated]").click()
    expect(page.locator("#ask")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#ask")).to_be_hidden()
    assert server.get("/v1/memories", user_id="o1")["memories"][0]["status"] == "active"
    coffee.locator("[data-action=outdated]").click()
    confirm(page)
    expect(coffee).to_have_count(0)
    assert server.get("/v1/memories", user_id="o1", status="expired")["memories"][0]["text"] == "我喜欢喝美式"


def test_deleting_one_memory_and_memories_by_tag(tab: Tab, server: webserver.Server) -> None:
    server.say("d1", "我喜欢喝美式。", "I love hiking.")
    remember(server, "d1", "I plan to visit Kyoto in spring", tags=["travel"])
    page = tab.open(server.link("d1"))
    show_kind(page, "semantic")
    card(page, "I love hiking").locator("[data-action=delete]").click()
    confirm(page)
    expect(card(page, "I love hiking")).to_have_count(0)
    texts = [m["text"] for m in server.get("/v1/memories", user_id="d1")["memories"]]
    assert "I love hiking" not in texts
    assert "我喜欢喝美式" in texts
    page.click("#tab-data")
    expect(page.locator("#tag-options option[value=travel]")).to_have_count(1)
    page.fill("#tag-input", "travel")
    page.click("#tag-form button[type=submit]")
    confirm(page)
    expect(page.locator("#toast")).to_contain_text("1 memories deleted")
    left = server.get("/v1/memories", user_id="d1")["memories"]
    assert [m["text"] for m in left] == ["我喜欢喝美式"]


def test_export_delete_a_conversation_delete_everything_and_import_it_back(
    tab: Tab, server: webserver.Server
) -> None:
    server.say("x2", "我叫阿青，优先邮件联系。", session="talk")
    page = tab.open(server.link("x2"))
    page.click("#tab-data")
    with page.expect_download() as got:
        page.click("#export-json")
    document = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))
    assert document["format"] == "memlane.export"
    assert document["user_id"] == "x2"
    with page.expect_download() as got:
        page.click("#export-md")
    readable = Path(got.value.path()).read_text(encoding="utf-8")
    assert readable.startswith("# What memlane remembers about x2")
    assert "阿青" in readable
    page.click("#tab-sessions")
    page.locator("[data-session=talk] button.danger").click()
    confirm(page)
    expect(page.locator("#session-list")).to_contain_text("No conversation is going on")
    assert server.get("/v1/sessions", user_id="x2")["sessions"] == []
    # the conversation's memories went with it; write one more, then delete everything
    remember(server, "x2", "I plan to visit Kyoto in spring")
    page.click("#tab-data")
    page.click("#forget-all")
    expect(page.locator("#ask-ok")).to_be_disabled()
    confirm(page, typed="DELETE")
    # the toast of the conversation deleted above says "memories deleted" too: wait for the request
    # itself (up to Playwright's own 5 s), not for words already on the page
    deadline = time.monotonic() + 5
    while server.get("/v1/memories", user_id="x2")["memories"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.get("/v1/memories", user_id="x2")["memories"] == []
    exported = page.locator("#import-file")
    path = Path(got.value.path()).with_name("x2.json")
    path.write_text(json.dumps(document), encoding="utf-8")
    exported.set_input_files(str(path))
    page.click("#import-form button[type=submit]")
    expect(page.locator("#toast")).to_contain_text("Imported")
    assert server.get("/v1/profile", user_id="x2")["profile"]["name"] == "阿青"


# -- language, keyboard -----------------------------------------------------------------------------


def test_the_page_follows_the_browser_language_and_switches(tab_zh: Tab, server: webserver.Server) -> None:
    page = tab_zh.open(server.link("u1"))
    expect(page.locator("#tab-memories")).to_have_text("记忆")
    assert page.evaluate("document.documentElement.lang") == "zh"
    expect(page.locator("#who")).to_contain_text("年")  # Intl's zh-CN date
    page.select_option("#lang", "en")
    expect(page.locator("#tab-memories")).to_have_text("Memories")
    expect(page.locator("h1")).to_have_text("What memlane remembers about you")
    page.reload()
    expect(page.locator("#tab-memories")).to_have_text("Memories")  # the choice is kept
    page.select_option("#lang", "zh")
    expect(page.locator("#tab-memories")).to_have_text("记忆")


CONTRAST = """() => {
    const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
    const lum = ([r, g, b]) => {
        const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const behind = (e) => {
        for (; e; e = e.parentElement) {
            const c = rgb(getComputedStyle(e).backgroundColor);
            if (c.length < 4 || c[3] > 0) return c.slice(0, 3);
        }
        return [255, 255, 255];
    };
    const low = [];
    for (const e of document.querySelectorAll("body *")) {
        const text = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        if (!text || !e.offsetParent || e.disabled) continue;
        const fg = lum(rgb(getComputedStyle(e).color).slice(0, 3));
        const [a, b] = [fg, lum(behind(e))].sort((x, y) => y - x);
        const ratio = (a + 0.05) / (b + 0.05);
        if (!(ratio >= 4.5)) low.push(`${e.id || e.className} ${e.textContent.slice(0, 30)}: ${ratio}`);
    }
    return low;
}"""


def test_text_contrast_passes_wcag_aa_on_every_view(tab: Tab, server: webserver.Server) -> None:
    page = tab.open(f"{server.url}/")
    expect(page.locator("#signin")).to_be_visible()
    assert page.evaluate(CONTRAST) == []
    probe = "() => { const p = document.createElement('p'); p.id = 'probe'; p.textContent = 'pale';"
    page.evaluate(probe + " p.style.color = '#aaaaaa'; document.getElementById('signin').append(p); }")
    assert [low.split()[0] for low in page.evaluate(CONTRAST)] == ["probe"]  # the check can fail
    page.evaluate("() => document.getElementById('probe').remove()")
    page.goto(server.link("u1"))
    expect(page.locator("#profile-cards")).to_be_visible()
    for view in ("overview", "memories", "sessions", "activity", "data"):
        page.click(f"#tab-{view}")
        page.locator(f"#{view} summary").evaluate_all("all => all.forEach(s => s.parentElement.open = true)")
        page.wait_for_load_state("networkidle")
        assert page.evaluate(CONTRAST) == [], view


def test_tabs_and_actions_work_from_the_keyboard(tab: Tab, server: webserver.Server) -> None:
    page = tab.open(server.link("u1"))
    expect(page.locator("#profile-cards")).to_be_visible()
    page.focus("#tab-overview")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tab-memories")).to_be_focused()
    expect(page.locator("#memories")).to_be_visible()
    page.keyboard.press("End")
    expect(page.locator("#data")).to_be_visible()
    page.keyboard.press("Home")
    expect(page.locator("#overview")).to_be_visible()
    for control in page.locator("input:visible, select:visible, textarea:visible").all():
        labelled = control.evaluate("e => Boolean(e.labels?.length || e.getAttribute('aria-labelledby'))")
        assert labelled, control.evaluate("e => e.outerHTML")


# -- what a link cannot do ----------------------------------------------------------------------------


def test_one_users_link_never_reaches_another_user(tab: Tab, server: webserver.Server) -> None:
    page = tab.open(server.link("u2"))
    show_kind(page, "semantic")
    expect(card(page, "绿茶")).to_be_visible()
    expect(page.locator("#memory-list")).not_to_contain_text("美式")
    u1_memory = server.get("/v1/memories", user_id="u1")["memories"][0]["id"]
    assert fetch(page, "GET", "/v1/memories?user_id=u1") == 403
    assert fetch(page, "GET", "/v1/memories?user_id=u2&user_id=u1") == 403
    assert fetch(page, "DELETE", f"/v1/memories/{u1_memory}?user_id=u1") == 403
    assert fetch(page, "DELETE", f"/v1/memories/{u1_memory}?user_id=u2") == 404  # not u2's
    assert fetch(page, "POST", "/v1/forget", {"user_id": "u1", "tags": None}) == 403
    assert fetch(page, "POST", "/v1/links", {"user_id": "u2"}) == 403
    assert fetch(page, "GET", "/v1/users") == 403
    assert server.get(f"/v1/memories/{u1_memory}", user_id="u1")["id"] == u1_memory


def test_a_revoked_expired_forged_or_swapped_link_opens_nothing(tab: Tab, server: webserver.Server) -> None:
    made = server.http.post("/v1/links", json={"user_id": "u1", "hours": 1}).json()
    page = tab.open(made["url"])
    expect(page.locator("#app")).to_be_visible()
    assert server.http.delete(f"/v1/links/{made['id']}").status_code == 200
    page.reload()  # the session opened with the link ends with it
    expect(page.locator("#signin")).to_be_visible()
    expect(page.locator("#notice")).to_be_hidden()

    def refused(url: str) -> None:
        page.goto("about:blank")
        page.goto(url)
        expect(page.locator("#notice")).to_contain_text("does not work")
        expect(page.locator("#app")).to_be_hidden()

    refused(made["url"])
    by_cli = server.cli_link("u1")  # memlane link create prints the link; memlane link revoke ends it
    expect(tab.open(by_cli).locator("#who")).to_contain_text("u1")
    server.cli("link", "revoke", webserver.decoded(by_cli.split("#link=")[1])["l"])
    # another process revoked it: the service notices within seconds (it reads a link at most every 5 s)
    deadline = time.monotonic() + 20
    while page.evaluate("fetch('/v1/web/session').then(r => r.status)") == 200:
        assert time.monotonic() < deadline, "the revocation did not reach the service"
        page.wait_for_timeout(250)
    refused(by_cli)
    # a genuine token with changed claims (another user, tenant or expiry), or another link's MAC
    token = server.link("u2").split("#link=")[1]
    other = server.link("u1").split("#link=")[1]
    later = webserver.decoded(token)["e"] + 3600
    for forged in (
        reclaim(token, u="u1"),
        reclaim(token, t="globex"),
        reclaim(token, e=later),
        f"{other.split('.')[0]}.{token.split('.')[1]}",
        "not-a-token",
    ):
        refused(f"{server.url}/#link={forged}")
    page.goto("about:blank")
    page.goto(f"{server.url}/#link={token}")
    expect(page.locator("#app")).to_be_visible()
    cookie = next(c for c in page.context.cookies() if c["name"] == "memlane_page")
    assert cookie["httpOnly"]
    assert cookie["sameSite"] == "Strict"
    page.context.add_cookies([{**cookie, "value": reclaim(cookie["value"], u="u1")}])
    assert page.evaluate("fetch('/v1/web/session').then(r => r.status)") == 401


def reclaim(token: str, **changes: object) -> str:
    """``token`` with its claims changed and its MAC kept (a forgery)."""
    claims = {**webserver.decoded(token), **changes}
    body = base64.urlsafe_b64encode(json.dumps(claims, separators=(",", ":")).encode()).rstrip(b"=").decode()
    return f"{body}.{token.split('.')[1]}"


def test_a_stored_script_or_markdown_link_renders_as_text(tab: Tab, server: webserver.Server) -> None:
    attack = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> 我的网站 [点我](http://evil.example)'
    remember(server, "x1", attack, tags=["web"])
    page = tab.open(server.link("x1"))
    show_kind(page, "semantic")
    shown = page.locator("#memory-list .card .text").first
    expect(shown).to_have_text(attack)
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#memory-list script, #memory-list img, #memory-list a").count() == 0
    page.click("#tab-search")
    page.fill("#search-input", "网站")
    page.click("#search-form button[type=submit]")
    expect(page.locator("#search-list .card .text").first).to_have_text(attack)
    assert page.evaluate("window.__pwned") is None


# -- screenshots --------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_screenshots_of_the_main_views(
    lang: str, browsers: dict[str, Any], server: webserver.Server, shots: Path
) -> None:
    t = Tab(browsers["get"](lang))
    try:
        page = t.open(server.link("u1"))
        expect(page.locator("#profile-cards")).to_be_visible()
        page.screenshot(path=str(shots / f"web-{lang}-overview.png"), full_page=True)
        show_kind(page, "semantic")
        first = page.locator("#memory-list .card").first
        first.locator("summary").first.click()
        first.locator("summary").nth(1).click()
        expect(first.locator(".sub").first).not_to_contain_text("Loading")
        page.screenshot(path=str(shots / f"web-{lang}-memories.png"), full_page=True)
        page.click("#tab-search")
        page.fill("#search-input", "怎么联系我" if lang == "zh" else "how to contact me")
        page.click("#search-form button[type=submit]")
        expect(page.locator("#search-list .card").first).to_be_visible()
        page.screenshot(path=str(shots / f"web-{lang}-search.png"), full_page=True)
        page.click("#tab-activity")
        expect(page.locator("#audit-table tbody tr").first).to_be_visible()
        page.screenshot(path=str(shots / f"web-{lang}-activity.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.click("#tab-memories")
        page.screenshot(path=str(shots / f"web-{lang}-phone.png"))
        page.set_viewport_size({"width": 1200, "height": 900})
        for name in ("overview", "memories", "search", "activity", "phone"):
            assert (shots / f"web-{lang}-{name}.png").stat().st_size > 10_000
        target = os.environ.get("MEMLANE_SCREENSHOTS")
        if target:
            page.click("#tab-memories")
            page.screenshot(path=str(Path(target) / f"web-{lang}.png"))
    finally:
        t.close()
