"""The package layers hold: no import circles, and the UI stays in the UI.

Read from the source's own import statements (every `import` and `from … import`,
at module level or inside functions, `TYPE_CHECKING` blocks included), so a lazy
import cannot hide a circle or a layer broken the wrong way round.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "pivotal"

# Who may import whom, as layers: a module may import its own layer and those below it.
# The command line and the replayer sit on top; nothing below them knows they exist.
LAYERS = [
    {"pivotal"},
    {"pivotal.model"},
    {"pivotal.text"},
    {"pivotal.readers"},
    {"pivotal.detect", "pivotal.spend"},
    {"pivotal.live", "pivotal.scan", "pivotal.catalog"},
    {"pivotal.export"},
    {"pivotal.cli", "pivotal.tui", "pivotal.__main__"},
]
UI_PACKAGES = ("textual", "rich")
UI_ALLOWED = ("pivotal.tui",)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Every pivotal module and third-party top-level package `path` imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    internal = {m for m in found if m in known}
    external = {m.split(".")[0] for m in found if not m.startswith("pivotal")}
    return internal | external


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), plus self-imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in edges:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                item = stack.pop()
                on_stack.discard(item)
                group.append(item)
                if item == node:
                    break
            if len(group) > 1 or node in edges.get(node, ()):
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def layer_of(name: str) -> int:
    best, level = "", -1
    for number, layer in enumerate(LAYERS):
        for prefix in layer:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > len(best):
                best, level = prefix, number
    assert level >= 0, f"{name} is in no layer: add its package to LAYERS"
    return level


def test_the_checker_sees_a_circle_and_a_lazy_import() -> None:
    fake = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(fake) == [["a", "b", "c"]]
    edges = graph()
    # cli.dispatch imports the command modules by name (importlib); scan_batch imports split lazily
    assert "pivotal.scan.split" in edges["pivotal.cli.scan_batch"]


def test_no_import_circles() -> None:
    assert circles(graph()) == []


def test_no_module_imports_a_layer_above_its_own() -> None:
    wrong = [
        f"{name} -> {target}"
        for name, targets in graph().items()
        for target in targets
        if target.startswith("pivotal") and layer_of(target) > layer_of(name)
    ]
    assert wrong == []


def test_only_the_replayer_imports_textual_or_rich() -> None:
    wrong = [
        f"{name} -> {target}"
        for name, targets in graph().items()
        for target in targets
        if target in UI_PACKAGES and not name.startswith(UI_ALLOWED)
    ]
    assert wrong == []


def test_every_package_says_what_it_holds_and_may_import() -> None:
    for init in PACKAGE.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert len(doc) > 80, f"{init.relative_to(SRC)} needs a docstring saying what it holds"
        if init.parent != PACKAGE:
            assert "import" in doc.lower(), f"{init.relative_to(SRC)}: say what it may import"
