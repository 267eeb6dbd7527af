"""Scenario rule module ``irregulars`` (003 "Rounds of Fire" and "Cover Dice"): irregular units fight only
the rounds of fire they start, act once per turn, and are never In Cover without a Quality Check.

003: "Note that irregular units may only participate in a round of fire that they have initiated by
action or reaction. Otherwise, they must receive fire without responding to it. Since an irregular unit
can only be activated or react once per turn, they can only engage in one Round of Fire per turn." and
"Irregulars that have not moved during their activation and Exposed Regular units must pass a Quality
Check to get 'In Cover.'"

Which units are irregular is static (``state.sc.irregular``, by unit: the rule's side, or a unit's own
``irregular`` flag; :func:`fof_env.force_on_force.game._irregular_units`). The engine asks this mixin at
its hook points (rulings R37-R39):

* the reaction window (:mod:`~fof_env.force_on_force.reaction`) leaves out an irregular unit that has
  activated or reacted this turn (:meth:`Irregulars.may_react`), offers an irregular *target* of a
  declared fire no ``interrupt_fire`` (that would be firing back in the enemy's round of fire; it may
  still make a reaction move), never asks an irregular unit to ``return_fire``, and marks an irregular
  unit that reacted (an Overwatch shot included) as ``reacted``;
* unit selection leaves out an irregular unit that has reacted this turn (R18 already does for the
  non-initiative side);
* In Cover (:mod:`~fof_env.force_on_force.fire`, ``hold`` in :mod:`~fof_env.force_on_force.sequence`):
  an irregular unit is never In Cover automatically; one that holds takes the Quality Check.

In a scenario without the rule every ``sc.irregular`` entry is False and nothing changes.
"""

from __future__ import annotations

from fof_env.force_on_force.rule_module import RuleModule


class Irregulars:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def is_irregular(self, u: int) -> bool:
        """Whether unit ``u`` is irregular in this game (rulings R37)."""
        irregular = self.sc.irregular
        return bool(irregular) and irregular[u]

    def may_react(self, u: int) -> bool:
        """Whether unit ``u`` may still react this turn: an irregular unit "can only be activated or
        react once per turn" (rulings R38); regular units always may (their other limits apply)."""
        irregular = self.sc.irregular
        return not (irregular and irregular[u] and (self.activated[u] or self.reacted[u]))

    def may_fire_back(self, u: int) -> bool:
        """Whether unit ``u``, fired on in a round of fire it did not start, may answer it: irregular
        units "must receive fire without responding to it" (rulings R37)."""
        irregular = self.sc.irregular
        return not (irregular and irregular[u])

    def needs_cover_check(self, u: int) -> bool:
        """Whether unit ``u`` holding still must pass a Quality Check to get In Cover (full rules):
        an Exposed regular unit (R23) or any irregular unit (rulings R39)."""
        return self.full and (self.sc.table.exposed[self.pos[u]] or self.is_irregular(u))


MODULE = RuleModule("irregulars", Irregulars)
