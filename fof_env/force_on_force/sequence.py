"""The turn sequence of Force on Force: set-up, turn start, Overwatch declaration, unit selection,
the activation's actions, the end of portions and turns (000 "FORCE ON FORCE TURN SEQUENCE")."""

from __future__ import annotations

from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import (
    D_ACTION,
    D_AIRSTRIKE,
    D_ATTACH,
    D_DEPLOY,
    D_HANDOFF,
    D_HIDE,
    D_OVERWATCH,
    D_SELECT,
    D_TARGET,
    LIGHT,
    OK,
    ST_END_ACTIVATION,
    ST_END_TURN,
    ST_OVERWATCH,
    ST_SELECT,
    ST_SETUP,
    ST_TURN_START,
    TACTICAL_IN,
    TERMINAL,
)
from fof_env.force_on_force.rule_module import (
    LIST,
    TURN,
    DecisionKind,
    RuleModule,
    Slot,
    actor_context,
    actor_side,
    context,
    queued_unit_side,
    unit_flag,
)


class TurnSequence:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def _deploy_points(self, u: int) -> list[int]:
        return list(self.sc.deploy_points[u])

    def _deploy_actions(self) -> list[int]:
        """``deploy``: the points of the queued unit's deployment zone."""
        return sorted(self._deploy_points(self.queue[0]))

    def _attach_actions(self) -> list[int]:
        """``attach_leader``: the attachment side's units on the table (any of them while it deploys)."""
        return [self.UNIT0 + u for u in self.SIDE_UNITS[self.sc.attachment.side]
                if self.pos[u] >= 0 or self._setup_step() == "attach"]  # fmt: skip

    def _overwatch_actions(self) -> list[int]:
        """``declare_overwatch``: the units that may go on Overwatch, or ``pass``."""
        return [self.UNIT0 + u for u in self._overwatch_candidates()] + [self.PASS]

    def _select_legal(self) -> list[int]:
        """``select_unit``: the units that may activate; no ``pass`` while a side must open fire (R11)."""
        return self._select_actions(self._selectable())

    def _overwatch_candidates(self) -> list[int]:
        out = [
            u
            for u in self.SIDE_UNITS[self.initiative]
            if self.active(u) and not self.overwatch[u] and not self.pinned[u] and not self.react_only[u]
        ]
        if self.first_fire:  # keep a unit free to open fire (R11)
            shooters = [u for u in out if self.fire_capacity(u) > 0 and self.fire_targets(u)]
            if len(shooters) == 1:
                out.remove(shooters[0])
        return out

    def _selectable(self) -> list[int]:
        out = []
        pos, figs, activated, pinned, react_only = self.pos, self.figs, self.activated, self.pinned, self.react_only
        done = self.overwatch if self.portion == 0 else self.reacted
        for u in self.SIDE_UNITS[self.initiative ^ self.portion]:
            f = figs[u]
            if pos[u] < 0 or f[OK] + f[LIGHT] <= 0 or activated[u] or pinned[u] or react_only[u]:
                continue  # not active; react_only: a WWII first aid result (rulings R44)
            if done[u]:
                continue
            if self.first_fire and not (self.fire_capacity(u) > 0 and self.fire_targets(u)):
                continue
            out.append(u)
        return out

    def _action_choices(self) -> list[int]:
        u = self.actor
        if self.first_fire:
            return [self.FIRE]
        out = [self.MOVE]
        if self.fire_capacity(u) > 0 and self.fire_targets(u):
            out.append(self.FIRE)
        out.append(self.HOLD)
        free = self.free_used
        if self.ambush_on and self.UNIT_SIDE[u] != self.sc.ambush_side and not free & 1:
            out.append(self.SPOT)
        if (
            not free & 2
            and self.casualties_carried(u)
            and self.effective(u) >= 2
            and self.can_exit(u, TACTICAL_IN)
        ):
            out.append(self.ESCORT)
        if not free & 4 and self.pilot_unit == u and self._handoff_targets():
            out.append(self.HANDOFF)
        return self.afv_action_choices(u, out) if self.sc.vehicles else out  # AFVs: R81, R85, R87

    def _on_deploy(self, action: int) -> None:
        u = self.queue.pop(0)
        self.pos[u] = action
        self.events.append(ev.UnitMoved(self.UNIT_NAMES[u], "off table", self.point_name(action), False))
        self._auto(ST_SETUP)

    def _on_attach(self, action: int) -> None:
        u = action - self.UNIT0
        self.leader_unit = u
        self.figs[u][OK] += 1
        self.events.append(ev.Note(f"squad leader attached to {self.UNIT_NAMES[u]}"))
        self._auto(ST_SETUP)

    def _on_overwatch(self, action: int) -> None:
        if action == self.PASS:
            self.portion = 0
            self._auto(ST_SELECT)
        else:
            self.overwatch[action - self.UNIT0] = 1
            self._auto(ST_OVERWATCH)

    def _on_select(self, action: int) -> None:
        if action == self.PASS:
            self._end_portion()
            return
        self.actor = action - self.UNIT0
        self.free_used = 0
        self.kind = D_ACTION

    def _on_action(self, action: int) -> None:
        u = self.actor
        if action == self.MOVE:
            self._ask_move(u, reaction=False)
        elif action == self.FIRE:
            self.after_move = 0
            self.kind = D_TARGET
        elif action == self.HOLD:
            # an Exposed regular unit (R23) or an irregular one (R39) must pass a Quality Check
            check = self.needs_cover_check(u)
            if check and self.roll(self.tq[u], "quality check to get In Cover") >= combat.SUCCESS:
                self.in_cover[u] = 1
            self._auto(ST_END_ACTIVATION)
        elif action == self.SPOT:
            self.free_used |= 1
            if self.sc.vehicles and self.is_afv(u) and self.veh[u].buttoned:
                self._afv_spot(u)  # a buttoned-up tank's spotting attempt (R85)
            else:
                self._spot(u)
        elif action == self.YES:  # a WWII tank opens or closes its hatch (R87)
            self._afv_hatch(u)
        elif action == self.ESCORT:
            self.free_used |= 2
            self._escort(u)
        else:  # self.HANDOFF
            self.free_used |= 4
            self.kind = D_HANDOFF

    def _st_setup(self) -> None:
        """One step of the scenario's set-up (``deployment``: each side deploys its units on their
        zones, the ambushing side hides, an attachment joins a unit), then turn 1 begins."""
        steps = self.sc.deployment
        stage = self.setup_stage
        if stage < len(steps):
            step = steps[stage][1]
            if step == "deploy":
                if self.queue:
                    self.kind = D_DEPLOY
                    return
            elif step == "hide":  # Ambush: "any of his units starting in the woods are Hidden"
                if self.ambush_on and self._hide_candidates():
                    self.kind = D_HIDE
                    return
            elif self.leader_unit < 0 and self.sc.attachment is not None:  # the squad leader joins a team
                self.kind = D_ATTACH
                return
            self.setup_stage = stage + 1
            self._enter_setup_step()
            return
        self.turn = 1
        self.initiative = self.sc.first_initiative
        if self.cards is not None:  # the WWII Fog of War deck is shuffled as set-up ends (rulings R60)
            self._shuffle_deck()
        self.first_fire = 1 if self.sc.first_fire_side == self.initiative else 0
        self.events.append(ev.TurnStarted(1, self.SIDES[self.initiative]))
        self.step = ST_OVERWATCH

    def _enter_setup_step(self) -> None:
        """Queue the units a ``deploy`` step sets up: its side's units not yet on the table."""
        stage = self.setup_stage
        if stage < len(self.sc.deployment) and self.sc.deployment[stage][1] == "deploy":
            side = self.sc.deployment[stage][0]
            self.queue = [u for u in self.SIDE_UNITS[side] if self.figs[u][OK] and self.pos[u] < 0]

    def _st_turn_start(self) -> None:
        self.turn += 1
        self._roll_initiative()
        self.events.append(ev.TurnStarted(self.turn, self.SIDES[self.initiative]))
        if self.sc.wwii_aid:  # the WWII First Aid and Medic tables, medics called, walking wounded (R43)
            self._start_first_aid()
            return
        self._check_casualties()
        self._after_casualty_checks()

    def _after_casualty_checks(self) -> None:
        """The rest of the turn's start: the pilot's air strike call, then Overwatch."""
        if self.cards is not None:  # held Fog of War cards are offered to their holders (rulings R61)
            self._offer_held_cards()
        # the pilot is never injured: always effective (R33); WWII close air support (R68)
        pilot_call = self.sc.airstrike and self.pilot_pos >= 0
        if pilot_call or (self.sc.cas is not None and self.cas_targets()):
            self.kind = D_AIRSTRIKE
        else:
            self.step = ST_OVERWATCH

    def _st_overwatch(self) -> None:
        candidates = self._overwatch_candidates()
        if candidates:
            self.kind = D_OVERWATCH
            self._legal_cache = [self.UNIT0 + u for u in candidates] + [self.PASS]  # legal once per decision
        else:
            self.portion = 0
            self.step = ST_SELECT

    def _st_select(self) -> None:
        units = self._selectable()
        if self.first_fire and self.portion == 0 and not units:
            self.first_fire = 0  # nobody can open fire: the restriction lapses (rulings.md)
            units = self._selectable()
        if units:
            self.kind = D_SELECT
            self._legal_cache = self._select_actions(units)  # legal once per decision
        else:
            self._end_portion()

    def _select_actions(self, units: list[int]) -> list[int]:
        """``select_unit``'s legal actions: the units, and ``pass`` unless the Taliban must open fire (R11)."""
        return [self.UNIT0 + u for u in units] + ([] if self.first_fire else [self.PASS])

    def _end_portion(self) -> None:
        self.first_fire = 0
        if self.portion == 0:
            self.portion = 1
            self._auto(ST_SELECT)
        else:
            self._auto(ST_END_TURN)

    def _st_end_activation(self) -> None:
        if self.actor >= 0:
            self.activated[self.actor] = 1
        self._clear_context()
        self.step = ST_SELECT

    def _clear_context(self) -> None:
        """Forget the finished activation, so equal positions give equal states."""
        self.actor = self.mover = -1
        self.free_used = self.move_reaction = self.tactical_only = self.after_move = self.after_fire = 0
        self.targets = []
        self.entries = []
        self.exchanged = []
        self.split_counts = []
        self.split_alloc = []
        self.win_kind = 0
        self.win_dest = -1
        self.interrupted = -1
        self.qi = 0

    def _st_end_turn(self) -> None:
        """End Phase: pins, Overwatch and lost firepower recover (000 turn sequence)."""
        for name in self._TURN_FLAGS:  # the per-unit flags the modules clear each turn (their slots' TURN)
            setattr(self, name, [0] * self.NUM_UNITS)
        hooks = self.sc.hooks
        for hook in hooks.turn_ended:  # Give 'em Hell!'s TQ check (R63), tanks spot anew (R85) ...
            hook(self)
        if any(hook(self) for hook in hooks.turn_end_victory) or self.turn >= self.sc.turns:
            self._finish()  # a victory condition met (the pilot on the table at the deadline), or the last turn
        else:
            self.step = ST_TURN_START

    def _roll_initiative(self) -> None:
        """Half the active units (rounded down) in Initiative dice; most 4+ wins; tie: last holder.
        WWII Fog of War cards: the Colonel gives it without a roll, Friendly Gremlins take a die (R62)."""
        if self.cards is not None and self._card_initiative():
            return
        counts = []
        for side in (0, 1):
            n = sum(1 for u in self.SIDE_UNITS[side] if self.active(u)) // 2 - self._initiative_dice_lost(side)
            die = self.sc.sides[side].initiative_die
            counts.append(
                sum(1 for _ in range(n) if self.roll(die, f"{self.SIDES[side]} initiative") >= combat.SUCCESS)
            )
        if counts[0] != counts[1]:
            self.initiative = 0 if counts[0] > counts[1] else 1
        self._initiative_rolled()

    def _finish(self) -> None:
        """End of the scenario: casualties not yet assessed are assessed now (rulings.md)."""
        self._check_casualties(final=True)
        vp = self.victory_points()
        names = [side.name for side in self.sc.sides]
        winner = self.auto_victor()
        auto = f" ({names[winner]} automatic victory)" if winner >= 0 else ""
        self.events.append(ev.Note(f"scenario over: {names[0]} {vp[0]} VP, {names[1]} {vp[1]} VP{auto}"))
        self.kind = TERMINAL


