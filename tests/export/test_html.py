"""HTML export: one self-contained page, escaped text, anchored pivots; opened in Chromium."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pivotal.export import render

from .conftest import SECRET_VALUES
from .pngread import decode_png, pixels

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PIVOT_RGB = (0xB3, 0x26, 0x1E)  # --pivot in the light scheme: pivot panel borders and links


class Page(HTMLParser):
    """Tags, ids, links and resource references of a page, as a browser would parse them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: Counter[str] = Counter()
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.refs: list[tuple[str, str, str]] = []
        self.text: list[str] = []
        self.classes: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        self.tags[tag] += 1
        for name, value in attrs:
            value = value or ""
            if name == "id":
                self.ids.append(value)
                self.classes[value] = dict(attrs).get("class") or ""
            if name == "href":
                self.hrefs.append(value)
            if name in ("src", "href", "srcset", "action", "poster", "data", "background"):
                self.refs.append((tag, name, value))

    def handle_data(self, data):
        self.text.append(data)


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    return page


def test_pivots_are_anchored_and_indexed(demo_input):
    html = render("html", demo_input)
    page = parse(html)
    ids = set(page.ids)
    turns = demo_input.session.turns
    # numbered as the page shows the turns ("Turn #70" is #turn-70), not from 0
    assert {f"turn-{t.index + 1}" for t in turns} <= ids and "turn-0" not in ids
    for number, pivot in enumerate(demo_input.pivots, 1):
        assert f"pivot-{number}" in ids
        assert "is-pivot" in page.classes[f"turn-{pivot.turn + 1}"]
        assert page.hrefs.count(f"#turn-{pivot.turn + 1}") >= 2  # index and panel
        assert f'href="#turn-{pivot.turn + 1}">Turn #{pivot.turn + 1}:' in html
    assert all(h.startswith("#") and h[1:] in ids for h in page.hrefs)  # no dead or outside links
    calls = sum(len(t.tool_calls) for t in turns)
    assert page.tags["details"] == calls
    assert page.tags["article"] == len(turns)
    assert page.tags["script"] == 0 and page.tags["link"] == 0 and page.tags["img"] == 0


def test_no_external_resource_references_at_all(hostile_input):
    html = render("html", hostile_input)
    page = parse(html)
    assert not [r for r in page.refs if not r[2].startswith("#")]
    # nothing outside text can point at a URL: every http(s) occurrence is escaped session text
    assert not re.search(r"""(?:src|href|srcset|action)\s*=\s*["']?\s*(?:https?:)?//""", html, re.I)
    assert not re.search(r"url\(", html, re.I)
    assert "default-src 'none'" in html
    text = "".join(page.text)
    assert '<img src="https://evil.example/x.png">' in text  # shown as text, not as an image
    assert page.tags["script"] == 0 and page.tags["img"] == 0
    assert not any(ord(c) < 0x20 and c not in "\n\t" for c in html)
    assert not any(0x7F <= ord(c) <= 0x9F for c in html)


def test_redacted_html_has_no_secrets(hostile_input):
    assert any(s in render("html", hostile_input) for s in SECRET_VALUES)
    html = render("html", hostile_input, redact=True)
    for secret in SECRET_VALUES:
        assert secret not in html
    assert parse(html).tags["article"] == len(hostile_input.session.turns)


def _chromium(tmp: Path, target: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    profile = tmp / f"profile-{len(list(tmp.iterdir()))}"
    argv = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        *extra,
        target.as_uri(),
    ]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)


def _page_requests(netlog: Path) -> list[str]:
    """URLs the page asked for (Chromium's own update/time pings have no origin)."""
    log = json.loads(netlog.read_text())
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    urls = []
    for event in log["events"]:
        params = event.get("params") or {}
        if names.get(event["type"]) == "URL_REQUEST_START_JOB" and "url" in params:
            if params.get("initiator") != "not an origin":
                urls.append(params["url"])
    return urls


@pytest.fixture
def browser() -> str:
    """The browser is part of the test: in CI (which installs it) a missing one fails.

    On a developer machine without Chromium the test is reported as skipped, with
    the install line, rather than passing.
    """
    if CHROMIUM is None:
        message = "chromium not found: apt-get update && apt-get install -y chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return CHROMIUM


def test_chromium_renders_the_pivots_without_network(tmp_path, hostile_input, browser):
    page = tmp_path / "export.html"
    page.write_text(render("html", hostile_input), encoding="utf-8")
    shot, netlog = tmp_path / "shot.png", tmp_path / "net.json"
    done = _chromium(
        tmp_path,
        page,
        f"--screenshot={shot}",
        "--window-size=1200,900",
        f"--log-net-log={netlog}",
    )
    assert shot.exists(), done.stderr[-2000:]
    width, height, rows, bpp = decode_png(shot.read_bytes())
    assert (width, height) == (1200, 900)
    colours = Counter(pixels(rows, bpp))
    assert len(colours) > 50  # text, tables and panels, not a blank page
    assert colours[PIVOT_RGB] > 500  # the pivot index and the first pivot panel are on screen
    requests = _page_requests(netlog)
    assert requests == []
    assert "evil.example" not in netlog.read_text()

    dom = _chromium(tmp_path, page, "--dump-dom").stdout
    rendered = parse(dom)
    for number, pivot in enumerate(hostile_input.pivots, 1):
        assert f"pivot-{number}" in rendered.ids and f"turn-{pivot.turn + 1}" in rendered.ids
    assert rendered.tags["script"] == 0 and rendered.tags["img"] == 0


def test_the_network_check_would_see_a_page_request(tmp_path, browser):
    """Control: a page with a remote image does show up in the net log, so [] above means none."""
    page = tmp_path / "leaky.html"
    page.write_text('<html><body><img src="http://127.0.0.1:9/leak.png">x</body></html>')
    netlog = tmp_path / "net.json"
    _chromium(tmp_path, page, "--dump-dom", f"--log-net-log={netlog}")
    assert any("127.0.0.1:9/leak.png" in url for url in _page_requests(netlog))
