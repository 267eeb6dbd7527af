"""Full-rules mechanics the scenario table never shows: splitting fire among more than two
targets (D10/D12 units) and Improved / Fortified cover (custom tables in positions)."""

from __future__ import annotations

import random

import pytest

from fof_env.force_on_force import combat
from tests.force_on_force.helpers import (
    area,
    decline_reactions,
    fires,
    game,
    make,
    pt,
    script,
    table_with,
    uid,
    unit,
    wall,
)

# walls behind each firing line so nobody is Exposed and no wall crosses a line of fire
BACKS = table_with(wall(1, 1, 1, 35, "west_back"), wall(35, 1, 35, 35, "east_back"))


def test_d10_unit_engages_three_targets_and_d8_only_two():
    """003_b1b2d2a6d4b3bab2.txt: "D8 Troop Quality: May engage TWO targets D10 Troop Quality: May engage
    THREE targets D12 Troop Quality: May engage FOUR targets"."""
    targets = {"tal.1": unit(pt(33, 5), ok=3), "tal.2": unit(pt(33, 11), ok=3), "tal.3": unit(pt(33, 17), ok=3)}
    s = make({"usmc.A": unit(pt(3, 11), ok=6, tq=10, support=[], supply="normal"), **targets}, table=BACKS)
    for action in ("usmc.A", "fire", "tal.1", "tal.2", "n2"):
        s.apply(action)
    assert s.decision.kind == "split_target" and s.legal_action_strings() == ["tal.3", "pass"]
    s.apply("tal.3")
    assert s.decision.kind == "split_dice" and s.legal_action_strings() == ["n1", "n2", "n3"]
    s.apply("n2")
    # three targets engaged: 2 + 2 dice to the extra targets, the first keeps the 2 left
    assert len(s.targets) == 3
    script(s, [1] * 15)  # three shots of 2 dice against 3 defence dice (2 + In Cover) each
    decline_reactions(s)
    shots = fires(s)
    assert [(f.target, f.firepower) for f in shots] == [("tal.1", 2), ("tal.2", 2), ("tal.3", 2)]

    d8 = make({"usmc.A": unit(pt(3, 11), ok=6, support=[], supply="normal"), **targets}, table=BACKS)
    for action in ("usmc.A", "fire", "tal.1", "tal.2", "n2"):
        d8.apply(action)
    assert d8.decision.kind == "declare_interrupt"  # a D8 unit stops at two targets


def test_a_target_given_nothing_is_not_engaged():
    """003_b1b2d2a6d4b3bab2.txt: "the owning player must announce what targets a unit is going to engage and
    how many Firepower Dice will be devoted to each target" — a target that gets no die is not engaged:
    the first target gave all its figures away and received no weapon, so only the second is fired on."""
    s = make({"usmc.A": unit(pt(3, 11), ok=2, support=["light"], supply="normal"),
              "tal.1": unit(pt(33, 5), ok=3), "tal.2": unit(pt(33, 11), ok=3)}, table=BACKS)  # fmt: skip
    for action in ("usmc.A", "fire", "tal.1", "tal.2", "n2", "tal.2"):
        s.apply(action)
    assert [s.action_to_str(324 + t) for t in s.targets] == ["tal.2"]


@pytest.mark.parametrize(
    ("kind", "dice"),
    [("improved_position", 2), ("fortified_position", 3), ("reinforced_fortification", 4), ("building", 1)],
)
def test_improved_and_fortified_cover_dice(kind, dice):
    """003_b1b2d2a6d4b3bab2.txt: "Improved Cover (shallow trenches, sandbagged walls, etc.): +2D",
    "Fortified Cover (purpose built trenches, log bunkers, and other field fortifications): +3D",
    "Reinforced Fortification (concrete bunkers with firing slits): +4D". The target has moved this
    turn (no In Cover die), 2 figures, no armor: defence = 2 + cover dice."""
    table = table_with(area(kind, 28, 8, 32, 14, "post"), wall(1, 1, 1, 35, "west_back"))
    s = make({"usmc.A": unit(pt(3, 11), ok=4, support=[], supply="normal"),
              "tal.1": unit(pt(29, 11), ok=2, moved="tactical")}, table=table)  # fmt: skip
    s.apply("usmc.A")
    s.apply("fire")
    s.apply("tal.1")
    script(s, [1] * 4 + [1] * (2 + dice))
    decline_reactions(s)
    assert fires(s)[0].defense == 2 + dice


def _penalties_by_the_rules(s, u: int) -> int:
    """Firepower dice unit ``u`` loses, written out from the seeds (not from the engine's ``_penalties``):
    000 "each additional fire ... -1 die" and Fog of War 10 (ammunition short); a Rapid move (000 quick
    start, 003 "lose one die of Firepower"); full rules only: 003 "-1 die for each move as part of a
    Reaction" and "-1 if unit is Poorly Supplied"."""
    lost = s.fires[u] + s.ammo[u] + (1 if s.moved[u] == 2 else 0)
    if s.full:
        lost += s.rmoves[u] + (1 if s.supply[u] < 0 else 0)
    return lost


