"""A scripted heuristic bot for any Force on Force scenario (:class:`ForceOnForceHeuristic`).

One bot for either side of any scenario file: it reads the scenario's victory terms, the
engine's legal actions and the engine's fire arithmetic, and plays by expected hits.
"Lost & Found" keeps its own bots (:mod:`agents.lost_and_found_heuristic`: the pilot's
rescue is a mission no generic value captures); this one plays "Compound Raid" and any
scenario of your own (``heuristic`` for the game ``force_on_force``).

**What it looks at.** Only what its player may know: its own units, the enemy units it can
see (``state.visible_to``), the public facts of the scenario (table, orders of battle,
deployment zones, victory terms) and the decision's context. A hidden enemy unit is
"somewhere in the woods of its deployment zone" (its threat is spread over those points,
its strength is its order of battle) and no move of the bot ends on one of those points, so
no choice depends on where it really is. Never the dice, never a clone; deterministic but for
the set-up, drawn with its own ``random.Random(seed)`` (``agents.mixed_setup``).

**Expected hits** (:func:`expected_hits`, shared with the "Lost & Found" bots): an attack of
``f`` dice against ``d`` defence dice is worth its expected casualties. Firepower and defence
follow the engine's full-rules arithmetic (:func:`firepower_at`, :func:`defense_at`: Optimum
Range with support weapons at twice the range, supply, Exposed, Rapid movers, cover across
walls, In Cover, irregulars' In Cover, the 10D cap).

**Values** (in VP, from the scenario's ``victory`` terms):

* a hit on an enemy unit is worth the VP its casualty check is expected to give (a casualty
  is KIA on 1 and seriously wounded on 2-3 of a D6: ``enemy_kia`` x 1/6, ``enemy_serious``
  x 2/6, ``enemy_casualties`` x 3/6) plus ``tactical`` (a figure less firing back); a hit
  taken costs the enemy's VP per casualty plus the same;
* a ``feature_held`` objective (VP to a side that alone holds a terrain feature at the end)
  is worth, to a unit inside it, both sides' points on it (own and denied), less when a
  friendly unit already holds it; units outside are drawn towards it as the end nears;
* a point's value for a unit: the shots it would have from there (x ``offense``), minus the
  expected hits the known enemy would put on it there (x ``threat``), plus the objective.

**Play.** Each activation is the best of hold, fire now, or move (any legal destination, Out of
Contact moves included) and fire after. The unit whose plan gains most over holding goes
first; units with nothing to gain hold when that gets them a Quality Check for In Cover (an
Exposed regular or an irregular unit), else the bot passes. Fire goes to the target with the
most expected VP, split over more targets when the Troop Quality allows and it adds expected
hits (003 "Splitting Fire": a smaller share meets fewer defence dice). A unit fired on fires
back, another interrupts an enemy action, when the expected VP of its shot reaches
``return_fire`` / ``interrupt`` and beats what its own activation would gain (reacting uses up
a non-initiative unit's activation, R18, and an irregular unit's only action of the turn,
R38); an irregular target that may not fire back (R37) dodges out of the firer's sight by a
reaction move when the shot is dangerous. With the initiative, a unit with nothing better to
do than hold, that sees the enemy, goes on Overwatch. Set-up: one of the four points of the zone
that score best for cover and little threat (an enemy still to set up counts as standing anywhere
in its public deployment zone), a view of that zone and the objectives, drawn at random; units
spread over different points; every unit that may hide hides. A Hunted! sniper team goes to one of
the four points nearest an enemy unit, drawn likewise.

**WWII** (seed 004 rule modules). A tank fires like any unit, at what it may target (its MGs 3D at infantry,
its gun at AFVs); buttoned up, it spends its spotting attempt when it sees enemy it may not fire at (concealed
infantry, R85), and if they stay concealed it opens its hatch to fire at them, closing it again when enemy
infantry stands within 12" in sight (R87: they may shoot the commander). The P-47 goes to the enemy unit with
the most effective figures, as soon as the strike may be called. Fog of War cards: R67; An Excellent Position
goes to the unit whose extra defence die (its cover, or a tank's armour) saves the most expected hits where
it stands, and is kept while no enemy it knows of could fire at any of its units (R74).

**First aid** (``wwii_first_aid``, rulings R43-R46). *Calling a medic* (``call_medic``): the Medic table (1 dead,
2-3 serious, 4-5 walking wounded, 6 OK) against the standard one (1-2 dead, 3-4 serious, 5 walking wounded,
6 OK) turns, per casualty, 1/6 of a dead man into a walking wounded: worth 1/6 of the enemy's VP for a dead
figure plus ``tactical`` (:meth:`~ForceOnForceHeuristic._medic_gain`). Each medic offered (all are within 12")
is worth that for the unit's casualties, less the extra fire he would draw standing on the unit's point rather
than where he is (``threat``, as a move's), less what he would be worth to a unit later in the queue with more
casualties that could call him too (a medic treats one unit a turn). The best medic is called when that is
above zero (ties: the closest, then unit order), else ``pass``. *Walking wounded* (``walking_wounded``): he
stays (``hold``: a figure more firing and defending) when his unit is slowed anyway (other wounded, serious
ones carried: the Casualty penalty costs nothing more), holds an objective feature it stands in, has fewer
than 3 unhurt men, or sees a known enemy (it fights where it is); else, a unit out of contact that must move
to the fight, he goes to the rear (``exit``: no Casualty penalty, the TQ check to move faster than Tactical,
and no VP for the enemy if he is hit again).

Every action returned is one of ``state.legal_actions()``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, fields

from agents.decision_memo import DecisionMemo
from agents.lost_and_found_heuristic import expected_hits
from agents.mixed_setup import choose_among_best, setup_choices
from fof_env.force_on_force import combat
from fof_env.force_on_force import constants as st

_TACTICAL, _RAPID = st.TACTICAL_IN, st.RAPID_IN
_EPS = 1e-9
_KIA_P, _SERIOUS_P = 1 / 6, 2 / 6  # a casualty check (1D6): 1 KIA, 2-3 serious (000)


@dataclass(frozen=True)
class Weights:
    """The bot's numbers (VP-like units); ``heuristic:threat=1.2`` overrides one as an agent spec."""

    tactical: float = 0.3  # worth of a hit beyond its VP: an enemy figure less firing
    offense: float = 0.5  # worth of the shots a unit would have from a point (per expected VP)
    threat: float = 0.6  # chance an enemy unit that sees a point fires at the unit there
    objective: float = 1.0  # scale of the ``feature_held`` objectives
    hold_ratio: float = 0.35  # a second unit inside an objective counts this much
    approach: float = 0.5  # pull of an objective on units outside it (per objective VP, whole table)
    interrupt: float = 0.45  # expected VP of a shot that makes an interrupt worth it
    return_fire: float = 0.05  # expected VP of a shot that makes firing back worth it
    overwatch_fire: float = 0.15  # ... an Overwatch shot
    after_move_fire: float = 0.05  # ... a fire after a move
    split_gain: float = 0.05  # extra expected VP a split fire must add
    rapid_cost: float = 0.15  # cost of a Rapid move (-1 reaction test, -1 firepower)
    dodge: float = 0.8  # expected hits of an unanswerable shot that make an irregular target dodge


