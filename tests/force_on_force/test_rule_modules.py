"""The RuleModule protocol: decision kinds and steps registered explicitly by the engine's modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fof_env.force_on_force import state as state_module
from fof_env.force_on_force.constants import KIND_NAMES, TERMINAL
from fof_env.force_on_force.modules import MODULES
from fof_env.force_on_force.rule_module import (
    LIST,
    ROWS,
    DecisionKind,
    RuleModule,
    Slot,
    kind_table,
    slot_table,
    step_table,
)
from fof_env.force_on_force.rules.wwii_fog import (
    DECISION_EFFECTS,
    HELD_EFFECTS,
    IMMEDIATE_EFFECTS,
    card_specs,
)
from fof_env.force_on_force.state import ForceOnForceState

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


def _mid_game(name: str, seed: int, decisions: int):
    """A state ``decisions`` uniformly random decisions into a seeded game of ``name``."""
    import random

    from fof_env.core.registry import make_game

    state = make_game(name).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_state_slots_are_the_modules_declarations_each_once():
    names = [slot.name for slot in state_module._SLOTS]
    assert len(names) == len(set(names)) and tuple(names) == ForceOnForceState.__slots__
    declared = {slot.name: m.name for m in MODULES for slot in m.slots}
    assert declared["pilot_pos"] == "downed_pilot" and declared["cards"] == "wwii_fog" and declared["veh"] == "wwii_vehicles"
    with pytest.raises(ValueError, match="declared by the state and m"):
        slot_table((RuleModule("m", slots=(Slot("pos"),)),), state_module.CORE_SLOTS)


@pytest.mark.parametrize("name", ["lost_and_found", "wwii_hedgerow_hamlet"])
def test_a_clone_shares_no_list_and_equals_its_original(name):
    state = _mid_game(name, 3, 60)
    other = state.clone()
    assert other.fingerprint() == state.fingerprint()
    for slot in state_module._SLOTS:
        if slot.copy in (LIST, ROWS):
            assert getattr(other, slot.name) is not getattr(state, slot.name), slot.name
        if slot.copy == ROWS:
            assert all(a is not b for a, b in zip(getattr(other, slot.name), getattr(state, slot.name), strict=True))


def test_the_end_of_a_turn_clears_every_flag_declared_for_the_turn():
    state = _mid_game("lost_and_found", 5, 40)
    for name in ForceOnForceState._TURN_FLAGS:
        getattr(state, name)[0] = 1
    state.turn = 2
    state._st_end_turn()
    assert ForceOnForceState._TURN_FLAGS and all(not any(getattr(state, n)) for n in ForceOnForceState._TURN_FLAGS)
    assert {"activated", "pinned", "react_only"} <= set(ForceOnForceState._TURN_FLAGS)
    assert "excellent" in ForceOnForceState._UNIT_FLAGS and "excellent" not in ForceOnForceState._TURN_FLAGS


def test_only_the_modules_a_scenario_switches_on_have_their_hooks_run():
    from fof_env.core.registry import make_game

    lost, raid = make_game("lost_and_found").setup.hooks, make_game("compound_raid").setup.hooks
    assert [h.__name__ for h in lost.turn_end_victory] == ["_deadline"]  # the downed pilot's deadline
    assert raid.turn_end_victory == () and raid.unit_moved == ()  # no pilot, no AFV in Compound Raid
    for module in MODULES:  # a module with no switch (the full rules' pinned In Cover) has its hooks everywhere
        if module.active is None:
            assert all(hook in getattr(raid, point) for point, hook in module.hooks.items())
    assert make_game("lost_and_found", capture=False).setup.hooks.unit_arrived == lost.unit_arrived[1:]
    with pytest.raises(ValueError, match="no hook point"):
        RuleModule("m", hooks={"unit_teleported": print})


def test_the_pieces_after_the_board_are_the_rule_modules_in_module_order():
    from fof_env.core.registry import make_game
    from fof_env.force_on_force.observation import pieces

    declared = {p.name: m.name for m in MODULES for p in m.pieces}
    assert declared == {"vehicles": "wwii_vehicles", "first_aid": "wwii_first_aid", "cards": "wwii_fog"}
    hedgerow = [name for name, _at, _size in pieces(make_game("wwii_hedgerow_hamlet").layout)]
    assert hedgerow == ["units", "game", "decision", "board", "vehicles", "first_aid", "cards"]
    assert [name for name, _at, _size in pieces(make_game("lost_and_found").layout)] == hedgerow[:4]


def test_the_position_keys_of_a_rule_are_declared_and_read_by_its_module():
    from fof_env.core.errors import PositionError
    from fof_env.core.registry import make_game

    declared = {k: m.name for m in MODULES if m.position for k in (*m.position.keys, *m.position.unit_keys)}
    assert declared == {"pilot": "downed_pilot", "fog_cards": "wwii_fog", "cas_sorties": "wwii_close_air_support",
                        "vehicle": "wwii_vehicles"}  # fmt: skip
    lost = make_game("lost_and_found").state_from_position({"stage": "game_over", "turn": 3, "pilot": {"at": "x05y05"}})
    assert lost.to_position()["pilot"] == {"at": "x05y05", "with": None, "contact": False, "exited_turn": 0}
    with pytest.raises(PositionError, match="this scenario has no downed pilot"):
        make_game("compound_raid").state_from_position({"turn": 1, "pilot": {}})
