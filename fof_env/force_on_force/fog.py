"""The quick start's D10 Fog of War table (000 "FOG OF WAR"), rolled on an unmodified 1 on a reaction test;
in a scenario with the WWII deck a card is drawn instead (:mod:`~fof_env.force_on_force.rules.wwii_fog`)."""

from __future__ import annotations

from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import (
    AUTO,
    D_FOW_POINT,
    D_FOW_UNIT,
    FOW_RESULTS,
    GONE,
    KIA,
    OK,
    ST_RESOLVE,
)
from fof_env.force_on_force.rule_module import LIST, TURN, UNIT, DecisionKind, RuleModule, Slot, unit_flag


class FogOfWar:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def _fow_unit_actions(self) -> list[int]:
        """Legal actions of a ``fog_of_war_unit`` decision (a held card may be kept: ``pass``)."""
        if self.cards is not None:
            return [self.UNIT0 + u for u in self._card_unit_choices()] + [self.PASS]
        return [self.UNIT0 + u for u in self._fow_unit_choices()]

    def _fow_point_actions(self) -> list[int]:
        """Legal actions of a ``reinforce_point`` decision (Swiss Cheese, Fire! Fire!: a feature's point, or
        ``pass``; a card reserve: where it enters)."""
        if self.cards is not None:  # a card reserve has no pass (rules/wwii_reserves.py, R70)
            return self._card_point_actions()
        return sorted(self.sc.table.edge_points(self.sc.edges[self.sc.fow_irregular]))

    def _fow_result_name(self) -> str:
        """The decision context's ``result``: the D10 result, or the card asked about."""
        return self._card_key() if self.cards is not None else FOW_RESULTS[self.fow_queue[0][0]]

    def _fow_unit_choices(self) -> list[int]:
        result = self.fow_queue[0][0]
        regular, irregular = self.sc.fow_regular, self.sc.fow_irregular
        if result == 6:
            return [u for u in self.SIDE_UNITS[irregular] if self.active(u) and not self.tough[u]]
        if result == 3:
            return [u for u in self.SIDE_UNITS[regular] if self.active(u) and not self.medic[u]]
        return [u for u in self.SIDE_UNITS[regular if result == 1 else irregular] if self.active(u)]

    def _on_fow_unit(self, action: int) -> None:
        if self.cards is not None:  # the turn machine goes on with the step it was at
            self._on_card_unit(action)
            self.kind = AUTO
            return
        result, _side = self.fow_queue.pop(0)
        u = action - self.UNIT0
        if result in (1, 2):
            self.excellent[u] = 1
        elif result == 3:
            self.medic[u] = 1
        else:  # 6
            self.tough[u] = 1
            self.tq[u] = max(self.tq[u], 8)
        self.events.append(ev.FogOfWar(result, FOW_RESULTS[result], self.UNIT_NAMES[u]))
        self._auto(ST_RESOLVE)

    def _on_fow_point(self, action: int) -> None:
        if self.cards is not None:  # the turn machine goes on with the step it was at
            self._on_card_point(action)
            self.kind = AUTO
            return
        self.fow_queue.pop(0)
        self._reinforce(action)
        self._auto(ST_RESOLVE)

    def _fog_of_war(self, side: int) -> None:
        if self.cards is not None:  # the WWII deck: draw a card instead (rules/wwii_fog.py, R60)
            self.fow_queue.append((0, side))
            return
        roll = self.roll(10, "Fog of War")
        self.fow_queue.append((roll, side))

    def _resolve_fow(self) -> None:
        if self.cards is not None:
            self._resolve_card()
            return
        result, side = self.fow_queue[0]
        name = FOW_RESULTS[result]
        regular, irregular = self.sc.fow_regular, self.sc.fow_irregular
        if result in (1, 2, 3, 6):
            self.fow_queue[0] = (result, regular if result in (1, 3) else irregular)
            if self._fow_unit_choices():
                self.kind = D_FOW_UNIT
                return
        elif result == 4:
            kia = sum(self.figs[u][KIA] for u in self.SIDE_UNITS[irregular])
            r = self.sc.reinforcements
            if kia and r >= 0:
                self.fow_queue[0] = (result, irregular)
                if not self.active(r):
                    self.kind = D_FOW_POINT
                    return
                self.fow_queue.pop(0)
                self._reinforce(self.pos[r])
                return
        elif result == 5:
            self.amped[side] = 1
        elif result in (7, 9):
            victims = [u for u in self.SIDE_UNITS[regular if result == 7 else irregular] if self.active(u)]
            if victims:
                t = victims[self.roll(len(victims), "random unit") - 1] if len(victims) > 1 else victims[0]
                self.events.append(ev.FogOfWar(result, name, self.UNIT_NAMES[t]))
                self.fow_queue.pop(0)
                self._attack(t, 6, 6, -1, "mortar fire")
                return
        elif result in (8, 10):
            victims = [u for u in self.SIDE_UNITS[regular] if self.active(u)]
            if victims:
                t = victims[self.roll(len(victims), "random unit") - 1] if len(victims) > 1 else victims[0]
                if result == 8:
                    self.mad[t] = 1
                else:
                    self.ammo[t] = 1
                self.events.append(ev.FogOfWar(result, name, self.UNIT_NAMES[t]))
                self.fow_queue.pop(0)
                return
        self.events.append(ev.FogOfWar(result, name, self.SIDES[side] if result == 5 else ""))
        self.fow_queue.pop(0)

    def _reinforce(self, point: int) -> None:
        """ "Any KIA figures removed from the board return anywhere on the East board edge" (the
        irregular side's friendly edge), as the scenario's reinforcements unit."""
        n = 0
        r = self.sc.reinforcements
        for u in self.SIDE_UNITS[self.sc.fow_irregular]:
            if u != r:
                n += self.figs[u][KIA]
                self.figs[u][GONE] += self.figs[u][KIA]
                self.figs[u][KIA] = 0
        if not self.active(r):
            self.pos[r] = point
        self.figs[r][OK] += n
        self.events.append(ev.FogOfWar(4, FOW_RESULTS[4], f"{n} figures at {self.point_name(self.pos[r])}"))


def _fow_owner(state) -> int:
    return state.fow_queue[0][1]


def _fow_context(state, ctx) -> None:
    ctx["result"] = state._fow_result_name()


MODULE = RuleModule(
    "fog",
    FogOfWar,
    kinds=(
        DecisionKind(D_FOW_UNIT, FogOfWar._fow_unit_actions, FogOfWar._on_fow_unit, _fow_owner, _fow_context),
        DecisionKind(D_FOW_POINT, FogOfWar._fow_point_actions, FogOfWar._on_fow_point, _fow_owner, _fow_context),
    ),
    slots=(
        Slot("fow_on", default=lambda s: s.game.fog_of_war),  # an unmodified 1 calls up Fog of War
        unit_flag("excellent", UNIT),  # An Excellent Position (results 1, 2)
        unit_flag("medic", UNIT),  # a Corpsman (result 3)
        unit_flag("ammo", UNIT),  # Ammunition low (result 10)
        unit_flag("tough", UNIT),  # Tougher than they look (result 6)
        unit_flag("mad", TURN),  # Mad Minute (result 8)
        Slot("amped", LIST, default=(0, 0)),  # by side: Amped up (result 5)
        Slot("fow_queue", LIST, default=()),  # (result, side) still to resolve
    ),
)