def _hit_values(sc, side: int) -> float:
    """VP ``side`` expects from one casualty it inflicts (the scenario's casualty terms)."""
    v = 0.0
    for term in sc.victory:
        if term.side != side:
            continue
        if term.kind == "enemy_kia":
            v += term.points * _KIA_P
        elif term.kind == "enemy_serious":
            v += term.points * _SERIOUS_P
        elif term.kind == "enemy_casualties":
            v += term.points * (_KIA_P + _SERIOUS_P)
    return v


# ---------------------------------------------------------------- the engine's arithmetic at any point
def firepower_at(state, u: int, s_pos: int, t: int, t_pos: int, moved_u: int, moved_t: int,
                 figures: int | None = None, weapons: list[int] | None = None, first: bool = True) -> int:
    """Firepower of unit ``u`` at ``s_pos`` (``moved_u``: 0/1/2 this turn) against ``t`` at ``t_pos``
    (``moved_t``); ``figures`` / ``weapons``: a share of a split fire (default: the whole unit).
    The engine's :meth:`~fof_env.force_on_force.fire.FireResolution.attack_firepower` for positions
    the units are not (yet) in."""
    table = state.sc.table
    full = state.full
    if weapons is None:
        weapons = state.usable_support(u)
    if figures is None:
        figures = state.shooting_figures(u)
    d = table.dist[s_pos][t_pos]
    tq = state.tq[u]
    if full:
        riflemen = figures - len(weapons)
        optimum = (riflemen <= 0 or d <= tq + _EPS) and (not weapons or d <= 2 * tq + _EPS)
    else:
        optimum = d <= tq + _EPS
    sup = combat.support_dice(weapons, moved=moved_u > 0, rapid=moved_u == 2, full_rules=full)
    bonus = state.mad[u]
    if full:
        bonus += table.exposed[t_pos] + (moved_t == 2) + (first and state.supply[u] > 0)
    pen = 0
    if first:
        pen = state.fires[u] + state.ammo[u] + (moved_u == 2)
        if full:
            pen += state.rmoves[u] + (state.supply[u] < 0)
    return combat.firepower(figures, sup, optimum=optimum, bonuses=bonus, penalties=pen, capped=full)


def defense_at(state, t: int, t_pos: int, s_pos: int, fp: int, moved_t: int, extra: int = 0) -> int:
    """Defence dice of unit ``t`` at ``t_pos`` (``moved_t`` this turn) against ``fp`` dice from ``s_pos``;
    ``extra``: cover dice more (an Excellent Position it would be given)."""
    table = state.sc.table
    at_home = t_pos == state.pos[t]
    cover = state.ground_cover(s_pos, t_pos) + (state.excellent[t] if at_home else 0) + extra
    if state.full:
        in_cover = at_home and state.in_cover[t]
        auto = moved_t == 0 and not table.exposed[t_pos] and not state.is_irregular(t)
        if in_cover or auto:
            cover += 1
    pen = 1 if (not state.full and moved_t == 2) else 0
    return combat.defense(state.effective(t), fp, armor=state.armor[t], cover=cover, penalties=pen)


