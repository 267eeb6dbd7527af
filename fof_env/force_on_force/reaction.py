"""The reaction window: who may react to a declared move or fire, the Overwatch shots at interrupters,
the interrupts of that Overwatch fire, the reaction tests and the order of resolution, return fire
(000 "Can more than one unit interrupt ...").

A window runs in this order and then closes (rulings R14):

1. the actor declares a move or fire;
2. each unit that may react declares ``interrupt_fire``, ``interrupt_move`` or ``pass``;
3. if the actor is the initiative side's and someone interrupted, each of its Overwatch units may
   fire at one interrupter (``overwatch_fire``);
4. each Overwatch unit that fires and can be seen may itself be interrupted: the non-initiative
   units not yet in the window are asked again (``declare_interrupt`` with ``overwatch`` in the
   decision's context), ``interrupt_fire`` shooting at that Overwatch unit ("then Overwatch units
   may choose to fire, followed by more interrupts");
5. everyone in the window rolls its reaction test and acts in that order; a unit fired on may fire
   back right after the shot (R17). Nobody declares anything more: the window is closed.
"""

from __future__ import annotations

from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import (
    D_DECLARE,
    D_OW,
    D_RETURN,
    D_TARGET,
    R_ACTOR,
    R_INT_FIRE,
    R_INT_MOVE,
    R_OW,
    R_RETURN,
    ROLE_NAMES,
    ST_AFTER_WINDOW,
    ST_DECLARE,
    ST_END_ACTIVATION,
    ST_OW,
    ST_RESOLVE,
    ST_RETURNS,
    ST_ROLL,
    W_FIRE,
    W_MOVE,
)
from fof_env.force_on_force.rule_module import (
    LIST,
    TURN,
    DecisionKind,
    RuleModule,
    Slot,
    context,
    queued_unit_side,
    unit_flag,
)


