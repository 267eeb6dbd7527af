"""Mutation testing of the rules packages: ``make mutate`` (``python -m evaluation.mutation``).

A mutant is the project with one small, realistic change to one rules module; the tests
that cover that package run against it, and a failing test "kills" it. A mutant nobody
kills is a behaviour no test pins (or an equivalent change: the survivors are printed
for a person to judge, and ``docs/mutation.md`` records the verdicts).

Two kinds of mutants, per package (``PACKAGES``: the rule systems and the env layer):

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

# package -> (its modules, the tests that pin them)
PACKAGES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "strike_force_one": (
        ("fof_env/strike_force_one/state.py", "fof_env/strike_force_one/movement.py",
         "fof_env/strike_force_one/position.py"),
        ("tests/strike_force_one", "tests/core", "tests/agents/test_heuristic.py"),
    ),
    "force_on_force": (
        ("fof_env/force_on_force/state.py", "fof_env/force_on_force/sequence.py",
         "fof_env/force_on_force/reaction.py", "fof_env/force_on_force/fire.py",
         "fof_env/force_on_force/casualties.py", "fof_env/force_on_force/movement.py",
         "fof_env/force_on_force/fog.py", "fof_env/force_on_force/victory.py",
         "fof_env/force_on_force/rules/ambush.py", "fof_env/force_on_force/rules/capture.py",
         "fof_env/force_on_force/rules/downed_pilot.py", "fof_env/force_on_force/rules/airstrike_call.py",
         "fof_env/force_on_force/rules/irregulars.py", "fof_env/force_on_force/rules/out_of_contact.py",
         "fof_env/force_on_force/rules/wwii.py", "fof_env/force_on_force/rules/wwii_vehicles.py",
         "fof_env/force_on_force/rules/wwii_fog.py", "fof_env/force_on_force/rules/wwii_air.py",
         "fof_env/force_on_force/rules/wwii_reserves.py", "fof_env/force_on_force/rules/pinned_cover.py",
         "fof_env/force_on_force/combat.py", "fof_env/force_on_force/position.py",
         "fof_env/force_on_force/observation.py", "fof_env/force_on_force/scenario.py"),
        ("tests/force_on_force", "tests/core", "tests/agents/test_lost_and_found_heuristic.py"),
    ),
    "fubar": (
        ("fof_env/fubar/state.py", "fof_env/fubar/fire.py", "fof_env/fubar/movement.py",
         "fof_env/fubar/close_combat.py", "fof_env/fubar/geometry.py", "fof_env/fubar/position.py",
         "fof_env/fubar/scenario.py", "fof_env/fubar/tables.py"),
        tuple(f"tests/fubar/test_{name}.py" for name in (
            "dice_and_activation", "actions", "fire", "close_combat", "vehicles", "geometry", "lost_and_found",
            "village_patrol", "positions_and_records", "position_details", "scenario_files", "view", "rulings",
            "envs")) + ("tests/agents/test_fubar_heuristic.py",),
    ),
    "envs": (
        ("fof_env/envs/gym_env.py", "fof_env/envs/aec_env.py", "fof_env/envs/_common.py",
         "fof_env/envs/shaping.py", "fof_env/envs/infos.py"),
        ("tests/envs",),
    ),
}  # fmt: skip

# (package, file, exact source text, its replacement, what the audit saw it do)
CURATED: tuple[tuple[str, str, str, str, str], ...] = (
    ("force_on_force", "fof_env/force_on_force/fire.py",
     "        self.fires[s] += 1\n        self.hidden[s] = 0\n", "        self.fires[s] += 1\n",
     "a hidden unit that fires (an Overwatch shot) stays hidden"),
    ("force_on_force", "fof_env/core/downed_pilot.py",
     "if not cover or dist[p][threat] <= away + EPS:",
     "if not cover or dist[p][threat] < away - EPS:",
     "the pilot of a team wiped out in cover stays put"),
    ("force_on_force", "fof_env/force_on_force/fire.py",
     "return 1 if self.full and self.supply[u] > 0 else 0", "return 0",
     "Well Supplied units lose their extra die"),
    ("force_on_force", "fof_env/force_on_force/fire.py",
     "            p += self.rmoves[u]\n", "",
     "no die lost for a reaction move"),
    ("force_on_force", "fof_env/force_on_force/fire.py",
     "and self.sc.table.los[self.pos[a]][self.pos[p[0]]]]", "]",
     "the actor fires at a target that moved out of sight"),
    ("force_on_force", "fof_env/force_on_force/movement.py",
     "dist = table.distance_to_edge(here, self._edge(u)) if dest < 0 else table.dist[here][dest]",
     "dist = 0.0 if dest < 0 else table.dist[here][dest]",
     "exiting off the friendly edge is never a Rapid move"),
    ("force_on_force", "fof_env/force_on_force/fire.py",
     "if left < (1 if self.usable_support(a) else 2):", "if left < (1 if self.usable_support(a) else 1):",
     "a split is offered that leaves split_dice with no legal action"),
    ("force_on_force", "fof_env/force_on_force/rules/out_of_contact.py",
     "if self.pos[t] >= 0 and not self.hidden[t]:", "if self.active(t) and not self.hidden[t]:",
     "an Out of Contact move may end on a wiped-out enemy unit's point"),
    ("force_on_force", "fof_env/force_on_force/rules/out_of_contact.py",
     "((reach << 1) & not_west)", "(reach << 1)",
     "the Out of Contact reach wraps from a row's east end to the next row's west end"),
    ("force_on_force", "fof_env/force_on_force/fire.py",
     "if not self.full or len(self.targets) >= combat.SPLIT_TARGETS", "if len(self.targets) >= combat.SPLIT_TARGETS",
     "the quick rules offer split fire"),
    ("envs", "fof_env/envs/shaping.py",
     'UNIT_WEIGHT * (score["soviet_units"] - score["us_units"])',
     'UNIT_WEIGHT * (score["us_units"] - score["soviet_units"])',
     "the unit term of the Strike Force One potential has its sign flipped"),
)  # fmt: skip

# Mutants shown equivalent in writing (docs/mutation.md): (file, the original source line, stripped, the
# change) -> why no behaviour changes. They are reported apart and left out of the score.
EQUIVALENT: dict[tuple[str, str, str], str] = {
    ("fof_env/force_on_force/sequence.py",
     'sum(1 for _ in range(n) if self.roll(die, f"{self.SIDES[side]} initiative") >= combat.SUCCESS)', "1 -> 2"):
        "both sides' initiative counts are doubled; only their comparison is used",
    ("fof_env/force_on_force/casualties.py",
     'roll = min(6, self.roll(6, f"casualty check of {self.UNIT_NAMES[u]}") + bonus)', "6 -> 7"):
        "a 7 (6 plus the medic's +1) falls in the same 'return to duty' branch as a 6",
    ("fof_env/strike_force_one/state.py", "self.selected = -1", "delete `self.selected = -1`"):
        "only in _advance_phase, where no unit is ever selected any more (each move clears it)",
    ("fof_env/envs/aec_env.py", "self._phi = [0.0, 0.0]", "delete `self._phi = [0.0, 0.0]`"):
        "the constructor's value is overwritten by reset() before anything reads it",
    ("fof_env/envs/aec_env.py", "return [self._potential(self.game_state, p) for p in (0, 1)]", "1 -> 2"):
        "every potential treats any player but 0 as player 1",
    ("fof_env/envs/gym_env.py", "self._done = True", "True -> False"):
        "in the constructor: step() before reset() is refused on game_state None either way",
    **{("fof_env/fubar/geometry.py", line, change): "a grid point is never exactly 1e-9 inch off a feature's edge: "
       "a comparison against edge +/- 1e-9 gives the same answer strict or not"
       for line in ("inside = (xs >= x0 - _EPS) & (xs <= x1 + _EPS) & (ys >= y0 - _EPS) & (ys <= y1 + _EPS)",
                    "inside = ((sx >= x0 - _EPS) & (sx <= x1 + _EPS) & (sy >= y0 - _EPS) & (sy <= y1 + _EPS)).any(axis=1)",
                    "edge_ok[mine] = depth[mine] <= COVER_EDGE_IN + _EPS")
       for change in ("<= -> <", ">= -> >")},
}  # fmt: skip

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