def hits_at(state, u: int, s_pos: int, t: int, t_pos: int, moved_u: int, moved_t: int,
            figures: int | None = None, weapons: list[int] | None = None, first: bool = True,
            extra_defense: int = 0) -> float:
    """Expected casualties of ``u`` firing from ``s_pos`` at ``t`` standing at ``t_pos`` (hits on the armour of
    a WWII AFV: rules/wwii_vehicles.py); ``extra_defense``: defence dice more for ``t`` (an Excellent Position
    it would be given: cover for infantry, armour for an AFV, none for an open hatch's commander, R74)."""
    fp = None
    if state.sc.vehicles and (state.is_afv(u) or state.is_afv(t)):
        fp = state.afv_firepower(u, t, first)  # None: infantry fire at an unbuttoned tank's commander (R87)
        if fp is None and state.is_afv(t):
            extra_defense = 0  # the commander in the hatch gains no die from the position (R74)
    if fp is None:
        fp = firepower_at(state, u, s_pos, t, t_pos, moved_u, moved_t, figures, weapons, first)
    return hits_of(state, u, s_pos, t, t_pos, moved_t, fp, extra_defense)


def hits_of(state, u: int, s_pos: int, t: int, t_pos: int, moved_t: int, fp: int, extra_defense: int = 0) -> float:
    """Expected casualties of ``fp`` dice of ``u`` fired from ``s_pos`` at ``t`` standing at ``t_pos`` (hits on
    the armour of a WWII AFV that ``u`` fires at with an AT weapon or a tank's gun); ``extra_defense`` as
    :func:`hits_at`'s."""
    if fp <= 0:
        return 0.0
    if state.sc.vehicles and state.is_afv(t) and (state.is_afv(u) or state.at_dice(u)):
        dice, die = state.afv_defense(t, s_pos, at=t_pos)
        return expected_hits(fp, state.tq[u], dice + extra_defense, die)
    dfn = defense_at(state, t, t_pos, s_pos, fp, moved_t, extra_defense)
    return min(expected_hits(fp, state.tq[u], dfn, state.tq[t]), float(state.effective(t)))


def _possible_points(state, u: int) -> list[int]:
    """Where a hidden enemy unit ``u`` may stand: the woods points of its deployment zone."""
    zone = state.sc.deploy_points[u]
    woods = state.sc.table.in_woods
    pts = [p for p in zone if woods[p]] if zone else [p for p in range(state.NUM_POINTS) if woods[p]]
    return pts or list(zone)


@dataclass
class _Plan:
    """One activation: what to do (``state.MOVE`` / ``FIRE`` / ``HOLD``), where, at whom."""

    kind: int
    dest: int = -1
    target: int = -1
    value: float = 0.0


