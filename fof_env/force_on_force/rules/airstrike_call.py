"""Scenario rule module ``airstrike_call`` (000, "Lost & Found": "if he is effective" the pilot may call
in an air strike): at the start of every turn from the second, while the pilot is on the table, his
side decides whether he calls it; a passed TQ check of his side ends the scenario (rulings R33)."""

from __future__ import annotations

from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import D_AIRSTRIKE, ST_OVERWATCH
from fof_env.force_on_force.rule_module import DecisionKind, RuleModule, Slot


class AirstrikeCall:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def _airstrike_actions(self) -> list[int]:
        """``call_airstrike``: ``pass`` or ``yes``; with WWII close air support the target units or ``pass``
        (rules/wwii_air.py, R68)."""
        if self.sc.cas is None:
            return [self.PASS, self.YES]
        return [self.UNIT0 + t for t in self.cas_targets()] + [self.PASS]

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


def _airstrike_owner(state) -> int:
    """The pilot's side, or the side with WWII close air support (R68)."""
    sc = state.sc
    return sc.pilot.side if sc.cas is None else sc.cas.side


MODULE = RuleModule(
    "airstrike_call",
    AirstrikeCall,
    kinds=(DecisionKind(D_AIRSTRIKE, AirstrikeCall._airstrike_actions, AirstrikeCall._on_airstrike,
                        _airstrike_owner),),
    slots=(Slot("airstrike", default=0),),  # the air strike was called in: the scenario ended
)  # fmt: skip
