"""aider `.aider.chat.history.md`, shaped like the history aider 0.86.2 wrote.

Each run starts with `# aider chat started at …` and `> ` banner lines; a
prompt is `#### ` per line, each ending in two spaces (an empty one that reached the
model, a whitespace input, is the bare `####  `; a bare Enter, `#### <blank>`, is
never sent, so a scenario's answered silence is never written that way); the reply is plain
Markdown with SEARCH/REPLACE edit blocks and ```bash blocks that aider offers to
run; everything aider itself prints is a `> ` line ending in two spaces. aider
has no tool calls, no ids, no per-message timestamps, and does not write its
chat summarisation to this file, so a labelled compaction is listed under
`not_in_file`. The whole scenario is one aider run (one header): pivotal reads each
`# aider chat started` block as its own session, and a restart would put the silence at a
session start.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from samplegen.dsl import A, Compact, H, Interrupt, Scenario, T
from samplegen.writers.common import EMPTY, Usage, anchor, is_blank, rel, shell_command, timeline

ASK_RUN = "Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y"
ASK_ADD = "Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y"


def quoted(text: str) -> list[str]:
    """aider's own output: `> ` lines ending with two spaces (blank lines become `>`)."""
    return [f"> {row}  " if row.strip() else ">" for row in text.split("\n")]


class _Writer:
    def __init__(self, scenario: Scenario) -> None:
        self.s = scenario
        self.usage = Usage(f"aider-usage:{scenario.name}")
        self.lines: list[str] = []
        self.cost = 0.0

    def header(self, at) -> None:
        model = f"anthropic/{self.s.model}"
        self.lines += [
            "",
            f"# aider chat started at {at.strftime('%Y-%m-%d %H:%M:%S')}",
            "",
            *quoted(
                f"/home/dev/.local/bin/aider --model {model}\n"
                "Aider v0.86.2\n"
                f"Main model: {model} with diff edit format, infinite output\n"
                "Weak model: anthropic/claude-haiku-4-5\n"
                "Git repo: .git with 214 files\n"
                "Repo-map: using 4096 tokens, auto refresh"
            ),
            "",
        ]

    def physical_lines(self) -> int:
        return sum(x.count("\n") + 1 for x in self.lines)

    def human(self, step: H) -> tuple[int, str]:
        silence = step.expect[1] if step.expect else ""
        line = self.physical_lines() + 1  # elements may hold several lines
        if is_blank(step.text):
            # a bare Enter is logged as `#### <blank>` and never sent; what reaches the
            # model, and is answered, is a whitespace input, logged as a bare `####  `
            self.lines.append("####  ")
            silence = EMPTY if step.expect else silence
        else:
            self.lines += [f"#### {r}  " for r in step.text.split("\n")]
        self.lines.append("")
        return line, silence

    def edit_block(self, tool: T) -> str:
        path = rel(tool.input.get("file_path", ""), self.s.cwd)
        if tool.name == "Write":
            old, new = "", tool.input.get("content", "")
        else:
            old, new = tool.input.get("old_string", ""), tool.input.get("new_string", "")
        return f"{path}\n```\n<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n```"

    def assistant(self, step: A) -> None:
        body = [step.text] if step.text else []
        after: list[str] = []
        for tool in step.tools:
            if tool.name in ("Edit", "Write"):
                body.append(self.edit_block(tool))
                path = rel(tool.input.get("file_path", ""), self.s.cwd)
                if tool.error:
                    after += quoted(
                        "The LLM did not conform to the edit format.\n"
                        "https://aider.chat/docs/troubleshooting/edit-errors.html\n"
                        f"# 1 SEARCH/REPLACE block failed to match!\n{tool.output}"
                    )
                else:
                    after += quoted(f"Applied edit to {path}")
            elif tool.name == "TodoWrite":
                marks = {"completed": "[x]", "in_progress": "[~]", "pending": "[ ]"}
                body.append(
                    "\n".join(
                        f"- {marks.get(t['status'], '[ ]')} {t['content']}"
                        for t in tool.input.get("todos", [])
                    )
                )
            elif tool.name == "Read":
                path = rel(tool.input.get("file_path", ""), self.s.cwd)
                after += quoted(
                    f"{path}\nAdd file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y"
                )
            else:
                cmd = shell_command(tool)
                body.append(f"```bash\n{cmd}\n```")
                out = tool.output
                if tool.error and tool.exit_code is not None:
                    out = (
                        f"{out}\nexit status {tool.exit_code}"
                        if out
                        else f"exit status {tool.exit_code}"
                    )
                n = out.count("\n") + 1 if out else 0
                after += quoted(
                    f"{cmd}\n{ASK_RUN}\nRunning {cmd.split(chr(10))[0]}\n{out}\n{ASK_ADD}\n"
                    f"Added {n} lines of output to the chat."
                )
        u = self.usage.next(len(step.text), len(step.tools))
        sent = (u["input"] + u["cached"]) / 1000
        msg_cost = u["output"] * 7.5e-5 + u["input"] * 1.5e-5
        self.cost += msg_cost
        self.lines += ["\n\n".join(body) if body else "", ""]
        self.lines += quoted(
            f"Tokens: {sent:.1f}k sent, {u['output']} received. "
            f"Cost: ${msg_cost:.2f} message, ${self.cost:.2f} session."
        )
        if after:
            self.lines += after
        self.lines.append("")

    def run(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        anchors: list[dict[str, Any]] = []
        missing: list[dict[str, Any]] = []
        last_end = None
        for timed in timeline(self.s):
            step = timed.step
            if isinstance(step, H):
                if last_end is None:
                    self.header(timed.at - timedelta(seconds=4))
                line, silence = self.human(step)
                if step.expect:
                    anchors.append(anchor(line, None, step.expect, silence))
            elif last_end is None:
                continue
            elif isinstance(step, A):
                self.assistant(step)
            elif isinstance(step, Interrupt):
                self.lines += [*quoted("^C again to exit"), ""]
            elif isinstance(step, Compact) and step.expect:
                kind, silence = step.expect
                missing.append(
                    {"kind": kind, "silence": silence, "why": "aider does not write summaries"}
                )
            last_end = timed.end
        return anchors, missing


def write(scenario: Scenario, path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Write `scenario` as an aider chat history; return (anchors, labelled moments not in it)."""
    w = _Writer(scenario)
    anchors, missing = w.run()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return anchors, missing


EXT = "aider.chat.history.md"