# ---------------------------------------------------------------- the bot
class ForceOnForceHeuristic:
    """Scripted bot for one side of any Force on Force scenario (see the module docstring)."""

    def __init__(self, game, player: int, seed: int | None = None, weights: Weights | None = None):
        self.game = game
        self.player = int(player)
        self.seed = seed
        self.rng = random.Random(seed)  # the set-up's mixed strategy only
        self.w = weights or Weights()
        sc = game.setup
        self.hit_vp = _hit_values(sc, self.player) + self.w.tactical  # a hit I score
        self.loss_vp = _hit_values(sc, 1 - self.player) + self.w.tactical  # a hit I take
        self._objectives = self._read_objectives(sc)
        # Static geometry of each objective, per point: inside it, and 1 - inches to it / the diagonal.
        table = sc.table
        diag = math.hypot(table.width_in, table.height_in)
        self._inside = [[feature.contains(*xy) for xy in table.xy] for feature, _, _ in self._objectives]
        self._near = [[1.0 - min(feature.distance_to(*xy), diag) / diag for xy in table.xy]
                      for feature, _, _ in self._objectives]
        self._plan: tuple[int, int, _Plan] | None = None  # (history length, unit, plan)
        self._split: list | None = None  # planned split fire: [(target, figures)], weapon targets
        self._memo = DecisionMemo()  # what one act() has computed (agents.decision_memo)

    def __repr__(self) -> str:
        return f"heuristic({self.game.player_names[self.player]})"

    def _read_objectives(self, sc) -> list[tuple]:
        """``(feature, my points, enemy points)`` of each feature some ``feature_held`` term names."""
        per: dict[str, list[float]] = {}
        for term in sc.victory:
            if term.kind == "feature_held":
                pts = per.setdefault(term.feature, [0.0, 0.0])
                pts[0 if term.side == self.player else 1] += term.points
        return [(sc.table.feature_by_id[f], mine, theirs) for f, (mine, theirs) in per.items()]

    # ------------------------------------------------------------------ entry
    def act(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        handler = _HANDLERS.get(state.kind)
        with self._memo.deciding():  # every destination is scored against the same enemies
            choice = handler(self, state, legal) if handler is not None else legal[0]
        if choice not in legal:  # defensive: never an illegal action
            choice = state.PASS if state.PASS in legal else legal[0]
        return choice

    # ------------------------------------------------------------ knowledge
    def _enemies(self, state) -> list[int]:
        """Active enemy units the bot can see."""
        me = self.player
        return [t for t in state.SIDE_UNITS[1 - me] if state.active(t) and state.visible_to(t, me)]

    def _hidden_enemies(self, state) -> list[int]:
        me = self.player
        return self._memo.get(("hidden",), lambda: [t for t in state.SIDE_UNITS[1 - me]
                                                    if state.pos[t] >= 0 and not state.visible_to(t, me)])

    def _unplaced_enemies(self, state) -> list[int]:
        """Enemy units still to set up (their deployment zones are public)."""
        if state.setup_stage >= len(state.sc.deployment):
            return []
        return [t for t in state.SIDE_UNITS[1 - self.player]
                if state.pos[t] < 0 and state.figs[t][st.OK] and state.sc.deploy_points[t]]  # fmt: skip

    def _hidden_points(self, state) -> list[tuple[int, list[int]]]:
        """(unit, the points it may stand at) of every hidden enemy unit."""
        return self._memo.get(("hidden points",), lambda: [(e, _possible_points(state, e))
                                                           for e in self._hidden_enemies(state)])

    def _banned(self, state) -> set[int]:
        """Points where a hidden enemy unit may stand: never a destination (no choice may depend on it)."""
        return self._memo.get(("banned",), lambda: {p for _, pts in self._hidden_points(state) for p in pts})

    def _threat(self, state, u: int, q: int, moved: int, enemies: list[int], extra_defense: int = 0) -> float:
        """Expected casualties unit ``u`` may take standing at ``q`` (each known enemy that sees q
        fires with chance ``threat``; a hidden one from each of its possible points, shared), with
        ``extra_defense`` defence dice more."""
        los = state.sc.table.los
        total = 0.0
        for e in enemies:
            ep = state.pos[e]
            if los[ep][q]:
                w = 0.5 if state.pinned[e] else 1.0
                total += w * hits_at(state, e, ep, u, q, 0, moved, *self._arms(state, e), extra_defense=extra_defense)
        for e, pts in self._unknown_enemies(state):
            arms = self._arms(state, e)
            for p in pts:
                if los[p][q]:
                    total += hits_at(state, e, p, u, q, 0, moved, *arms, extra_defense=extra_defense) / len(pts)
        return self.w.threat * total

    def _arms(self, state, u: int) -> tuple[int, list[int]]:
        """(shooting figures, usable support weapons) of unit ``u``: all of it firing, as ``hits_at``
        would count them itself."""
        return self._memo.get(("arms", u), lambda: (state.shooting_figures(u), state.usable_support(u)))

    def _unknown_enemies(self, state) -> list[tuple[int, list[int]]]:
        """(unit, the points it may stand at) of every enemy unit hidden or still to set up."""
        return self._memo.get(("unknown",), lambda: self._hidden_points(state) + [
            (e, state.sc.deploy_points[e]) for e in self._unplaced_enemies(state)])

    def _offense(self, state, u: int, q: int, moved: int, enemies: list[int]) -> float:
        """Expected VP of the best shot ``u`` would have from ``q`` at a known enemy."""
        los = state.sc.table.los[q]
        best = 0.0
        arms = self._arms(state, u)
        for t in enemies:
            tp = state.pos[t]
            if los[tp]:
                best = max(best, hits_at(state, u, q, t, tp, moved, state.moved[t], *arms))
        return best * self.hit_vp

    def _turns_left(self, state) -> int:
        return max(0, state.sc.turns - state.turn)

    def _objective(self, state, u: int, q: int) -> float:
        """Worth of unit ``u`` standing at ``q`` for the scenario's ``feature_held`` objectives."""
        if not self._objectives:
            return 0.0
        left = self._turns_left(state)
        urgency = 1.0 if left <= 1 else (0.7 if left <= 3 else 0.45)
        total = 0.0
        held = self._memo.get(("held", u), lambda: self._held_by_others(state, u))
        for (_feature, mine, theirs), friends, inside, near in zip(self._objectives, held, self._inside,
                                                                   self._near, strict=True):
            worth = (mine + theirs) * self.w.objective
            if worth <= 0:
                continue
            share = self.w.hold_ratio if friends else 1.0
            if inside[q]:
                total += worth * share * urgency
            elif not friends:
                total += worth * self.w.approach * urgency * near[q]
        return total

    def _held_by_others(self, state, u: int) -> list[int]:
        """For each objective feature, how many other active units of this side stand in it."""
        return [sum(1 for f in state.SIDE_UNITS[self.player] if f != u and state.active(f) and inside[state.pos[f]])
                for inside in self._inside]  # fmt: skip

    def _value(self, state, u: int, q: int, moved: int, enemies: list[int]) -> float:
        return (self.w.offense * self._offense(state, u, q, moved, enemies)
                - self.loss_vp * self._threat(state, u, q, moved, enemies)
                + self._objective(state, u, q))  # fmt: skip

    # ============================================================ set-up
    def _deploy(self, state, legal: list[int]) -> int:
        u = state.queue[0]
        table = state.sc.table
        enemies = self._enemies(state)
        enemy_zone = sorted({p for t in state.SIDE_UNITS[1 - self.player] for p in state.sc.deploy_points[t]})
        placed = [state.pos[t] for t in state.SIDE_UNITS[self.player] if state.pos[t] >= 0]
        reach = 2 * state.tq[u]

        def value(p: int) -> float:
            los = table.los[p]
            dist = table.dist[p]
            view = sum(1 for q in enemy_zone if los[q] and dist[q] <= reach + 24.0) / max(1, len(enemy_zone))
            v = 0.6 * table.terrain_cover[p] + 0.3 * (not table.exposed[p]) + 0.5 * view
            v -= self.loss_vp * self._threat(state, u, p, 0, enemies)
            v += self._objective(state, u, p)
            v -= 1.0 * sum(1 for q in placed if q == p) + 0.05 * sum(1 for q in placed if dist[q] <= 2.0 + _EPS)
            return v

        return choose_among_best(legal, value, self.rng.randrange, setup_choices(state))  # agents.mixed_setup

    def _declare_hidden(self, state, legal: list[int]) -> int:
        units = [a for a in legal if a != state.PASS]
        return units[0] if units else state.PASS

    def _attach(self, state, legal: list[int]) -> int:
        return max(legal, key=lambda a: (state.effective(a - state.UNIT0), -a))

    def _airstrike(self, state, legal: list[int]) -> int:
        if state.sc.cas is not None:  # WWII close air support: the enemy unit with most effective figures
            units = [a for a in legal if a != state.PASS]
            return max(units, key=lambda a: (state.effective(a - state.UNIT0), -a)) if units else state.PASS
        vp = state.victory_points()
        return state.YES if vp[self.player] > vp[1 - self.player] else state.PASS

    # ============================================================ Overwatch
    def _overwatch(self, state, legal: list[int]) -> int:
        if state.first_fire:
            return state.PASS
        enemies = self._enemies(state)
        if not enemies:
            return state.PASS
        los = state.sc.table.los
        for a in legal:
            if a == state.PASS:
                continue
            u = a - state.UNIT0
            if not any(los[state.pos[u]][state.pos[t]] for t in enemies):
                continue
            plan = self._plan_unit(state, u, enemies)
            if plan.kind == state.HOLD:
                return a
        return state.PASS

    # ============================================================ activation
    def _select(self, state, legal: list[int]) -> int:
        units = [a - state.UNIT0 for a in legal if a != state.PASS]
        if not units:
            return state.PASS
        enemies = self._enemies(state)
        best, best_gain, plans = -1, -1e9, {}
        for u in units:
            plan = self._plan_unit(state, u, enemies)
            plans[u] = plan
            hold = self._value(state, u, state.pos[u], state.moved[u], enemies)
            gain = plan.value - hold + (0.01 if plan.kind == state.FIRE else 0.0)
            if gain > best_gain + 1e-9:
                best, best_gain = u, gain
        if state.PASS in legal and best_gain <= 1e-6:
            checks = [u for u in units if state.needs_cover_check(u)]
            if not checks:
                return state.PASS
            best = checks[0]
            plans[best] = _Plan(state.HOLD)
        self._plan = (len(state.history), best, plans[best])
        return state.UNIT0 + best

    def _plan_unit(self, state, u: int, enemies: list[int]) -> _Plan:
        """The best activation of ``u`` now: hold, fire, or move (and fire after)."""
        table = state.sc.table
        here = state.pos[u]
        stay = self._value(state, u, here, state.moved[u], enemies)
        best = _Plan(state.HOLD, value=stay + (0.05 if state.needs_cover_check(u) else 0.0))
        can_fire = state.fire_capacity(u) > 0
        if can_fire:
            targets = state.fire_targets(u)
            if targets:
                t, vp = self._best_target(state, u, targets)
                if stay + vp > best.value:
                    best = _Plan(state.FIRE, target=t, value=stay + vp)
        if state.first_fire:
            return best
        banned = self._banned(state)
        dests = set(state.move_points(u, _RAPID))
        dests.update(state.out_of_contact_points(u))
        f = state.figs[u]
        slowed = f[st.LIGHT] + f[st.DOWN] + f[st.SERIOUS] > 0
        for q in dests:
            if q in banned:
                continue
            rapid = table.dist[here][q] > _TACTICAL + _EPS
            moved = 2 if rapid else max(1, state.moved[u])
            v = self._value(state, u, q, moved, enemies)
            if rapid:
                v -= self.w.rapid_cost + (0.3 if slowed else 0.0)
            if v > best.value + 1e-9:
                best = _Plan(state.MOVE, dest=q, value=v)
        return best

    def _best_target(self, state, u: int, targets: list[int]) -> tuple[int, float]:
        """(target, expected VP) of the best single fire of ``u`` now."""
        here = state.pos[u]
        best, best_v = -1, -1.0
        for t in targets:
            v = hits_at(state, u, here, t, state.pos[t], state.moved[u], state.moved[t]) * self.hit_vp
            if v > best_v:
                best, best_v = t, v
        return best, best_v

    def _current_plan(self, state, u: int) -> _Plan | None:
        plan = self._plan
        if plan is not None and plan[1] == u and plan[0] >= len(state.history) - 3:
            return plan[2]
        return None

    def _action(self, state, legal: list[int]) -> int:
        u = state.actor
        unseen = self._concealed_from_tank(state, u)
        if state.SPOT in legal and (self._hidden_enemies(state) or unseen):
            return state.SPOT
        if state.YES in legal and self._hatch_wanted(state, u, unseen):
            return state.YES
        if legal == [state.FIRE]:
            return state.FIRE
        plan = self._current_plan(state, u) or self._plan_unit(state, u, self._enemies(state))
        self._plan = (len(state.history), u, plan)
        if plan.kind in legal:
            return plan.kind
        return state.HOLD if state.HOLD in legal else legal[0]

    def _concealed_from_tank(self, state, u: int) -> list[int]:
        """Known enemy units in the sight of WWII tank ``u`` that it may not fire at: concealed infantry a
        buttoned-up tank has not spotted (R85). Empty for any other unit."""
        if not state.sc.vehicles or not state.is_afv(u):
            return []
        table, here = state.sc.table, state.pos[u]
        return [t for t in self._enemies(state)
                if table.los[here][state.pos[t]] and not state.afv_may_target(u, t)]

    def _hatch_wanted(self, state, u: int, unseen: list[int]) -> bool:
        """Whether a WWII tank should open (or close) its hatch now (R85-R87): a buttoned-up tank whose
        spotting attempt is spent while enemy it sees stay concealed opens up to fire at them; an open one
        buttons up again when enemy infantry stands within 12" in sight (they may shoot its commander)."""
        if state.veh[u].buttoned:
            return bool(unseen) and bool(state.veh[u].spot_used)
        table, here = state.sc.table, state.pos[u]
        return any(not state.is_afv(t) and table.los[here][state.pos[t]] and table.dist[here][state.pos[t]] <= 12
                   for t in self._enemies(state))

    def _move(self, state, legal: list[int]) -> int:
        u = state.mover
        pts = [a for a in legal if a < state.NUM_POINTS]
        banned = self._banned(state)
        pts = [p for p in pts if p not in banned] or pts
        enemies = self._enemies(state)
        table = state.sc.table
        here = state.pos[u]
        if state.move_reaction:
            return self._reaction_move(state, u, legal, pts, enemies)
        if state.after_fire:  # a Tactical move after firing, or stay (PASS)
            stay = self._value(state, u, here, state.moved[u], enemies)
            best = max(pts, key=lambda q: (self._value(state, u, q, max(1, state.moved[u]), enemies), -q),
                       default=-1)  # fmt: skip
            if best >= 0 and self._value(state, u, best, max(1, state.moved[u]), enemies) > stay + 0.5:
                return best
            return state.PASS
        plan = self._current_plan(state, u)
        if plan is not None and plan.kind == state.MOVE and plan.dest in legal:
            return plan.dest
        if not pts:
            return legal[0]

        def value(q: int) -> float:
            rapid = table.dist[here][q] > _TACTICAL + _EPS
            return self._value(state, u, q, 2 if rapid else 1, enemies) - (self.w.rapid_cost if rapid else 0.0)

        return max(pts, key=lambda q: (value(q), -q))

    def _reaction_move(self, state, u: int, legal: list[int], pts: list[int], enemies: list[int]) -> int:
        """A reaction move: out of the sight of the unit that provoked it if possible, else the best point."""
        if not pts:
            return legal[0]
        a = state.actor
        los = state.sc.table.los
        hidden = [q for q in pts if a < 0 or not los[state.pos[a]][q]] or pts
        return max(hidden, key=lambda q: (self._value(state, u, q, 1, enemies), -q))

    # ============================================================ fire
    def _target(self, state, legal: list[int]) -> int:
        units = [a - state.UNIT0 for a in legal if a != state.PASS]
        if not units:
            return state.PASS
        u = state.actor
        t, vp = self._best_target(state, u, units)
        if state.after_move and state.PASS in legal and vp < self.w.after_move_fire:
            return state.PASS
        plan = self._current_plan(state, u)
        if plan is not None and plan.kind == state.FIRE and plan.target in units and not state.after_move:
            t = plan.target
        self._split = self._plan_split(state, u, t, units)
        return state.UNIT0 + t

    def _plan_split(self, state, u: int, t0: int, targets: list[int]) -> list | None:
        """A split fire worth more than everything on ``t0`` (003 "Splitting Fire"), or None:
        ``[(target, figures), ...]`` for the extra targets, the support weapons staying on ``t0``."""
        limit = combat.SPLIT_TARGETS.get(state.tq[u], 1) if state.full else 1
        if limit <= 1 or len(targets) <= 1:
            return None
        weapons = state.usable_support(u)
        figures = state.shooting_figures(u)
        extra: list[tuple[int, int]] = []

        here = state.pos[u]

        def total(extra_: list[tuple[int, int]]) -> float:
            """Expected hits of the split: the engine's dice for its portions (one 10D cap, R24)."""
            shares = [(t0, figures - sum(n for _t, n in extra_), weapons), *((t, n, []) for t, n in extra_)]
            fps = state.portions_firepower(u, shares)
            return sum(hits_of(state, u, here, t, state.pos[t], state.moved[t], fp)
                       for (t, _n, _w), fp in zip(shares, fps, strict=True))  # fmt: skip

        current = total(extra)
        while len(extra) + 1 < limit:
            left = figures - sum(n for _t, n in extra)
            top = left if weapons else left - 1
            best, best_v = None, current + self.w.split_gain / self.hit_vp
            for t in targets:
                if t == t0 or any(t == x for x, _n in extra):
                    continue
                for n in range(1, min(top, state.MAX_COUNT) + 1):
                    v = total([*extra, (t, n)])
                    if v > best_v + 1e-9:
                        best, best_v = (t, n), v
            if best is None:
                break
            extra.append(best)
            current = best_v
        return extra or None

    def _split_target(self, state, legal: list[int]) -> int:
        done = len(state.targets) - 1
        if self._split is not None and done < len(self._split):
            t = self._split[done][0]
            if state.UNIT0 + t in legal:
                return state.UNIT0 + t
        return state.PASS if state.PASS in legal else legal[0]

    def _split_count(self, state, legal: list[int]) -> int:
        done = len(state.split_counts)
        if self._split is not None and done < len(self._split):
            want = state.COUNT0 + self._split[done][1] - 1
            if want in legal:
                return want
        return min(legal)

    def _split_support(self, state, legal: list[int]) -> int:
        first = state.UNIT0 + state.targets[0]
        return first if first in legal else legal[0]

    # ============================================================ reactions
    def _shot_at_actor(self, state, r: int, a: int) -> float:
        """Expected hits of ``r`` firing at the actor ``a`` (at its start or its destination)."""
        table = state.sc.table
        rp = state.pos[r]
        here = state.pos[a]
        moving = state.win_kind == st.W_MOVE
        spots = [(here, state.moved[a])]
        if moving and state.win_dest >= 0:
            rapid = table.dist[here][state.win_dest] > _TACTICAL + _EPS
            spots.append((state.win_dest, 2 if rapid else max(1, state.moved[a])))
        best = 0.0
        for p, m in spots:
            if table.los[rp][p]:
                best = max(best, hits_at(state, r, rp, a, p, state.moved[r], m))
        return best

    def _forfeit(self, state, r: int) -> float:
        """What reacting costs unit ``r``: a non-initiative unit that reacts does not activate in its
        own portion (R18), an irregular unit acts once per turn (R38): the gain of its activation."""
        if state.UNIT_SIDE[r] == state.initiative and not state.is_irregular(r):
            return 0.0
        if state.activated[r] or state.reacted[r]:
            return 0.0
        enemies = self._enemies(state)
        plan = self._plan_unit(state, r, enemies)
        hold = self._value(state, r, state.pos[r], state.moved[r], enemies)
        return max(0.0, plan.value - hold)

    def _incoming(self, state, a: int, r: int) -> float:
        """Expected hits of the actor's declared fire on ``r``."""
        return hits_at(state, a, state.pos[a], r, state.pos[r], state.moved[a], state.moved[r])

    def _declare(self, state, legal: list[int]) -> int:
        r = state.queue[0]
        a = state.actor
        if state.interrupted >= 0:  # the Overwatch unit's fire may be interrupted: shoot at it if it pays
            if state.INT_FIRE in legal:
                o = state.interrupted
                v = hits_at(state, r, state.pos[r], o, state.pos[o], state.moved[r], state.moved[o]) * self.hit_vp
                if v >= self.w.interrupt:
                    return state.INT_FIRE
            return state.PASS
        target = r in state.targets
        if state.INT_FIRE in legal:
            v = self._shot_at_actor(state, r, a) * self.hit_vp
            if v >= (self.w.return_fire if target else self.w.interrupt) and v >= self._forfeit(state, r):
                return state.INT_FIRE
        # an irregular target may not fire back (R37): it dodges out of sight if the shot is dangerous
        dodge = target and state.INT_MOVE in legal and state.INT_FIRE not in legal
        if dodge and self._incoming(state, a, r) >= self.w.dodge:
            return state.INT_MOVE
        return state.PASS

    def _overwatch_fire(self, state, legal: list[int]) -> int:
        o = state.queue[0]
        units = [a - state.UNIT0 for a in legal if a != state.PASS]
        if not units:
            return state.PASS
        t, vp = self._best_target(state, o, units)
        return state.UNIT0 + t if t >= 0 and vp >= self.w.overwatch_fire else state.PASS

    def _return_fire(self, state, legal: list[int]) -> int:
        f, t = state.ret_queue[0]
        v = hits_at(state, t, state.pos[t], f, state.pos[f], state.moved[t], state.moved[f]) * self.hit_vp
        return state.INT_FIRE if state.INT_FIRE in legal and v >= self.w.return_fire else state.PASS

    def _handoff(self, state, legal: list[int]) -> int:
        return legal[0]

    # ============================================================ first aid (wwii_first_aid, R43-R46)
    def _medic_gain(self, state, u: int) -> float:
        """VP a medic's table is worth to unit ``u``'s casualties over the standard WWII table: per
        casualty 1/6 less dead (dead 1-2 -> 1, walking wounded 5 -> 4-5), a figure kept (``tactical``)."""
        dead_vp = 0.0
        for term in state.sc.victory:  # what the enemy scores for one of my dead figures
            if term.side != self.player and term.kind in ("enemy_kia", "enemy_casualties"):
                dead_vp += term.points
        return state.figs[u][st.DOWN] * (dead_vp + self.w.tactical) / 6

    def _medic_cost(self, state, m: int, u: int, enemies: list[int]) -> float:
        """VP medic ``m`` risks by standing on unit ``u``'s point rather than his own (known enemy fire)."""
        there = self._threat(state, m, state.pos[u], 0, enemies)
        here = self._threat(state, m, state.pos[m], 0, enemies)
        return self.loss_vp * max(0.0, there - here)

    def _call_medic(self, state, legal: list[int]) -> int:
        u = state.actor
        medics = [a - state.UNIT0 for a in legal if a != state.PASS]
        if not medics:
            return state.PASS
        enemies = self._enemies(state)
        later = [v for v in state.aid_queue[1:]
                 if state.UNIT_SIDE[v] == self.player and state.figs[v][st.DOWN] > state.figs[u][st.DOWN]
                 and state._may_check(v) and not state.attached_medic(v)]  # fmt: skip
        gain = self._medic_gain(state, u)
        dist = state.sc.table.dist[state.pos[u]]

        def net(m: int) -> float:
            reserve = max((self._medic_gain(state, v) - self._medic_cost(state, m, v, enemies)
                           for v in later if m in state.medic_units(v)), default=0.0)  # fmt: skip
            return gain - self._medic_cost(state, m, u, enemies) - max(0.0, reserve)

        best = max(medics, key=lambda m: (net(m), -dist[state.pos[m]], -m))
        return state.UNIT0 + best if net(best) > 0 or state.PASS not in legal else state.PASS

    def _walking_wounded(self, state, legal: list[int]) -> int:
        u = state.actor
        f = state.figs[u]
        here = state.pos[u]
        xy = state.sc.table.xy[here] if here >= 0 else None
        los = state.sc.table.los
        stay = (
            f[st.SERIOUS] + f[st.DOWN] + f[st.LIGHT] - state.aid_ww > 0  # slowed anyway: no penalty more
            or xy is None
            or any(feature.contains(*xy) for feature, _, _ in self._objectives)  # holds an objective
            or f[st.OK] < 3  # a small unit needs every man
            or any(los[state.pos[t]][here] for t in self._enemies(state))  # in contact: fights where it is
        )
        choice = state.HOLD if stay else state.EXIT
        return choice if choice in legal else legal[0]

    # ============================================================ Fog of War
    def _fow_unit(self, state, legal: list[int]) -> int:
        units = [a for a in legal if a != state.PASS]
        if not units:
            return state.PASS
        if state.decision.context.get("result") == "excellent_position":
            return self._excellent_position(state, units)
        return max(units, key=lambda a: (state.effective(a - state.UNIT0), -a))  # Medic!: played at once

    def _excellent_position(self, state, units: list[int]) -> int:
        """An Excellent Position on the unit whose extra defence die (cover, or a tank's armour: R74) saves
        the most expected hits where it stands now; kept (``pass``) while it would save none."""
        enemies = self._enemies(state)

        def saved(a: int) -> float:
            u = a - state.UNIT0
            q, moved = state.pos[u], state.moved[u]
            return self._threat(state, u, q, moved, enemies) - self._threat(state, u, q, moved, enemies, 1)

        gains = {a: saved(a) for a in units}
        best = max(units, key=lambda a: (gains[a], -a))
        return best if gains[best] > _EPS else state.PASS

    def _fow_point(self, state, legal: list[int]) -> int:
        if state.PASS in legal:  # a WWII card (Swiss Cheese, Fire! Fire!): the feature most enemies stand in
            points = [p for p in legal if p != state.PASS]
            if state.decision.context.get("result") == "watch_where_you_step" and points:
                near = state.sc.table.dist[state.pos[state.cards.spotter]]  # the marker nearest the enemy unit
                return min(points, key=lambda p: (near[p], p))
            at = state.sc.table.feature_at
            held = {}
            for t in self._enemies(state):
                held[at[state.pos[t]]] = held.get(at[state.pos[t]], 0) + state.effective(t)
            best = max(points, key=lambda p: (held.get(at[p], 0), -p), default=state.PASS)
            fire = state.decision.context.get("result") == "fire_fire"
            return state.PASS if best == state.PASS or (fire and not held.get(at[best], 0)) else best
        enemies = self._enemies(state)
        if not enemies:
            return legal[0]
        table = state.sc.table  # a card's unit near the enemy (a Hunted! sniper: drawn among the nearest few)
        return choose_among_best(legal, lambda p: -min(table.dist[p][state.pos[t]] for t in enemies),
                                 self.rng.randrange, setup_choices(state))


_HANDLERS = {
    st.D_DEPLOY: ForceOnForceHeuristic._deploy,
    st.D_HIDE: ForceOnForceHeuristic._declare_hidden,
    st.D_ATTACH: ForceOnForceHeuristic._attach,
    st.D_AIRSTRIKE: ForceOnForceHeuristic._airstrike,
    st.D_OVERWATCH: ForceOnForceHeuristic._overwatch,
    st.D_SELECT: ForceOnForceHeuristic._select,
    st.D_ACTION: ForceOnForceHeuristic._action,
    st.D_MOVE: ForceOnForceHeuristic._move,
    st.D_TARGET: ForceOnForceHeuristic._target,
    st.D_SPLIT_TARGET: ForceOnForceHeuristic._split_target,
    st.D_SPLIT_COUNT: ForceOnForceHeuristic._split_count,
    st.D_SPLIT_SUPPORT: ForceOnForceHeuristic._split_support,
    st.D_HANDOFF: ForceOnForceHeuristic._handoff,
    st.D_DECLARE: ForceOnForceHeuristic._declare,
    st.D_OW: ForceOnForceHeuristic._overwatch_fire,
    st.D_RETURN: ForceOnForceHeuristic._return_fire,
    st.D_FOW_UNIT: ForceOnForceHeuristic._fow_unit,
    st.D_FOW_POINT: ForceOnForceHeuristic._fow_point,
    st.D_CALL_MEDIC: ForceOnForceHeuristic._call_medic,
    st.D_WALKING_WOUNDED: ForceOnForceHeuristic._walking_wounded,
}

_WEIGHT_NAMES = {f.name for f in fields(Weights)}


def make_force_on_force_heuristic(game, player: int, seed: int | None = None, **weights: float) -> ForceOnForceHeuristic:
    """The generic Force on Force bot for ``player``; keyword arguments override :class:`Weights`."""
    unknown = sorted(set(weights) - _WEIGHT_NAMES)
    if unknown:
        raise ValueError(f"unknown heuristic weight {unknown[0]!r}; weights: {', '.join(sorted(_WEIGHT_NAMES))}")
    return ForceOnForceHeuristic(game, player, seed=seed,
                                 weights=Weights(**{k: float(v) for k, v in weights.items()}) if weights else None)
