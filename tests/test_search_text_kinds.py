"""What search finds besides the person's, the agent's and the tools' words, and how it
names it, as the replayer does: the client's own system lines ("Claude AI usage limit
reached", "No response requested.", a notice that the model was switched), found as
`system`; a compaction summary, found as one (Claude Code 1.0 wrote it as a user record,
and search called it `agent`); a call's structured input, read as JSON as the transcript
shows it (a to-do list's snippet read `[{'content': 'Deploy …', 'status': 'i…`, Python's
form). `--json`'s `who` keeps its four values; `what` names the text finely. Text written
for the tests, in the shapes Claude Code 2.1 and 1.0 write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.catalog import discovery, search_index
from pivotal.catalog.search_index import open_search_index
from pivotal.catalog.search_query import Hit, parse_query, search
from pivotal.catalog.search_text import COMMAND, SUMMARY, SYSTEM, WHO_NAMES, turn_texts
from pivotal.model import Part, PartKind, Role, Turn, TurnFlag
from pivotal.readers import find_sessions, read_session
from pivotal.tui.render import role_label
from readers import claude_builders as cb

LIMIT = "Claude AI usage limit reached|1765213200"
SWITCHED = "Claude Opus 4 limit reached, now using Sonnet 4"
TODOS = [
    {"content": "Deploy DIRECTOR to staging", "status": "in_progress",
     "activeForm": "Deploying DIRECTOR to staging"},
    {"content": "Run the smoke tests", "status": "pending",
     "activeForm": "Running the smoke tests"},
]  # fmt: skip
SUMMARY_TEXT = (
    "This session is being continued from a previous conversation that ran out of context. "
    "The conversation is summarized below:\nAnalysis:\nThe exporter writes rows; the header "
    "row is still missing.\n\nPending Tasks:\n- Write the quarterly header row\n"
)


def limits_session() -> list[dict]:
    """2.1: a to-do list, a usage limit, the person's interrupt and the reply Claude Code
    writes for it, and a notice that it switched the model."""
    todo = {
        "type": "tool_use",
        "id": "toolu_01Todo",
        "name": "TodoWrite",
        "input": {"todos": TODOS},
    }
    return [
        cb.user("u1", None, 0, "Finish the director deployment today."),
        cb.assistant("a1", "u1", 3, "msg_1", todo),
        cb.tool_result("r1", "a1", 4, "toolu_01Todo", "Todos have been modified successfully."),
        cb.harness_reply("h1", "r1", 9, LIMIT),
        cb.user("u2", "h1", 900, "go on"),
        cb.notice("n1", "u2", 901, SWITCHED),
        cb.said("a2", "n1", 905, "msg_2", "Deploying to staging now."),
        cb.user("u3", "a2", 930, [{"type": "text", "text": "[Request interrupted by user]"}]),
        cb.harness_reply("h2", "u3", 931, "No response requested."),
    ]


def compacted_session() -> list[dict]:
    """1.0.x: the summary alone (a user record with no parent), no boundary record."""
    records = [
        cb.user("u1", None, 0, "Export the quarterly report as CSV."),
        cb.said("a1", "u1", 4, "msg_1", "The rows are written; the header comes next."),
        cb.user("s1", None, 600, SUMMARY_TEXT, isCompactSummary=True),
        cb.said("a2", "s1", 610, "msg_2", "Writing the header row."),
    ]
    return [cb.in_v1(r, "1.0.44") for r in records]


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "home"
    cb.home(root, limits_session())
    cb.home(root, compacted_session(), name="0f7e1d2c-3b4a-4c5d-8e6f-7a8b9c0d1e2f")
    return root


def refresh(home: Path) -> None:
    progress = discovery.Progress()
    discovery.refresh_index(discovery.located([home]), progress=progress, warn=print)
    assert progress.searchable, progress.problem


def find(text: str) -> list[Hit]:
    index = open_search_index()
    try:
        return search(index, parse_query(text))
    finally:
        index.close()


@pytest.mark.parametrize(
    ("query", "said"),
    [("usage limit reached", LIMIT), ("No response requested", "No response requested."),
     ("now using Sonnet", SWITCHED)],
)  # fmt: skip
def test_the_clients_own_lines_are_found_as_system_lines(home: Path, query: str, said: str) -> None:
    refresh(home)
    [hit] = find(query)
    assert hit.who == SYSTEM and WHO_NAMES[hit.who] == "system"
    assert hit.body.startswith(said.split("|")[0])  # (1.0's reset time: as the reader says it)


@pytest.mark.parametrize("index", [True, False], ids=["index", "reading"])
def test_the_table_says_system_and_json_keeps_its_who(
    home: Path, monkeypatch: pytest.MonkeyPatch, index: bool
) -> None:
    if not index:
        monkeypatch.setenv(search_index.OFF, "1")
    table = invoke("search", "usage limit reached", "--root", home)
    assert table.exit_code == 0, table.output
    head, row = table.stdout.splitlines()[:2]
    assert row[head.index("WHO") :].split()[0] == "system", row
    result = invoke("search", "usage limit reached", "--root", home, "--json")
    [doc] = [json.loads(line) for line in result.stdout.splitlines()]
    assert (doc["who"], doc["what"]) == ("tool_output", "system")
    assert doc["turn"] == 3  # after the person's message and the to-do call


def test_instructions_a_client_writes_in_tags_are_not_indexed() -> None:
    """Codex's developer messages (`<permissions instructions>…`) repeat in every session."""
    told = Turn(index=0, role=Role.SYSTEM, flags=TurnFlag.SYNTHETIC)
    told.parts = [Part(PartKind.TEXT, "<permissions instructions>Filesystem sandboxing …")]
    assert turn_texts(told) == []
    error = Turn(index=1, role=Role.SYSTEM, flags=TurnFlag.SYNTHETIC | TurnFlag.ERROR)
    error.parts = [Part(PartKind.TEXT, "stream error: exceeded retry limit, last status: 429")]
    assert turn_texts(error) == [(SYSTEM, error.parts[0].text)]


