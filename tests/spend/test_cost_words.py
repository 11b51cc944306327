"""One way to say what a session cost, wherever it is shown.

The daily-use audit found "no cost known" said four ways: `—` in the picker, `-` and
`no price` in `stats`, `10k tk` in the picker. Now: a cost when known (`$3.40`, `≥$3.40`
when part had no price); `no price` when tokens are recorded but no model has a price, its
token figure beside it where there is room; `—` when no usage is recorded at all. The
picker's cost column holds what it shows (`45.5M …` was cut at 80 and 160 columns).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.catalog.stats import SessionStats, stats_table
from pivotal.model import SessionRef
from pivotal.text.fit import cells
from pivotal.tui.picker import Columns, header, ref_label

PATH = Path("/home/dev/.codex/sessions/2025/11/01/rollout-1.jsonl")


def test_the_words_for_a_cost() -> None:
    from pivotal.spend.words import cost_cell, tokens_cell

    assert cost_cell(1200, 3.4, True) == "$3.40"
    assert cost_cell(1200, 1026.0, False) == "≥$1,026"
    assert cost_cell(45_500_000, None, None) == "no price"
    assert cost_cell(None, None, None) == "—" and cost_cell(0, None, None) == "—"
    assert tokens_cell(45_500_000) == "45.5M" and tokens_cell(1_534_600_000) == "1.5B"
    assert tokens_cell(None) == "—"


def _ref(**counts: object) -> SessionRef:
    return SessionRef("codex", PATH, turns=433, pivots=0, title="continue", **counts)  # type: ignore[arg-type]


UNPRICED = _ref(tokens=45_500_000)
HUGE = _ref(tokens=1_534_600_000)
PRICED = _ref(tokens=9_000, cost=1026.4, cost_whole=False)
NOTHING = _ref()


@pytest.mark.parametrize("width", [80, 100, 160])
def test_the_picker_cost_column_holds_what_it_shows(width: int) -> None:
    cols = Columns.for_width(width)
    head = header(cols).plain
    end = head.index("cost") + len("cost")  # the column ends where its (right-aligned) name does
    for ref, said in ((UNPRICED, "no price"), (PRICED, "≥$1,026"), (NOTHING, "—")):
        row = ref_label(ref, counting=False, cols=cols).plain
        assert row[end - cells(said) : end] == said, (row, said)
        assert "tk" not in row and "…" not in row[:end]
    tokens = "tokens" in head
    assert tokens == (width >= 120)  # where there is room, the token figure is beside it
    if tokens:
        row = ref_label(HUGE, counting=False, cols=cols).plain
        assert row[head.index("tokens") : end].strip() == "1.5B no price", row


def _stats(tokens: int, cost: float | None, priced: bool) -> SessionStats:
    return SessionStats(
        label="rollout-1.jsonl",
        format="codex",
        path=str(PATH),
        turns=433,
        tokens=tokens,
        own_tokens=tokens,
        cost_usd=cost,
        priced=priced,
        own_cost_usd=cost,
    )


def test_stats_says_it_the_same_way_with_the_tokens_of_an_unpriced_session() -> None:
    table = stats_table([_stats(45_500_000, None, False), _stats(0, None, False)])
    rows = table.splitlines()[1:3]
    assert rows[0].endswith("  no price · 45.5M tokens"), rows[0]
    assert rows[1].endswith("  —"), rows[1]
    assert "-" not in rows[1].split()[-1]


def test_an_export_of_a_session_without_usage_says_so_as_the_tables_do(tmp_path: Path) -> None:
    """aider writes no token counts: the report's 'Tokens and cost' is `—`, as elsewhere."""
    history = tmp_path / ".aider.chat.history.md"
    history.write_text(
        "\n# aider chat started at 2026-11-02 09:00:00\n\n"
        "#### Rename the helper to parse_row\n\nRenamed it in utils.py.\n",
        encoding="utf-8",
    )
    result = invoke("export", history, "--to", "md")
    assert result.exit_code == 0, result.output
    [row] = [line for line in result.stdout.splitlines() if line.startswith("| Tokens and cost")]
    assert row == "| Tokens and cost | — |", row
