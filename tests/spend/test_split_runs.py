"""A scan on two processes gives every pivot's run exactly as one process does.

The long session of `tests/cli/test_scan_split.py` (the samples chained) is changed
so that the agent works on, unprompted, from the last pivot before the seam to
the end: that run crosses the seam, and the parent's half of it is joined to the
child's. Two of its calls run sub-agents, one on each side of the seam.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from pivotal.detect import PivotConfig
from pivotal.model import SessionRef
from pivotal.readers import read_session

HERE = Path(__file__).resolve()


def _split_tests() -> ModuleType:
    path = HERE.parents[1] / "cli" / "test_scan_split.py"
    spec = importlib.util.spec_from_file_location("scan_split_helpers", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _subagent(folder: Path, agent: str, prompt: str, stamp: str) -> None:
    base = {"isSidechain": True, "agentId": agent, "sessionId": "s", "timestamp": stamp}
    records = [
        {**base, "type": "user", "uuid": f"{agent}-u", "parentUuid": None,
         "message": {"role": "user", "content": prompt}},
        {**base, "type": "assistant", "uuid": f"{agent}-a", "parentUuid": f"{agent}-u",
         "message": {"id": f"msg_{agent}", "role": "assistant", "model": "claude-haiku-4-5",
                     "content": [{"type": "text", "text": "done"}],
                     "usage": {"input_tokens": 7000, "output_tokens": 300}}},
    ]  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    (folder / f"agent-{agent}.jsonl").write_text(text, encoding="utf-8")


def test_a_run_across_the_seam_and_its_subagents_are_the_one_process_answer(tmp_path) -> None:
    helpers = _split_tests()
    lines = helpers.long_session_lines(3)
    path = helpers._write(tmp_path, lines)
    seam = helpers._seam_line(path, lines)
    alone = json.loads(helpers._scan(path, "json", split=False)["out"])
    pivot_line = [p["line"] for p in alone["pivots"] if p["line"] - 1 < seam][-1]

    out, agents = [], []
    for index, line in enumerate(lines):
        rec = json.loads(line)
        message = rec.get("message") or {}
        if index >= pivot_line:  # the person says nothing more, no compaction hands over
            if rec.get("type") == "user" and isinstance(message.get("content"), str):
                rec["isMeta"] = True
            if rec.get("isCompactSummary"):
                rec["isCompactSummary"] = False
                message["content"] = "(notes)"
            if rec.get("subtype") == "compact_boundary":
                rec["subtype"], rec["content"] = "informational", "(notes)"
                rec.pop("compactMetadata", None)
        blocks = message.get("content") if rec.get("type") == "assistant" else None
        wanted = (seam - 40, seam + 400)  # one call before the seam, one well after it
        if isinstance(blocks, list) and len(agents) < 2 and index > wanted[len(agents)]:
            for block in blocks:
                if block.get("type") == "tool_use":
                    prompt = f"Sub-task {len(agents)}: look into {block['id']}"
                    block["name"], block["input"] = "Agent", {"prompt": prompt}
                    agents.append((f"agent{len(agents)}", prompt, rec["timestamp"]))
                    break
        out.append(json.dumps(rec, separators=(",", ":"), ensure_ascii=False))
    assert len(agents) == 2
    path = helpers._write(tmp_path, out)
    for agent, prompt, stamp in agents:
        _subagent(path.with_suffix("") / "subagents", agent, prompt, stamp)

    split = helpers._scan(path, "json", split=True)
    one = helpers._scan(path, "json", split=False)
    assert split["outcome"] == "split"
    assert split["out"] == one["out"]
    report = json.loads(one["out"])
    runs = [p["run"] for p in report["pivots"]]
    crossing = [r for r in runs if r["end_turn"] - r["first_turn"] > 2 * sum(PivotConfig().reach())]
    assert crossing and crossing[0]["ended_by"] == "end"
    assert sum(r["subagents"]["count"] for r in runs) == 2
    assert crossing[0]["subagents"]["tokens"] == 2 * 7300


def _sidechain_block(agent: str, prompt: str, stamp: str) -> list[str]:
    """A 1.0.x sub-agent written into the main file: its prompt and its one reply."""
    base = {"isSidechain": True, "userType": "external", "sessionId": "s", "timestamp": stamp}
    records = [
        {"parentUuid": None, **base, "type": "user", "message": {"role": "user", "content": prompt},
         "uuid": f"{agent}-u"},
        {"parentUuid": f"{agent}-u", **base,
         "message": {"id": f"msg_{agent}", "type": "message", "role": "assistant",
                     "model": "claude-haiku-4-5", "content": [{"type": "text", "text": "done"}],
                     "usage": {"input_tokens": 7000, "output_tokens": 300}},
         "type": "assistant", "uuid": f"{agent}-a"},
    ]  # fmt: skip
    return [json.dumps(r, separators=(",", ":")) for r in records]


def test_sidechains_on_both_sides_of_the_seam_are_the_one_process_answer(tmp_path) -> None:
    """The same session with its two sub-agents written into the file, 1.0.x's way: each
    block right before its Task's result, one on each side of the seam."""
    helpers = _split_tests()
    lines = helpers.long_session_lines(3)
    path = helpers._write(tmp_path, lines)
    seam = helpers._seam_line(path, lines)
    alone = json.loads(helpers._scan(path, "json", split=False)["out"])
    pivot_line = [p["line"] for p in alone["pivots"] if p["line"] - 1 < seam][-1]

    out: list[str] = []
    blocks: dict[str, list[str]] = {}
    made = 0
    for index, line in enumerate(lines):
        rec = json.loads(line)
        message = rec.get("message") or {}
        if index >= pivot_line:  # the person says nothing more, no compaction hands over
            if rec.get("type") == "user" and isinstance(message.get("content"), str):
                rec["isMeta"] = True
            if rec.get("isCompactSummary"):
                rec["isCompactSummary"] = False
                message["content"] = "(notes)"
            if rec.get("subtype") == "compact_boundary":
                rec["subtype"], rec["content"] = "informational", "(notes)"
                rec.pop("compactMetadata", None)
        content = message.get("content")
        if rec.get("type") == "user" and isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("tool_use_id") in blocks:
                    out.extend(blocks.pop(block["tool_use_id"]))  # the block, then the result
        # one call before the seam, one past where the parent stops reading
        wanted = (seam - 40, len(lines) - 200)
        if rec.get("type") == "assistant" and isinstance(content, list) and made < 2:
            if not blocks and index > wanted[made]:
                for block in content:
                    if block.get("type") == "tool_use":
                        prompt = f"Sub-task {made}: look into {block['id']}"
                        block["name"], block["input"] = "Task", {"prompt": prompt}
                        blocks[block["id"]] = _sidechain_block(
                            f"side{made}", prompt, rec["timestamp"]
                        )
                        made += 1
                        break
        out.append(json.dumps(rec, separators=(",", ":"), ensure_ascii=False))
    assert made == 2 and not blocks
    path = helpers._write(tmp_path, out)
    seam_at = helpers._seam_line(path, out)
    sides = [out.index(next(x for x in out if f"side{n}-u" in x)) for n in (0, 1)]
    assert sides[0] < seam_at < sides[1]

    split = helpers._scan(path, "json", split=True)
    one = helpers._scan(path, "json", split=False)
    assert split["outcome"] == "split"
    assert split["out"] == one["out"]
    report = json.loads(one["out"])
    (tmp_path / "plain").mkdir()
    plain = helpers._write(tmp_path / "plain", [x for x in out if '"isSidechain":true' not in x])
    assert report["turns"] == len(read_session(SessionRef("claude-code", plain)).turns)
    runs = [p["run"] for p in report["pivots"]]
    crossing = [r for r in runs if r["end_turn"] - r["first_turn"] > 2 * sum(PivotConfig().reach())]
    assert crossing and crossing[0]["subagents"]["count"] == 2
    assert crossing[0]["subagents"]["tokens"] == 2 * 7300
