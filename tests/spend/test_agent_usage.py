"""Per agent: the tokens a session used, counted by hand, and their cost from the price list.

Every agent's usage records are given numbers of our own in a copy of the home
its real CLI wrote (`shapes`), the records it writes twice among them: Claude
Code's lines of one message (and a line written again), Gemini's rewritten
records, Codex's repeated token counts, opencode's step-finish parts, Qwen's
telemetry, Vibe's journal copies, Kimi's usage records, Cline's and Continue's
session totals. Each response must count once, with its reasoning in its
output, at its model's price.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pivotal.readers import find_sessions, read_session
from pivotal.spend.tally import Tally, tally_turns

from .shapes import Numbers, dollars, home, numbers, rewrite_json, rewrite_jsonl, totals


def only_session(path: Path):  # type: ignore[no-untyped-def]
    [ref] = find_sessions([path]).refs
    return read_session(ref)


def spent(path: Path) -> Tally:
    session = only_session(path)
    return tally_turns(session.turns, session.model)


def check(tally: Tally, counted: list[Numbers], table_name: str | None) -> None:
    got = {
        "input": tally.input,
        "output": tally.output,
        "cache_read": tally.cache_read,
        "cache_write": tally.cache_write,
        "reasoning": tally.reasoning,
    }
    assert got == totals(counted)
    assert tally.responses == len(counted)
    if table_name is None:
        assert tally.unpriced == len(counted) and tally.cost == 0
    else:
        assert tally.unpriced == 0
        assert tally.cost == pytest.approx(dollars(counted, table_name), rel=1e-9)


def test_claude_code_one_message_over_several_lines_and_a_line_written_twice(
    tmp_path: Path,
) -> None:
    root = home(tmp_path, "claude-short")
    [path] = root.rglob("*.jsonl")
    order: dict[str, int] = {}

    def change(rec: Any) -> Any:
        message = rec.get("message")
        if rec.get("type") == "assistant" and isinstance(message, dict) and "usage" in message:
            k = order.setdefault(message["id"], len(order) + 1)
            n = numbers(k, thinking=False)
            message["usage"].update(
                input_tokens=n.fresh,
                output_tokens=n.output,
                cache_read_input_tokens=n.cache_read,
                cache_creation_input_tokens=n.cache_write,
            )
        return rec

    rewrite_jsonl(path, change, compact=True)
    lines = path.read_text(encoding="utf-8").splitlines()
    twice = next(i for i, line in enumerate(lines) if '"type":"assistant"' in line)
    lines.insert(twice + 1, lines[twice])  # a record written again, same uuid
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    assert len(order) == 9  # nine messages over thirteen assistant lines (one per block)
    counted = [numbers(k, thinking=False) for k in range(1, 10)]
    check(spent(path), counted, "claude-opus-4-8")


def test_codex_token_counts_written_twice_count_once(tmp_path: Path) -> None:
    root = home(tmp_path, "codex-short")
    [path] = root.rglob("rollout-*.jsonl")
    seen: list[Numbers] = []

    def change(rec: Any) -> Any:
        payload = rec.get("payload") or {}
        if rec.get("type") == "turn_context":
            payload["model"] = "gpt-5-codex"
        if rec.get("type") == "event_msg" and payload.get("type") == "token_count":
            n = numbers(len(seen) + 1, write=False)
            seen.append(n)
            info = payload["info"]
            info["last_token_usage"] = {key: _codex_field(n, key) for key in CODEX_FIELDS}
            info["total_token_usage"] = {
                key: sum(_codex_field(x, key) for x in seen) for key in CODEX_FIELDS
            }
        return rec

    rewrite_jsonl(path, change, compact=True)
    lines = path.read_text(encoding="utf-8").splitlines()
    counts = [i for i, line in enumerate(lines) if '"type":"token_count"' in line]
    lines.insert(counts[2] + 1, lines[counts[2]])  # the same count written again
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    assert len(seen) == 9
    check(spent(path), seen, "gpt-5-codex")


CODEX_FIELDS = (
    "input_tokens",
    "cached_input_tokens",
    "cache_write_input_tokens",
    "output_tokens",
    "reasoning_output_tokens",
    "total_tokens",
)


def _codex_field(n: Numbers, key: str) -> int:
    """OpenAI's counts: the input holds the cached part, the output the reasoning."""
    return {
        "input_tokens": n.fresh + n.cache_read,
        "cached_input_tokens": n.cache_read,
        "cache_write_input_tokens": 0,
        "output_tokens": n.output,
        "reasoning_output_tokens": n.reasoning,
        "total_tokens": n.fresh + n.cache_read + n.output,
    }[key]


