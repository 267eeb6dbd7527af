"""Fire: firepower and defence dice, split fire, and one attack's roll (000 quick start, 003 "Rounds of Fire",
"Firepower", "Defense", "Splitting Fire")."""

from __future__ import annotations

from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import (
    D_SPLIT_COUNT,
    D_SPLIT_SUPPORT,
    D_SPLIT_TARGET,
    D_TARGET,
    LIGHT,
    OK,
    ST_END_ACTIVATION,
    W_FIRE,
)
from fof_env.force_on_force.rule_module import (
    LIST,
    TURN,
    DecisionKind,
    RuleModule,
    actor_context,
    actor_side,
    context,
    unit_flag,
)


class FireResolution:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def shooting_figures(self, u: int) -> int:
        """Effective figures that shoot (a Corpsman does not: Fog of War result 3; nor a WWII medic: R47)."""
        medics = self.sc.medics
        return max(0, self.effective(u) - self.medic[u] - (medics[u] if medics else 0))

    def usable_support(self, u: int) -> list[int]:
        """Support weapons in use: one per figure that shoots, best first (rulings.md R29: a Corpsman
        "cannot shoot", so he works no support weapon either)."""
        return list(self.support[u][: self.shooting_figures(u)])

    def _support_dice(self, u: int, weapons: list[int]) -> int:
        m = self.moved[u]
        return combat.support_dice(weapons, moved=m > 0, rapid=m == 2, full_rules=self.full)

    def _penalties(self, u: int) -> int:
        p = self.fires[u] + self.ammo[u]
        if self.moved[u] == 2:
            p += 1
        if self.full:
            p += self.rmoves[u]
            if self.supply[u] < 0:
                p += 1
        return p

    def _bonuses(self, u: int, t: int) -> int:
        """Bonus dice of each portion of ``u``'s fire at ``t``: Mad Minute ("one extra Firepower die for all
        attacks"); full rules: the target Exposed or Rapid-moved."""
        b = self.mad[u]
        if self.full:
            b += self.sc.table.exposed[self.pos[t]] + (self.moved[t] == 2)
        return b

    def _unit_bonus(self, u: int) -> int:
        """Bonus dice of ``u``'s whole fire, however it is divided (with its first portion, like the
        penalties): full rules, "+1 if unit is Well Supplied" (rulings R24)."""
        return 1 if self.full and self.supply[u] > 0 else 0

    def fire_capacity(self, u: int) -> int:
        """Firepower before target-dependent bonuses; 0 means the unit may not fire this turn.

        The same sum as ``combat.firepower(figures, combat.support_dice(...), ...)``, inlined:
        observations and masks ask it for every unit (a test checks the two agree).
        """
        if self.sc.vehicles and self.is_afv(u):  # a WWII AFV's guns (rules/wwii_vehicles.py, R81)
            return self.afv_fire_capacity(u)
        f = self.figs[u]
        eff = f[OK] + f[LIGHT]
        if not eff:
            return 0
        medics = self.sc.medics
        shooters = eff - self.medic[u] - (medics[u] if medics else 0)
        if shooters <= 0:  # no one to fire: no bonus die either (a unit of medics, R47, R73)
            return 0
        moved, full = self.moved[u], self.full
        raw = shooters + self.mad[u]
        support = self.support[u]
        if support:  # a class's dice equal its number (light 1 ...); moved, a medium or heavy one's fewer
            if moved and full:
                moving = 0 if moved == 2 else 1
                raw += sum(moving if cls >= combat.MEDIUM else cls for cls in support[:shooters])
            else:
                raw += sum(support[:shooters])
        penalties = self.fires[u] + self.ammo[u] + (moved == 2)  # _penalties, inlined
        if full:
            penalties += self.rmoves[u] + (self.supply[u] < 0)
            if raw > combat.FIREPOWER_CAP:
                raw = combat.FIREPOWER_CAP
        return raw - penalties if raw > penalties else 0

    def attack_firepower(self, u: int, t: int, figures: int, weapons: list[int], first: bool = True) -> int:
        """Firepower dice of ``figures`` shooters plus ``weapons`` of unit ``u`` against ``t``, as one fire of
        its own (``first=False``: without the unit-wide penalties). The portions of a split fire share one
        cap: :meth:`portions_firepower`."""
        if self.sc.vehicles:  # fire of or at a WWII AFV (rules/wwii_vehicles.py, R81)
            fp = self.afv_firepower(u, t, first)
            if fp is not None:
                return fp
        dice = self._portion_dice(u, t, figures, weapons)
        if not first:
            return combat.split_firepower([dice], 0, capped=self.full)[0]
        return combat.split_firepower([dice + self._unit_bonus(u)], self._penalties(u), capped=self.full)[0]

    def portions_firepower(self, u: int, portions: list[tuple[int, int, list[int]]]) -> list[int]:
        """Firepower dice of each ``(target, figures, weapons)`` portion of one fire of unit ``u``.

        003: "No infantry unit may have a total Firepower greater than 10 dice" and "how many Firepower
        Dice will be devoted to each target": the portions' dice are added up, capped at 10 and lose the
        unit-wide penalties as one total, what it loses coming off the first portion, then the next
        (:func:`~fof_env.force_on_force.combat.split_firepower`, rulings R24). The unit's own bonus (Well
        Supplied) is one die of that total, the first portion's. A portion at or of a WWII AFV keeps its
        own dice (003: "Vehicular weapons ... are exempt from the 10D cap"; R81).
        """
        fps: list[int | None] = [None] * len(portions)
        if self.sc.vehicles:
            for i, (t, _figures, _weapons) in enumerate(portions):
                fps[i] = self.afv_firepower(u, t, i == 0)
        pool = [i for i, fp in enumerate(fps) if fp is None]
        dice = [self._portion_dice(u, *portions[i]) for i in pool]
        penalties = 0
        if pool and pool[0] == 0:  # the unit-wide modifiers go with the first portion
            dice[0] += self._unit_bonus(u)
            penalties = self._penalties(u)
        for i, fp in zip(pool, combat.split_firepower(dice, penalties, capped=self.full), strict=True):
            fps[i] = fp
        return fps

    def _portion_dice(self, u: int, t: int, figures: int, weapons: list[int]) -> int:
        """Dice of ``figures`` shooters plus ``weapons`` of unit ``u`` against ``t`` before the cap and the
        unit-wide penalties: figures, support weapons, Optimum Range and bonuses; none when nobody is
        left to shoot (the first target's figures after casualties, R24).

        Optimum Range: the target within TQ inches (quick start); full rules: every weapon used
        within TQ inches, support weapons twice that (rulings.md R22, R24).
        """
        if figures + len(weapons) <= 0:
            return 0
        d = self.sc.table.dist[self.pos[u]][self.pos[t]]
        tq = self.tq[u]
        reach, weapon_reach = tq, 2 * tq
        if self.cards is not None and self.cards.grounded:  # You're Grounded!: Optimum Range 6" (R62)
            reach, weapon_reach = min(reach, 6), min(weapon_reach, 6)
        if self.full:
            riflemen = figures - len(weapons)  # the gunners fire with their weapons' range (R24)
            optimum = (riflemen <= 0 or d <= reach + 1e-9) and (not weapons or d <= weapon_reach + 1e-9)
        else:
            optimum = d <= reach + 1e-9
        return figures + self._support_dice(u, weapons) + optimum + self._bonuses(u, t)

    def ground_cover(self, shooter_pos: int, here: int) -> int:
        """Cover dice the table gives a unit at ``here`` fired on from ``shooter_pos`` (-1: no line of fire,
        e.g. mortars: the area's dice alone). Full rules: the area feature's dice plus a crossed wall's
        (003: "Cover modifiers that overlap are cumulative."); quick rules: the quick start's one die for
        a team "behind cover", the larger of the two (rulings R6)."""
        table = self.sc.table
        if shooter_pos < 0:
            return table.terrain_cover[here]
        if self.full:
            return table.cover_from[shooter_pos][here]
        return max(table.terrain_cover[here], table.wall_cover[shooter_pos][here])

    def has_in_cover(self, t: int) -> bool:
        """Whether unit ``t`` has the In Cover die (full rules): it passed a Quality Check this turn, or it
        is a regular unit that has not moved and is not Exposed (R23; irregulars: R39)."""
        return bool(self.in_cover[t]) or (self.moved[t] == 0 and not self.sc.table.exposed[self.pos[t]]
                                          and not self.is_irregular(t))  # fmt: skip

    def cover_dice(self, t: int, shooter_pos: int) -> int:
        """Cover dice of unit ``t`` against fire from ``shooter_pos`` (-1: no line, e.g. mortars)."""
        table = self.sc.table
        here = self.pos[t]
        terrain = self.ground_cover(shooter_pos, here)
        if self.cards is not None and self.cards.swiss:  # Swiss Cheese: no longer Solid Cover (R62)
            degraded = self._swiss_cover(here, shooter_pos)
            terrain = terrain if degraded is None else degraded
        cover = terrain + self.excellent[t]
        if self.sc.vehicles and shooter_pos >= 0:  # 003 "Intervening Cover": an AFV (R89), one bonus
            intervening = table.wall_cover[shooter_pos][here] if self.full else terrain  # with a wall's
            if not intervening:
                cover += self.afv_intervening(t, shooter_pos)
        if self.full and self.has_in_cover(t):
            cover += 1
        return cover

    def defense_dice(self, t: int, shooter_pos: int, incoming: int) -> int:
        """Defence dice of unit ``t`` fired on from ``shooter_pos`` with ``incoming`` dice."""
        penalties = 1 if (not self.full and self.moved[t] == 2) else 0
        return combat.defense(
            self.effective(t),
            incoming,
            armor=self.armor[t],
            cover=self.cover_dice(t, shooter_pos),
            penalties=penalties,
        )

    def fire_targets(self, u: int, exclude: tuple[int, ...] = ()) -> list[int]:
        """Enemy units ``u`` may fire on now: active, not hidden, in line of sight."""
        pos, hidden, figs = self.pos, self.hidden, self.figs
        los = self.sc.table.los[pos[u]]
        out = [  # the enemy's units in unit order; active: on the table with an effective figure
            t
            for t in self.SIDE_UNITS[1 - self.UNIT_SIDE[u]]
            if t not in exclude and pos[t] >= 0 and figs[t][OK] + figs[t][LIGHT] > 0 and not hidden[t] and los[pos[t]]
        ]
        return self.afv_filter_targets(u, out) if self.sc.vehicles else out  # AFVs: R81, R85

    def can_shoot_at(self, s: int, t: int) -> bool:
        return (
            self.active(s)
            and not self.pinned[s]
            and self.active(t)
            and not self.hidden[t]
            and bool(self.sc.table.los[self.pos[s]][self.pos[t]])
            and self.fire_capacity(s) > 0
            and (not self.sc.vehicles or self.afv_may_target(s, t))  # AFVs: R81, R85
        )

    def _target_actions(self) -> list[int]:
        """``fire_target``: the enemy units in sight; after a move also ``pass`` (no fire)."""
        out = [self.UNIT0 + t for t in self.fire_targets(self.actor)]
        return out + [self.PASS] if self.after_move else out

    def _split_target_actions(self) -> list[int]:
        """``split_target``: another target for a split fire, or ``pass``."""
        return [self.UNIT0 + t for t in self.fire_targets(self.actor, exclude=tuple(self.targets))] + [self.PASS]

    def _split_count_actions(self) -> list[int]:
        """``split_dice``: ``n1``.. the figures' dice the newest target may get."""
        return [self.COUNT0 + n - 1 for n in self._split_counts()]

    def _split_support_actions(self) -> list[int]:
        """``split_support``: the target the next support weapon fires at."""
        return sorted(self.UNIT0 + t for t in self.targets)

    def _split_counts(self) -> list[int]:
        """Figures' dice the newest extra target may get: the first target keeps at least one
        figure unless the unit has support weapons to give it."""
        left = self.shooting_figures(self.actor) - sum(self.split_counts)
        hi = left if self.usable_support(self.actor) else left - 1
        return list(range(1, min(hi, self.MAX_COUNT) + 1))

    def _may_add_target(self) -> bool:
        """Another target for a split fire: TQ allows it (003 "Targets Engaged by Quality"),
        figures are left to give it, and an enemy unit is in sight."""
        a = self.actor
        if not self.full or len(self.targets) >= combat.SPLIT_TARGETS.get(self.tq[a], 1):
            return False
        if self.sc.vehicles and (self.is_afv(a) or self.is_afv(self.targets[0])):
            return False  # an AFV's fire, or fire at one, is not split (R81)
        left = self.shooting_figures(a) - sum(self.split_counts)
        if left < (1 if self.usable_support(a) else 2):
            return False
        return bool(self.fire_targets(a, exclude=tuple(self.targets)))

    def _on_target(self, action: int) -> None:
        if action == self.PASS:
            self._auto(ST_END_ACTIVATION)
            return
        self.targets = [action - self.UNIT0]
        self.split_counts = []
        self.split_alloc = []
        if self._may_add_target():
            self.kind = D_SPLIT_TARGET
        else:
            self._declare_fire()

    def _on_split_target(self, action: int) -> None:
        if action == self.PASS:
            self._next_split_support()
            return
        self.targets.append(action - self.UNIT0)
        self.kind = D_SPLIT_COUNT

    def _on_split_count(self, action: int) -> None:
        self.split_counts.append(action - self.COUNT0 + 1)
        if self._may_add_target():
            self.kind = D_SPLIT_TARGET
        else:
            self._next_split_support()

    def _on_split_support(self, action: int) -> None:
        self.split_alloc.append(action - self.UNIT0)
        self._next_split_support()

    def _next_split_support(self) -> None:
        """Each support weapon goes to one target ("Support Weapon dice must be allocated to one
        target"); then targets left with nothing are dropped and the fire is declared."""
        a = self.actor
        if len(self.targets) > 1 and len(self.split_alloc) < len(self.usable_support(a)):
            self.kind = D_SPLIT_SUPPORT
            return
        shares = self._portions(a)
        kept = [i for i, (_t, figs, weapons) in enumerate(shares) if figs + len(weapons)]
        if len(kept) < len(self.targets):  # a target got nothing: it is not engaged after all
            # the first kept target takes the figures left over (all of them if the old first had none)
            self.split_counts = [self.split_counts[i - 1] for i in kept[1:]]
            self.targets = [self.targets[i] for i in kept]
            self.split_alloc = [t for t in self.split_alloc if t in self.targets]
        if len(self.targets) == 1:
            self.split_counts = []
            self.split_alloc = []
        self._declare_fire()

    def _portions(self, a: int) -> list[tuple[int, int, list[int]]]:
        """(target, figures, weapons) shares of the actor's fire, from its current strength:
        casualties taken since the declaration come off the first target's figures."""
        weapons = self.usable_support(a)
        figs = self.shooting_figures(a)
        if len(self.targets) == 1:
            return [(self.targets[0], figs, weapons)]
        alloc = self.split_alloc[: len(weapons)]
        shares = []
        left = figs
        for t, n in zip(self.targets[1:], self.split_counts, strict=True):
            n = min(n, left)
            left -= n
            shares.append((t, n, [w for w, to in zip(weapons, alloc, strict=False) if to == t]))
        t0 = self.targets[0]
        return [(t0, left, [w for w, to in zip(weapons, alloc, strict=False) if to == t0]), *shares]

    def _declare_fire(self) -> None:
        self.first_fire = 0
        self.win_kind = W_FIRE
        self.win_dest = -1
        self._open_window()

    def _actor_fire(self, a: int) -> None:
        portions = [p for p in self._portions(a) if self.active(p[0]) and not self.hidden[p[0]]
                    and self.sc.table.los[self.pos[a]][self.pos[p[0]]]]  # fmt: skip
        if portions and self.fire_capacity(a) > 0:
            self._fire(a, portions)

    def _fire(self, s: int, portions: list[tuple[int, int, list[int]]], returning: bool = False) -> None:
        """Resolve one fire of unit ``s``: each portion is (target, figures, weapons)."""
        shooter_pos = self.pos[s]
        for (t, _figures, _weapons), fp in zip(portions, self.portions_firepower(s, portions), strict=True):
            if fp <= 0:
                continue
            self._attack(t, fp, self.tq[s], shooter_pos, self.UNIT_NAMES[s])
            answered = (t, s) in self.exchanged  # t fired first: this shot completes the round
            self.exchanged.append((s, t))
            if (
                not returning
                and not answered
                and not self._shot_queued(t, s)
                and (s, t) not in self.ret_queue
            ):
                self.ret_queue.append((s, t))
        self.fires[s] += 1
        self.hidden[s] = 0

    def _attack(self, t: int, fp: int, tq: int, shooter_pos: int, shooter: str) -> None:
        """Roll ``fp`` dice of type ``tq`` against unit ``t``; casualties, then its morale check."""
        if self.sc.vehicles and self.is_afv(t):  # armour, damage, bail-out (rules/wwii_vehicles.py, R82-R84)
            self._attack_afv(t, fp, tq, shooter_pos, shooter)
            return
        dfn = self.defense_dice(t, shooter_pos, fp)
        roll = self.roll
        attack = [roll(tq, f"firepower of {shooter}") for _ in range(fp)]
        defense = [roll(self.tq[t], f"defense of {self.UNIT_NAMES[t]}") for _ in range(dfn)]
        hits = min(combat.casualties(attack, defense), self.effective(t))
        self.events.append(
            ev.FireResolved(shooter, self.UNIT_NAMES[t], fp, dfn, tuple(attack), tuple(defense), hits)
        )
        if hits:
            self._take_hits(t, hits)
            left = self.effective(t)
            if left:
                rolls = [roll(self.morale[t], f"morale of {self.UNIT_NAMES[t]}") for _ in range(left)]
                passed = combat.morale_passed(rolls)
                self.events.append(ev.MoraleChecked(self.UNIT_NAMES[t], tuple(rolls), passed))
                if not passed:
                    self.pin(t)
            else:
                self._wiped_out(t)


