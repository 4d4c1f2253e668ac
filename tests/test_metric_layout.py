"""The layout of ``metric_adc``: no import cycle (counting imports inside functions too), no
module ``__getattr__`` re-exporting moved names, and no private name used across modules."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "metric_adc"
FILES = sorted(p for p in PACKAGE.rglob("*.py"))


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in FILES}


def _imported(node: ast.AST) -> list[tuple[str, str | None]]:
    """``(module, name)`` for every package module an import statement names."""
    out = []
    if isinstance(node, ast.Import):
        out = [(a.name, None) for a in node.names]
    elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        for a in node.names:
            sub = f"{node.module}.{a.name}"
            out.append((sub, None) if sub in MODULES else (node.module, a.name))
    return [(m, n) for m, n in out if m in MODULES]


def _graph() -> dict[str, set[str]]:
    graph = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        deps = {m for node in ast.walk(tree) for m, _ in _imported(node)}
        graph[name] = deps - {name, "metric_adc"}  # the package itself runs nothing at import
    return graph


def test_the_import_graph_has_no_cycle():
    graph = _graph()
    assert {"metric_adc.result_rows", "metric_adc.ceiling.compute", "metric_adc.pairs"} <= set(
        graph
    )
    assert "metric_adc.pairs" in graph["metric_adc.result_rows"]  # the graph sees real imports
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        pytest.fail(f"import cycle among metric_adc modules: {' -> '.join(exc.args[1])}")


def test_the_formulas_are_a_leaf_and_the_split_halves_use_only_the_math():
    graph = _graph()
    assert graph["metric_adc.formulas"] == set()
    assert graph["metric_adc.ceiling.splits"] <= {
        "metric_adc.formulas",
        "metric_adc.core",
        "metric_adc.input_checks",
    }


def test_no_module_getattr_shim():
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defs = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
        assert "__getattr__" not in defs, f"{name} re-exports names through __getattr__"


def test_no_private_name_crosses_a_module():
    found = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {}  # local name -> package module it is bound to
        for node in ast.walk(tree):
            for module, member in _imported(node):
                if member is not None and member.startswith("_") and not member.startswith("__"):
                    found.append(f"{name} imports {module}.{member}")
            if isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    if f"{node.module}.{a.name}" in MODULES:
                        aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append(f"{name} uses {aliases[node.value.id]}.{node.attr}")
    assert found == []
