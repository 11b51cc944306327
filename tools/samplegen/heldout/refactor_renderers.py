# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Held-out: pulling report rendering out of a 2,400-line cli.py into a package (generic chat JSONL).

Labelled: "do it" after the agent's refactor plan (implicit approval); whitespace-only after a
streak of circular-import and mypy failures (delegation after a dead end); "." after the agent
reports a latent bug it stumbled on, after which it switches from refactoring to fixing that bug
(`other`: no failure streak, no milestone, no pending proposal); "sure, next" after the refactor
lands with numbers (continue after milestone). Negatives: "continue" as the very first message,
"ok" during routine moves, a directed "keep the old import paths working".
"""

from __future__ import annotations

from samplegen.heldout._kit import A, H, Kit, Scenario

FORMATS = ["generic"]

CWD = "/home/aki/src/ledgerctl"
k = Kit(CWD)
sh, rd, ed, wr, todo, grep = k.sh, k.read, k.edit, k.write, k.todo, k.grep

PLAN = """`ledgerctl/cli.py` is 2,412 lines; 1,630 of them render reports. Proposal:

```
ledgerctl/
  cli.py                 # click commands only (~700 lines)
  render/
    __init__.py          # Renderer protocol + get_renderer(fmt)
    table.py             # rich tables (was _print_table, _fmt_money, _col_widths)
    csv.py               # was _write_csv, _csv_escape
    json.py              # was _dump_json
    markdown.py          # was _md_table
    pdf.py               # was _render_pdf (reportlab, imported lazily)
```

- `Renderer` protocol: `render(report: Report, out: IO[str]) -> None`.
- Commands call `get_renderer(fmt).render(report, sys.stdout)` instead of the 5-way `if fmt ==`.
- Move code verbatim first (one commit), then clean up (second commit), so the diff is reviewable.
- Safety net: the 143 CLI tests plus golden-file tests I'd add first for all 5 formats × 4 reports.

Risks: `pdf.py` pulls reportlab (slow import) — must stay lazy; some helpers are shared with
`import_cmd` (money parsing) and would need a neutral home (`ledgerctl/money.py`)."""

STUCK = """Stuck in an import tangle:

1. moved `_fmt_money` to `render/table.py` → `ImportError: cannot import name 'Report' from partially initialized module 'ledgerctl.cli'` (render imports cli for `Report`, cli imports render)
2. moved `Report` into `ledgerctl/models.py` → circular again: `models.py` imports `_parse_money` from `cli.py`
3. moved `_parse_money` to `money.py` → imports OK, but `mypy` reports 137 errors (`Module "ledgerctl.cli" has no attribute "_fmt_money"` in tests and `import_cmd.py`)
4. re-exporting from `cli.py` → mypy down to 41, but `test_pdf_import_is_lazy` fails: importing `ledgerctl.cli` now imports reportlab (+410 ms)

Golden tests: 20/20 still pass; CLI tests 131/143."""

RECAP = """## State of the refactor

**Goal**: rendering out of `cli.py` into `ledgerctl/render/`, behaviour identical (golden files).

**Done**: `render/` package with table/csv/json/markdown/pdf; `money.py`; `models.py` (`Report`).
Golden tests 20/20 pass.

**Broken**: 12 CLI tests, 41 mypy errors (tests and `import_cmd.py` reach into `cli` privates),
and reportlab is no longer lazy because `cli.py` re-exports `render.pdf`.

**Plan**
1. Make `render/__init__.py` import format modules lazily (`importlib` in `get_renderer`).
2. Drop the re-exports from `cli.py`; fix tests/imports to the new homes (mechanical, 23 sites).
3. Keep a `ledgerctl.cli._fmt_money` shim with a DeprecationWarning for the one external plugin."""

BUG = """Found something while moving `csv.py` that isn't part of the refactor: `_write_csv` uses
`itertools.islice(rows, 65535)`, a leftover from an old Excel limit, so CSV exports silently stop
at 65,535 rows. The `transactions` report for the `acme-prod` ledger has 212,904 rows, so anyone
exporting it as CSV has been getting a truncated file without a warning. The golden tests
didn't catch it because the fixtures have < 100 rows."""