def _target_context(state, ctx) -> None:
    ctx["unit"] = state.UNIT_NAMES[state.actor]
    ctx["after_move"] = bool(state.after_move)


def _support_context(state, ctx) -> None:
    ctx["unit"] = state.UNIT_NAMES[state.actor]
    ctx["weapon"] = combat.SUPPORT_NAMES[state.usable_support(state.actor)[len(state.split_alloc)]]


MODULE = RuleModule(
    "fire",
    FireResolution,
    kinds=(
        DecisionKind(D_TARGET, FireResolution._target_actions, FireResolution._on_target, actor_side,
                     _target_context),
        DecisionKind(D_SPLIT_TARGET, FireResolution._split_target_actions, FireResolution._on_split_target,
                     actor_side, actor_context),
        DecisionKind(D_SPLIT_COUNT, FireResolution._split_count_actions, FireResolution._on_split_count,
                     actor_side, actor_context),
        DecisionKind(D_SPLIT_SUPPORT, FireResolution._split_support_actions, FireResolution._on_split_support,
                     actor_side, _support_context),
    ),
    slots=(
        unit_flag("fires", TURN),  # fires made this turn
        unit_flag("in_cover", TURN),  # passed the Quality Check for In Cover (R23)
        context("targets", LIST),  # the declared fire's targets
        context("split_counts", LIST),  # figures' dice given to each extra target
        context("split_alloc", LIST),  # the target of each support weapon
    ),
)  # fmt: skip