def _queued_unit_context(state, ctx) -> None:
    ctx["unit"] = state.UNIT_NAMES[state.queue[0]]


MODULE = RuleModule(
    "sequence",
    TurnSequence,
    kinds=(
        DecisionKind(D_DEPLOY, TurnSequence._deploy_actions, TurnSequence._on_deploy, queued_unit_side,
                     _queued_unit_context),
        DecisionKind(D_ATTACH, TurnSequence._attach_actions, TurnSequence._on_attach,
                     lambda s: s.sc.attachment.side),
        DecisionKind(D_OVERWATCH, TurnSequence._overwatch_actions, TurnSequence._on_overwatch, lambda s: s.initiative),
        DecisionKind(D_SELECT, TurnSequence._select_legal, TurnSequence._on_select,
                     lambda s: s.initiative ^ s.portion),
        DecisionKind(D_ACTION, TurnSequence._action_choices, TurnSequence._on_action, actor_side, actor_context),
    ),
    steps={
        ST_SETUP: TurnSequence._st_setup,
        ST_TURN_START: TurnSequence._st_turn_start,
        ST_OVERWATCH: TurnSequence._st_overwatch,
        ST_SELECT: TurnSequence._st_select,
        ST_END_ACTIVATION: TurnSequence._st_end_activation,
        ST_END_TURN: TurnSequence._st_end_turn,
    },
    slots=(
        Slot("turn", default=0),
        Slot("initiative", default=lambda s: s.sc.first_initiative),
        Slot("portion", default=0),  # 0: the initiative side's units activate, 1: the other side's
        Slot("first_fire", default=0),  # the initiative side must open fire (R11)
        Slot("leader_unit", default=-1),  # the unit the attachment joined
        Slot("setup_stage", default=0),  # the set-up step (``sc.deployment``) under way
        Slot("queue", LIST, default=()),  # units to deploy / to ask in a reaction window
        unit_flag("activated", TURN),
        unit_flag("overwatch", TURN),
        context("actor"),  # the activated unit (-1: none)
        context("free_used"),  # bits of the free actions it took (spot 1, escort 2, handoff 4, hatch 64)
    ),
)  # fmt: skip
