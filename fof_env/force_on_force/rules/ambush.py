"""Scenario rule module ``ambush`` (000 "Ambush Rules are in Effect"): units set up in woods may be Hidden;
the other side may try to spot them."""

from __future__ import annotations

from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import D_ACTION, D_HIDE, ST_SETUP
from fof_env.force_on_force.rule_module import DecisionKind, RuleModule, Slot, unit_flag


class Ambush:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def _hide_candidates(self) -> list[int]:
        woods = self.sc.table.in_woods
        return [
            u for u in self.SIDE_UNITS[self.sc.ambush_side] if self.active(u) and not self.hidden[u] and woods[self.pos[u]]
        ]

    def _hide_actions(self) -> list[int]:
        """``declare_hidden``: a unit of the ambushing side in the woods to hide, or ``pass`` (done hiding)."""
        return [self.UNIT0 + u for u in self._hide_candidates()] + [self.PASS]

    def _on_hide(self, action: int) -> None:
        if action == self.PASS:
            self.setup_stage += 1
        else:
            self.hidden[action - self.UNIT0] = 1
        self._auto(ST_SETUP)

    def _spot(self, u: int) -> None:
        """Spotting (the side facing the ambush): within Optimum Range, a TQ check reveals Hidden units
        (000 "Ambush")."""
        if self.roll(self.tq[u], f"spotting TQ check of {self.UNIT_NAMES[u]}") >= combat.SUCCESS:
            table = self.sc.table
            here = self.pos[u]
            for t in self.SIDE_UNITS[self.sc.ambush_side]:
                if (
                    self.hidden[t]
                    and table.dist[here][self.pos[t]] <= self.tq[u] + 1e-9
                    and table.los[here][self.pos[t]]
                ):
                    self.hidden[t] = 0
                    self.events.append(ev.Note(f"{self.UNIT_NAMES[u]} spots {self.UNIT_NAMES[t]}"))
        self.kind = D_ACTION


MODULE = RuleModule(
    "ambush",
    Ambush,
    kinds=(DecisionKind(D_HIDE, Ambush._hide_actions, Ambush._on_hide, lambda s: s.sc.ambush_side),),
    slots=(Slot("ambush_on", default=lambda s: s.sc.ambush_side >= 0), unit_flag("hidden")),
)
