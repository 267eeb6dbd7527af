"""``make mutate``'s mutant generation: valid, different, reproducible; every curated mutant applies."""

from __future__ import annotations

import ast

import pytest

from evaluation import mutation


@pytest.mark.parametrize("package", sorted(mutation.PACKAGES))
def test_sampled_mutants_are_valid_python_that_differs_from_the_module(package):
    mutants = mutation.sampled_mutants(package, 12, seed=5)
    assert len(mutants) == 12
    assert mutants == mutation.sampled_mutants(package, 12, seed=5)  # the same sample for the same seed
    for m in mutants:
        original = ast.unparse(ast.parse((mutation.ROOT / m.path).read_text(encoding="utf-8")))
        compile(m.source, m.path, "exec")
        assert m.source != original and m.description and m.line > 0


def test_every_curated_mutant_still_finds_its_source_text():
    """A curated mutant pins a behaviour an audit found unguarded; it must keep applying as the code moves."""
    for package in mutation.PACKAGES:
        for m in mutation.curated_mutants(package):
            compile(m.source, m.path, "exec")
            assert m.curated and m.source != (mutation.ROOT / m.path).read_text(encoding="utf-8")
    assert sum(len(mutation.curated_mutants(p)) for p in mutation.PACKAGES) == len(mutation.CURATED) == 11


def test_the_operators_change_what_they_say():
    tree = ast.parse("def f(a, b):\n    x = a < b and not a\n    return x + 1\n")
    points = list(mutation._points(tree))
    kinds = sorted({kind for _, kind, _ in points})
    assert kinds == ["binop", "boolop", "compare", "constant", "delete", "not"]
    node, kind, index = next(p for p in points if p[1] == "compare")
    mutator = mutation._Apply(node, kind, index)
    mutated = ast.unparse(ast.fix_missing_locations(mutator.visit(tree)))
    assert mutator.description == "< -> <=" and "a <= b" in mutated


def test_documented_equivalent_mutants_still_name_lines_that_exist():
    """Each documented equivalent mutant names a source line that is still in its file, so the
    documentation cannot silently go stale."""
    for (path, line, _change), why in mutation.EQUIVALENT.items():
        assert why and line in [raw.strip() for raw in (mutation.ROOT / path).read_text().splitlines()], (path, line)
