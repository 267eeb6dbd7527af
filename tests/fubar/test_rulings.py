"""rulings.md: every ruling names its tests, and every test it names exists (the Cardinal Rule, written down)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULINGS = (ROOT / "fof_env/fubar/rulings.md").read_text()


def _tests() -> dict[str, set[str]]:
    out = {}
    for path in (ROOT / "tests/fubar").glob("test_*.py"):
        tree = ast.parse(path.read_text())
        out[path.name] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}
    return out


def test_every_ruling_quotes_or_reads_the_seed_and_names_a_test():
    rulings = re.split(r"\n(?=\*\*F\d+\.)", RULINGS)[1:]
    numbers = [int(re.match(r"\*\*F(\d+)\.", r).group(1)) for r in rulings]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 50
    for text in rulings:
        assert "Test" in text and "test_" in text, text[:60]


def test_every_test_a_ruling_names_exists():
    tests = _tests()
    current = None
    for match in re.finditer(r"`(?:(test_\w+\.py))?(?:::)?(test_\w+)?`", RULINGS):
        file, name = match.groups()
        if file:
            current = file
            assert file in tests, file
        if name and not name.endswith(".py"):
            assert current is not None and name in tests[current], f"{current}::{name}"
