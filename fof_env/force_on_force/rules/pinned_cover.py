"""Full-rules module (003 "Cover Dice"): a unit that is pinned takes a Quality Check to get In Cover, even if
it has moved.

003: "Pinned units may take a Quality Check to get In Cover even if they have moved. This bonus die is
cumulative with other applicable Defense Dice." and, for what a pinned unit may do, 000: "If the unit's
morale check fails, the unit is pinned and may conduct no further actions until the end of the turn."

How it is played (rulings R54): the moment a unit becomes pinned (a failed morale check after fire, or an
AFV crew bailing out, which leaves it an infantry unit, R84) it rolls one die of its Troop Quality if it
does not have the In Cover die already (:meth:`~fof_env.force_on_force.fire.FireResolution.has_in_cover`:
a regular unit that has not moved and is not Exposed, R23, or one that passed a check this turn); on 4+ it
is In Cover for the rest of the turn, as a unit that passes the check when it holds (R23, R39). A pinned
unit acts no more, so the check is no action and takes no activation; and it is rolled whenever it can help,
with no decision: passing adds a defence die, failing costs nothing, so "may" is a choice no player would
decline (as R71 (3)). A unit already pinned that fails another morale check is still the same pin: no new
check. The quick rules (000) have no In Cover (R22): nothing is rolled.

The module is one hook: the engine's ``unit_pinned`` point
(:meth:`~fof_env.force_on_force.casualties.CasualtiesAndMorale.pin`, wherever a unit becomes pinned).
"""

from __future__ import annotations

from fof_env.force_on_force import combat
from fof_env.force_on_force.rule_module import RuleModule


def take_cover_check(state, u: int) -> None:
    """Unit ``u`` has just been pinned: its Quality Check for In Cover (full rules, R54)."""
    if not state.full or state.has_in_cover(u):
        return
    if state.roll(state.tq[u], "quality check to get In Cover (pinned)") >= combat.SUCCESS:
        state.in_cover[u] = 1


MODULE = RuleModule("pinned_cover", hooks={"unit_pinned": take_cover_check})
