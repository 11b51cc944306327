"""The pass over a redacted HTML export's finished text leaves alone what was redacted whole.

A text of a turn the model pass redacted whole and HTML prints whole, escaped, in a
`<pre>` block (a tool's output, a message) is not redacted a second time
(`pivotal.export.scrubbed.Shown`): only the rules the words of the rest of its turn
choose, and its own did not, are tried on it. The rest of the turn is redacted as
the whole turn was. So a keyword beside the block still gets a key in it masked,
and the escaped quotes around a masked value stay quotes.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from html import escape
from pathlib import Path

from cli_helpers import invoke
from pivotal.export.html import BLOCK
from pivotal.export.redact import redact, redact_noting
from pivotal.export.scrubbed import Shown

from .planted import claude_record

MAILGUN = "key-3f9a8c7e1b2d4f6a0c5e9b8d7a6f1e2c"
FILLER = "".join(f"line {n}: nothing to see here\n" for n in range(20))


def _session(tmp_path: Path, said: str, output: str) -> Path:
    """A session whose one agent turn says `said` and runs a command printing `output`."""
    use = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "cat .env"}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": output}
    assistant = {"id": "m1", "type": "message", "role": "assistant", "model": "claude-opus-4-8"}
    text = {"type": "text", "text": said}
    lines = [
        claude_record(0, "user", {"role": "user", "content": "Look at the config"}),
        claude_record(1, "assistant", assistant | {"content": [text, use]}),
        claude_record(2, "user", {"role": "user", "content": [result]}),
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _html(path: Path) -> str:
    result = invoke("export", path, "--to", "html", "--no-notes", "--redact")
    assert result.exit_code == 0, result.output
    return result.stdout


def test_a_keyword_beside_a_printed_block_still_gets_its_key_masked(tmp_path) -> None:
    # the output alone names no Mailgun, so the model pass leaves the key; its turn does
    output = f"{FILLER}M={MAILGUN}\n"
    assert MAILGUN in redact(output)
    page = _html(_session(tmp_path, "These are the Mailgun settings.", output))
    assert MAILGUN not in page
    assert "[REDACTED:mailgun-key]" in page


def test_a_key_the_page_joins_by_dropping_colour_is_masked(tmp_path) -> None:
    # `grep --color` cut the key in three; the escapes go before any rule looks (the page
    # drops the colour too, so its block is redacted again, whole)
    key = "ghp_R8mN2qW5eT9yU1iO4pA7sD0fG3hJ6kL8zX2c"
    output = f"{FILLER}GH={key[:10]}\x1b[01;31m{key[10:20]}\x1b[0m{key[20:]}\n"
    assert key[:10] not in redact(output)
    page = _html(_session(tmp_path, "Found it.", output))
    assert key not in page and key[:10] not in page


def test_quotes_around_a_masked_value_stay_quotes(tmp_path) -> None:
    page = _html(_session(tmp_path, "Reading it.", f'{FILLER}API_KEY="s3cr3tV4lu3x"\n'))
    assert "s3cr3tV4lu3x" not in page
    # the pass over the page once took the escaped quote for a value and masked it too
    assert "API_KEY=&quot;[REDACTED:secret-value]&quot;" in page


def _shown() -> Shown:
    return Shown(partial(escape, quote=True), BLOCK, 20_000)


def test_a_noted_block_is_not_redacted_again() -> None:
    seen = _shown()
    done, words = redact_noting(f'{FILLER}API_KEY="s3cr3tV4lu3x"\n')
    seen.note(done, words)
    piece = f"<article><pre>{escape(done)}</pre><p>done</p></article>"
    counts: Counter[str] = Counter()
    assert seen.redact(piece, counts, ()) == piece
    assert counts == Counter()
    assert redact(piece) != piece  # a second full pass masks the escaped quote


def test_a_block_not_noted_and_the_text_around_blocks_are_redacted() -> None:
    seen = _shown()
    done, words = redact_noting(FILLER)
    seen.note(done, words)
    piece = f"<pre>{escape(done)}</pre><b>token ghp_R8mN2qW5eT9yU1iO4pA7sD0fG3hJ6kL8zX2c</b>"
    piece += "<pre>export OPENAI_API_KEY=sk-proj-fake4fQ9xZ2mW7vB1nK8pL3sT6yH0cR5dJ</pre>"
    assert seen.redact(piece, None, ()) == redact(piece)
    assert "ghp_" not in redact(piece) and "sk-proj-" not in redact(piece)


def test_a_mask_over_a_left_out_block_redacts_the_whole_piece() -> None:
    seen = _shown()
    done, words = redact_noting(FILLER)
    seen.note(done, words)
    begin, end = "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----"
    piece = f"<p>{begin}</p><pre>{escape(done)}</pre><p>{end}</p>"
    assert seen.redact(piece, None, ()) == redact(piece)
    assert "[REDACTED:private-key]" in redact(piece)
