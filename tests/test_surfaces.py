"""The surfaces helper itself: it must see what each surface shows, and tell them apart."""

from __future__ import annotations

from pathlib import Path

from surfaces import in_replayer, listed, through_cli

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "sample_sessions" / "claude" / "demo.jsonl"
HOME = REPO / "tests" / "fixtures" / "realclients" / "claude-short"


async def test_the_demo_reads_the_same_on_every_surface() -> None:
    cli = through_cli(DEMO)
    shown = await in_replayer(DEMO)
    assert cli.scan["turns"] == cli.export["turns"] == len(shown.turns) == 68
    assert cli.person[0].startswith("Get Qwen3-32B serving with vLLM")
    assert len(cli.person) == len(shown.person)
    assert "Get Qwen3-32B serving with vLLM" in shown.person[0]
    assert [p["turn"] for p in cli.scan["pivots"]] == [p["turn"] for p in cli.export["pivots"]]


def test_a_home_is_listed() -> None:
    rows = listed(HOME)
    assert [row["agent"] for row in rows] == ["claude-code"]
    assert rows[0]["human_turns"] == 1