def _gemini_tokens(n: Numbers) -> dict[str, int]:
    """Gemini's own counts: the prompt holds the cache, the thoughts are beside the output."""
    prompt, candidates = n.fresh + n.cache_read, n.output - n.reasoning
    return {
        "input": prompt,
        "output": candidates,
        "cached": n.cache_read,
        "thoughts": n.reasoning,
        "tool": 0,
        "total": prompt + candidates + n.reasoning,
    }


def test_gemini_a_record_rewritten_counts_as_its_last_copy_with_its_thoughts(
    tmp_path: Path,
) -> None:
    root = home(tmp_path, "gemini-short")
    [path] = root.rglob("session-*.jsonl")
    copies: dict[str, int] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if rec.get("type") == "gemini":
            copies[rec["id"]] = copies.get(rec["id"], 0) + 1
    ids = list(copies)
    seen: dict[str, int] = {}

    def change(rec: Any) -> Any:
        if rec.get("type") == "gemini" and "tokens" in rec:
            ident = rec["id"]
            seen[ident] = seen.get(ident, 0) + 1
            k = ids.index(ident) + 1
            last = seen[ident] == copies[ident]
            # an earlier copy of the record says less: only the last one counts
            rec["tokens"] = _gemini_tokens(numbers(k if last else 90 + k, write=False))
        return rec

    rewrite_jsonl(path, change, compact=True)
    assert any(n > 1 for n in copies.values())
    counted = [numbers(k, write=False) for k in range(1, len(ids) + 1)]
    check(spent(path), counted, "gemini/gemini-3.8-flash")


@pytest.mark.parametrize("thoughts_inside", [True, False])
def test_qwen_whichever_way_its_translation_counts_thoughts(
    tmp_path: Path, thoughts_inside: bool
) -> None:
    root = home(tmp_path, "qwen-short")
    [path] = root.rglob("*.jsonl")
    seen: list[Numbers] = []

    def change(rec: Any) -> Any:
        if rec.get("type") == "assistant" and "usageMetadata" in rec:
            rec["model"] = "qwen3.8-max"
            n = numbers(len(seen) + 1, write=False)
            seen.append(n)
            prompt = n.fresh + n.cache_read
            candidates = n.output if thoughts_inside else n.output - n.reasoning
            rec["usageMetadata"] = {
                "promptTokenCount": prompt,
                "candidatesTokenCount": candidates,
                "thoughtsTokenCount": n.reasoning,
                "totalTokenCount": prompt + n.output,
                "cachedContentTokenCount": n.cache_read,
            }
        payload = rec.get("systemPayload") or {}
        event = payload.get("uiEvent") if isinstance(payload, dict) else None
        if isinstance(event, dict) and "input_token_count" in event:
            event["input_token_count"] = 10**9  # telemetry about a response, not another one
        return rec

    rewrite_jsonl(path, change, compact=True)
    assert len(seen) == 10
    check(spent(path), seen, "dashscope/qwen3.8-max")


