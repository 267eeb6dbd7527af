"""Splitting fire under the full rules on "Compound Raid" positions (rulings R24): the unit's total
firepower and its cap, the unit's own modifiers and each portion's, and no split fire in the quick rules.

Seed: 003_b1b2d2a6d4b3bab2.txt, "Splitting Fire": "To split fire, the owning player must announce what
targets a unit is going to engage and how many Firepower Dice will be devoted to each target. Support
Weapon dice must be allocated to one target and may not be split among multiple targets."

brit.C (D12: 4 figures, a GPMG, Medium support) stands at x03y17 on an open table, so every target is
Exposed; the militia targets (3 figures each, no support weapons) stand at x11y09, x11y15, x11y21
(8.2" to 8.9" away: within the riflemen's 12" Optimum Range) and x11y27 (12.8": beyond it, within the
GPMG's 24"). Fire tests list the dice they expect: firepower, then defence, all 1s (misses); the
militia defend with min(3, firepower) dice (irregulars: no In Cover die, R39; Exposed: no cover).
"""

from __future__ import annotations

from .helpers import decline_reactions, dice_used, fires, open_table, script, seed_says, unit
from .raid_helpers import SEED_FULL, raid_state

TARGETS = {"mil.1": "x11y09", "mil.2": "x11y15", "mil.3": "x11y21", "mil.4": "x11y27"}


def _state(shooter: str = "brit.C", rules: str = "full", **brit):
    units = {shooter: unit("x03y17", **brit)}
    units.update({name: unit(at, 3, support=[]) for name, at in TARGETS.items()})
    return raid_state(units, table=open_table(), rules=rules)


def _shots(state, actions: str, dice: int) -> list[tuple[str, int, int]]:
    for action in actions.split():
        state.apply(action)
    script(state, [1] * dice)
    decline_reactions(state)
    assert dice_used(state) == dice
    return [(f.target, f.firepower, f.defense) for f in fires(state)]


def test_quick_rules_offer_no_split_fire():
    """R22: the quick start (000) has no split fire ("Splitting Fire" is 003's). brit.C, D12, with four
    militia units in sight, names one target and the fire is declared: 4 figures + 2 (GPMG) + 1 Optimum
    Range (mil.1 8.9" away, within 12") = 7D12 (no Exposed die, no Well Supplied die, no In Cover in the
    quick rules) against min(3, 7) = 3D6."""
    seed_says(SEED_FULL, "D12 Troop Quality: May engage FOUR targets")
    s = _state(rules="quick")
    s.apply("brit.C")
    s.apply("fire")
    s.apply("mil.1")
    assert s.decision_kind not in ("split_target", "split_dice", "split_support")
    assert _shots(s, "", 7 + 3) == [("mil.1", 7, 3)]
    full = _state()
    for action in ("brit.C", "fire", "mil.1"):
        full.apply(action)
    assert full.decision_kind == "split_target"  # the same fire under the full rules


def test_a_split_fire_is_capped_at_10d_in_all():
    """003: "No infantry unit may have a total Firepower greater than 10 dice" and "how many Firepower Dice
    will be devoted to each target": the cap is on the unit's fire, however it is divided (R24). brit.C
    (here not Well Supplied) gives one figure each to mil.1, mil.3 and mil.4 and keeps one figure and the
    GPMG on mil.2. Each portion's dice before the cap: mil.2 1 + 2 (GPMG) + 1 Optimum Range + 1 Exposed =
    5; mil.1 and mil.3 1 + 1 + 1 = 3 each; mil.4 1 + 1 Exposed = 2 (12.8": beyond the rifleman's 12").
    That is 13 dice; the unit throws 10, the 3 over the cap coming off the first target's portion:
    mil.2 2D12, mil.1 3D12, mil.3 3D12, mil.4 2D12."""
    seed_says(SEED_FULL, "No infantry unit may have a total Firepower greater than 10 dice",
              "how many Firepower Dice will be devoted to each target")  # fmt: skip
    s = _state(supply="normal")
    shots = _shots(s, "brit.C fire mil.2 mil.1 n1 mil.3 n1 mil.4 n1 mil.2", 10 + 10)
    assert shots == [("mil.2", 2, 2), ("mil.1", 3, 3), ("mil.3", 3, 3), ("mil.4", 2, 2)]
    alone = _shots(_state(supply="normal"), "brit.C fire mil.2 pass", 8 + 3)
    assert alone == [("mil.2", 4 + 2 + 1 + 1, 3)]  # everything at mil.2: 8D12


def test_penalties_come_off_the_capped_total_of_a_split_fire():
    """003: "Note that all negative penalties are applied to the 10D cap, regardless of the number of
    figures in the unit" and "-1 die for each Reaction/Overwatch fire after the first in a turn": the
    unit's total loses them, first from the first target's portion, then from the next (R24). brit.C
    (not Well Supplied) has fired four times this turn: -4. Two figures stay on mil.4 (12.8": 2 + 1
    Exposed = 3), two and the GPMG go to mil.1 (2 + 2 + 1 Optimum Range + 1 Exposed = 6): 9 dice, 5
    after the penalties. mil.4's portion gives all its 3, mil.1's the fourth: mil.4 is not fired on,
    mil.1 gets 5D12."""
    seed_says(SEED_FULL, "Note that all negative penalties are applied to the 10D cap, regardless of the number",
              "-1 die for each Reaction/Overwatch fire after the first in a turn")  # fmt: skip
    s = _state(supply="normal", fires=4)
    assert _shots(s, "brit.C fire mil.4 mil.1 n2 pass mil.1", 5 + 3) == [("mil.1", 5, 3)]


