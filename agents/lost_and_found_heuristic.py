"""Scripted heuristic bots for Force on Force "Lost & Found": a Taliban one and a USMC one.

Both bots share one machinery (expected hits, threat maps, a greedy one-activation
planner) and differ in their goals and weights (:class:`Weights`).

**What they look at.** Only what their player may know: every unit of their own
side, every enemy unit that is not hidden (``state.visible_to``), the scenario's
public facts (the map, the orders of battle, the Taliban deployment zones) and the
decision's own context. For the USMC a hidden Taliban team is "somewhere in the
woods of its deployment zone": its threat is averaged over those points, its
strength is its order of battle, and no USMC move ends on one of those points (so
no choice can depend on where it really is). Never the state's dice, never a
clone. The bots are deterministic but for their set-up: each unit's deployment point is drawn
among its four best with the bot's own ``random.Random(seed)`` (``agents.mixed_setup``).

**Expected hits.** An attack of ``f`` dice against ``d`` defence dice is judged by
its expected casualties (:func:`expected_hits`): hits = max over v >= 4 of
(attack dice >= v) - (defence dice >= v), the closed form of "like blocks like or
lower", averaged over 4,000 fixed-seed samples per (f, die, d, die) and cached.
Firepower and defence follow the engine's arithmetic (Optimum Range, support
weapons, Exposed, Rapid move, supply, cover across walls, In Cover). The *threat*
to a team at a point is 0.6 x the expected hits of every enemy (known, or possible
hidden) position that sees the point.

**Activation planning.** A team's activation is the best of: hold, fire now
(expected hits x the target's importance), or move to a reachable point (its
position value) and then fire. Position values:

* Taliban: the shots the team would have from there at the Marines (the team with
  the pilot counts 2.5, the one closest to the pilot 1.5), its view of the
  Marines' way (the pilot and the next 12" West of him), minus 0.35 x the threat,
  plus 3 VP per Marine casualty it would capture (rulings R34: ending within 2" of
  a Marine team with no effective figure). Hiding is worth 1; a Rapid move costs
  0.5 and weakens the shot after it.
* USMC: the mission's expected VP, exactly: escorting the pilot off in turn T is
  worth 10 (T < 6) or 7 (T <= 8), else the Taliban win (-30); a wounded team
  passes its TQ check for a Rapid move 5 times in 8; each turn on the table costs
  3. Minus 2 x the threat (x 1.5 for the team with the pilot, x 0.5 / 0.15 when
  the deadline leaves one turn / no turn to spare: the danger has to be crossed
  anyway).

**Taliban** (player 0):

* *Set-up*: every team deploys on one of the four points of its zone that score best
  for woods (to hide), cover and the view of the West entry edge and of the open
  ground around the pilot's building, drawn at random (Team Three, in the compound,
  among the house points with the widest view); every team in the woods is declared
  Hidden.
* *Ambush*: turn 1 opens with the fire with the most expected hits (exposed
  targets, in Optimum Range, many dice); every team that has a good shot fires.
  A hidden team with no shot worth its cover stays put and hidden.
* *Fire*: at the target with the most expected hits x importance (the team with
  the pilot, the rescue team, a team close to being wiped out: its casualties can
  be captured).
* *Interrupts*: a team fired on always fires back; another team interrupts the
  team with the pilot or the rescue team whenever it sees it (0.4 expected hits),
  any other actor only when the expected hits pay (1.0; 1.5 for a hidden team),
  which happens when the actor moves Rapidly or in the open, in range. Return
  fire: always. Overwatch fire: at the interrupter with the most expected hits.
* *Overwatch*: with the initiative (after turn 1), a team with no good shot now
  (under 1.2 expected hits) that sees the Marines or their way to the pilot goes
  on Overwatch, to fire at whatever the Marines do in their portion.
* *Movement*: by the position value above: teams close in on the pilot's way
  West and the Marines (Rapidly when it pays), hunt capturable casualties, and
  keep shooting the team with the pilot, so that he is still on the table at the
  end of turn 8 (automatic victory).

**USMC** (player 1):

* *Set-up*: the squad leader joins Alpha; the fire teams enter on the West-edge
  points least threatened by the known Taliban and by the woods where hidden
  ones may be.
* *Rescue team*: the team with the pilot, else the team closest to him. It moves
  by the mission value (contact, then the West edge: ``exit``) and rarely fires
  (it would rather move); the pilot's team activates first when it can leave. A
  team slowed by wounds hands the pilot to a fresh team in contact.
* *Support teams* follow the rescue team within 8" through cover, fire first at
  the Taliban that see the rescue route (so they are pinned or weakened before it
  moves), and with the initiative go on Overwatch when they need not move, to
  fire at the Taliban that interrupt the rescue team. After the pilot is off the
  table every team leaves by the West edge.
* *Spotting*: a team within 8" (in sight) of woods where a hidden team may be
  spots first (a free step).
* *Air strike*: called when its chance of winning beats playing on: the VP now
  (``state.victory_points()``) with the unassessed casualties' exact distribution
  (KIA 1 in 6, serious 2 in 6), against a rough chance of getting the pilot off in
  time (nil when he cannot be off by the end of turn 8: then even a draw is
  better). A failed call just continues.
* *Reactions*: a team fired on fires back, except the rescue team while it still
  has its move to make (firing would cost it its activation); a support team
  interrupts a Taliban team when the expected hits reach 1.2 (a Taliban team
  moving in the open, in range); Overwatch teams fire at interrupters.

Every action returned is one of ``state.legal_actions()``; a decision costs about
0.3 ms on average.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from agents.mixed_setup import choose_among_best, setup_choices
from fof_env.force_on_force import combat
from fof_env.force_on_force import constants as st

TALIBAN, USMC = 0, 1  # the scenario's players (its side ids: "taliban", "usmc")
_TACTICAL, _RAPID = st.TACTICAL_IN, st.RAPID_IN
_CONTACT = st.CONTACT_IN
_EPS = 1e-9


@dataclass(frozen=True)
class Weights:
    """The bots' numbers, in "VP-like" units (one own casualty ~ 1)."""

    turn: float = 3.0  # a turn's delay (support teams leaving, following)
    usmc_threat: float = 2.0  # per expected casualty a USMC team may take at a point
    usmc_kill: float = 0.5  # per expected Taliban casualty of a support team's fire
    rescuer_kill: float = 0.15  # the rescue team's fire: it would rather move
    exposure: float = 3.0  # per turn the pilot's escort stays on the table
    carrier_threat: float = 1.5  # threat multiplier of the team with the pilot
    urgency1: float = 0.5  # rescue team's threat multiplier with one turn to spare before the deadline
    urgency0: float = 0.15  # ... with none
    late_vp: float = -30.0  # the pilot still on the table after turn 8: the Taliban win
    follow_in: float = 8.0  # support teams keep this close to the rescue team
    enemy_fire_p: float = 0.6  # chance an enemy team that sees a point fires at the team there
    tal_threat: float = 0.35  # per expected casualty a Taliban team may take at a point
    tal_shot: float = 0.5  # per expected USMC casualty of the shots a Taliban team has from a point
    tal_view: float = 0.3  # per point of the Marines' way (pilot, way West) a Taliban team sees
    tal_rapid_cost: float = 0.5  # cost of a Rapid move of a Taliban team (>= 50: Tactical moves only)