def _opencode(db: Path, model: str, provider: str, *, read: bool, write: bool, inside: bool):
    """Give the assistant messages new tokens (and their step-finish parts other ones)."""
    seen: list[Numbers] = []
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT id, data FROM message ORDER BY time_created, id").fetchall()
        for ident, data in rows:
            info = json.loads(data)
            if info.get("role") != "assistant":
                continue
            n = numbers(len(seen) + 1, read=read, write=write)
            seen.append(n)
            output = n.output if inside else n.output - n.reasoning
            info["tokens"] = {
                # what opencode writes: the input without the cache, and a total that says
                # whether the reasoning was inside the output or beside it
                "total": n.fresh + n.cache_read + n.cache_write + n.output,
                "input": n.fresh,
                "output": output,
                "reasoning": n.reasoning,
                "cache": {"read": n.cache_read, "write": n.cache_write},
            }
            info["modelID"], info["providerID"] = model, provider
            conn.execute("UPDATE message SET data = ? WHERE id = ?", (json.dumps(info), ident))
        for ident, data in conn.execute("SELECT id, data FROM part").fetchall():
            part = json.loads(data)
            if part.get("type") == "step-finish":
                part["tokens"] = {"total": 7, "input": 7, "output": 0, "reasoning": 0}
                conn.execute("UPDATE part SET data = ? WHERE id = ?", (json.dumps(part), ident))
    return seen


def test_opencode_message_tokens_once_not_again_from_its_steps(tmp_path: Path) -> None:
    root = home(tmp_path, "opencode-short")
    [db] = root.rglob("opencode.db")
    seen = _opencode(db, "claude-sonnet-4-5", "anthropic", read=True, write=True, inside=False)
    assert len(seen) == 10
    check(spent(db), seen, "claude-sonnet-4-5")


def test_kilo_message_tokens_with_the_reasoning_inside_the_output(tmp_path: Path) -> None:
    root = home(tmp_path, "kilo-short")
    [db] = root.rglob("kilo.db")
    seen = _opencode(db, "gpt-5.1", "openai", read=True, write=False, inside=True)
    assert len(seen) == 10
    check(spent(db), seen, "gpt-5.1")


def test_kimi_step_usage_once_and_no_price_without_a_model(tmp_path: Path) -> None:
    root = home(tmp_path, "kimi-short")
    [wire] = root.rglob("wire.jsonl")
    seen: list[Numbers] = []

    def change(rec: Any) -> Any:
        message = rec.get("message") or {}
        if message.get("type") == "StatusUpdate" and "token_usage" in message.get("payload", {}):
            n = numbers(len(seen) + 1, thinking=False)
            seen.append(n)
            message["payload"]["token_usage"] = {
                "input_other": n.fresh,
                "output": n.output,
                "input_cache_read": n.cache_read,
                "input_cache_creation": n.cache_write,
            }
        return rec

    rewrite_jsonl(wire, change, compact=False)
    assert len(seen) == 10
    # kimi-cli writes no model into the session: its tokens count, with no price
    check(spent(wire.parent), seen, None)


def test_kimi_code_step_usage_once_not_again_from_its_usage_records(tmp_path: Path) -> None:
    from readers.test_kimi_code import journal, write_home

    lines = json.loads(json.dumps(journal()).replace("kimi-k2-test", "kimi-k2.5"))
    folder = write_home(tmp_path / "home", lines)
    step = Numbers(fresh=300, output=40, cache_read=9000, cache_write=0, reasoning=0)
    check(spent(folder), [step, step], "moonshot/kimi-k2.5")


def test_vibe_completion_usage_once_though_the_journal_holds_it_twice(tmp_path: Path) -> None:
    root = home(tmp_path, "vibe-short")
    [folder] = root.rglob("unified/*")
    [meta] = folder.glob("meta.json")
    rewrite_json(
        meta, lambda m: {**m, "config": {**m["config"], "model_name": "devstral-medium-latest"}}
    )
    order: dict[str, int] = {}

    def walk(value: Any, action: str | None) -> None:
        if isinstance(value, dict):
            action = value.get("action_id") if isinstance(value.get("action_id"), str) else action
            usage = value.get("usage")
            if isinstance(usage, dict) and "input_tokens" in usage and action is not None:
                n = numbers(order.setdefault(action, len(order) + 1), write=False, thinking=False)
                usage.update(
                    input_tokens=n.fresh + n.cache_read,
                    cached_input_tokens=n.cache_read,
                    output_tokens=n.output,
                    total_tokens=n.fresh + n.cache_read + n.output,
                )
            for item in value.values():
                walk(item, action)
        elif isinstance(value, list):
            for item in value:
                walk(item, action)

    for journal in folder.glob("journal/*.jsonl"):
        rewrite_jsonl(journal, lambda rec: (walk(rec, None), rec)[1], compact=True)
    assert len(order) == 10
    counted = [numbers(k, write=False, thinking=False) for k in range(1, 11)]
    check(spent(folder), counted, "mistral/devstral-medium-latest")