def test_a_portion_left_with_nobody_to_shoot_fires_no_dice():
    """003: "To determine a unit's Firepower, total the number of figures in the unit": a portion whose
    figures were all hit before the unit fires has no dice (R24: casualties taken since the declaration
    come off the first target's figures). brit.A (4 figures, D10, two Light weapons; not Well Supplied)
    keeps one figure on mil.1 and gives three figures and both weapons to mil.2. mil.3 interrupts and
    wins the reaction test (brit.A 2, mil.3 6): 3 + 1 Exposed - 1 Poorly Supplied = 3D6 (6, 1, 1)
    against 3 + 1 armour = 4D10, one casualty; brit.A passes its morale check (6, 6, 6). With three
    figures left, all three are mil.2's: nothing is fired at mil.1, and mil.2 gets 3 + 2 + 1 Optimum
    Range + 1 Exposed = 7D10 against 3D6."""
    seed_says(SEED_FULL, "To determine a unit’s Firepower, total the number of figures in the unit.")
    units = {"brit.A": unit("x03y17", supply="normal"), "mil.1": unit("x11y09", 3, support=[]),
             "mil.2": unit("x11y15", 3, support=[]), "mil.3": unit("x11y21", 3, support=[])}  # fmt: skip
    s = raid_state(units, table=open_table())
    for action in ("brit.A", "fire", "mil.1", "mil.2", "n3", "pass", "mil.2", "mil.2", "pass", "pass"):
        s.apply(action)
    assert s.legal_action_strings() == ["pass", "interrupt_fire", "interrupt_move"]  # mil.3
    script(s, [2, 6] + [6, 1, 1] + [1] * 4 + [6] * 3 + [1] * (7 + 3))
    s.apply("interrupt_fire")
    decline_reactions(s)
    assert dice_used(s) == 2 + 3 + 4 + 3 + 7 + 3
    assert [(f.shooter, f.target, f.firepower, f.defense) for f in fires(s)] == [
        ("mil.3", "brit.A", 3, 4), ("brit.A", "mil.2", 7, 3)]  # fmt: skip


def test_well_supplied_is_one_die_for_the_whole_fire():
    """003, the Firepower box: "+1 if unit is Well Supplied" is a die of the unit, not of each target: a
    split fire gets it once, with the first target's portion, as the unit-wide penalties (R24). brit.A
    (4 riflemen, D10, Well Supplied) at x03y17 beside the west back wall, the targets 30" away by the
    east one (nobody Exposed, beyond every Optimum Range): all at mil.2, 4 + 1 = 5D10 against 3D6;
    split 2 and 2, mil.2 gets 2 + 1 = 3D10 against 3D6 and mil.3 2D10 against 2D6: 5 dice in all."""
    seed_says(SEED_FULL, "+1 if unit is Well Supplied")
    targets = {"mil.2": unit("x33y13", 3, support=[]), "mil.3": unit("x33y21", 3, support=[])}
    alone = raid_state({"brit.A": unit("x03y17", support=[]), **targets})
    assert _shots(alone, "brit.A fire mil.2 pass", 5 + 3) == [("mil.2", 5, 3)]
    split = raid_state({"brit.A": unit("x03y17", support=[]), **targets})
    assert _shots(split, "brit.A fire mil.2 mil.3 n2 pass", 3 + 3 + 2 + 2) == [("mil.2", 3, 3), ("mil.3", 2, 2)]


def test_each_portion_of_a_split_fire_may_claim_its_optimum_range_die():
    """R51: 003: "A unit only receives one Optimum Range die per round of fire." and "A unit can only claim
    an Optimum Range die if all the weapons used in the attack are within Optimum Range.", with Example 2:
    "If the fireteam decides to split their fire, firing the SAW and grenade launcher at the enemy unit 14”
    away, that portion of their fire would receive the Optimum Range bonus die." Each portion is its own
    round of fire with its target and claims the die when all its weapons are in range. brit.A (D10, 4
    figures, two Light weapons; not Well Supplied) at mil.4, 12.8" away, beyond its riflemen's 10": the
    whole unit 4 + 2 + 1 Exposed = 7D10, no die; the gunners and both weapons at mil.4 (2 + 2 + 1 Optimum
    Range, within the weapons' 20", + 1 Exposed = 6D10) and the two riflemen at mil.2, 8.2" away (2 + 1
    Optimum Range + 1 Exposed = 4D10): a die each."""
    seed_says(SEED_FULL, "A unit only receives one Optimum Range die per round of fire.",
              "that portion of their fire would receive the Optimum Range bonus die.")  # fmt: skip
    whole = _state("brit.A", supply="normal")
    assert _shots(whole, "brit.A fire mil.4 pass", 7 + 3) == [("mil.4", 7, 3)]
    split = _state("brit.A", supply="normal")
    assert _shots(split, "brit.A fire mil.4 mil.2 n2 pass mil.4 mil.4", 6 + 3 + 4 + 3) == [
        ("mil.4", 6, 3), ("mil.2", 4, 3)]  # fmt: skip