MOVES = [
    ("render/json.py", "_dump_json", 38),
    ("render/markdown.py", "_md_table", 112),
    ("render/csv.py", "_write_csv, _csv_escape", 141),
    ("render/pdf.py", "_render_pdf, _pdf_styles", 402),
]


def steps() -> list:
    s: list = [
        H("continue"),
        # ^ NOT a pivot: a go-on as the very first message of a fresh session; there is no work before it.
        A(
            "This is a new session, so I don't have earlier context here. What should I continue? If it's the `ledgerctl` refactor, tell me which part."
        ),
        H(
            "cli.py is unreadable, 2400 lines and most of it is output formatting. propose how to split "
            "the rendering out. plan only"
        ),
        A(
            tools=[
                sh(
                    "wc -l ledgerctl/*.py && rg -c '^def |^class ' ledgerctl/cli.py",
                    "  2412 ledgerctl/cli.py\n   311 ledgerctl/import_cmd.py\n    58 ledgerctl/config.py\n    12 ledgerctl/__init__.py\n  2793 total\n96",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "rg -n '^def _(print_table|fmt_money|col_widths|write_csv|csv_escape|dump_json|md_table|render_pdf|pdf_styles|parse_money)' ledgerctl/cli.py",
                    "212:def _fmt_money(v: Decimal, cur: str) -> str:\n231:def _parse_money(s: str) -> Decimal:\n260:def _col_widths(rows, cols):\n301:def _print_table(report, out):\n"
                    "688:def _write_csv(report, out):\n742:def _csv_escape(v):\n760:def _dump_json(report, out):\n801:def _md_table(report, out):\n915:def _render_pdf(report, out):\n1277:def _pdf_styles():",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "rg -n 'from ledgerctl.cli import|cli\\._' ledgerctl tests plugins | wc -l && rg -n 'if fmt ==' ledgerctl/cli.py | wc -l",
                    "23\n11",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "python -X importtime -c 'import ledgerctl.cli' 2>&1 | sort -t'|' -k2 -n | tail -3",
                    "import time:      1822 |      38114 | rich.console\nimport time:      2004 |      61290 | click\nimport time:       811 |      96408 | ledgerctl.cli",
                )
            ]
        ),
        A(PLAN),
        H("do it", expect=("implicit_approval", "ack")),
        # ^ the person asked for a plan only; the agent laid one out with risks; "do it" and the agent executes it.
        A(
            "Starting with golden files so every move is checked against the current output.",
            tools=[
                todo(
                    [
                        ("Golden-file tests: 5 formats × 4 reports", "in_progress"),
                        ("Create render/ package, move code verbatim", "pending"),
                        ("Switch commands to get_renderer()", "pending"),
                        ("Clean-up commit", "pending"),
                    ]
                )
            ],
        ),
        A(
            tools=[
                wr(
                    "tests/test_golden.py",
                    '@pytest.mark.parametrize("fmt", ["table", "csv", "json", "markdown", "pdf-text"])\n@pytest.mark.parametrize("report", ["balance", "transactions", "budget", "cashflow"])\n'
                    'def test_golden(fmt, report, ledger_fixture, golden):\n    out = CliRunner().invoke(main, ["report", report, "--format", fmt, "--ledger", ledger_fixture]).output\n    golden.check(f"{report}.{fmt}", out)\n',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pytest tests/test_golden.py --golden-update -q && git add tests/golden tests/test_golden.py && git commit -qm 'tests: golden files for report output' && pytest -q 2>&1 | tail -1",
                    "20 passed in 3.81s\n163 passed in 11.02s",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "mkdir -p ledgerctl/render && touch ledgerctl/render/__init__.py && python scripts/move_defs.py ledgerctl/cli.py ledgerctl/render/table.py _print_table _fmt_money _col_widths",
                    "moved 3 defs (214 lines) to ledgerctl/render/table.py",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pytest -q -x 2>&1 | tail -3",
                    "E   ImportError: cannot import name 'Report' from partially initialized module 'ledgerctl.cli' (most likely due to a circular import) (/home/aki/src/ledgerctl/ledgerctl/cli.py)\n"
                    "ERROR tests/test_cli.py\n1 error in 0.62s",
                    code=2,
                )
            ]
        ),
        A(
            "`render/table.py` needs `Report` from `cli.py`, and `cli.py` imports `render`. Moving `Report` into `ledgerctl/models.py`.",
            tools=[
                sh(
                    "python scripts/move_defs.py ledgerctl/cli.py ledgerctl/models.py Report ReportRow && pytest -q -x 2>&1 | tail -2",
                    "moved 2 defs (61 lines) to ledgerctl/models.py\nE   ImportError: cannot import name '_parse_money' from partially initialized module 'ledgerctl.cli'\n1 error in 0.58s",
                    code=2,
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "python scripts/move_defs.py ledgerctl/cli.py ledgerctl/money.py _parse_money _fmt_money && pytest -q 2>&1 | tail -1 && mypy ledgerctl tests 2>&1 | tail -1",
                    "moved 2 defs (44 lines) to ledgerctl/money.py\n12 failed, 151 passed in 10.44s\nFound 137 errors in 9 files (checked 31 source files)",
                    code=1,
                )
            ]
        ),
    ]
    for i, (dest, names, n) in enumerate(MOVES):
        s.append(
            A(
                tools=[
                    sh(
                        f"python scripts/move_defs.py ledgerctl/cli.py ledgerctl/{dest} {names.replace(',', '')} && pytest tests/test_golden.py -q 2>&1 | tail -1",
                        f"moved {len(names.split(','))} defs ({n} lines) to ledgerctl/{dest}\n20 passed in 3.{70 + i}s",
                    )
                ]
            )
        )
        if i == 1:
            s.append(H("ok"))
            # ^ NOT a pivot: an ack between identical move-and-check steps.
        if i == 3:
            s.append(H("👍"))
            # ^ NOT a pivot: the last verbatim move is done and the same refactor carries on (mypy clean-up).
        if i == 2:
            s.append(A(BUG))
            s.append(H(".", expect=("other", "ack")))
            # ^ the agent surfaced an unrelated latent bug; after the bare "." it switches from refactoring to fixing it.
            #   Not a dead end, milestone or pending proposal: `other`.
            s += [
                A(
                    "Fixing the truncation first since it affects users now; I'll keep it a separate commit from the refactor.",
                    tools=[
                        todo(
                            [
                                ("Golden-file tests: 5 formats × 4 reports", "completed"),
                                ("Fix CSV truncation at 65,535 rows", "in_progress"),
                                ("Create render/ package, move code verbatim", "in_progress"),
                                ("Switch commands to get_renderer()", "pending"),
                                ("Clean-up commit", "pending"),
                            ]
                        )
                    ],
                ),
                A(
                    tools=[
                        wr(
                            "tests/test_csv_large.py",
                            'def test_csv_exports_every_row(tmp_path, big_ledger):\n    out = CliRunner().invoke(main, ["report", "transactions", "--format", "csv", "--ledger", big_ledger(70_000)]).output\n'
                            '    assert out.count("\\n") == 70_001  # header + rows\n',
                        )
                    ]
                ),
                A(
                    tools=[
                        sh(
                            "pytest tests/test_csv_large.py -q 2>&1 | tail -2",
                            "E       assert 65536 == 70001\n1 failed in 4.02s",
                            code=1,
                        )
                    ]
                ),
                A(
                    tools=[
                        ed(
                            "ledgerctl/render/csv.py",
                            "    for row in itertools.islice(rows, 65535):",
                            "    for row in rows:",
                        )
                    ]
                ),
                A(
                    tools=[
                        sh(
                            "pytest tests/test_csv_large.py tests/test_golden.py -q 2>&1 | tail -1 && git add ledgerctl/render/csv.py tests/test_csv_large.py && git commit -qm 'csv: stop truncating exports at 65,535 rows'",
                            "21 passed in 8.31s",
                        )
                    ]
                ),
                A(
                    "Truncation fixed and committed on its own (`csv: stop truncating exports at 65,535 rows`). Back to the refactor."
                ),
            ]
    s += [
        A(
            tools=[
                sh(
                    "mypy ledgerctl tests 2>&1 | rg -o 'has no attribute \"[a-z_]+\"' | sort | uniq -c | sort -rn | head -4",
                    '     52 has no attribute "_fmt_money"\n     31 has no attribute "_print_table"\n     28 has no attribute "_write_csv"\n     26 has no attribute "_render_pdf"',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "git diff --stat | tail -1 && ruff check ledgerctl | tail -1",
                    " 8 files changed, 1702 insertions(+), 1688 deletions(-)\nFound 6 errors (6 fixable with the `--fix` option).",
                )
            ]
        ),
        A(
            "The moves left unused imports behind in `cli.py`; fixing those before dealing with the mypy errors.",
            tools=[
                sh(
                    "ruff check --fix --select F401 ledgerctl | tail -1",
                    "Found 6 errors (6 fixed, 0 remaining).",
                )
            ],
        ),
        A(
            "Re-exporting the moved names from `cli.py` so the old imports keep working.",
            tools=[
                ed(
                    "ledgerctl/cli.py",
                    "from ledgerctl.models import Report, ReportRow",
                    "from ledgerctl.models import Report, ReportRow\nfrom ledgerctl.money import _fmt_money, _parse_money  # noqa: F401\nfrom ledgerctl.render.table import _print_table  # noqa: F401\n"
                    "from ledgerctl.render.csv import _write_csv  # noqa: F401\nfrom ledgerctl.render.pdf import _render_pdf  # noqa: F401",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "mypy ledgerctl tests 2>&1 | tail -1; pytest -q 2>&1 | tail -3",
                    "Found 41 errors in 6 files (checked 34 source files)\nFAILED tests/test_cli.py::test_pdf_import_is_lazy - AssertionError: reportlab imported at startup (+410 ms)\n12 failed, 152 passed in 10.87s",
                    code=1,
                )
            ]
        ),
        A(STUCK),
        H("   ", expect=("delegation_after_dead_end", "empty")),
        # ^ whitespace only after four failed untanglings; the agent recaps and finds a way through on its own.
        A(RECAP),
        A(
            tools=[
                wr(
                    "ledgerctl/render/__init__.py",
                    '"""Report renderers, imported on first use so `ledgerctl --help` never loads reportlab."""\nfrom importlib import import_module\nfrom typing import IO, Protocol\n\n'
                    '_MODULES = {"table": "table", "csv": "csv", "json": "json", "markdown": "markdown", "pdf": "pdf", "pdf-text": "pdf"}\n\n\n'
                    'class Renderer(Protocol):\n    def render(self, report: "Report", out: IO[str]) -> None: ...\n\n\n'
                    'def get_renderer(fmt: str) -> Renderer:\n    return import_module(f"ledgerctl.render.{_MODULES[fmt]}").RENDERER\n',
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "ledgerctl/cli.py",
                    "from ledgerctl.money import _fmt_money, _parse_money  # noqa: F401\nfrom ledgerctl.render.table import _print_table  # noqa: F401\n"
                    "from ledgerctl.render.csv import _write_csv  # noqa: F401\nfrom ledgerctl.render.pdf import _render_pdf  # noqa: F401",
                    "from ledgerctl.render import get_renderer",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "rg -l 'from ledgerctl.cli import _|cli\\._(fmt_money|print_table|write_csv|render_pdf|parse_money)' ledgerctl tests plugins",
                    "ledgerctl/import_cmd.py\ntests/test_cli.py\ntests/test_money.py\ntests/test_table.py\ntests/test_pdf.py\nplugins/ledgerctl_xero/export.py",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "sed -i -E 's/from ledgerctl.cli import (_fmt_money|_parse_money)/from ledgerctl.money import \\1/; s/cli\\._(fmt_money|parse_money)/money._\\1/g' ledgerctl/import_cmd.py tests/test_money.py && sed -i -E 's/from ledgerctl.cli import _print_table/from ledgerctl.render.table import _print_table/' tests/test_table.py && sed -i -E 's/from ledgerctl.cli import _render_pdf/from ledgerctl.render.pdf import _render_pdf/' tests/test_pdf.py",
                    "",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "mypy ledgerctl tests 2>&1 | tail -1; pytest -q 2>&1 | tail -2",
                    "Found 3 errors in 1 file (checked 34 source files)\nFAILED tests/test_cli.py::test_report_formats[pdf] - AttributeError: module 'ledgerctl.render.pdf' has no attribute 'RENDERER'\n5 failed, 159 passed in 10.12s",
                    code=1,
                )
            ]
        ),
        A(
            "Each format module needs a `RENDERER` object; adding thin classes around the moved functions.",
            tools=[
                ed(
                    "ledgerctl/render/pdf.py",
                    "def _pdf_styles():",
                    "class PdfRenderer:\n    def render(self, report, out):\n        _render_pdf(report, out)\n\n\nRENDERER = PdfRenderer()\n\n\ndef _pdf_styles():",
                ),
                sh(
                    "python scripts/add_renderer_class.py ledgerctl/render/{table,csv,json,markdown}.py",
                    "table.py: TableRenderer\ncsv.py: CsvRenderer\njson.py: JsonRenderer\nmarkdown.py: MarkdownRenderer",
                ),
            ],
        ),
        A(
            tools=[
                sh(
                    "mypy ledgerctl tests 2>&1 | tail -1; pytest -q 2>&1 | tail -2",
                    'ledgerctl/cli.py:402: error: Name "_fmt_money" is not defined  [name-defined]\nFound 1 error in 1 file (checked 34 source files)\n1 failed, 163 passed in 10.40s',
                    code=1,
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "ledgerctl/cli.py",
                    '    click.echo(f"Total: {_fmt_money(total, ledger.currency)}")',
                    '    click.echo(f"Total: {money.fmt(total, ledger.currency)}")',
                ),
                ed(
                    "ledgerctl/cli.py",
                    "from ledgerctl.render import get_renderer",
                    "from ledgerctl import money\nfrom ledgerctl.render import get_renderer",
                ),
            ]
        ),
        A(
            tools=[
                sh(
                    "mypy ledgerctl tests && pytest -q 2>&1 | tail -1 && python -X importtime -c 'import ledgerctl.cli' 2>&1 | tail -1",
                    "Success: no issues found in 34 source files\n164 passed in 10.31s\nimport time:       402 |      79114 | ledgerctl.cli",
                )
            ]
        ),
        H(
            "keep the old import paths working for the xero plugin though, it's pinned and we can't release it this month"
        ),
        # ^ NOT silent: a directed constraint.
        A(
            tools=[
                ed(
                    "ledgerctl/cli.py",
                    "from ledgerctl import money\n",
                    'from ledgerctl import money\n\n\ndef __getattr__(name: str):\n    """Old private names, kept for ledgerctl-xero <=1.4 (pinned); warn so it gets updated."""\n'
                    '    old = {"_fmt_money": money.fmt, "_parse_money": money.parse}\n    if name in old:\n'
                    '        warnings.warn(f"ledgerctl.cli.{name} moved to ledgerctl.money", DeprecationWarning, stacklevel=2)\n        return old[name]\n    raise AttributeError(name)\n',
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "pip install -q 'ledgerctl-xero==1.4.2' && python -W error::DeprecationWarning -c 'import ledgerctl_xero.export' 2>&1 | tail -1; python -c 'import ledgerctl_xero.export; print(\"ok\")'",
                    "DeprecationWarning: ledgerctl.cli._fmt_money moved to ledgerctl.money\nok",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "rg -c 'if fmt ==' ledgerctl/cli.py; wc -l ledgerctl/cli.py ledgerctl/render/*.py ledgerctl/money.py ledgerctl/models.py | tail -1",
                    "0\n  2486 total",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "git add -A ledgerctl tests && git commit -qm 'render: move report rendering out of cli.py into ledgerctl.render' && git log --oneline -3",
                    "e0b4f12 render: move report rendering out of cli.py into ledgerctl.render\n7a2c9d1 csv: stop truncating exports at 65,535 rows\n4f18b30 tests: golden files for report output",
                )
            ]
        ),
        A(
            "The refactor is in:\n\n| | before | after |\n|---|---|---|\n| `cli.py` | 2,412 lines | 688 lines |\n| `if fmt ==` branches | 11 | 0 |\n"
            "| `import ledgerctl.cli` | 96 ms | 79 ms (reportlab still lazy) |\n| tests | 163 | 165 (golden 20, csv size 1) |\n| mypy | clean | clean |\n\n"
            "Golden files are byte-identical. The xero plugin still imports the old names with a DeprecationWarning.",
            tools=[
                todo(
                    [
                        ("Golden-file tests: 5 formats × 4 reports", "completed"),
                        ("Fix CSV truncation at 65,535 rows", "completed"),
                        ("Create render/ package, move code verbatim", "completed"),
                        ("Switch commands to get_renderer()", "completed"),
                        ("Clean-up commit", "in_progress"),
                    ]
                )
            ],
        ),
        H("sure, next", expect=("continue_after_milestone", "ack")),
        # ^ after the reported result, a bare go-on: the agent starts the clean-up phase it had planned.
        A(
            "Clean-up phase: the moved code still has the old private names and duplicated width logic.",
            tools=[
                sh(
                    "rg -n 'def _' ledgerctl/render | wc -l && rg -n '_col_widths' ledgerctl/render",
                    "31\nledgerctl/render/table.py:18:def _col_widths(rows, cols):\nledgerctl/render/markdown.py:22:def _col_widths(rows, cols):  # copy",
                )
            ],
        ),
        A(
            tools=[
                wr(
                    "ledgerctl/render/_layout.py",
                    '"""Column widths shared by the table and markdown renderers."""\n\n\ndef column_widths(rows, cols) -> list[int]:\n    return [max(len(c.title), *(len(c.format(r)) for r in rows)) for c in cols]\n',
                )
            ]
        ),
        A(
            tools=[
                ed(
                    "ledgerctl/render/markdown.py",
                    "def _col_widths(rows, cols):  # copy",
                    "from ledgerctl.render._layout import column_widths as _col_widths  # was a copy",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "python scripts/rename_privates.py ledgerctl/render && pytest -q 2>&1 | tail -1 && mypy ledgerctl tests | tail -1",
                    "renamed 24 functions in 5 files\n165 passed in 10.20s\nSuccess: no issues found in 35 source files",
                )
            ]
        ),
        A(
            tools=[
                sh(
                    "git add -A ledgerctl && git commit -qm 'render: public names, one column-width helper' && git log --oneline -1",
                    "b81e0aa render: public names, one column-width helper",
                )
            ]
        ),
        A(
            "Updating the contributor docs so new formats go through the protocol.",
            tools=[
                ed(
                    "CONTRIBUTING.md",
                    "## Adding a report format\n\nAdd a branch to every `if fmt ==` in `cli.py`.",
                    "## Adding a report format\n\nAdd `ledgerctl/render/<name>.py` exposing `RENDERER` (see the `Renderer` protocol) and register it in `_MODULES`.",
                )
            ],
        ),
        A(
            tools=[
                sh(
                    "ledgerctl report balance --format table --ledger tests/fixtures/small.ledger | head -5",
                    "┏━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┓\n┃ Account           ┃    Balance ┃\n┡━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━┩\n│ Assets:Bank       │ €12,408.10 │\n│ Expenses:Hosting  │    €912.00 │",
                )
            ]
        ),
        A(
            "Clean-up committed: public renderer names, one shared width helper, 165 tests and mypy clean. Three commits on the branch: golden tests, CSV fix, refactor + clean-up."
        ),
    ]
    return s


SCENARIOS = [
    Scenario(
        name="heldout-ledgerctl-render-refactor",
        title="Split report rendering out of cli.py",
        cwd=CWD,
        steps=steps(),
        model="qwen3-coder-480b",
        start="2026-11-06T16:10:00Z",
        seconds_per_step=30,
        notes="pivots: implicit_approval (do it), other (. after a discovered bug), delegation_after_dead_end (whitespace), continue_after_milestone (sure, next)",
    )
]
