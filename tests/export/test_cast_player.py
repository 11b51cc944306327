"""The cast plays in the real asciinema-player (npm, 3.17) in headless Chromium.

The player is loaded from a local npm install (no network): it must parse the
v2 and the v3 file, stop at one marker per pivot with our labels
(pauseOnMarkers), and play to the end. Install it with
`npm install --prefix ~/.cache/pivotal-test asciinema-player@3.17.0`
or point PIVOTAL_ASCIINEMA_PLAYER at a `node_modules/asciinema-player` folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pivotal.export import render
from pivotal.export.cast import marker_label

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DEFAULT = Path.home() / ".cache" / "pivotal-test" / "node_modules" / "asciinema-player"
PLAYER = Path(os.environ.get("PIVOTAL_ASCIINEMA_PLAYER", DEFAULT)) / "dist" / "bundle"

PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>{css}</style></head><body>
<div id="player"></div><pre id="log">pending</pre>
<script>{js}</script>
<script>
const log = [];
const show = () => {{ document.getElementById("log").textContent = JSON.stringify(log); }};
window.addEventListener("error", (e) => {{ log.push(["error", String(e.message)]); show(); }});
const player = AsciinemaPlayer.create({{data: {cast}}}, document.getElementById("player"),
  {{pauseOnMarkers: true, autoPlay: true, speed: 1000}});
player.addEventListener("marker", (e) => {{
  log.push(["marker", e.index, e.label]); show(); setTimeout(() => player.play(), 10);
}});
player.addEventListener("ended", () => {{ log.push(["ended"]); show(); }});
</script></body></html>"""


@pytest.mark.parametrize("version", [2, 3])
def test_asciinema_player_stops_at_every_pivot(tmp_path, demo_input, version):
    if CHROMIUM is None or not (PLAYER / "asciinema-player.min.js").exists():
        message = "needs chromium and a local asciinema-player (see the module docstring)"
        if os.environ.get("CI"):
            pytest.fail(message)  # .ci/run installs both
        pytest.skip(message)
    page = tmp_path / "player.html"
    page.write_text(
        PAGE.format(
            css=(PLAYER / "asciinema-player.css").read_text(),
            js=(PLAYER / "asciinema-player.min.js").read_text(),
            cast=json.dumps(render("cast", demo_input, cast_version=version)).replace("</", "<\\/"),
        ),
        encoding="utf-8",
    )
    argv = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=30000",
        "--dump-dom",
        page.as_uri(),
    ]
    dom = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False).stdout
    found = re.search(r'<pre id="log">([^<]*)</pre>', dom)
    assert found, dom[-2000:]
    log = json.loads(found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
    markers = [entry for entry in log if entry[0] == "marker"]
    expected = [["marker", i, marker_label(i + 1, p)] for i, p in enumerate(demo_input.pivots)]
    assert markers == expected
    assert log[-1] == ["ended"]
    assert not [entry for entry in log if entry[0] == "error"]
