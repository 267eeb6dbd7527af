"""The RuleModule protocol: decision kinds and steps registered explicitly by the engine's modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fof_env.force_on_force import state as state_module
from fof_env.force_on_force.constants import KIND_NAMES, TERMINAL
from fof_env.force_on_force.modules import MODULES
from fof_env.force_on_force.rule_module import DecisionKind, RuleModule, kind_table, step_table
from fof_env.force_on_force.rules.wwii_fog import (
    DECISION_EFFECTS,
    HELD_EFFECTS,
    IMMEDIATE_EFFECTS,
    card_specs,
)

PACKAGE = Path(state_module.__file__).resolve().parent


def test_every_decision_kind_but_terminal_has_exactly_one_owning_module():
    owners = {k.kind: m.name for m in MODULES for k in m.kinds}
    assert sorted(owners) == [k for k in range(len(KIND_NAMES)) if k != TERMINAL]
    assert owners[KIND_NAMES.index("split_dice")] == "fire"
    assert owners[KIND_NAMES.index("declare_hidden")] == "ambush"
    assert owners[KIND_NAMES.index("call_medic")] == "wwii_first_aid"


def test_a_kind_claimed_twice_is_refused():
    def noop(*_args):
        return None

    a = RuleModule("a", kinds=(DecisionKind(0, noop, noop, noop),))
    b = RuleModule("b", kinds=(DecisionKind(0, noop, noop, noop),))
    with pytest.raises(ValueError, match="claimed by a and b"):
        kind_table((a, b), 3)
    with pytest.raises(ValueError, match="not in"):
        kind_table((RuleModule("c", kinds=(DecisionKind(5, noop, noop, noop),)),), 3)
    with pytest.raises(ValueError, match="step 1 is claimed"):
        step_table((RuleModule("a", steps={1: noop}), RuleModule("b", steps={1: noop})))


def test_every_card_effect_of_the_deck_file_has_its_rule():
    for spec in card_specs():
        known = spec.effect in IMMEDIATE_EFFECTS or spec.effect in DECISION_EFFECTS or spec.effect in HELD_EFFECTS
        assert known, f"card {spec.key}: effect {spec.effect!r} has no rule in rules/wwii_fog.py"
        if spec.timing == "held":
            assert spec.effect in HELD_EFFECTS


def _built_name_lookups(path: Path) -> list[str]:
    """``getattr(obj, <a name built at run time>)`` calls: a prefix plus a name, an f-string, a format."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        lookup = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
        if lookup and len(node.args) >= 2 and isinstance(node.args[1], (ast.BinOp, ast.JoinedStr, ast.Call)):
            found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_no_handler_is_found_by_a_built_name():
    found = [hit for path in sorted(PACKAGE.rglob("*.py")) for hit in _built_name_lookups(path)]
    assert found == []
