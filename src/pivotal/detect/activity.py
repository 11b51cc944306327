"""What a tool call did, in a few words: read, search, edit, test, launch ...

The phase labels, the "no execution since the proposal" rule and the topic
terms all need to know whether a call looked around or changed something.
Shell commands are split on `&&`, `;` and `|`; a command is read-only only if
every piece is.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pivotal.detect.lazyre import lazy
from pivotal.detect.view import ToolView

SHELL_TOOLS = frozenset(
    "bash shell exec_command run_shell_command local_shell local_shell_call terminal execute "
    "run_command shell_command run_terminal_cmd container.exec run_commands".split()
)
READ_TOOLS = frozenset(
    "read read_file view ls list list_directory glob read_many_files notebookread cat "
    "get_file open_file readfile read_files".split()
)
SEARCH_TOOLS = frozenset(
    "grep search search_file_content websearch web_search google_web_search webfetch web_fetch "
    "fetch codesearch task agent explore lookup search_files find_files".split()
)
EDIT_TOOLS = frozenset(
    "edit write multiedit apply_patch patch replace write_file str_replace_editor notebookedit "
    "create_file edit_file str_replace insert multi_edit strreplacefile writefile editor "
    "search_replace".split()
)
PLAN_TOOLS = frozenset(
    "todowrite todoread update_plan taskcreate taskupdate tasklist todo_write write_todos "
    "settodolist checklist todo".split()
)

READ_COMMANDS = frozenset(
    "ls cat head tail less more grep rg ag find fd which whereis type echo printf pwd cd stat "
    "file wc "
    "sort uniq jq yq tree du df free ps pgrep top htop uptime uname lsb_release hostname date id "
    "whoami env printenv nvidia-smi lspci lscpu lsblk lsmod dmesg journalctl ldd readelf nm "
    "strings diff cmp md5sum sha256sum sleep true test [ awk cut tr column nproc ss netstat "
    "curl wget ping nc sed realpath dirname basename git pip pip3 apt apt-cache dpkg conda nvcc "
    "python python3 node npm uv cargo go rustc gcc ninja cmake docker systemctl watch timeout "
    "time nohup sudo xargs tee".split()
)
"""Commands that are read-only unless their arguments say otherwise (see `_segment_kind`)."""

_ENV = lazy(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")
WRITE_REDIRECT = r"(?<![\d&>])>>?\s*(?!&|/dev/null\b)\S"
"""Output redirected into a file (`> out.txt`), not `2>&1`, `2>/dev/null` or `>/dev/null`."""
_TEST = lazy(
    r"\b(pytest|unittest|tox|nox|jest|vitest|mocha|go test|cargo test|npm (run )?test|"
    r"make (check|test)|ctest|phpunit|rspec)\b"
)
_BENCH = lazy(r"bench|perf\b|hyperfine|timeit|throughput|latency|wrk\b|locust|\bab -n|profile")
_INSTALL = lazy(
    r"\b(pip3? install|uv (pip )?(install|sync|add)|apt(-get)? (install|upgrade|"
    r"remove|purge)|conda (install|update|create)|npm (install|ci|i)\b|yarn add|"
    r"brew install|cargo (build|install)|make\b|cmake --build|ninja\b|setup\.py|"
    r"dpkg -i|update-alternatives|go build|docker build|\.run\b|--upgrade|bootstrap)"
)
_LAUNCH = lazy(
    r"launch_server|\bserve\b|runserver|\bserver\.(py|js)\b|nohup|uvicorn|gunicorn|"
    r"docker (run|compose)|"
    r"systemctl (start|restart)|npm (run )?(start|dev)|flask run|&\s*$|setsid"
)
_POLL = lazy(
    r"\bsleep\b|\buntil\b|\bwhile\b|/health|/v1/models|localhost|127\.0\.0\.1|"
    r"\btail -f\b|\bwait\b|\bps aux\b|\bpgrep\b|nvidia-smi"
)
_MUTATING_ARGS = lazy(
    r"(^|\s)(-i|--in-place)\b|" + WRITE_REDIRECT + r"|(^|\s)(rm|mv|cp|mkdir|touch|chmod|chown|ln|"
    r"kill|pkill|killall|patch|install|commit|push|checkout|reset|apply|"
    r"merge|rebase|clone|add|upgrade|remove|uninstall|restart|start|stop|"
    r"create|build|compile|train|-m)(?=\s|$)"
)
"""An argument that makes a read-only command write: a subcommand standing as a word of its
own (`install` in `cat install.sh` or `checkout` in `checkout-api/` is part of a path)."""
_GIT_READ = lazy(r"^git (status|log|diff|show|branch|remote|rev-parse|describe|blame|ls-files)")
_PKG_READ = lazy(
    r"^(pip3?|uv pip|conda|npm|apt|apt-cache|dpkg) (show|list|index|freeze|info|"
    r"search|policy|view|ls|-l|-s|--version|-V)\b|--version\b|-V$|--help\b"
)
_PY_PROBE = lazy(r"^python3? -c\b")


_AIDER_RUN = lazy(r"^Running (.+)$", re.MULTILINE)


def command_of(tool: ToolView) -> str:
    """The shell command a call ran ('' for non-shell tools)."""
    name = tool.name.lower()
    data = tool.input
    if name == "aider":  # aider's log after a reply: the commands it ran, if any
        return "\n".join(m.group(1) for m in _AIDER_RUN.finditer(tool.output or ""))
    if name not in SHELL_TOOLS and not (
        isinstance(data, dict)
        and ("command" in data or "cmd" in data or "commands" in data)
        and name not in EDIT_TOOLS
    ):
        return ""
    if isinstance(data, dict):
        several = data.get("commands")  # Cline's run_commands: a list of whole commands
        if isinstance(several, list) and "command" not in data and "cmd" not in data:
            return "; ".join(str(x) for x in several)
        value = data.get("command", data.get("cmd", ""))
        if isinstance(value, list):
            parts = [str(x) for x in value]
            if (
                len(parts) >= 3
                and parts[0].endswith(("bash", "sh", "zsh"))
                and parts[1] in ("-lc", "-c")
            ):
                return parts[2]
            return " ".join(parts)
        return str(value)
    if isinstance(data, str):
        return data
    return ""


_WORD = lazy(r"\s*(\S+)\s*")


def _strip_prefixes(seg: str) -> str:
    """The command without `sudo`, `env`, `VAR=value`, `timeout 30` ... in front."""
    while True:
        match = _WORD.match(seg)
        if match is None:
            return seg
        word = match.group(1)
        if word in ("sudo", "nohup", "time", "env", "exec", "setsid") or _ENV.match(word):
            seg = seg[match.end() :]
        elif word == "timeout":
            rest = seg[match.end() :]
            duration = _WORD.match(rest)
            if duration is None or not _WORD.match(rest, duration.end()):
                return seg
            seg = rest[duration.end() :]
        else:
            return seg


@lru_cache(maxsize=1024)
def _segment_kind(seg: str) -> str:
    """What one piece of a shell command does. Remembered: an agent runs the same few
    commands again and again (the test run, `git status`), and a listing judges
    thousands of calls in one process (101,000 pieces, 394 different, over the
    2,000 sessions of bench_sessions' home: a fifth of their detection time)."""
    seg = _strip_prefixes(seg.strip())
    if not seg:
        return "read"
    head = seg.split()[0].rsplit("/", 1)[-1]
    if _TEST.search(seg):
        return "test"
    if _INSTALL.search(seg):
        return "install"
    if _BENCH.search(seg) and head not in ("cat", "ls", "grep", "head", "tail", "rg", "find"):
        return "bench"
    if _LAUNCH.search(seg) and head not in (
        "cat",
        "ls",
        "grep",
        "head",
        "tail",
        "rg",
        "curl",
        "ps",
        "pgrep",
    ):
        return "launch"
    if _POLL.search(seg):
        return "poll"
    if _GIT_READ.match(seg) or _PKG_READ.search(seg):
        return "read"
    if _PY_PROBE.match(seg) and not re.search(
        r"open\([^)]*['\"]w|write|subprocess|os\.system", seg
    ):
        return "read"
    if head in READ_COMMANDS and head not in (
        "python",
        "python3",
        "node",
        "npm",
        "uv",
        "cargo",
        "go",
        "git",
        "pip",
        "pip3",
        "apt",
        "conda",
        "docker",
        "systemctl",
        "gcc",
        "rustc",
        "ninja",
        "cmake",
        "sed",
        "tee",
        "xargs",
        "nvcc",
    ):
        if _MUTATING_ARGS.search(seg) and head not in (
            "grep",
            "rg",
            "echo",
            "printf",
            "curl",
            "find",
        ):
            return "edit"
        if head == "echo" and re.search(WRITE_REDIRECT, seg):
            return "edit"
        return "read"
    if head == "sed":
        return "edit" if re.search(r"\s-i\b|--in-place", seg) else "read"
    if head == "nvcc" and "--version" in seg:
        return "read"
    if head in (
        "rm",
        "mv",
        "cp",
        "mkdir",
        "touch",
        "chmod",
        "ln",
        "tee",
        "kill",
        "pkill",
        "patch",
        "apply_patch",
        "applypatch",
    ):
        return "edit"
    return "run"


_ORDER = ("test", "bench", "install", "launch", "edit", "run", "poll", "read")


_TOKEN = lazy(r"'[^']*(?:'|\Z)|\"[^\"]*(?:\"|\Z)|&&|\|\||[;|\n]|[^'\";|\n&]+|&")
_SEPARATORS = frozenset({"&&", "||", ";", "|", "\n"})


@lru_cache(maxsize=1024)
def split_command(command: str) -> tuple[str, ...]:
    """Split on && || ; | and newlines outside quotes (a python -c body stays whole).

    Remembered like `_segment_kind`: the same commands come back call after call."""
    pieces: list[str] = []
    buf: list[str] = []
    for match in _TOKEN.finditer(command):
        token = match.group(0)
        if token in _SEPARATORS:
            pieces.append("".join(buf))
            buf = []
        else:
            buf.append(token)
    pieces.append("".join(buf))
    return tuple(p for p in pieces if p.strip())


COMMAND_CAP = 4000
"""Only the first 4 KB of a command is split (a heredoc body says nothing about the call)."""


def command_pieces(tool: ToolView) -> tuple[str, ...]:
    """The pieces of the shell command a call ran, computed once per call."""
    memo = tool.memo
    if "pieces" not in memo:
        memo["pieces"] = split_command(command_of(tool)[:COMMAND_CAP])
    result: tuple[str, ...] = memo["pieces"]
    return result


def shell_kind(command: str, pieces: tuple[str, ...] | None = None) -> str:
    if pieces is None:
        pieces = split_command(command[:COMMAND_CAP])
    kinds = {_segment_kind(seg) for seg in pieces}
    if "poll" in kinds and kinds <= {"poll", "read"}:
        return "poll"
    for kind in _ORDER:
        if kind in kinds:
            return kind
    return "read"


def tool_kind(tool: ToolView) -> str:
    """One of read, search, edit, plan, test, bench, install, launch, poll, run, other."""
    if not tool.kind_cache:
        tool.kind_cache = _tool_kind(tool)
    return tool.kind_cache


def _tool_kind(tool: ToolView) -> str:
    name = tool.name.lower().rsplit(".", 1)[-1].rsplit("__", 1)[-1]
    if name in PLAN_TOOLS:
        return "plan"
    if name in EDIT_TOOLS:
        return "edit"
    if name in READ_TOOLS:
        return "read"
    if name in SEARCH_TOOLS:
        return "search"
    pieces = command_pieces(tool)
    if pieces:
        return shell_kind("", pieces)
    if name == "aider" and edited_file(tool):
        return "edit"
    return "other"


_AIDER_EDIT = lazy(r"^Applied edit to (\S+)", re.MULTILINE)


def edited_file(tool: ToolView) -> str:
    """The file an aider reply edited ('' when it edited none)."""
    match = _AIDER_EDIT.search(tool.output or "") if tool.name == "aider" else None
    return match.group(1) if match else ""


EXECUTING = frozenset({"edit", "test", "bench", "install", "launch", "run"})
"""Kinds that change something (or run the thing): execution, not research."""
CARRIES_OUT = frozenset({"edit", "install", "launch"})
"""Kinds that carry out a proposal; probes (`redis-cli INFO`, a quick benchmark) do not."""
_DOC = lazy(r"\.(md|markdown|txt|rst|adoc|org)$|(^|/)(plan|notes?|todo)[^/]*$", re.IGNORECASE)


_PATCHED = lazy(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$", re.MULTILINE)
"""The files an `apply_patch` body names (Codex runs it as a shell command)."""


def carries_out(tool: ToolView) -> bool:
    """The call acts on a proposal (writing a plan or notes file does not)."""
    kind = tool_kind(tool)
    if kind not in CARRIES_OUT:
        return False
    if kind != "edit":
        return True
    body = command_of(tool) or tool.key  # a shell `apply_patch <<EOF`, or the patch itself
    patched = _PATCHED.findall(body[:COMMAND_CAP]) if "*** " in body else []
    if patched:
        return not all(_DOC.search(name) for name in patched)
    return not _DOC.search(tool.key.strip())


_VCS_WRITE = lazy(
    r"^\s*(git|hg|svn)\s+(commit|push|merge|rebase|cherry-pick|tag|am)\b|"
    r"^\s*gh\s+(pr|release)\s+(create|merge|edit)\b"
)
"""Recording or publishing work: a commit, a push, a pull request opened."""


def changes_code(tool: ToolView) -> bool:
    """The call changed the work: edited a file of it (not a plan, notes or a scratch file)
    or committed, pushed or opened a pull request."""
    if tool_kind(tool) == "edit":
        return carries_out(tool)
    return any(_VCS_WRITE.search(piece) for piece in command_pieces(tool))
