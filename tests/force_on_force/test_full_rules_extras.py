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


def test_fire_capacity_is_the_firepower_sum():
    """``fire_capacity`` (inlined for speed) equals ``combat.firepower`` of the unit's figures and
    support dice with its bonuses and penalties, on every unit of states met in random games."""
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
                    want = combat.firepower(s.shooting_figures(u), dice, bonuses=s.mad[u], penalties=s._penalties(u))
                    assert s.fire_capacity(u) == (want if s.effective(u) else 0)
                    checked += 1
                s.apply(rng.choice(s.legal_actions()))
        assert checked > 1000
