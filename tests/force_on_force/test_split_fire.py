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