def test_fire_capacity_is_the_firepower_sum():
    """``fire_capacity`` (inlined for speed) equals ``combat.firepower`` of the unit's figures and
    support dice with its bonuses and the penalties the seeds list, on every unit of states met in
    random games."""
    for rules in ("full", "quick"):
        g = game(rules=rules, fog_of_war=True)
        checked = 0
        for seed in range(15):
            s = g.new_initial_state(seed)
            rng = random.Random(seed)
            while not s.is_terminal:
                for u in range(8):
                    m = s.moved[u]
                    dice = combat.support_dice(s.usable_support(u), moved=m > 0, rapid=m == 2, full_rules=s.full)
                    want = combat.firepower(s.shooting_figures(u), dice, bonuses=s.mad[u],
                                            penalties=_penalties_by_the_rules(s, u))  # fmt: skip
                    assert s.fire_capacity(u) == (want if s.effective(u) else 0)
                    checked += 1
                s.apply(rng.choice(s.legal_actions()))
        assert checked > 1000


@pytest.mark.parametrize(
    ("spec", "rules", "capacity"),
    [
        ({"ok": 4, "support": ["light", "light"], "supply": "normal"}, "full", 6),  # 4 + 1 + 1
        ({"ok": 4, "support": ["light", "light"], "supply": "normal", "fires": 2}, "full", 4),
        ({"ok": 4, "support": ["light", "light"], "supply": "poor", "reaction_moves": 1}, "full", 4),
        ({"ok": 4, "support": ["light", "light"], "supply": "poor", "reaction_moves": 1}, "quick", 6),
        ({"ok": 4, "support": ["medium"], "supply": "normal", "moved": "tactical"}, "full", 5),  # medium: 1 die
        ({"ok": 4, "support": ["medium"], "supply": "normal", "moved": "rapid"}, "full", 3),  # 4 + 0 - 1
        ({"ok": 4, "support": ["medium"], "supply": "normal", "moved": "rapid"}, "quick", 5),  # 4 + 2 - 1
        ({"ok": 12, "support": ["heavy"], "supply": "normal", "fires": 1}, "full", 9),  # 15 capped at 10, -1
    ],
)
def test_fire_capacity_in_literal_cases(spec, rules, capacity):
    """The same sum on positions, worked out by hand from 003 (support dice: Light +1, Medium +2 or +1
    after moving and none after a Rapid move; the 10D cap before penalties) and 000."""
    figures = spec.pop("ok")
    s = make({"usmc.A": unit(pt(3, 11), ok=figures, **spec), "tal.1": unit(pt(33, 11))}, rules=rules)
    assert s.fire_capacity(uid("usmc.A")) == capacity


@pytest.mark.parametrize(("figures", "support", "split"), [(1, [], False), (2, [], True), (1, ["light"], True)])
def test_a_split_is_offered_only_with_something_to_give_the_second_target(figures, support, split):
    """003_b1b2d2a6d4b3bab2.txt: "how many Firepower Dice will be devoted to each target"; rulings R24:
    the first target keeps at least one figure unless the unit has a support weapon to give it. A lone
    rifleman has nothing to give a second target, so no split is offered (mutation audit, issue 16:
    an off-by-one offered it and then asked ``split_dice`` with no legal action)."""
    targets = {"tal.1": unit(pt(33, 5), ok=3), "tal.2": unit(pt(33, 11), ok=3)}
    s = make({"usmc.A": unit(pt(3, 11), ok=figures, support=support, supply="normal"), **targets}, table=BACKS)
    for action in ("usmc.A", "fire", "tal.1"):
        s.apply(action)
    assert (s.decision.kind == "split_target") == split
    if split:
        s.apply("tal.2")
        assert s.legal_action_strings() == ["n1"]  # one figure's die, or the support weapon's target


_FIRE_CHOICES = {"fire_target", "split_target", "split_dice", "split_support", "declare_interrupt", "return_fire"}


def _every_decision_has_a_choice(state, depth: int) -> int:
    """Walk the action sequences of a fire ``depth`` decisions deep from ``state`` (every choice at a
    fire decision, the first one elsewhere); assert each running state has a legal action. Returns
    the states visited."""
    if state.is_terminal:
        return 1
    legal = state.legal_actions()
    assert legal, f"empty legal list at {state.decision_kind}"
    if depth == 0:
        return 1
    seen = 1
    for action in legal if state.decision_kind in _FIRE_CHOICES else legal[:1]:
        child = state.clone()
        child.apply(action)
        seen += _every_decision_has_a_choice(child, depth - 1)
    return seen


@pytest.mark.parametrize("tq", [6, 8, 10, 12])
@pytest.mark.parametrize(("figures", "support"), [(1, []), (1, ["light"]), (2, []), (2, ["medium", "light"])])
def test_no_reachable_decision_has_an_empty_choice_at_the_edges_of_the_fire_rules(tq, figures, support):
    """The engine's contract (DESIGN.md): a running game always offers a legal action. Walked through
    every action sequence of an activation, from the smallest units each Troop Quality allows to split
    with, against three targets (issue 16: the split off-by-one reached an empty ``split_dice``)."""
    targets = {"tal.1": unit(pt(33, 5), ok=1), "tal.2": unit(pt(33, 11), ok=1), "tal.3": unit(pt(33, 17), ok=1)}
    s = make({"usmc.A": unit(pt(3, 11), ok=figures, tq=tq, support=support, supply="normal"), **targets},
             table=BACKS)  # fmt: skip
    s.apply("usmc.A")
    s.apply("fire")
    assert _every_decision_has_a_choice(s, 6) > 3
