"""Scenario rule module ``airstrike_call`` (000, "Lost & Found": "if he is effective" the pilot may call
in an air strike): at the start of every turn from the second, while the pilot is on the table, his
side decides whether he calls it; a passed TQ check of his side ends the scenario (rulings R33)."""

from __future__ import annotations

from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import ST_OVERWATCH


class AirstrikeCall:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def _on_airstrike(self, action: int) -> None:
        if self.sc.cas is not None:  # WWII close air support (rules/wwii_air.py)
            self._on_cas(action)
            return
        self._auto(ST_OVERWATCH)
        if action == self.YES:
            tq = self.sc.sides[self.sc.pilot.side].tq
            if self.roll(tq, "pilot's TQ check to call the air strike") >= combat.SUCCESS:
                self.events.append(ev.Note("air strike called in: the scenario ends"))
                self.airstrike = 1
                self._finish()
            else:
                self.events.append(ev.Note("the pilot's air strike call fails"))