DEFAULT_WEIGHTS = Weights()

# ---------------------------------------------------------------- expected hits
_EH: dict[tuple[int, int, int, int], float] = {}
_SAMPLES = 4000


def expected_hits(fp: int, attack_die: int, defense: int, defense_die: int) -> float:
    """Expected casualties of ``fp`` dice of ``attack_die`` against ``defense`` dice of ``defense_die``.

    Hits = max over v >= 4 of (attack dice >= v) - (defence dice >= v), at least 0: the
    count of unblocked successes when each defence success blocks one attack success
    of equal or lower score. Fixed-seed Monte Carlo, cached (never the state's dice).
    """
    if fp <= 0:
        return 0.0
    key = (fp, attack_die, defense, defense_die)
    v = _EH.get(key)
    if v is None:
        rng = np.random.default_rng(((fp * 16 + attack_die) * 16 + defense) * 16 + defense_die)
        a = rng.integers(1, attack_die + 1, (_SAMPLES, fp))
        d = rng.integers(1, defense_die + 1, (_SAMPLES, max(defense, 0)))
        best = np.zeros(_SAMPLES, dtype=np.int64)
        for level in range(combat.SUCCESS, attack_die + 1):
            best = np.maximum(best, (a >= level).sum(axis=1) - (d >= level).sum(axis=1))
        v = float(best.mean())
        _EH[key] = v
    return v


# ---------------------------------------------------------------- profiles
class _Shooter:
    """What a player knows of a unit that may fire: figures, support dice, die, penalties."""

    __slots__ = ("u", "pos", "figs", "sup", "tq", "bonus", "pen", "weight")

    def __init__(self, u, pos, figs, sup, tq, bonus, pen, weight=1.0):
        self.u, self.pos, self.figs, self.sup, self.tq = u, pos, figs, sup, tq
        self.bonus, self.pen, self.weight = bonus, pen, weight


def _shooter(state, u: int, fresh: bool = True, weight: float = 1.0) -> _Shooter:
    """A visible unit as a shooter (``fresh``: as at the start of a turn, unmoved, no fires)."""
    full = state.full
    m = 0 if fresh else state.moved[u]
    sup = combat.support_dice(state.usable_support(u), moved=m > 0, rapid=m == 2, full_rules=full)
    bonus = state.mad[u] + (1 if full and state.supply[u] > 0 else 0)
    pen = state.ammo[u] + (1 if full and state.supply[u] < 0 else 0)
    if not fresh:
        pen += state.fires[u] + (1 if m == 2 else 0) + (state.rmoves[u] if full else 0)
    return _Shooter(u, state.pos[u], state.shooting_figures(u), sup, state.tq[u], bonus, pen, weight)


def _hidden_shooter(state, u: int, pos: int, weight: float) -> _Shooter:
    """A hidden enemy unit at one of its possible points: its order of battle, nothing else."""
    prof = state.sc.profiles[u]
    sup = combat.support_dice(list(prof.support), moved=False, rapid=False, full_rules=state.full)
    bonus = 1 if state.full and prof.supply > 0 else 0
    pen = 1 if state.full and prof.supply < 0 else 0
    return _Shooter(u, pos, prof.figures, sup, prof.tq, bonus, pen, weight)


def _fp(state, s: _Shooter, s_pos: int, t_pos: int, t_rapid: bool) -> int:
    table = state.sc.table
    d = table.dist[s_pos][t_pos]
    raw = s.figs + s.sup + (1 if d <= s.tq + _EPS else 0) + s.bonus
    if state.full:
        raw += table.exposed[t_pos] + (1 if t_rapid else 0)
        raw = min(combat.FIREPOWER_CAP, raw)  # the quick start has no cap (rulings R22)
    return max(0, raw - s.pen)


def _defense(state, t: int, t_pos: int, s_pos: int, fp: int, moved: int, in_cover: bool) -> int:
    """Defence dice of own or visible unit ``t`` standing at ``t_pos`` (``moved``: 0/1/2 this turn)."""
    table = state.sc.table
    cover = state.ground_cover(s_pos, t_pos) + (state.excellent[t] if t_pos == state.pos[t] else 0)
    if state.full and (in_cover or (moved == 0 and not table.exposed[t_pos])):
        cover += 1
    pen = 1 if (not state.full and moved == 2) else 0
    return combat.defense(state.effective(t), fp, armor=state.armor[t], cover=cover, penalties=pen)


_HITS: dict[tuple, float] = {}  # _hits by everything it reads (see there)
_HITS_TABLES: dict[int, object] = {}  # the tables whose ids key _HITS, kept alive so no id is reused


