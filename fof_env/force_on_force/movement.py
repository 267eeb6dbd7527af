"""Movement: destinations within Tactical / Rapid reach, leaving by a friendly edge, the TQ check for units
slowed by wounded figures, and what a move does on arrival (000, 003 "Movement")."""

from __future__ import annotations

from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import (
    D_MOVE,
    DOWN,
    LIGHT,
    RAPID_IN,
    SERIOUS,
    ST_END_ACTIVATION,
    ST_RESOLVE,
    TACTICAL_IN,
    W_MOVE,
)
from fof_env.force_on_force.rule_module import TURN, DecisionKind, RuleModule, context, unit_flag


class Movement:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def move_points(self, u: int, limit: float) -> list[int]:
        """Points within ``limit`` inches of ``u`` not held by an enemy unit its side can see.

        A hidden enemy unit's point stays open (the mask must not give it away); moving
        onto it reveals that unit (rulings.md R4, R27).
        """
        side = self.UNIT_SIDE[u]
        pos, hidden = self.pos, self.hidden
        enemy = {pos[t] for t in range(self.NUM_UNITS) if self.UNIT_SIDE[t] != side and pos[t] >= 0 and not hidden[t]}
        return [p for p in self.sc.table.within(self.pos[u], limit) if p not in enemy]

    def _edge(self, u: int) -> str:
        return self.sc.edges[self.UNIT_SIDE[u]]

    def _is_rapid(self, u: int, dest: int) -> bool:
        """Whether moving ``u`` to ``dest`` (-1: off its friendly edge) is more than 6": Rapid."""
        table = self.sc.table
        here = self.pos[u]
        dist = table.distance_to_edge(here, self._edge(u)) if dest < 0 else table.dist[here][dest]
        return dist > (self.tactical_reach(u) if self.sc.vehicles else TACTICAL_IN) + 1e-9  # AFVs: 10" (R81)

    def can_exit(self, u: int, limit: float) -> bool:
        return self.sc.table.distance_to_edge(self.pos[u], self._edge(u)) <= limit + 1e-9

    def _slowed(self, u: int) -> bool:
        """Wounded figures or dependents force a TQ check to move faster than Tactical (000)."""
        f = self.figs[u]
        return f[LIGHT] + f[DOWN] + f[SERIOUS] > 0

    def _move_choices(self) -> list[int]:
        u = self.mover
        limit = TACTICAL_IN if self.tactical_only else RAPID_IN
        if self.sc.vehicles:  # a WWII AFV moves 10" / 20" (003; rules/wwii_vehicles.py)
            limit = self.afv_move_limit(u, limit)
        out = self.move_points(u, limit)
        if self.sc.out_of_contact_side >= 0 and not self.move_reaction and not self.tactical_only:
            unseen = self.out_of_contact_points(u)  # 003 "Out of Contact Movement" (R40)
            if unseen:
                out = sorted(set(out).union(unseen))
        if self.cards is not None and (self.cards.burning or self.cards.markers):  # Fire! Fire!, Watch
            barred = self.burning_points() | self.marker_barred(self.UNIT_SIDE[u])  # Where You Step! (R62)
            out = [p for p in out if p not in barred]
        named = [self.EXIT] if self.can_exit(u, limit) else []
        if self.after_fire:
            named.append(self.PASS)  # the move after firing is optional (R13)
        return out + sorted(named)  # legal actions are listed in increasing order

    def _ask_move(self, u: int, reaction: bool) -> None:
        self.mover = u
        self.move_reaction = 1 if reaction else 0
        self.tactical_only = 0
        self.kind = D_MOVE

    def _on_move(self, action: int) -> None:
        if action == self.PASS:  # no move after firing
            self.mover = -1
            self._auto(ST_END_ACTIVATION)
            return
        u = self.mover
        dest = -1 if action == self.EXIT else action
        rapid = self._is_rapid(u, dest)
        checked = rapid and self._slowed(u) and not self.tactical_only
        if checked and self.roll(self.tq[u], "TQ check to move faster than Tactical") < combat.SUCCESS:
            self.events.append(ev.Note(f"{self.UNIT_NAMES[u]} fails its TQ check: Tactical move only"))
            self.tactical_only = 1
            return  # the same decision again, Tactical destinations only
        if self.move_reaction:
            self._do_move(u, dest, rapid)
            self.rmoves[u] += 1
            self.reacted[u] = 1
            self.mover = -1
            self.move_reaction = self.tactical_only = 0
            self._auto(ST_RESOLVE)
            return
        self.hidden[u] = 0  # "They remain Hidden so long as they do not move or fire."
        self.win_kind = W_MOVE
        self.win_dest = dest
        self.targets = []
        self._open_window()

    def _do_move(self, u: int, dest: int, rapid: bool) -> None:
        here = self.pos[u]
        self.events.add(ev.UnitMoved, (self.UNIT_NAMES[u], self.point_name(here), self.point_name(dest), rapid))
        self.moved[u] = max(self.moved[u], 2 if rapid else 1)
        self.excellent[u] = 0
        self.in_cover[u] = 0
        self.hidden[u] = 0
        self.pos[u] = dest
        for hook in self.sc.hooks.unit_moved:  # an AFV faces the way it moved, the pilot moves with his unit
            hook(self, u, here, dest)
        if dest < 0 or not self.active(u):
            return
        dist = self.sc.table.dist[dest]
        for t in range(self.NUM_UNITS):
            if self.hidden[t] and self.pos[t] == dest and self.UNIT_SIDE[t] != self.UNIT_SIDE[u]:
                self.hidden[t] = 0
                self.events.append(ev.Note(f"{self.UNIT_NAMES[u]} runs into hidden {self.UNIT_NAMES[t]}"))
        for hook in self.sc.hooks.unit_arrived:  # contact with the pilot, capture
            hook(self, u, dist)


def _move_context(state, ctx) -> None:
    ctx["unit"] = state.UNIT_NAMES[state.mover]
    ctx["reaction"] = bool(state.move_reaction)
    ctx["tactical_only"] = bool(state.tactical_only)
    ctx["after_fire"] = bool(state.after_fire)


MODULE = RuleModule(
    "movement",
    Movement,
    kinds=(DecisionKind(D_MOVE, Movement._move_choices, Movement._on_move, lambda s: s.UNIT_SIDE[s.mover],
                        _move_context),),
    slots=(
        unit_flag("moved", TURN),  # 0 not moved, 1 Tactical, 2 Rapid this turn
        unit_flag("rmoves", TURN),  # reaction moves this turn
        context("mover"),  # the unit whose move destination is asked (-1: none)
        context("move_reaction"),
        context("tactical_only"),
    ),
)  # fmt: skip
