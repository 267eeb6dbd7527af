"""Scenario rule module ``capture`` (000, "Lost & Found": "Per Marine Captured = 3 VP"; rulings R30):
a unit of the capturing side that moves within 1" of an enemy unit with no figure left able to fight
captures its down and seriously wounded figures."""

from __future__ import annotations

from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import CAPTURED, CONTACT_IN, DOWN, SERIOUS
from fof_env.force_on_force.rule_module import RuleModule, Slot


class Capture:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def _capture(self, u: int, dist) -> None:
        for m in self.SIDE_UNITS[1 - self.UNIT_SIDE[u]]:
            f = self.figs[m]
            if self.pos[m] >= 0 and not self.effective(m) and f[DOWN] + f[SERIOUS] and dist[self.pos[m]] <= CONTACT_IN + 1e-9:
                f[CAPTURED] += f[DOWN] + f[SERIOUS]
                f[DOWN] = f[SERIOUS] = 0
                self.events.append(ev.Note(f"{self.UNIT_NAMES[u]} captures the casualties of {self.UNIT_NAMES[m]}"))


def _capture_on_arrival(state, u: int, dist) -> None:
    """A unit of the capturing side arrives (not the downed pilot's rescuers: they take him along instead)."""
    side = state.UNIT_SIDE[u]
    pilot = state.sc.pilot
    if side == state.sc.capture_side and not (pilot is not None and side == pilot.side):
        state._capture(u, dist)


MODULE = RuleModule(
    "capture",
    Capture,
    slots=(Slot("capture_on", default=lambda s: s.sc.capture_side >= 0),),
    hooks={"unit_arrived": _capture_on_arrival},
    active=lambda sc: sc.capture_side >= 0,
)