def _hits(
    state, s: _Shooter, t: int, t_pos: int, s_pos: int | None = None, moved: int | None = None
) -> float:
    """Expected casualties of ``s`` firing on unit ``t`` standing at ``t_pos``.

    Kept by everything :func:`_fp`, :func:`_defense` and :func:`expected_hits` read (the table, the
    rules, the shooter's profile and point, the target's point, move, cover, strength, armour and die),
    so the many candidate points a plan scores in a turn are worked out once.
    """
    sp = s.pos if s_pos is None else s_pos
    m = state.moved[t] if moved is None else moved
    here = t_pos == state.pos[t]
    in_cover = bool(state.in_cover[t]) and here
    table = state.sc.table
    key = (id(table), state.full, s.figs, s.sup, s.tq, s.bonus, s.pen, sp, t_pos, m, in_cover,
           state.excellent[t] if here else 0, state.effective(t), state.armor[t], state.tq[t])  # fmt: skip
    v = _HITS.get(key)
    if v is None:
        fp = _fp(state, s, sp, t_pos, m == 2)
        if fp <= 0:
            v = 0.0
        else:
            dfn = _defense(state, t, t_pos, sp, fp, m, in_cover)
            v = expected_hits(fp, s.tq, dfn, state.tq[t])
        if len(_HITS) >= 400_000:
            _HITS.clear()
        _HITS_TABLES[id(table)] = table
        _HITS[key] = v
    return v


# ---------------------------------------------------------------- knowledge
def _possible_points(state, u: int) -> list[int]:
    """Where hidden Taliban unit ``u`` may stand: the woods points of its deployment zone."""
    zone = state.sc.deploy_points[u]
    woods = state.sc.table.in_woods
    if not zone:
        return [p for p in range(state.NUM_POINTS) if woods[p]]
    return [p for p in zone if woods[p]]


def _enemy_shooters(state, player: int, fresh: bool = True) -> list[_Shooter]:
    """Every enemy firing position ``player`` knows of: visible units, and each possible point of a
    hidden unit weighted by one over the number of such points."""
    out = []
    for u in state.SIDE_UNITS[1 - player]:
        if state.visible_to(u, player):
            if state.active(u):
                w = 0.5 if state.pinned[u] else 1.0
                out.append(_shooter(state, u, fresh=fresh, weight=w))
        else:
            pts = _possible_points(state, u)
            for p in pts:
                out.append(_hidden_shooter(state, u, p, 1.0 / len(pts)))
    return out


def _threat(state, t: int, q: int, shooters: list[_Shooter], moved: int, p_fire: float) -> float:
    """Expected casualties unit ``t`` may take standing at ``q`` from ``shooters`` (each that sees q)."""
    los = state.sc.table.los
    total = 0.0
    for s in shooters:
        if los[s.pos][q]:
            total += s.weight * _hits(state, s, t, q, moved=moved)
    return p_fire * total


def _shot_from(state, s: _Shooter, q: int, targets: list[int], importance) -> float:
    """The best expected hits x importance ``s`` would have from point ``q`` (0: no target in sight)."""
    los = state.sc.table.los[q]
    pos = state.pos
    return max(
        (_hits(state, s, t, pos[t], s_pos=q) * importance(t) for t in targets if los[pos[t]]), default=0.0
    )


def _best_shot(state, u: int, targets: list[int], importance) -> tuple[float, int]:
    """(value, target) of the best single fire of ``u`` now among ``targets``."""
    s = _shooter(state, u, fresh=False)
    best, best_t = -1.0, -1
    for t in targets:
        v = _hits(state, s, t, state.pos[t]) * importance(t)
        if v > best:
            best, best_t = v, t
    return best, best_t


def _slowed(state, u: int) -> bool:
    f = state.figs[u]
    return f[st.LIGHT] + f[st.DOWN] + f[st.SERIOUS] > 0


def _exit_vp(state, exit_turn: int, w: Weights) -> float:
    """USMC VP for escorting the pilot off in ``exit_turn`` (a loss if too late)."""
    if exit_turn < state.sc.pilot.early_escort_before_turn:
        return 10.0
    if exit_turn <= state.sc.pilot.deadline_turn:
        return 7.0
    return w.late_vp


def _escort_value(state, turn: int, d: float, slowed: bool, w: Weights) -> float:
    """Expected VP of a team with the pilot ``d`` inches from the West edge whose next
    activation is in ``turn``, less ``w.exposure`` per turn spent (a wounded team passes
    its TQ check for a Rapid move 5 times in 8)."""
    got = _ESCORT_CACHE.get(id(w))  # by the weights' identity: hashing a dataclass costs more than the lookup
    if got is None or got[0] is not w:
        got = _ESCORT_CACHE[id(w)] = (w, {})
    values = got[1]
    key = (id(state.sc), turn, round(d, 1), slowed)
    v = values.get(key)
    if v is None:
        v = values[key] = _escort_rec(state, turn, d, slowed, w)
    return v


def _escort_rec(state, turn: int, d: float, slowed: bool, w: Weights) -> float:
    if turn > state.sc.pilot.deadline_turn:
        return w.late_vp
    if d <= _TACTICAL + _EPS:
        return _exit_vp(state, turn, w)
    if d <= _RAPID + _EPS:
        now = _exit_vp(state, turn, w)
    else:
        now = _escort_rec(state, turn + 1, d - _RAPID, slowed, w) - w.exposure
    if not slowed:
        return now
    late = _escort_rec(state, turn + 1, d - _TACTICAL, slowed, w) - w.exposure  # failed TQ check
    return _RAPID_OK_SLOWED * now + (1 - _RAPID_OK_SLOWED) * late


_RAPID_OK_SLOWED = 0.625  # a D8 team passes its TQ check (4+) to move faster than Tactical
_ESCORT_CACHE: dict[int, tuple[Weights, dict[tuple, float]]] = {}  # id(weights) -> (weights, their values)


def _turns(dist_in: float, speed: float = _RAPID) -> int:
    return 0 if dist_in <= _EPS else int(math.ceil((dist_in - _EPS) / speed))


def _min_dist(table, q: int, points: list[int]) -> float:
    row = table.dist[q]
    return min((row[p] for p in points), default=99.0)


def _usable(state, u: int) -> bool:
    return state.active(u) and not state.pinned[u]


