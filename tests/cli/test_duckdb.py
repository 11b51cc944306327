"""`scan --json` lines load into DuckDB with the documented column types (issue 17.6).

A file of several sessions (Claude Code, aider blocks with keys, an opencode
database, a file with skipped records) is written by the real command, read by
DuckDB's `read_json_auto`, and the two one-liners of docs/json.md (where the README
sends its readers) are run on it, their answers checked against the same lines read
with the standard library.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from cli_helpers import invoke

duckdb = pytest.importorskip("duckdb", reason="DuckDB (test extra) is not installed")

REPO = Path(__file__).resolve().parents[2]
PATHS = [
    REPO / "sample_sessions" / "claude",
    REPO / "sample_sessions" / "aider",
    REPO / "sample_sessions" / "opencode",
    REPO / "tests" / "fixtures" / "claude" / "ugly.jsonl",
    REPO / "tests" / "fixtures" / "realclients" / "opencode-short",
]
TOP = {
    "path": "VARCHAR",
    "key": "VARCHAR",
    "format": "VARCHAR",
    "session_id": "VARCHAR",
    "turns": "BIGINT",
    "skipped": "STRUCT(line BIGINT, reason VARCHAR)[]",
}
PIVOT_FIELDS = [
    "turn BIGINT",
    "message_id VARCHAR",
    "line BIGINT",
    '"timestamp" TIMESTAMP WITH TIME ZONE',
    "kind VARCHAR",
    "silence VARCHAR",
    "confidence DOUBLE",
    "candidate BOOLEAN",
    "reason VARCHAR",
    '"cluster" BIGINT[]',
    'signals STRUCT("name" VARCHAR, turns BIGINT[], detail VARCHAR, weight DOUBLE,'
    ' side VARCHAR, quotes VARCHAR[], "value" DOUBLE)[]',
    "possible BOOLEAN",
]


@pytest.fixture(scope="module")
def lines_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    result = invoke("scan", "--json", *PATHS)
    assert result.exit_code == 0, result.output
    path = tmp_path_factory.mktemp("duck") / "pivots.jsonl"
    path.write_text(result.stdout, encoding="utf-8")
    assert len(result.stdout.splitlines()) > 10
    return path


def test_read_json_auto_gives_the_documented_column_types(lines_file: Path) -> None:
    described = duckdb.sql(f"DESCRIBE SELECT * FROM read_json_auto('{lines_file}')").fetchall()
    types = {name: kind for name, kind, *_ in described}
    assert {name: types[name] for name in TOP} == TOP
    pivots = types["pivots"]
    assert pivots.startswith("STRUCT(") and pivots.endswith(")[]")
    for field in PIVOT_FIELDS:
        assert field in pivots, (field, pivots)


def _documented_queries() -> list[str]:
    doc = (REPO / "docs" / "json.md").read_text(encoding="utf-8")
    return re.findall(r'^duckdb -c "(.*)"$', doc, flags=re.M)


def test_the_documented_one_liners_answer_what_the_lines_say(lines_file: Path) -> None:
    rows = [json.loads(line) for line in lines_file.read_text().splitlines()]
    by_format, by_kind = _documented_queries()
    got = duckdb.sql(by_format.replace("pivots.jsonl", str(lines_file))).fetchall()
    formats = sorted({r["format"] for r in rows})
    assert got == [
        (
            f,
            sum(1 for r in rows if r["format"] == f),
            sum(len(r["pivots"]) for r in rows if r["format"] == f),
        )
        for f in formats
    ]
    kinds = duckdb.sql(by_kind.replace("pivots.jsonl", str(lines_file))).fetchall()
    counted = Counter(p["kind"] for r in rows for p in r["pivots"])
    assert [(kind, n) for kind, n, _ in kinds] == sorted(counted.items())
    assert all(0 <= confidence <= 1 for _, _, confidence in kinds)
