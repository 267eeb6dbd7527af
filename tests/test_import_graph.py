"""The floors hold over the import graph: core -> rulesets -> envs -> agents -> training/evaluation -> app.

The graph is every ``import`` and ``from ... import`` statement of every module of ``fof_env``,
``agents``, ``training`` and ``evaluation``, read with :mod:`ast`: the lazy ones inside functions
count as much as those at the top. An edge goes to the module a statement loads (``from pkg import
mod`` to ``pkg.mod``, ``from mod import name`` to ``mod``); the parent packages Python loads on the
way are not edges. A rules package is any folder of ``fof_env`` with a ``ruleset.py``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("fof_env", "agents", "training", "evaluation")
CORE, RULESETS, ENVS, AGENTS, TOOLS, APP = range(6)
FLOOR_NAMES = ("core", "rulesets", "envs", "agents", "training/evaluation", "app")
FRAMEWORKS = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "ray")


def modules() -> dict[str, Path]:
    """Module name -> its file, for every module of the four packages."""
    out = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = modules()
RULESET_PACKAGES = {f"fof_env.{p.parent.name}" for p in (ROOT / "fof_env").glob("*/ruleset.py")}


def ruleset_of(module: str) -> str | None:
    return next((p for p in RULESET_PACKAGES if module == p or module.startswith(p + ".")), None)


def floor(module: str) -> int:
    top = module.split(".")[0]
    if top == "agents":
        return AGENTS
    if top in ("training", "evaluation"):
        return TOOLS
    if module == "fof_env" or module.startswith("fof_env.envs"):
        return ENVS  # the package's front door registers the Gymnasium ids
    if module.startswith("fof_env.core") or module in ("fof_env.compiled", "fof_env.compiled_guard"):
        return CORE  # the compiled build and its guard use the standard library alone
    if module.startswith("fof_env.app") or module == "fof_env.cli":
        return APP
    if ruleset_of(module):
        return RULESETS
    raise AssertionError(f"{module} is on no floor: a new package of fof_env needs a place in the floors")


def _ours(name: str) -> str | None:
    """The longest prefix of dotted ``name`` that is one of our modules."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: str) -> set[str]:
    """The modules of ours that ``module`` imports (module docstring), anywhere in its file."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {m for alias in node.names if (m := _ours(alias.name))}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                target = _ours(f"{base}.{alias.name}") if f"{base}.{alias.name}" in MODULES else _ours(base)
                if target:
                    out.add(target)
    out.discard(module)
    return out


def framework_imports(module: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names & set(FRAMEWORKS)


GRAPH = {m: imports(m) for m in MODULES}


def test_nothing_imports_upward():
    upward = [f"{m} ({FLOOR_NAMES[floor(m)]}) -> {t} ({FLOOR_NAMES[floor(t)]})"
              for m, targets in sorted(GRAPH.items()) for t in sorted(targets) if floor(t) > floor(m)]  # fmt: skip
    assert len(RULESET_PACKAGES) >= 3 and upward == []


def test_a_rules_package_imports_only_the_core_and_itself_and_no_framework():
    leaks = []
    for m, targets in sorted(GRAPH.items()):
        own = ruleset_of(m)
        if own is None and floor(m) != CORE:
            continue
        leaks += [f"{m} -> {t}" for t in sorted(targets) if floor(t) != CORE and ruleset_of(t) != own]
        leaks += [f"{m} -> {name}" for name in sorted(framework_imports(m))]
    assert leaks == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycles():
    assert _cycles(GRAPH) == []


def test_the_graph_sees_lazy_imports_and_cycles():
    """The checks can fail: a lazy import inside a function is an edge, and a circle is found."""
    lazy = {t for t in GRAPH["fof_env.core.game"]}
    assert "fof_env.core.registry" in lazy  # imported inside State.from_json and State.termination
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert floor("fof_env.app.cli") == APP and floor("fof_env.envs.gym_env") == ENVS
