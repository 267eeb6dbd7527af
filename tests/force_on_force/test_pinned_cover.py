"""A pinned unit's Quality Check to get In Cover (``rules/pinned_cover.py``, rulings R54), on "Compound Raid"
positions.

Seed: 003_b1b2d2a6d4b3bab2.txt, "Cover Dice": "Pinned units may take a Quality Check to get In Cover even
if they have moved. This bonus die is cumulative with other applicable Defense Dice."

brit.A (4 figures, D10, body armour 1D; here no support weapons) stands at x03y17, 2" from the table's
west back wall: not Exposed. The militia fire at it from x09y17 (mil.2, 6" away: Optimum Range for D6)
and x09y21 (mil.3, 7.2": beyond it); both have 6 figures and no support weapons, and are Poorly Supplied
(-1): mil.2 throws 6 + 1 - 1 = 6D6, mil.3 6 - 1 = 5D6. mil.2's 6, 6, 1, 1, 1, 1 against brit.A's misses
hits twice; brit.A's morale check, 1 and 1, fails: it is pinned.
"""

from __future__ import annotations

from fof_env.core.events import DiceRolled

from .helpers import decline_reactions, dice_used, events, fires, script, seed_says, unit
from .raid_helpers import SEED_FULL, raid_state, rid

HITS_TWICE = [6, 6, 1, 1, 1, 1]


def _two_fires(moved: str, defence: int, then: list[int], second_defence: int = 0):
    """mil.2 fires at brit.A (``defence`` dice, all misses), brit.A fails its morale check, then ``then``
    (the Quality Check, if any); mil.2 declines its move after firing and mil.3 fires at brit.A, which
    defends with ``second_defence`` dice. The state and the dice rolled."""
    s = raid_state({"brit.A": unit("x03y17", support=[], moved=moved), "mil.2": unit("x09y17", support=[]),
                    "mil.3": unit("x09y21", support=[])}, initiative="militia")  # fmt: skip
    for action in ("mil.2", "fire", "brit.A"):
        s.apply(action)
    script(s, HITS_TWICE + [1] * defence + [1, 1] + then + [1] * (5 + second_defence))
    decline_reactions(s)
    assert s.pinned[rid(s, "brit.A")] == 1
    if s.decision_kind == "move_target":  # the full rules' optional move after firing (R13)
        s.apply("pass")
    for action in ("mil.3", "fire", "brit.A"):
        s.apply(action)
    decline_reactions(s)
    return s, dice_used(s)


def test_a_pinned_unit_that_moved_takes_a_quality_check_to_get_in_cover():
    """brit.A has moved (no automatic In Cover, R23): against mil.2 it defends with min(4, 6) + 1 armour =
    5D10. Pinned, it takes the Quality Check: 4 on its D10 passes, and against mil.3 it defends with
    min(2, 5) + 1 armour + 1 In Cover = 4D10 ("This bonus die is cumulative with other applicable Defense
    Dice")."""
    seed_says(SEED_FULL, "Pinned units may take a Quality Check to get In Cover even if they have moved.",
              "This bonus die is cumulative with other applicable Defense Dice.")  # fmt: skip
    s, used = _two_fires("tactical", 5, [4], second_defence=4)
    assert s.in_cover[rid(s, "brit.A")] == 1
    assert [(f.shooter, f.firepower, f.defense) for f in fires(s)] == [("mil.2", 6, 5), ("mil.3", 5, 4)]
    assert used == 6 + 5 + 2 + 1 + 5 + 4


def test_a_pinned_unit_that_fails_the_check_is_not_in_cover():
    """The same, the Quality Check a 3: no In Cover, and against mil.3 brit.A defends with min(2, 5) + 1 =
    3D10."""
    s, used = _two_fires("tactical", 5, [3], second_defence=3)
    assert s.in_cover[rid(s, "brit.A")] == 0
    assert [(f.shooter, f.firepower, f.defense) for f in fires(s)] == [("mil.2", 6, 5), ("mil.3", 5, 3)]
    assert used == 6 + 5 + 2 + 1 + 5 + 3


def test_a_pinned_unit_already_in_cover_takes_no_check():
    """003: "Regular units are automatically In Cover on any activation that they do not move and are not
    Exposed": brit.A has not moved and has the In Cover die already (min(4, 6) + 1 + 1 = 6D10 against
    mil.2, min(2, 5) + 1 + 1 = 4D10 against mil.3); being pinned rolls nothing more."""
    s, used = _two_fires("none", 6, [], second_defence=4)
    assert [(f.shooter, f.firepower, f.defense) for f in fires(s)] == [("mil.2", 6, 6), ("mil.3", 5, 4)]
    assert used == 6 + 6 + 2 + 5 + 4


def test_the_quick_rules_have_no_in_cover_check():
    """R22: In Cover is 003's; the quick start has none. Under ``rules="quick"`` the pinned brit.A rolls no
    check: min(4, 6D6) + 1 = 5D10, then min(2, 5D6) + 1 = 3D10 (quick: no Poorly Supplied die, so mil.2
    throws 6 + 1 = 7D6 and mil.3 6D6)."""
    s = raid_state({"brit.A": unit("x03y17", support=[], moved="tactical"), "mil.2": unit("x09y17", support=[]),
                    "mil.3": unit("x09y21", support=[])}, initiative="militia", rules="quick")  # fmt: skip
    for action in ("mil.2", "fire", "brit.A"):
        s.apply(action)
    script(s, [6, 6, 1, 1, 1, 1, 1] + [1] * 5 + [1, 1] + [1] * 20)  # then the turn ends: initiative ...
    decline_reactions(s)
    assert s.pinned[rid(s, "brit.A")] == 1 and s.decision_kind == "select_unit"
    assert dice_used(s) == 7 + 5 + 2  # no Quality Check
    for action in ("mil.3", "fire", "brit.A"):
        s.apply(action)
    assert [(f.shooter, f.firepower, f.defense) for f in fires(s)] == [("mil.2", 7, 5), ("mil.3", 6, 3)]
    assert not [e for e in events(s, DiceRolled) if "In Cover" in e.purpose]