class _TalCtx(NamedTuple):
    """What a Taliban team's position values need, gathered once per activation."""

    marines: list[int]  # active USMC teams
    shooters: list[_Shooter]  # them as shooters
    imp: Callable[[int], float]  # target importance
    caps: list[int]  # Marine teams whose casualties can be captured
    me: _Shooter  # the Taliban team itself
    route: list[int]  # the pilot and his way West


# ---------------------------------------------------------------- the bot
class LostAndFoundHeuristic:
    """Scripted "Lost & Found" bot for one side; see the module docstring for the strategy."""

    def __init__(self, game, player: int, seed: int | None = None, weights: Weights | None = None):
        if game.name != "lost_and_found":
            raise ValueError(f"LostAndFoundHeuristic plays lost_and_found, not {game.name!r}")
        self.game = game
        self.player = int(player)
        self.seed = seed
        self.rng = random.Random(seed)  # the set-up's mixed strategy only
        self.w = weights or DEFAULT_WEIGHTS
        self._plan: tuple | None = None  # (history length, unit, kind, dest, target)

    def __repr__(self) -> str:
        return f"heuristic({self.game.player_names[self.player]})"

    # ------------------------------------------------------------------ entry
    def act(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        handler = _HANDLERS.get(state.kind)
        choice = handler(self, state, legal) if handler is not None else legal[0]
        if choice not in legal:  # defensive: never return an illegal action
            choice = state.PASS if state.PASS in legal else legal[0]
        return choice

    # ------------------------------------------------------------ importance
    def _rescuer(self, state) -> int:
        """The USMC team with the pilot, else the active team closest to contact (-1: none)."""
        if state.pilot_unit >= 0:
            return state.pilot_unit
        if state.pilot_pos < 0:
            return -1
        table = state.sc.table
        best, best_key = -1, None
        for u in state.SIDE_UNITS[USMC]:
            if not state.active(u):
                continue
            key = (table.dist[state.pos[u]][state.pilot_pos], -state.effective(u), u)
            if best_key is None or key < best_key:
                best, best_key = u, key
        return best

    def _importance(self, state):
        """Target weights: the team with the pilot and the rescue team count most."""
        if self.player == TALIBAN:
            rescuer = self._rescuer(state)
            carrier = state.pilot_unit

            def imp(t: int) -> float:
                w = 2.5 if t == carrier else (1.5 if t == rescuer else 1.0)
                if state.effective(t) <= 2:
                    w += 0.3  # close to wiped out: its casualties could be captured
                return w

            return imp
        route = self._route_points(state)
        table = state.sc.table

        def imp_usmc(t: int) -> float:
            # Taliban that see the rescue route, or are close, matter most
            p = state.pos[t]
            w = 1.0 + 0.3 * sum(1 for r in route if table.los[p][r])
            return w * (1.0 if not state.pinned[t] else 0.6)

        return imp_usmc

    def _route_points(self, state) -> list[int]:
        """Points the USMC mission passes next: the pilot (or his team) and the way West."""
        table = state.sc.table
        if state.pilot_pos < 0:
            return []
        p = state.pos[state.pilot_unit] if state.pilot_unit >= 0 else state.pilot_pos
        x, y = table.xy[p]
        out = [p]
        for dx in (6.0, 12.0):
            q = table.point_at(max(table.col_x[0], x - dx), y)
            out.append(table.nearest(max(1.0, x - dx), y) if q is None else q)
        return out

    # ============================================================ set-up
    def _deploy(self, state, legal: list[int]) -> int:
        """The best set-up point, or one drawn among the best few where it is unseen (``agents.mixed_setup``)."""
        u = state.queue[0]
        k = setup_choices(state)
        if self.player == TALIBAN:
            return choose_among_best(legal, lambda p: self._ambush_value(state, p), self.rng.randrange, k)
        return choose_among_best(legal, self._usmc_entry_value(state, u), self.rng.randrange, k)

    def _ambush_value(self, state, p: int) -> float:
        """A Taliban deployment point: woods (to hide), cover, and the view of the Marines' ways."""
        table = state.sc.table
        los = table.los[p]
        west = state.sc.deploy_points[state.SIDE_UNITS[USMC][0]]
        pilot = state.sc.pilot.start
        near_pilot = [q for q in table.within(pilot, 8.0) if not table.terrain_cover[q]]
        view = sum(los[q] for q in west) + 0.5 * sum(los[q] for q in near_pilot)
        return view + 20.0 * table.in_woods[p] + 5.0 * table.terrain_cover[p]

    def _usmc_entry_value(self, state, u: int):
        """The value of each entry point for team ``u``: little threat, near the pilot, not stacked."""
        table = state.sc.table
        shooters = _enemy_shooters(state, USMC)
        pilot = state.pilot_pos if state.pilot_pos >= 0 else state.sc.pilot.start
        placed = [state.pos[t] for t in state.SIDE_UNITS[USMC] if state.pos[t] >= 0]

        def value(p: int) -> float:
            thr = _threat(state, u, p, shooters, 0, self.w.enemy_fire_p)
            spread = 0.2 * sum(1 for q in placed if q == p)
            return -self.w.usmc_threat * thr - 0.02 * table.dist[p][pilot] - spread

        return value

    def _declare_hidden(self, state, legal: list[int]) -> int:
        units = [a for a in legal if a != state.PASS]
        return units[0] if units else state.PASS

    def _attach(self, state, legal: list[int]) -> int:
        return state.UNIT0 + state.SIDE_UNITS[USMC][0] if state.UNIT0 + state.SIDE_UNITS[USMC][0] in legal else legal[0]

    # ============================================================ air strike
    def _airstrike(self, state, legal: list[int]) -> int:
        p_strike = _strike_win_chance(state)
        cont = self._continuation(state)
        return state.YES if p_strike > cont + 1e-9 else state.PASS

    def _continuation(self, state) -> float:
        """A rough chance of winning by playing on (the USMC), used against the air strike's."""
        if state.pilot_pos < 0:
            return 0.9
        table = state.sc.table
        turns_left = state.sc.pilot.deadline_turn - state.turn + 1  # this turn included
        carrier = state.pilot_unit
        if carrier >= 0:
            need = _turns(table.distance_to_edge(state.pos[carrier], "west"))
            need = max(1, need)
            if need > turns_left:
                return 0.0
            return 0.75 if need + 1 <= turns_left else 0.45
        teams = [u for u in state.SIDE_UNITS[USMC] if state.active(u)]
        if not teams:
            return 0.0
        reach = min(table.dist[state.pos[u]][state.pilot_pos] for u in teams)
        need = _turns(max(0.0, reach - _CONTACT)) + _turns(table.distance_to_edge(state.pilot_pos, "west"))
        if need > turns_left:
            return 0.0
        return 0.6 if need + 1 <= turns_left else 0.35

    # ============================================================ Overwatch
    def _overwatch(self, state, legal: list[int]) -> int:
        cands = [a - state.UNIT0 for a in legal if a != state.PASS]
        for u in cands:
            if self._wants_overwatch(state, u):
                return state.UNIT0 + u
        return state.PASS

    def _wants_overwatch(self, state, u: int) -> bool:
        if state.first_fire:
            return False  # turn 1: every team stays free to open the ambush
        enemies = [
            t for t in state.SIDE_UNITS[1 - self.player] if state.active(t) and state.visible_to(t, self.player)
        ]
        if not enemies:
            return False
        table = state.sc.table
        here = state.pos[u]
        if self.player == USMC:
            if u == self._rescuer(state) or state.pilot_pos < 0:
                return False
            if self._support_should_move(state, u):
                return False
            sees = [t for t in enemies if table.los[here][state.pos[t]]]
            return bool(sees)
        # Taliban: Overwatch when no good shot now but a view of the Marines' next moves
        targets = [t for t in enemies if table.los[here][state.pos[t]]]
        shot, _t = _best_shot(state, u, targets, self._importance(state)) if targets else (0.0, -1)
        if shot >= 1.2:
            return False
        view = sum(table.los[here][r] for r in self._route_points(state))
        if state.hidden[u] and not targets:
            return view > 0 and state.pilot_pos >= 0 and table.dist[here][state.pilot_pos] <= _RAPID
        return view > 0 or bool(targets)

    def _support_should_move(self, state, u: int) -> bool:
        rescuer = self._rescuer(state)
        if rescuer < 0 or rescuer == u:
            return False
        table = state.sc.table
        goal = state.pos[rescuer]
        return table.dist[state.pos[u]][goal] > self.w.follow_in + _EPS

    # ============================================================ activation
    def _select(self, state, legal: list[int]) -> int:
        units = [a - state.UNIT0 for a in legal if a != state.PASS]
        if not units:
            return state.PASS
        if state.first_fire:
            imp = self._importance(state)
            best = max(units, key=lambda u: (_best_shot(state, u, state.fire_targets(u), imp)[0], -u))
            return state.UNIT0 + best
        order = sorted(units, key=lambda u: (-self._priority(state, u), u))
        return state.UNIT0 + order[0]

    def _priority(self, state, u: int) -> float:
        targets = state.fire_targets(u) if state.fire_capacity(u) > 0 else []
        shot = _best_shot(state, u, targets, self._importance(state))[0] if targets else 0.0
        if self.player == USMC:
            if state.pilot_unit == u and state.can_exit(u, _RAPID):
                return 10.0  # the pilot leaves first
            if state.pilot_pos < 0:
                return 5.0 - 0.01 * state.sc.table.distance_to_edge(state.pos[u], "west")
            rescuer = self._rescuer(state)
            if u == rescuer:
                return 1.0  # after the support fire that clears the way
            return 2.0 + shot if shot > 0.8 else 0.5
        return 1.0 + shot

    def _action(self, state, legal: list[int]) -> int:
        u = state.actor
        if state.SPOT in legal and self._should_spot(state, u):
            return state.SPOT
        if state.HANDOFF in legal and self._handoff_choice(state, u) >= 0:
            return state.HANDOFF
        if legal == [state.FIRE]:
            return state.FIRE
        kind, dest, target = self._plan_unit(state, u, legal)
        self._plan = (len(state.history), u, kind, dest, target)
        return kind if kind in legal else (state.HOLD if state.HOLD in legal else legal[0])

    def _should_spot(self, state, u: int) -> bool:
        table = state.sc.table
        here = state.pos[u]
        reach = state.tq[u]
        for t in state.SIDE_UNITS[TALIBAN]:
            if not state.visible_to(t, USMC):
                for p in _possible_points(state, t):
                    if table.dist[here][p] <= reach + _EPS and table.los[here][p]:
                        return True
        return False

    def _handoff_choice(self, state, u: int) -> int:
        """A fresher team in contact to take the pilot when ``u`` is slowed by wounds (-1: none)."""
        f = state.figs[u]
        slowed = f[st.LIGHT] + f[st.DOWN] + f[st.SERIOUS] > 0
        if not slowed and state.effective(u) >= 3:
            return -1
        table = state.sc.table
        best, best_key = -1, None
        for t in state.SIDE_UNITS[USMC]:
            if t == u or not _usable(state, t) or state.activated[t] or state.reacted[t]:
                continue
            if table.dist[state.pos[u]][state.pos[t]] > _CONTACT + _EPS:
                continue
            g = state.figs[t]
            t_slowed = g[st.LIGHT] + g[st.DOWN] + g[st.SERIOUS] > 0
            if t_slowed or state.effective(t) < state.effective(u):
                continue
            key = (-state.effective(t), t)
            if best_key is None or key < best_key:
                best, best_key = t, key
        return best

    def _handoff(self, state, legal: list[int]) -> int:
        t = self._handoff_choice(state, state.actor)
        return state.UNIT0 + t if state.UNIT0 + t in legal else legal[0]

    # ---- planning one activation
    def _plan_unit(self, state, u: int, legal: list[int]) -> tuple[int, int, int]:
        """(action, destination, target) of the best activation of ``u``."""
        if self.player == USMC:
            return self._plan_usmc(state, u, legal)
        return self._plan_taliban(state, u, legal)

    def _candidates(self, state, u: int, limit: float) -> list[int]:
        """Move destinations of ``u`` within ``limit``: never a point where ``u`` cannot know
        whether a hidden enemy stands (so the choice does not depend on it)."""
        pts = state.move_points(u, limit)
        if self.player == USMC:
            banned = set()
            for t in state.SIDE_UNITS[TALIBAN]:
                if not state.visible_to(t, USMC):
                    banned.update(_possible_points(state, t))
            if banned:
                pts = [p for p in pts if p not in banned]
        return pts

    # ---- USMC
    def _usmc_goal(self, state, u: int):
        """(kind, points) the USMC team ``u`` heads for: 'carry' (the pilot West), 'contact',
        'follow' (a few inches behind the rescue team) or 'leave' (the pilot is off the table)."""
        if state.pilot_pos < 0:
            return "leave", []
        if state.pilot_unit == u:
            return "carry", []
        table = state.sc.table
        if state.pilot_unit < 0:
            contact = [*table.within(state.pilot_pos, _CONTACT), state.pilot_pos]
            if u == self._rescuer(state) or self._can_contact_now(state, u):
                return "contact", contact
            return "follow", [state.pilot_pos]
        return "follow", [state.pos[state.pilot_unit]]

    def _can_contact_now(self, state, u: int) -> bool:
        table = state.sc.table
        return table.dist[state.pos[u]][state.pilot_pos] <= _RAPID + _CONTACT + _EPS

    def _mission_value(self, state, u: int, q: int, goal: str, pts: list[int]) -> float:
        """Expected escort VP, less the cost of the turns on the table, if ``u`` ends at ``q``."""
        table = state.sc.table
        slowed = _slowed(state, u)
        nxt = state.turn + 1
        if goal == "carry" or table.dist[q][state.pilot_pos] <= _CONTACT + _EPS:
            return _escort_value(state, nxt, table.distance_to_edge(q, "west"), slowed, self.w)
        best = -99.0
        row = table.dist[q]
        for c in pts:
            tc = _turns(row[c])
            v = (
                _escort_value(state, nxt + tc, table.distance_to_edge(c, "west"), slowed, self.w)
                - self.w.exposure * tc
            )
            best = max(best, v)
        return best

    def _urgency(self, state, u: int, goal: str, pts: list[int]) -> float:
        """Threat multiplier of the rescue team: the pilot must be off by the end of turn 8, so
        with no turn to spare the threat hardly counts (it would be met later anyway)."""
        if goal not in ("carry", "contact"):
            return 1.0
        table = state.sc.table
        here = state.pos[u]
        if goal == "carry":
            earliest = state.turn + max(0, _turns(table.distance_to_edge(here, "west")) - 1)
        else:
            row = table.dist[here]
            earliest = state.turn + min(
                (max(0, _turns(row[c]) - 1) + max(1, _turns(table.distance_to_edge(c, "west"))) for c in pts),
                default=99,
            )
        slack = state.sc.pilot.deadline_turn - earliest
        return 1.0 if slack >= 2 else (self.w.urgency1 if slack == 1 else self.w.urgency0)

    def _usmc_value(
        self, state, u: int, q: int, goal: str, pts: list[int], shooters, moved: int, scale: float = 1.0
    ) -> float:
        table = state.sc.table
        thr = scale * _threat(state, u, q, shooters, moved, self.w.enemy_fire_p)
        if goal in ("carry", "contact"):
            progress = self._mission_value(state, u, q, goal, pts)
            if goal == "carry":
                progress -= 0.05 * table.distance_to_edge(q, "west")
                thr *= self.w.carrier_threat
            else:
                progress -= 0.05 * _min_dist(table, q, pts)
        elif goal == "leave":
            d = table.distance_to_edge(q, "west")
            progress = -self.w.turn * _turns(d) - 0.05 * d
        else:  # follow the rescue team / the pilot, a few inches behind
            d = max(0.0, _min_dist(table, q, pts) - self.w.follow_in)
            progress = -0.5 * self.w.turn * _turns(d) - 0.1 * d
        return progress - self.w.usmc_threat * thr

    def _plan_usmc(self, state, u: int, legal: list[int]) -> tuple[int, int, int]:
        table = state.sc.table
        here = state.pos[u]
        goal, pts = self._usmc_goal(state, u)
        shooters = _enemy_shooters(state, USMC, fresh=True)
        imp = self._importance(state)
        kill_w = self.w.usmc_kill if goal in ("follow", "leave") else self.w.rescuer_kill
        targets = state.fire_targets(u) if state.FIRE in legal else []
        shot, target = _best_shot(state, u, targets, imp) if targets else (0.0, -1)
        scale = self._urgency(state, u, goal, pts)
        stay = self._usmc_value(state, u, here, goal, pts, shooters, state.moved[u], scale)
        best = (state.HOLD, -1, -1)
        best_v = stay
        if target >= 0 and goal != "carry":
            v = stay + kill_w * shot
            if v > best_v:
                best, best_v = (state.FIRE, -1, target), v
        if state.MOVE not in legal:
            return best
        if goal in ("carry", "leave") and state.can_exit(u, _RAPID):
            return (state.MOVE, -1, -1)  # off the table: the exit is the move
        enemies = [t for t in state.SIDE_UNITS[TALIBAN] if state.active(t) and state.visible_to(t, USMC)]
        after = _shooter(state, u, fresh=True) if enemies and goal != "carry" else None
        slowed = _slowed(state, u)
        for q in self._candidates(state, u, _RAPID):
            d = table.dist[here][q]
            rapid = d > _TACTICAL + _EPS
            v = self._usmc_value(state, u, q, goal, pts, shooters, 2 if rapid else 1, scale)
            if rapid:
                v -= 0.5 if slowed else 0.2
            elif after is not None:
                v += kill_w * 0.8 * _shot_from(state, after, q, enemies, imp)
            if v > best_v + 1e-9:
                best, best_v = (state.MOVE, q, -1), v
        return best

    # ---- Taliban
    def _capturable(self, state) -> list[int]:
        """Marine teams with no effective figure and wounded on the table (rulings R34)."""
        if not state.capture_on:
            return []
        out = []
        for m in state.SIDE_UNITS[USMC]:
            f = state.figs[m]
            if state.pos[m] >= 0 and not state.effective(m) and f[st.DOWN] + f[st.SERIOUS]:
                out.append(m)
        return out

    def _taliban_context(self, state, u: int) -> _TalCtx:
        marines = [t for t in state.SIDE_UNITS[USMC] if state.active(t)]
        return _TalCtx(
            marines=marines,
            shooters=[
                _shooter(state, t, fresh=True, weight=0.5 if state.pinned[t] else 1.0) for t in marines
            ],
            imp=self._importance(state),
            caps=self._capturable(state),
            me=_shooter(state, u, fresh=True),
            route=self._route_points(state),
        )

    def _taliban_value(self, state, u: int, q: int, ctx: _TalCtx, moved: int) -> float:
        table = state.sc.table
        los = table.los[q]
        dist = table.dist[q]
        offense = 0.0
        for t in ctx.marines:
            p = state.pos[t]
            if los[p]:
                offense += _hits(state, ctx.me, t, p, s_pos=q, moved=0) * ctx.imp(t)
        view = sum(los[r] * (1.5 if dist[r] <= _TACTICAL else 1.0) for r in ctx.route)
        thr = _threat(state, u, q, ctx.shooters, moved, self.w.enemy_fire_p)
        cap = 0.0
        for m in ctx.caps:
            f = state.figs[m]
            d = dist[state.pos[m]]
            cap += 3.0 * (f[st.DOWN] + f[st.SERIOUS]) if d <= _CONTACT + _EPS else -0.05 * d
        return self.w.tal_shot * offense + self.w.tal_view * view - self.w.tal_threat * thr + cap

    def _plan_taliban(self, state, u: int, legal: list[int]) -> tuple[int, int, int]:
        table = state.sc.table
        here = state.pos[u]
        ctx = self._taliban_context(state, u)
        targets = state.fire_targets(u) if state.FIRE in legal else []
        shot, target = _best_shot(state, u, targets, ctx.imp) if targets else (0.0, -1)
        stay = self._taliban_value(state, u, here, ctx, state.moved[u])
        if state.hidden[u]:
            stay += 1.0  # hidden: safe and ready to ambush
        best, best_v = (state.HOLD, -1, -1), stay
        if target >= 0:
            v = stay + shot - (1.0 if state.hidden[u] else 0.0)
            if v > best_v:
                best, best_v = (state.FIRE, -1, target), v
        if state.MOVE not in legal:
            return best
        s_after = _shooter(state, u, fresh=False)
        limit = _RAPID if self.w.tal_rapid_cost < 50 else _TACTICAL
        for q in self._candidates(state, u, limit):
            rapid = table.dist[here][q] > _TACTICAL + _EPS
            v = self._taliban_value(state, u, q, ctx, 2 if rapid else 1)
            after = _shot_from(state, s_after, q, ctx.marines, ctx.imp)
            v += (0.6 * after - self.w.tal_rapid_cost) if rapid else (after - 0.1)
            if v > best_v + 1e-9:
                best, best_v = (state.MOVE, q, -1), v
        return best

    # ---- move destination
    def _move(self, state, legal: list[int]) -> int:
        u = state.mover
        if state.move_reaction:
            return self._reaction_move(state, u, legal)
        if state.after_fire:
            return state.PASS  # after firing, stay put: a unit that has not moved keeps In Cover
        plan = self._plan
        if state.EXIT in legal and self._wants_exit(state, u):
            return state.EXIT
        if plan is not None and plan[0] == len(state.history) - 1 and plan[1] == u and plan[3] in legal:
            return plan[3]  # the destination chosen with the move (one decision ago)
        # re-plan among the legal (e.g. Tactical-only) destinations
        return self._best_destination(state, u, legal)

    def _wants_exit(self, state, u: int) -> bool:
        if self.player == TALIBAN:
            return False
        return state.pilot_unit == u or state.pilot_pos < 0

    def _best_destination(self, state, u: int, legal: list[int]) -> int:
        pts = [a for a in legal if a < state.NUM_POINTS]
        allowed = set(self._candidates(state, u, _RAPID)) if self.player == USMC else None
        if allowed is not None:
            pts = [p for p in pts if p in allowed] or pts
        if not pts:
            return legal[0]
        table = state.sc.table
        here = state.pos[u]
        if self.player == USMC:
            goal, gpts = self._usmc_goal(state, u)
            shooters = _enemy_shooters(state, USMC, fresh=True)
            scale = self._urgency(state, u, goal, gpts)

            def value(q):
                rapid = table.dist[here][q] > _TACTICAL + _EPS
                return self._usmc_value(state, u, q, goal, gpts, shooters, 2 if rapid else 1, scale)
        else:
            ctx = self._taliban_context(state, u)

            def value(q):
                rapid = table.dist[here][q] > _TACTICAL + _EPS
                return self._taliban_value(state, u, q, ctx, 2 if rapid else 1)

        return max(pts, key=lambda q: (value(q), -q))

    def _reaction_move(self, state, u: int, legal: list[int]) -> int:
        """A reaction move (never declared by these bots, but answered): the best point by position value."""
        pts = [a for a in legal if a < state.NUM_POINTS]
        if self.player == USMC:
            allowed = set(self._candidates(state, u, _RAPID))
            pts = [p for p in pts if p in allowed] or pts
        if not pts:
            return legal[0]
        return self._best_destination(state, u, pts)

    # ---- fire
    def _target(self, state, legal: list[int]) -> int:
        units = [a - state.UNIT0 for a in legal if a != state.PASS]
        if not units:
            return state.PASS
        u = state.actor
        imp = self._importance(state)
        shot, t = _best_shot(state, u, units, imp)
        if state.after_move and state.PASS in legal and shot < 0.15:
            return state.PASS
        return state.UNIT0 + t if t >= 0 else legal[0]

    def _split_target(self, state, legal: list[int]) -> int:
        return state.PASS if state.PASS in legal else legal[0]

    def _split_count(self, state, legal: list[int]) -> int:
        return min(legal)

    def _split_support(self, state, legal: list[int]) -> int:
        first = state.UNIT0 + state.targets[0]
        return first if first in legal else legal[0]

    # ============================================================ reactions
    def _declare(self, state, legal: list[int]) -> int:
        r = state.queue[0]
        a = state.actor
        if state.INT_FIRE not in legal:
            return state.PASS
        if state.interrupted >= 0:  # interrupt an Overwatch unit's fire: shoot at it if it pays
            s = _shooter(state, r, fresh=False)
            o = state.interrupted
            return state.INT_FIRE if _hits(state, s, o, state.pos[o], moved=None) >= 1.0 else state.PASS
        if r in state.targets:
            return state.INT_FIRE if self._return_fire_ok(state, r) else state.PASS
        return state.INT_FIRE if self._interrupt_pays(state, r, a) else state.PASS

    def _return_fire_ok(self, state, r: int) -> bool:
        """A target fires back, except a USMC rescue team that still has its move to make."""
        return not (
            self.player == USMC
            and state.initiative == TALIBAN
            and not state.activated[r]
            and r == self._rescuer(state)
            and state.pilot_pos >= 0
        )

    def _interrupt_pays(self, state, r: int, a: int) -> bool:
        table = state.sc.table
        s = _shooter(state, r, fresh=False)
        moving = state.win_kind == st.W_MOVE
        here = state.pos[a]
        spots = [here]
        if moving and state.win_dest >= 0:
            spots.append(state.win_dest)
        los = table.los[state.pos[r]]
        best = 0.0
        for p in spots:
            if los[p]:
                m = 0
                if moving and p == state.win_dest:
                    m = 2 if table.dist[here][p] > _TACTICAL + _EPS else 1
                best = max(best, _hits(state, s, a, p, moved=m if moving else None))
        if self.player == USMC:
            if r == self._rescuer(state) and state.pilot_pos >= 0:
                return False
            return best >= 1.2
        important = a == state.pilot_unit or a == self._rescuer(state)
        if important:
            return best >= 0.4
        if state.hidden[r]:
            return best >= 1.5
        return best >= 1.0

    def _overwatch_fire(self, state, legal: list[int]) -> int:
        units = [a - state.UNIT0 for a in legal if a != state.PASS]
        o = state.queue[0]
        shot, t = _best_shot(state, o, units, self._importance(state))
        return state.UNIT0 + t if t >= 0 and shot >= 0.3 else state.PASS

    def _return_fire(self, state, legal: list[int]) -> int:
        return state.INT_FIRE if state.INT_FIRE in legal else state.PASS

    # ============================================================ Fog of War
    def _fow_unit(self, state, legal: list[int]) -> int:
        result = state.fow_queue[0][0]
        units = [a - state.UNIT0 for a in legal]
        if result == 6:  # Tougher than they look: the biggest team
            return state.UNIT0 + max(units, key=lambda u: (state.effective(u), -u))
        if result == 3:  # Medic: the team with the most casualties, else the rescue team
            rescuer = self._rescuer(state)
            return state.UNIT0 + max(units, key=lambda u: (state.casualties_carried(u), u == rescuer, -u))
        # Excellent Position: a team likely to stay (hidden / not the rescue team)
        rescuer = self._rescuer(state) if self.player == USMC else -1
        return state.UNIT0 + max(units, key=lambda u: (u != rescuer, state.hidden[u], state.effective(u), -u))

    def _reinforce(self, state, legal: list[int]) -> int:
        table = state.sc.table
        key = state.pilot_pos if state.pilot_pos >= 0 else state.sc.pilot.start
        return min(legal, key=lambda p: (table.dist[p][key], p))


def _strike_win_chance(state) -> float:
    """USMC chance of winning (draw = half) if the air strike ends the game now.

    The unassessed casualties ("down") are rolled at the end: each is KIA (2 VP) on 1,
    serious (1 VP) on 2-3, else nothing; the distribution is convolved exactly.
    """
    tal, usmc = state.victory_points()
    down = sum(state.figs[u][st.DOWN] + state.figs[u][st.EVAC_DOWN] for u in state.SIDE_UNITS[USMC])
    dist = {0: 1.0}
    for _ in range(down):
        nxt: dict[int, float] = {}
        for v, p in dist.items():
            for add, q in ((2, 1 / 6), (1, 2 / 6), (0, 3 / 6)):
                nxt[v + add] = nxt.get(v + add, 0.0) + p * q
        dist = nxt
    win = sum(p for v, p in dist.items() if usmc > tal + v)
    draw = sum(p for v, p in dist.items() if usmc == tal + v)
    return win + 0.5 * draw


_HANDLERS = {
    st.D_DEPLOY: LostAndFoundHeuristic._deploy,
    st.D_HIDE: LostAndFoundHeuristic._declare_hidden,
    st.D_ATTACH: LostAndFoundHeuristic._attach,
    st.D_AIRSTRIKE: LostAndFoundHeuristic._airstrike,
    st.D_OVERWATCH: LostAndFoundHeuristic._overwatch,
    st.D_SELECT: LostAndFoundHeuristic._select,
    st.D_ACTION: LostAndFoundHeuristic._action,
    st.D_MOVE: LostAndFoundHeuristic._move,
    st.D_TARGET: LostAndFoundHeuristic._target,
    st.D_SPLIT_TARGET: LostAndFoundHeuristic._split_target,
    st.D_SPLIT_COUNT: LostAndFoundHeuristic._split_count,
    st.D_SPLIT_SUPPORT: LostAndFoundHeuristic._split_support,
    st.D_HANDOFF: LostAndFoundHeuristic._handoff,
    st.D_DECLARE: LostAndFoundHeuristic._declare,
    st.D_OW: LostAndFoundHeuristic._overwatch_fire,
    st.D_RETURN: LostAndFoundHeuristic._return_fire,
    st.D_FOW_UNIT: LostAndFoundHeuristic._fow_unit,
    st.D_FOW_POINT: LostAndFoundHeuristic._reinforce,
}


def make_lost_and_found_heuristic(
    game, player: int, seed: int | None = None, **weights: float
) -> LostAndFoundHeuristic:
    """The heuristic bot of "Lost & Found" for ``player`` (0 Taliban, 1 USMC); keyword
    arguments override :class:`Weights` (``heuristic:usmc_threat=1.5`` as an agent spec)."""
    return LostAndFoundHeuristic(game, player, seed=seed, weights=Weights(**weights) if weights else None)
