"""Mutation testing of the rules packages: ``make mutate`` (``python -m evaluation.mutation``).

A mutant is the project with one small, realistic change to one rules module; the tests
that cover that package run against it, and a failing test "kills" it. A mutant nobody
kills is a behaviour no test pins (or an equivalent change: the survivors are printed
for a person to judge, and ``docs/mutation.md`` records the verdicts).

Two kinds of mutants, per package (``PACKAGES``: the rule systems, the env layer and the search's Gumbel root, from
``evaluation/mutation_plan.json``, the plan: which modules, which tests pin them):

* **sampled**: every mutation point of the package's modules (inside functions only, not
  data tables or docstrings) is enumerated from the AST with the operators below, and
  ``--sample`` of them (default 40) are drawn with ``random.Random(--seed)``:

  - comparisons ``<``/``<=``, ``>``/``>=``, ``==``/``!=``, ``in``/``not in``, ``is``/``is not`` swapped;
  - ``+``/``-`` and ``*``/``//`` swapped (binary and augmented), ``and``/``or`` swapped;
  - ``not x`` becomes ``x``; ``True``/``False`` swapped; an integer ``n`` becomes ``n + 1``;
  - a statement (assignment, augmented assignment, call) deleted (``pass``).

* **curated**: source replacements listed in ``CURATED`` (mutants an outside audit found
  surviving once; each must stay killed).

Each mutant is written into its own copy of the project (in a temporary folder, never in
the working tree) and the package's tests run there with ``pytest -x`` under a time limit
(a time-out or running out of its memory limit counts as killed: the mutant broke the rules
into an endless game). Output: one
line per mutant, then the score per package and the survivors with their file, line and
change. Exit status 1 if a curated mutant survives or a package scores below ``--target``.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures as cf
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAN_FILE = Path(__file__).resolve().parent / "mutation_plan.json"


def _read_plan(path: Path = PLAN_FILE) -> tuple[dict, tuple, dict]:
    """The plan's (packages, curated mutants, equivalent mutants) as the module's tables (module docstring)."""
    plan = json.loads(path.read_text(encoding="utf-8"))
    packages = {name: (tuple(p["modules"]), tuple(p["tests"])) for name, p in plan["packages"].items()}
    curated = tuple((c["package"], c["path"], c["text"], c["replacement"], c["why"]) for c in plan["curated"])
    equivalent = {(e["path"], e["line"], e["change"]): e["why"] for e in plan["equivalent"]}
    return packages, curated, equivalent


# package -> (its modules, the tests that pin them); (package, file, exact source text, its replacement,
# what the audit saw it do); (file, the original source line, stripped, the change) -> why no behaviour
# changes (documented in docs/mutation.md: reported apart and left out of the score)
PACKAGES, CURATED, EQUIVALENT = _read_plan()

_SWAPS: dict[type, type] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.And: ast.Or, ast.Or: ast.And,
}  # fmt: skip
_SYMBOLS = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.In: "in",
    ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
    ast.FloorDiv: "//", ast.And: "and", ast.Or: "or",
}  # fmt: skip


@dataclass(frozen=True)
class Mutant:
    """One change to one module: ``source`` is the whole mutated module text."""

    package: str
    path: str
    line: int
    description: str
    source: str
    curated: bool = False
    original: str = ""  # the mutated line as it stands in the file, stripped

    @property
    def equivalent(self) -> str | None:
        """Why this mutant changes no behaviour, if that is documented (``EQUIVALENT``)."""
        return EQUIVALENT.get((self.path, self.original, self.description))


# ----------------------------------------------------------------------------- sampled mutants
def _points(tree: ast.Module) -> Iterator[tuple[ast.AST, str, int]]:
    """(node, operator, index) for every mutation point inside a function of ``tree``."""
    for func in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
        body = func.body[1:] if ast.get_docstring(func) is not None else func.body
        for stmt in body:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Compare):
                    for i, op in enumerate(node.ops):
                        if type(op) in _SWAPS:
                            yield node, "compare", i
                elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _SWAPS:
                    yield node, "binop", 0
                elif isinstance(node, ast.BoolOp):
                    yield node, "boolop", 0
                elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                    yield node, "not", 0
                elif isinstance(node, ast.Constant) and type(node.value) in (bool, int):
                    yield node, "constant", 0
                if isinstance(node, (ast.Assign, ast.AugAssign, ast.Expr)) and not (
                    isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                ):
                    yield node, "delete", 0


class _Apply(ast.NodeTransformer):
    """Apply mutation ``k`` (the k-th point of :func:`_points`) and describe it."""

    def __init__(self, target: ast.AST, kind: str, index: int):
        self.target, self.kind, self.index = target, kind, index
        self.description = ""

    def visit(self, node: ast.AST):
        if node is not self.target:
            return self.generic_visit(node)
        kind = self.kind
        if kind == "compare":
            old = node.ops[self.index]
            node.ops[self.index] = _SWAPS[type(old)]()
            self.description = f"{_SYMBOLS[type(old)]} -> {_SYMBOLS[_SWAPS[type(old)]]}"
        elif kind in ("binop", "boolop"):
            old = node.op
            node.op = _SWAPS[type(old)]()
            self.description = f"{_SYMBOLS[type(old)]} -> {_SYMBOLS[type(node.op)]}"
        elif kind == "not":
            self.description = "not x -> x"
            return node.operand
        elif kind == "constant":
            old = node.value
            node.value = (not old) if isinstance(old, bool) else old + 1
            self.description = f"{old!r} -> {node.value!r}"
        else:
            self.description = f"delete `{ast.unparse(node)[:60]}`"
            return ast.copy_location(ast.Pass(), node)
        return node


def sampled_mutants(package: str, sample: int, seed: int) -> list[Mutant]:
    """``sample`` mutants drawn from every mutation point of ``package`` (module docstring)."""
    points: list[tuple[str, int]] = []
    for path in PACKAGES[package][0]:
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        points.extend((path, k) for k in range(sum(1 for _ in _points(tree))))
    chosen = random.Random(f"{seed}:{package}").sample(points, min(sample, len(points)))
    out = []
    for path, k in sorted(chosen):
        text = (ROOT / path).read_text(encoding="utf-8")
        tree = ast.parse(text)
        node, kind, index = next(p for i, p in enumerate(_points(tree)) if i == k)
        line = node.lineno
        mutator = _Apply(node, kind, index)
        mutated = ast.fix_missing_locations(mutator.visit(tree))
        original = text.splitlines()[line - 1].strip()
        out.append(Mutant(package, path, line, mutator.description, ast.unparse(mutated), original=original))
    return out


def curated_mutants(package: str) -> list[Mutant]:
    out = []
    for pkg, path, old, new, what in CURATED:
        if pkg != package:
            continue
        text = (ROOT / path).read_text(encoding="utf-8")
        if text.count(old) != 1:
            raise SystemExit(f"curated mutant {what!r}: {path} holds its source text {text.count(old)} times, not once")
        line = text[: text.index(old)].count("\n") + 1
        out.append(Mutant(package, path, line, what, text.replace(old, new), curated=True))
    return out


# ----------------------------------------------------------------------------- running
def _copy_project(dest: Path) -> None:
    ignore = shutil.ignore_patterns(".venv*", ".git", "runs", "reports", "__pycache__", ".pytest_cache",
                                    ".ruff_cache", ".hypothesis", "*.egg-info", "mutants")  # fmt: skip
    for name in ("fof_env", "agents", "evaluation", "training", "tests"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    shutil.copy2(ROOT / "pyproject.toml", dest / "pyproject.toml")


MEMORY_LIMIT = 3 * 2**30  # bytes of address space per mutant's test run: a runaway mutant fails, the machine lives


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_mutant(mutant: Mutant, workdir: Path, timeout: float) -> tuple[Mutant, str, float]:
    """Run the package's tests on ``mutant`` in ``workdir`` (a project copy); ('killed' | 'survived', s)."""
    target = workdir / mutant.path
    original = target.read_text(encoding="utf-8")
    target.write_text(mutant.source, encoding="utf-8")
    start = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(workdir), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-n", "0",
             *PACKAGES[mutant.package][1]],
            cwd=workdir, env=env, capture_output=True, timeout=timeout, preexec_fn=_limit_memory,
        )  # fmt: skip
        verdict = "survived" if done.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        verdict = "killed"
    finally:
        target.write_text(original, encoding="utf-8")
    return mutant, verdict, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.mutation", description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", action="append", choices=sorted(PACKAGES), help="default: every package")
    parser.add_argument("--sample", type=int, default=40, help="sampled mutants per package (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="which sample (default 0)")
    parser.add_argument("--workers", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per mutant (default 300)")
    parser.add_argument("--target", type=float, default=0.95, help="least share killed per package")
    args = parser.parse_args(argv)
    packages = args.package or sorted(PACKAGES)
    mutants = [m for p in packages for m in (*curated_mutants(p), *sampled_mutants(p, args.sample, args.seed))]
    print(f"{len(mutants)} mutants over {', '.join(packages)} ({args.workers} at once)", flush=True)
    results: list[tuple[Mutant, str, float]] = []
    with tempfile.TemporaryDirectory(prefix="fof-mutants-") as tmp:
        dirs = [Path(tmp) / f"w{i}" for i in range(args.workers)]
        for d in dirs:
            _copy_project(d)
        free = list(dirs)
        with cf.ThreadPoolExecutor(args.workers) as pool:
            pending: dict[cf.Future, Path] = {}
            queue = list(mutants)
            while queue or pending:
                while queue and free:
                    d = free.pop()
                    pending[pool.submit(run_mutant, queue.pop(0), d, args.timeout)] = d
                done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    free.append(pending.pop(future))
                    mutant, verdict, seconds = future.result()
                    results.append((mutant, verdict, seconds))
                    tag = "curated " if mutant.curated else ""
                    print(f"  {verdict:8} {seconds:5.1f}s {tag}{mutant.path}:{mutant.line} {mutant.description}",
                          flush=True)
    status = 0
    print("\nScore per package (sampled mutants less documented equivalents; curated ones apart):")
    for package in packages:
        sampled = [(m, v) for m, v, _ in results if m.package == package and not m.curated]
        equivalent = [m for m, v in sampled if v == "survived" and m.equivalent]
        counted = [(m, v) for m, v in sampled if not (v == "survived" and m.equivalent)]
        killed = sum(1 for _, v in counted if v == "killed")
        share = killed / len(counted) if counted else 1.0
        curated = [(m, v) for m, v, _ in results if m.package == package and m.curated]
        print(f"  {package}: {killed}/{len(counted)} killed ({100 * share:.1f}%) of {len(sampled)} sampled, "
              f"{len(equivalent)} equivalent; curated {sum(v == 'killed' for _, v in curated)}/{len(curated)} killed")
        for m in equivalent:
            print(f"    equivalent {m.path}:{m.line} {m.description}: {m.equivalent}")
        for m, v in counted + curated:
            if v == "survived":
                print(f"    SURVIVED {m.path}:{m.line} {m.description}")
        if share < args.target or any(v == "survived" for _, v in curated):
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