class ReactionWindow:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def _declare_actions(self) -> list[int]:
        """``declare_interrupt``: what the queued unit may do in the window (``pass`` first)."""
        return self._declare_choices(self.queue[0])

    def _ow_actions(self) -> list[int]:
        """``overwatch_fire``: the interrupters the queued Overwatch unit may fire at, or ``pass``."""
        return [self.UNIT0 + t for t in self._ow_targets(self.queue[0])] + [self.PASS]

    def _return_actions(self) -> list[int]:
        """``return_fire``: fire back, or ``pass``."""
        return [self.PASS, self.INT_FIRE]

    def _declare_choices(self, r: int) -> list[int]:
        out = self._reaction_choices(r)
        return self.react_only_choices(r, out) if self.react_only[r] else out  # WWII first aid (R44)

    def _reaction_choices(self, r: int) -> list[int]:
        out = [self.PASS]
        if self.interrupted >= 0:  # step 4: fire at the Overwatch unit, or let it fire
            return out + [self.INT_FIRE] if self.can_shoot_at(r, self.interrupted) else out
        if self._may_fire_at_actor(r) and (r not in self.targets or self.may_fire_back(r)):
            out.append(self.INT_FIRE)  # an irregular target may not fire back (R37)
        if (self.UNIT_SIDE[r] != self.initiative and not self.rmoves[r] and not self.failed[r]
                and not (self.sc.vehicles and self.afv_immobile(r))):  # fmt: skip
            out.append(self.INT_MOVE)  # "Reaction movement only once per turn"; Overwatch units may not move
        return out

    def _may_fire_at_actor(self, r: int) -> bool:
        if self.fire_capacity(r) <= 0 or (self.sc.vehicles and not self.afv_may_react_at(r, self.actor)):
            return False
        los = self.sc.table.los[self.pos[r]]
        if los[self.pos[self.actor]]:
            return True
        return self.win_kind == W_MOVE and self.win_dest >= 0 and bool(los[self.win_dest])

    def _ow_targets(self, o: int) -> list[int]:
        los = self.sc.table.los[self.pos[o]]
        out = []
        for r, role, _t, _a in self.entries:
            if (role != R_ACTOR and self.UNIT_SIDE[r] != self.UNIT_SIDE[o] and r not in out and not self.hidden[r]
                    and los[self.pos[r]]):  # fmt: skip
                out.append(r)
        if self.sc.vehicles:  # AFVs: R81, R85
            out = self.afv_filter_targets(o, out)
        return sorted(out)

    def _on_declare(self, action: int) -> None:
        r = self.queue.pop(0)
        if action != self.PASS:
            # a Hidden unit stays Hidden until it really fires or moves (000 "They remain Hidden so long
            # as they do not move or fire"): one that fails its reaction test did neither (R27)
            ambush = 1 if self.hidden[r] and action == self.INT_FIRE else 0
            if self.interrupted >= 0:
                self.entries.append((r, R_INT_FIRE, self.interrupted, ambush))
            elif action == self.INT_FIRE:
                self.entries.append((r, R_RETURN if r in self.targets else R_INT_FIRE, self.actor, ambush))
            else:
                self.entries.append((r, R_INT_MOVE, -1, 0))
        self._auto(ST_DECLARE)

    def _on_ow(self, action: int) -> None:
        o = self.queue.pop(0)
        if action != self.PASS:
            self.entries.append((o, R_OW, action - self.UNIT0, 0))
        self._auto(ST_OW)

    def _on_return(self, action: int) -> None:
        f, t = self.ret_queue.pop(0)
        if action == self.INT_FIRE:
            self._fire(t, [(f, self.shooting_figures(t), self.usable_support(t))], returning=True)
        self._auto(ST_RETURNS)

    def _open_window(self) -> None:
        """The actor has declared a move or fire: queue every unit that may react to it."""
        a = self.actor
        # "A Hidden unit may open fire ... If it rolls a 4+, it automatically fires first."
        ambush = 1 if self.hidden[a] and self.win_kind == W_FIRE else 0
        self.hidden[a] = 0
        self.entries = [(a, R_ACTOR, self.targets[0] if self.targets else -1, ambush)]
        self.exchanged = []
        react_side = self.UNIT_SIDE[a] ^ 1
        queue = []
        for r in self.SIDE_UNITS[react_side]:
            if not self.active(r) or self.pinned[r] or not self.may_react(r):
                continue  # (an irregular unit that has activated or reacted this turn: R38)
            if r in self.targets:
                queue.append(r)  # a target may always defend itself by firing back
            elif react_side == self.initiative:
                if self.overwatch[r]:
                    queue.append(r)  # Overwatch "may also fire during the non-initiative player's portion"
            elif not self.failed[r]:
                queue.append(r)  # "non-initiative units that have not rolled less than a 4"
        self.queue = queue
        self._auto(ST_DECLARE)

    def _st_declare(self) -> None:
        while self.queue:
            choices = self._declare_choices(self.queue[0])
            if len(choices) > 1:
                self.kind = D_DECLARE
                self._legal_cache = choices  # legal once per decision
                return
            self.queue.pop(0)
        if self.interrupted >= 0:
            self._next_overwatch_interrupt()
            return
        # initiative Overwatch units "may only react to non-initiative interrupting units"
        if self.UNIT_SIDE[self.actor] == self.initiative and len(self.entries) > 1:
            self.queue = [
                o
                for o in self.SIDE_UNITS[self.initiative]
                if self.overwatch[o] and self.active(o) and not self.pinned[o] and self.fire_capacity(o) > 0
                and self.may_react(o)
            ]
            self.step = ST_OW
        else:
            self.step = ST_ROLL

    def _st_ow(self) -> None:
        while self.queue:
            targets = self._ow_targets(self.queue[0])
            if targets:
                self.kind = D_OW
                self._legal_cache = [self.UNIT0 + t for t in targets] + [self.PASS]  # legal once per decision
                return
            self.queue.pop(0)
        self._next_overwatch_interrupt()

    def _next_overwatch_interrupt(self) -> None:
        """Step 4 of the window: the next Overwatch unit that fires, and the non-initiative units not
        yet in the window that could fire at it, or on to the reaction tests."""
        firers = [u for u, role, _t, _a in self.entries if role == R_OW]
        i = firers.index(self.interrupted) + 1 if self.interrupted >= 0 else 0
        inside = {u for u, _role, _t, _a in self.entries}
        for o in firers[i:]:
            queue = [
                r
                for r in self.SIDE_UNITS[self.initiative ^ 1]
                if r not in inside and not self.failed[r] and self.may_react(r) and self.can_shoot_at(r, o)
            ]
            if queue:
                self.interrupted = o
                self.queue = queue
                self.step = ST_DECLARE
                return
        self.interrupted = -1
        self.step = ST_ROLL

    def _st_roll(self) -> None:
        """Everyone involved rolls one TQ die; order high to low (000 "Can more than one unit ...")."""
        entries = self.entries
        self.qi = 0
        self.step = ST_RESOLVE
        if len(entries) == 1:
            return
        ranked = []
        for idx, (u, role, target, ambush) in enumerate(entries):
            die = self.roll(self.tq[u], f"reaction test of {self.UNIT_NAMES[u]}")
            side = self.UNIT_SIDE[u]
            modified = die + self.amped[side] - (1 if self.full and self.moved[u] == 2 else 0)
            passed = modified >= combat.SUCCESS
            self.events.add(ev.ReactionTest, (self.UNIT_NAMES[u], ROLE_NAMES[role], die, modified, passed))
            if die == 1 and self.fow_on:
                self._fog_of_war(side)
            if not passed and side != self.initiative and role in (R_INT_FIRE, R_INT_MOVE):
                self.failed[u] = 1  # "If the non-initiative unit rolls less than a 4, no interruption"
                continue
            # "If it rolls a 4+, it automatically fires first." (or always: the briefing's reading, R36)
            first = 1 if ambush and (passed or self.sc.ambush_always_first) else 0
            init = 1 if side == self.initiative else 0
            ranked.append(((first, passed, modified if passed else 0, init, -idx), (u, role, target, ambush)))
        ranked.sort(key=lambda item: item[0], reverse=True)
        self.entries = [e for _, e in ranked]

    def _st_resolve(self) -> None:
        if self.qi >= len(self.entries):
            self.step = ST_AFTER_WINDOW
            return
        u, role, target, _ambush = self.entries[self.qi]
        if role == R_INT_MOVE:
            if self.active(u) and not self.pinned[u]:
                self._ask_move(u, reaction=True)
                self.qi += 1
            else:
                self.qi += 1
            return
        self.qi += 1
        if not self.active(u) or self.pinned[u]:
            return  # wiped out or pinned: "may conduct no further actions until the end of the turn"
        if role == R_ACTOR:
            if self.win_kind == W_MOVE:
                self._do_move(u, self.win_dest, self._is_rapid(u, self.win_dest))
            else:
                self._actor_fire(u)
        elif (not self.sc.vehicles or self._afv_defensive_spot(u, target)) and self.can_shoot_at(u, target):
            self._fire(u, [(target, self.shooting_figures(u), self.usable_support(u))])  # a tank spots first: R85
            if self.UNIT_SIDE[u] != self.initiative or self.is_irregular(u):
                self.reacted[u] = 1  # an irregular Overwatch unit too: it reacts once per turn (R38)
        if self.ret_queue:
            self.step = ST_RETURNS

    def _shot_queued(self, t: int, s: int) -> bool:
        """Whether unit ``t`` still has a shot at ``s`` to come in this window."""
        for u, role, target, _ambush in self.entries[self.qi :]:
            if u != t or role == R_INT_MOVE:
                continue
            if target == s or (role == R_ACTOR and self.win_kind == W_FIRE and s in self.targets):
                return True
        return False

    def _st_returns(self) -> None:
        """Units fired on may fire back at the firer, once per exchange (rulings.md)."""
        while self.ret_queue:
            f, t = self.ret_queue[0]
            if self.can_shoot_at(t, f) and self.may_fire_back(t):  # irregulars do not answer (R37)
                self.kind = D_RETURN
                return
            self.ret_queue.pop(0)
        self.step = ST_RESOLVE

    def _st_after_window(self) -> None:
        a = self.actor
        self.entries = []
        able = self.active(a) and not self.pinned[a] and not self.after_fire
        if able and self.win_kind == W_MOVE:
            if self.fire_capacity(a) > 0 and self.fire_targets(a):
                self.after_move = 1
                self.kind = D_TARGET  # "move then shoot"
                return
        elif able and self.full and not self.after_move:
            # 003 "Units may make a Rapid move and then fire, but may not fire and then make a Rapid
            # move": a unit that fired may still make a Tactical move, or pass (R13)
            self._ask_move(a, reaction=False)
            self.tactical_only = self.after_fire = 1
            return
        self.step = ST_END_ACTIVATION