def test_a_compaction_summary_is_found_as_the_replayer_names_it(home: Path) -> None:
    refresh(home)
    [hit] = find("quarterly header row")
    assert hit.who == SUMMARY
    [ref] = [r for r in find_sessions([Path(hit.session.path)]).refs]
    turn = read_session(ref).turns[hit.turn]
    assert WHO_NAMES[hit.who] in role_label(turn)[0]  # "○ compaction summary"
    result = invoke("search", "quarterly header row", "--root", home, "--json")
    [doc] = [json.loads(line) for line in result.stdout.splitlines()]
    assert (doc["who"], doc["what"]) == ("agent", "compaction_summary")  # `who` as it was
    table = invoke("search", "quarterly header row", "--root", home).stdout
    assert " compaction summary " in table.splitlines()[1]


def test_a_calls_structured_input_reads_as_json(home: Path) -> None:
    refresh(home)
    [hit] = find('"Deploy DIRECTOR to staging"')
    assert hit.who == COMMAND
    assert '"content": "Deploy DIRECTOR to staging", "status": "in_progress"' in hit.body
    result = invoke("search", '"Deploy DIRECTOR"', "--root", home, "--json")
    [doc] = [json.loads(line) for line in result.stdout.splitlines()]
    assert "'" not in doc["snippet"] and '"status": "in_progress"' in doc["snippet"]


def test_an_index_of_the_texts_before_is_built_again(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What is indexed changed: an index written before (another `TEXT_VERSION`) is
    emptied on opening, and the next pass fills it with the texts as they are now."""
    refresh(home)
    assert find("usage limit reached")
    monkeypatch.setattr(search_index, "TEXT_VERSION", search_index.TEXT_VERSION - 1)
    assert find("usage limit reached") == []
    refresh(home)
    assert find("usage limit reached")