def test_cline_message_metrics_once_not_again_from_the_session_totals(tmp_path: Path) -> None:
    root = home(tmp_path, "cline-short")
    [messages] = root.rglob("*.messages.json")
    seen: list[Numbers] = []

    def change(doc: Any) -> Any:
        for message in doc["messages"]:
            if message.get("role") == "assistant" and "metrics" in message:
                n = numbers(len(seen) + 1, thinking=False)
                seen.append(n)
                message["metrics"] = {
                    "inputTokens": n.fresh,
                    "outputTokens": n.output,
                    "cacheReadTokens": n.cache_read,
                    "cacheWriteTokens": n.cache_write,
                }
                message["modelInfo"] = {"id": "claude-haiku-4-5", "provider": "anthropic"}
        return doc

    rewrite_json(messages, change)
    assert len(seen) == 9
    check(spent(messages.parent), seen, "claude-haiku-4-5")


def test_continue_message_usage_once_not_again_from_the_session_usage(tmp_path: Path) -> None:
    root = home(tmp_path, "continue-short")
    [path] = [p for p in root.rglob("*.json") if p.name != "sessions.json"]
    seen: list[Numbers] = []

    def change(doc: Any) -> Any:
        for item in doc["history"]:
            usage = item["message"].get("usage")
            if isinstance(usage, dict):
                n = numbers(len(seen) + 1, read=False, write=False, thinking=False)
                seen.append(n)
                item["message"]["usage"] = {
                    "prompt_tokens": n.fresh,
                    "completion_tokens": n.output,
                    "total_tokens": n.fresh + n.output,
                    "model": "gpt-5.1",
                    "cost_cents": 0,
                }
        return doc

    rewrite_json(path, change, indent=2)
    assert len(seen) == 10
    check(spent(path), seen, "gpt-5.1")


def test_aider_token_reports_with_cache_writes_and_hits(tmp_path: Path) -> None:
    root = home(tmp_path, "aider-short")
    path = root / ".aider.chat.history.md"
    text = path.read_text(encoding="utf-8")
    text = text.replace("> Model: openai/mock-model", "> Model: claude-sonnet-4-5")
    reports = text.count("> Tokens: 1.0k sent, 50 received.")
    assert reports == 2
    # aider rounds to hundreds above a thousand: "6.4k sent, 1.2k cache write, 3.0k cache hit"
    text = text.replace(
        "> Tokens: 1.0k sent, 50 received.",
        "> Tokens: 6.4k sent, 1.2k cache write, 3.0k cache hit, 203 received. Cost: $0.02 message,"
        " $0.04 session.",
    )
    path.write_text(text, encoding="utf-8")
    one = Numbers(
        fresh=6400 - 1200 - 3000, output=203, cache_read=3000, cache_write=1200, reasoning=0
    )
    check(spent(path), [one, one], "claude-sonnet-4-5")


def test_a_sessions_own_model_prices_turns_that_name_none() -> None:
    from pivotal.model import Role, Turn, Usage

    turns = [Turn(index=0, role=Role.ASSISTANT, usage=Usage(input=1000, output=10))]
    priced = tally_turns(turns, "claude-opus-4-8")
    expected = dollars([Numbers(1000, 10, 0, 0, 0)], "claude-opus-4-8")
    assert priced.cost == pytest.approx(expected) and priced.unpriced == 0
    unpriced = tally_turns(turns, None)
    assert unpriced.cost == 0 and unpriced.unpriced == 1 and unpriced.tokens == 1010