def _window_context(state, ctx) -> None:
    """The queued unit, the actor, what it declared and its targets; the Overwatch unit an
    ``interrupt_fire`` shoots at (step 4, R14)."""
    ctx["unit"] = state.UNIT_NAMES[state.queue[0]]
    ctx["actor"] = state.UNIT_NAMES[state.actor]
    ctx["action"] = "move" if state.win_kind == W_MOVE else "fire"
    ctx["targets"] = [state.UNIT_NAMES[t] for t in state.targets]
    if state.kind == D_DECLARE and state.interrupted >= 0:
        ctx["overwatch"] = state.UNIT_NAMES[state.interrupted]  # interrupt_fire shoots at it (R14)


def _return_context(state, ctx) -> None:
    ctx["fired_on_by"] = state.UNIT_NAMES[state.ret_queue[0][0]]
    ctx["unit"] = state.UNIT_NAMES[state.ret_queue[0][1]]


MODULE = RuleModule(
    "reaction",
    ReactionWindow,
    kinds=(
        DecisionKind(D_DECLARE, ReactionWindow._declare_actions, ReactionWindow._on_declare, queued_unit_side,
                     _window_context),
        DecisionKind(D_OW, ReactionWindow._ow_actions, ReactionWindow._on_ow, queued_unit_side, _window_context),
        DecisionKind(D_RETURN, ReactionWindow._return_actions, ReactionWindow._on_return,
                     lambda s: s.UNIT_SIDE[s.ret_queue[0][1]], _return_context),
    ),
    steps={
        ST_DECLARE: ReactionWindow._st_declare,
        ST_OW: ReactionWindow._st_ow,
        ST_ROLL: ReactionWindow._st_roll,
        ST_RESOLVE: ReactionWindow._st_resolve,
        ST_RETURNS: ReactionWindow._st_returns,
        ST_AFTER_WINDOW: ReactionWindow._st_after_window,
    },
    slots=(
        unit_flag("failed", TURN),  # failed a reaction test to interrupt: no more interrupts this turn
        unit_flag("reacted", TURN),
        context("entries", LIST),  # the window's (unit, role, target, ambush), in order of resolution
        context("qi"),  # the next entry to resolve
        Slot("ret_queue", LIST, default=()),  # (firer, fired on) pairs that may fire back
        context("win_kind"),  # W_MOVE / W_FIRE: what the actor declared
        context("win_dest"),  # a declared move's destination
        context("interrupted"),  # the Overwatch unit being interrupted (step 4), -1: none
        context("exchanged", LIST),  # (firer, target) shots of this window
        context("after_move"),  # the actor fires after its move
        context("after_fire"),  # the actor moves after its fire (R13)
    ),
)  # fmt: skip
