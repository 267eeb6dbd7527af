"""Casualties and morale: who is hit, the casualty checks of the next turn, escorting casualties off the
table (000 "What happens at the beginning of Turn 2?", "Can I leave ...")."""

from __future__ import annotations

from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import (
    CONTACT_IN,
    D_ACTION,
    DOWN,
    EVAC_DOWN,
    EVAC_KIA,
    EVAC_SERIOUS,
    GONE,
    KIA,
    LIGHT,
    OK,
    SERIOUS,
)
from fof_env.force_on_force.rule_module import TURN, RuleModule, unit_flag


class CasualtiesAndMorale:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def pin(self, u: int) -> None:
        """Pin unit ``u`` (000: "the unit is pinned and may conduct no further actions until the end of the
        turn"); for a unit newly pinned the active modules' ``unit_pinned`` hooks run."""
        if self.pinned[u]:
            return
        self.pinned[u] = 1
        for hook in self.sc.hooks.unit_pinned:
            hook(self, u)

    def _wiped_out(self, u: int) -> None:
        """Fire has left unit ``u`` with no effective figure: the active modules' ``unit_wiped`` hooks run."""
        for hook in self.sc.hooks.unit_wiped:
            hook(self, u)

    def _take_hits(self, t: int, hits: int) -> None:
        f = self.figs[t]
        for _ in range(hits):
            if f[OK] and f[LIGHT]:
                light = self.roll(f[OK] + f[LIGHT], f"which figure of {self.UNIT_NAMES[t]} is hit") > f[OK]
            else:
                light = f[LIGHT] > 0
            f[LIGHT if light else OK] -= 1
            f[DOWN] += 1

    def casualties_carried(self, u: int) -> int:
        f = self.figs[u]
        return f[DOWN] + f[SERIOUS] + f[KIA]

    def _check_casualties(self, final: bool = False) -> None:
        """Roll 1D6 per casualty: 1 KIA, 2-3 serious, 4-5 light wound, 6 back to duty (000)."""
        if self.sc.wwii_aid:  # the WWII tables (rules/wwii.py); the turn's start runs them itself
            self._final_first_aid()
            return
        table = self.sc.table
        for u in range(self.NUM_UNITS):
            f = self.figs[u]
            if not f[DOWN] and not f[EVAC_DOWN]:
                continue
            here = self.pos[u]
            friends = [t for t in self.SIDE_UNITS[self.UNIT_SIDE[u]] if t != u and self.active(t)]
            near = [t for t in friends if here >= 0 and table.dist[here][self.pos[t]] <= CONTACT_IN + 1e-9]
            bonus = 1 if self.medic[u] and self.effective(u) or any(self.medic[t] for t in near) else 0
            if f[DOWN] and (final or here < 0 or self.effective(u) or near):
                for _ in range(f[DOWN]):
                    self._assess(u, DOWN, bonus)
            for _ in range(f[EVAC_DOWN]):
                self._assess(u, EVAC_DOWN, 0)

    def _assess(self, u: int, src: int, bonus: int) -> None:
        roll = min(6, self.roll(6, f"casualty check of {self.UNIT_NAMES[u]}") + bonus)
        f = self.figs[u]
        f[src] -= 1
        evac = src == EVAC_DOWN
        if roll == 1:
            f[EVAC_KIA if evac else KIA] += 1
        elif roll <= 3:
            f[EVAC_SERIOUS if evac else SERIOUS] += 1
        elif evac:
            f[GONE] += 1  # walking wounded off the table with their escort
        else:
            f[LIGHT if roll <= 5 else OK] += 1

    def _escort(self, u: int) -> None:
        """An effective figure takes one casualty off the friendly edge (000 "Can I leave ...")."""
        f = self.figs[u]
        f[LIGHT if f[LIGHT] else OK] -= 1
        f[GONE] += 1
        for src, dst in ((SERIOUS, EVAC_SERIOUS), (DOWN, EVAC_DOWN), (KIA, EVAC_KIA)):
            if f[src]:
                f[src] -= 1
                f[dst] += 1
                break
        self.events.append(ev.Note(f"a figure of {self.UNIT_NAMES[u]} escorts a casualty off the table"))
        self.kind = D_ACTION


MODULE = RuleModule("casualties", CasualtiesAndMorale, slots=(unit_flag("pinned", TURN),))
