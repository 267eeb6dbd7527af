"""Scripted heuristic bots for Strike Force One: a Soviet one and a U.S. one.

Both bots share one machinery and differ in their goals and weights.

**What they look at.** Only the board: where every unit stands, the turn and
phase, which units have already moved/attacked. Never the state's dice: an
attack is judged by the exact outcome probabilities of its column on the
Combat Results Table (``state.sc.crt``), never by simulating the state's dice.
Ties are broken by the agent's own ``np.random.default_rng(seed)``.

**Position value.** From one side's view a position is scored as

* each *town* (``0303``, ``0506``, ``0208``):

  - held by us: worth a town (10) less the chance that the enemy clears it next
    time it attacks (its units that can reach an adjacent hex, limited by the
    free hexes around the town, against our defenders: so stacking, and our own
    units "blocking" the hexes around a town, make it safer);
  - held by the enemy: the expected value of attacking it from the hexes we
    hold around it (CRT probability of clearing it x the town, plus kills,
    minus the chance of losing the attackers), or a little "pressure" value
    while the odds are still too poor to attack;
  - empty: a share of a town by how much closer our nearest unit is than theirs;

* each enemy unit in the open: the value of the attack our adjacent units could
  make on it at good odds (eliminations);
* each of our units: minus a little per hex of path distance to its goal (the
  Soviets: the nearest town they do not hold; the U.S.: the nearest town), and
  minus its exposure (the chance the enemy units in reach eliminate it).

On the last U.S. move and combat of the game nothing but the towns counts: the
U.S. goes all in against the towns the Soviets hold.

**Movement.** Units move one at a time (the engine's decomposition): at each
``select_unit`` the bot scores every (unit, reachable hex) pair by how much it
improves the position value and moves the best one; it ends the phase (``pass``)
when no move improves the position. This greedy sequence makes the Soviets
advance on the towns, walk into empty towns, and gather several units around a
town defender (every extra adjacent unit raises the column); it makes the U.S.
stay in its towns, put spare units on the hexes around them (fewer attack
hexes), and gather around a lost town to counter-attack. The U.S. bot also
re-scores its best few hexes per unit with the Soviets' real reach next turn
(their movement searched with the U.S. zones of control in place, rule 4.5), so
it values screens that keep Soviet units off the hexes around its towns
(blocking the approaches) and away from its exposed units.

**Combat.** At ``attack_target`` the bot searches every assignment of its
available attacking hexes to attackable enemy hexes (a few hundred at most) and
takes the assignment with the best total expected value, then declares its
most valuable attack; at ``attack_add`` it adds the hexes that assignment gives
the declared target and ``resolve``\\ s. An attack is only made at a good column:
against a town at least "+1" (two units against one), in the open at least "+2"
(three against one), and only if its expected value is positive. The exceptions
are where nothing else can win: on turn 4 the Soviets may attack a town at "0",
and in the U.S. final combat, if the Soviets hold two towns or more, the U.S.
attacks them at any column, units no longer mattering. Attackers are concentrated: the search prefers one
attack at "+3" to two at "0". A unit holding a town attacks from it only if the
attack is worth the risk of an "Attacker Retreats"/"Attacker Eliminated" taking
it out of the town.

**Advance and retreat.** After a defender is eliminated or retreats, the bot
advances the participating unit that most improves the position (into a
vacated town always, for either side); it passes if no advance helps. A
retreating unit (defender or attacker) goes to the legal hex with the best
position value: into a town of its own side or next to one, away from enemies,
toward its goal.

**Weights.** :class:`Weights` holds every number above; :func:`default_weights`
gives the tuned set of each side and rules mode (chosen by heuristic-vs-heuristic
series of 1,000 games).

Every action returned is one of ``state.legal_actions()``; a decision costs a
fraction of a millisecond on average.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from fof_env.strike_force_one import state as _sfo
from fof_env.strike_force_one.data import SIDE_UNITS, SIDES
from fof_env.strike_force_one.movement import reachable_bits

# Action indices and decision kinds of the engine (see its module docstring).
_NUM_HEXES = _sfo.NUM_HEXES
_UNIT0 = _sfo.UNIT0
_PASS = _sfo.PASS
_RESOLVE = _sfo.RESOLVE
_SELECT, _MOVE, _TARGET, _ADD = _sfo.SELECT_UNIT, _sfo.MOVE_TARGET, _sfo.ATTACK_TARGET, _sfo.ATTACK_ADD
_RETREAT, _ADVANCE = _sfo.RETREAT_HEX, _sfo.ADVANCE
_FAR = 99
_MOVE_ALLOWANCE = 4
_NEG = float("-inf")


@dataclass(frozen=True)
class Weights:
    """Tunable weights of the position value and attack values (see the module docstring)."""

    town: float = 10.0  # one town
    hold_risk: float = 0.8  # share of a held town lost per unit of the enemy's clearing chance
    attack_town: float = 0.85  # share of a town credited for clearing it
    pressure: float = 0.4  # per own unit next to an enemy-held town, below attack odds
    empty: float = 0.3  # share of a town for being closer to an empty town than the enemy
    progress: float = 0.3  # per hex of distance to the nearest goal town
    kill: float = 3.0  # value of eliminating one enemy unit
    lose: float = 3.0  # cost of losing one own unit
    exposure: float = 0.5  # share of ``lose`` charged by the chance an exposed unit is eliminated
    push: float = 0.4  # value of an enemy unit retreating
    ar_cost: float = 0.3  # cost per own unit forced back
    open_hex: float = 0.3  # value of clearing a non-town hex
    min_col_town: int = 1  # lowest CRT column for attacking a town
    min_col_open: int = 2  # lowest CRT column for attacking in the open
    refine: int = 4  # best candidate hexes per unit re-scored with the enemy's real reach (zones of control)


SOVIET_WEIGHTS = Weights(kill=4.0, lose=2.5)
US_WEIGHTS = Weights(kill=2.5, lose=4.0, progress=0.25, exposure=0.5)
# Under the optional rules the U.S. does better ignoring exposure (it stacks and holds instead of
# dodging): measured over 1,000 heuristic-vs-heuristic games per setting.
US_WEIGHTS_OPTIONAL = Weights(kill=2.5, lose=4.0, progress=0.25, exposure=0.0)


def default_weights(player: int, optional_rules: bool) -> Weights:
    """The tuned weights of one side under one rules mode."""
    if player == 0:
        return SOVIET_WEIGHTS
    return US_WEIGHTS_OPTIONAL if optional_rules else US_WEIGHTS


@dataclass
class _Tables:
    """Static per-ruleset-mode data: neighbours, terrain, path distances, CRT probabilities."""

    nb: tuple[tuple[int, ...], ...]
    nbset: tuple[frozenset[int], ...]
    enterable: tuple[bool, ...]
    woods: tuple[bool, ...]
    towns: tuple[int, ...]
    is_town: tuple[bool, ...]
    dist: list[list[int]]  # movement cost from a to b ignoring units
    adj_dist: list[list[int]]  # movement cost from a to the cheapest hex adjacent to b (0 if adjacent)
    probs: list[tuple[float, float, float, float]] = field(default_factory=list)  # column -> DE, DR, AR, AE
    nb_bits: tuple[int, ...] = ()
    dilation: tuple[tuple[tuple[int, int], ...], ...] = ()
    woods_bits: int = 0
    enterable_bits: int = 0
    optional: bool = False
    stack_limit: int = 1


_TABLES: dict[tuple[int, bool], tuple[object, _Tables]] = {}


def _tables(sc, optional: bool) -> _Tables:
    """The tables of scenario ``sc`` under the basic or optional rules (built once, then cached)."""
    key = (id(sc), optional)
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is sc:
        return hit[1]
    tables = _build_tables(sc, optional)
    _TABLES[key] = (sc, tables)
    return tables


def _build_tables(sc, optional: bool) -> _Tables:
    crt = sc.crt
    grid = sc.grid
    n = len(grid)
    enterable = tuple(optional or not w for w in sc.woods)
    dist = []
    for a in range(n):
        d = [_FAR] * n
        d[a] = 0
        # Dijkstra with edge costs 1 or 2 (woods): a bucket queue is enough.
        buckets: list[list[int]] = [[a]] + [[] for _ in range(2 * n + 2)]
        for cost in range(len(buckets)):
            for h in buckets[cost]:
                if d[h] != cost:
                    continue
                for m in grid.neighbors[h]:
                    if not enterable[m]:
                        continue
                    c = cost + (2 if sc.woods[m] else 1)
                    if c < d[m]:
                        d[m] = c
                        buckets[c].append(m)
        dist.append(d)
    adj_dist = [[min((dist[a][m] for m in grid.neighbors[b]), default=_FAR) for b in range(n)] for a in range(n)]
    probs = []
    for col in range(6):
        column = [crt[r][col] for r in range(6)]
        probs.append(tuple(column.count(x) / 6.0 for x in ("DE", "DR", "AR", "AE")))
    return _Tables(
        nb=grid.neighbors,
        nbset=grid.neighbor_sets,
        enterable=enterable,
        woods=sc.woods,
        towns=sc.towns,
        is_town=tuple(h in sc.towns for h in range(n)),
        dist=dist,
        adj_dist=adj_dist,
        probs=probs,
        nb_bits=sc.neighbor_bits,
        dilation=sc.dilation,
        woods_bits=sc.woods_bits,
        enterable_bits=sum(1 << h for h in range(n) if enterable[h]),
        optional=optional,
        stack_limit=2 if optional else 1,
    )


class _Ctx:
    """Per-position facts shared by the decisions of one position."""

    __slots__ = ("uh", "cnt", "thr", "final_us", "soviet_last_turn", "attack_ahead", "reach_cache", "enemy_hexes",
                 "soviet_towns", "term_cache")  # fmt: skip


class StrikeForceOneHeuristic:
    """Scripted Strike Force One bot for one side; see the module docstring for the strategy."""

    def __init__(self, game, player: int, seed: int | None = None, weights: Weights | None = None):
        if game.name != "strike_force_one":
            raise ValueError(f"StrikeForceOneHeuristic plays strike_force_one, not {game.name!r}")
        self.game = game
        self.player = int(player)
        self.rng = np.random.default_rng(seed)
        self.w = weights or default_weights(self.player, bool(game.optional_rules))
        self.t = _tables(game.scenario, bool(game.optional_rules))
        self._holds: dict[tuple[int, int], float] = {}  # _hold_term's values
        self._ctx_key: tuple | None = None
        self._ctx: _Ctx | None = None
        self._plan: tuple | None = None

    def __repr__(self) -> str:
        return f"heuristic({SIDES[self.player]})"

    # ------------------------------------------------------------------ entry
    def act(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        kind = state.kind
        if kind == _SELECT:
            choice = self._select_unit(state, legal)
        elif kind == _MOVE:
            choice = self._move_target(state, legal)
        elif kind in (_TARGET, _ADD):
            choice = self._combat(state, legal)
        elif kind == _RETREAT:
            u = state.retreat_queue[0]
            choice = self._best_placement(state, u, legal, legal)
        elif kind == _ADVANCE:
            choice = self._advance(state, legal)
        else:  # pragma: no cover - unknown decision: stay legal
            choice = legal[0]
        if choice not in legal:  # pragma: no cover - defensive: never return an illegal action
            choice = legal[int(self.rng.integers(len(legal)))]
        return choice

    # --------------------------------------------------------------- context
    def _context(self, state) -> _Ctx:
        uh = state.unit_hex
        key = (tuple(uh), state.turn, state.phase)
        if key == self._ctx_key and self._ctx is not None:
            return self._ctx
        t = self.t
        cx = _Ctx()
        cx.uh = list(uh)
        cnt = ([0] * _NUM_HEXES, [0] * _NUM_HEXES)
        for s in (0, 1):
            c = cnt[s]
            for u in SIDE_UNITS[s]:
                h = uh[u]
                if h >= 0:
                    c[h] += 1
        cx.cnt = cnt
        cx.soviet_towns = sum(1 for T in t.towns if cnt[0][T])
        enemy = 1 - self.player
        adj_dist = t.adj_dist
        thr = [0] * _NUM_HEXES
        for u in SIDE_UNITS[enemy]:
            h = uh[u]
            if h >= 0:
                row = adj_dist[h]
                for b in range(_NUM_HEXES):
                    if row[b] <= _MOVE_ALLOWANCE:
                        thr[b] += 1
        cx.thr = thr
        cx.reach_cache = {}
        cx.term_cache = {}
        cx.enemy_hexes = [uh[u] for u in SIDE_UNITS[enemy] if uh[u] >= 0]
        last = state.turn >= self.game.scenario.turns
        cx.final_us = self.player == 1 and last and state.phase >= 2
        cx.soviet_last_turn = self.player == 0 and last
        # Will this side attack again before the end (its combat phase lies ahead or is on)?
        cx.attack_ahead = not (self.player == 0 and last and state.phase >= 2)
        self._ctx_key = key
        self._ctx = cx
        return cx

    # ---------------------------------------------------------- attack value
    def _attack_value(
        self, cx: _Ctx, target: int, n: int, committed: bool = False, from_towns: int = 0
    ) -> float:
        """Expected value of attacking ``target`` with ``n`` units; -inf if not allowed/worth it.

        ``committed``: the attack is already declared, so only the CRT's minimum
        column applies (the bot must resolve it). ``from_towns``: attacking hexes
        that are towns we hold, lost if the attackers retreat or die.
        """
        t = self.t
        w = self.w
        en_count = cx.cnt[1 - self.player][target]
        d = en_count * (2 if t.woods[target] else 1)
        col = n - d
        if col < 0:
            return _NEG
        town = t.is_town[target]
        if not committed:
            if cx.final_us:
                min_col = 0 if town else 99
            elif town:
                min_col = 0 if cx.soviet_last_turn else w.min_col_town
            else:
                min_col = w.min_col_open
            if col < min_col:
                return _NEG
        pde, pdr, par, pae = t.probs[col if col < 5 else 5]
        clear = pde + pdr
        if cx.final_us:  # the last combat of the game: only the towns count, and only if needed
            return clear * w.town if town and cx.soviet_towns >= 2 else 0.0
        value = clear * (w.town * w.attack_town if town else w.open_hex)
        value += en_count * (pde * w.kill + pdr * w.push)
        value -= n * (pae * w.lose + par * w.ar_cost)
        if from_towns:
            value -= from_towns * (par + pae) * w.town * w.attack_town
        return value

    def _target_term(self, cx: _Ctx, target: int, n: int) -> float:
        """Value of having ``n`` own units adjacent to enemy hex ``target`` (attack potential); a
        function of the position, so kept in the context per (target, n)."""
        if n == 0 or not cx.attack_ahead:
            return 0.0
        key = (target, n)
        v = cx.term_cache.get(key)
        if v is None:
            v = self._attack_value(cx, target, n)
            v = v if v > 0 else 0.0
            if self.t.is_town[target]:
                v += self.w.pressure * (n if n < 3 else 3)
            cx.term_cache[key] = v
        return v

    # ------------------------------------------------------ position values
    def _placement_values(self, state, cx: _Ctx, u: int, cands: list[int], keep_first: bool = False) -> list[float]:
        """Position value (own view) with unit ``u`` placed on each hex of ``cands``.

        Values are comparable across the candidates of one unit: everything that
        does not depend on where ``u`` stands is left out.
        """
        t = self.t
        w = self.w
        s = self.player
        uh = cx.uh
        a = uh[u]
        own = cx.cnt[s][:]
        if a >= 0:
            own[a] -= 1
        en = cx.cnt[1 - s]
        thr = cx.thr
        dist = t.dist
        nb = t.nb
        nbset = t.nbset
        enterable = t.enterable
        others = [uh[v] for v in SIDE_UNITS[s] if v != u and uh[v] >= 0]
        enemies = [uh[v] for v in SIDE_UNITS[1 - s] if uh[v] >= 0]
        final_us = cx.final_us
        # Town facts without u.
        town_info = []
        goals = []
        for T in t.towns:
            nbT = nb[T]
            own_adj = 0
            free = 0
            for m in nbT:
                own_adj += own[m]
                if enterable[m] and own[m] == 0:
                    free += 1
            dmo = min([dist[h][T] for h in others], default=_FAR)
            dme = min([dist[h][T] for h in enemies], default=_FAR)
            town_info.append((T, own[T], en[T], own_adj, free, thr[T], dmo, dme, nbset[T]))
            if s == 1 or own[T] == 0:
                goals.append(T)
        if not goals:
            goals = list(t.towns)
        # Enemy hexes in the open: own units adjacent, without u.
        open_adj = {}
        for h in set(enemies):
            if not t.is_town[h]:
                open_adj[h] = sum(own[m] for m in nb[h])
        values = []
        town_w = w.town
        refine = w.refine and not final_us and len(cands) > 1
        held_parts: list[tuple[float, float, list[tuple[int, int]]]] = []
        for b in cands:
            val = 0.0
            held_cheap = 0.0
            expo_cheap = 0.0
            held: list[tuple[int, int]] = []
            for T, oin, ein, oadj, free, th, dmo, dme, nbs in town_info:
                if b == T:
                    oin += 1
                elif b in nbs:
                    oadj += 1
                    if own[b] == 0 and enterable[b]:
                        free -= 1
                if oin:
                    if final_us:
                        val += town_w
                    else:
                        k = th if th < free else free
                        term = self._hold_term(k, oin)
                        val += term
                        held_cheap += term
                        held.append((T, oin))
                elif ein:
                    val += self._target_term(cx, T, oadj)
                else:
                    db = dist[b][T]
                    if db < dmo:
                        dmo = db
                    if final_us:
                        val += town_w * 0.95
                    else:
                        val += town_w * w.empty * (max(0, 8 - dmo) - max(0, 8 - dme)) / 8.0
            # Progress toward the goal towns.
            db = min(dist[b][g] for g in goals)
            val -= w.progress * db
            # Attack potential on enemy units in the open next to b.
            for m in nb[b]:
                if en[m] and m in open_adj:
                    n0 = open_adj[m]
                    val += self._target_term(cx, m, n0 + 1) - self._target_term(cx, m, n0)
            # Exposure: the chance the enemy units in reach eliminate this unit.
            if not final_us:
                k = thr[b]
                if k:
                    free_b = 0
                    for m in nb[b]:
                        if enterable[m] and own[m] == 0:
                            free_b += 1
                    if free_b < k:
                        k = free_b
                    col = k - (own[b] + 1) * (2 if t.woods[b] else 1)
                    if col >= 0:
                        expo_cheap = w.lose * w.exposure * t.probs[col if col < 5 else 5][0]
                        val -= expo_cheap
            values.append(val)
            if refine:
                held_parts.append((held_cheap, expo_cheap, held))
        if refine:
            self._refine(cx, own, cands, values, held_parts, keep_first)
        return values

    def _hold_term(self, k: int, defenders: int) -> float:
        """Value of a held town that ``k`` enemy units can attack (kept per (k, defenders))."""
        v = self._holds.get((k, defenders))
        if v is None:
            col = k - defenders
            if col < 0:
                v = self.w.town
            else:
                pde, pdr, _, _ = self.t.probs[col if col < 5 else 5]
                v = self.w.town * (1.0 - self.w.hold_risk * (pde + pdr))
            self._holds[k, defenders] = v
        return v

    def _enemy_reach(self, cx: _Ctx, occupied: int, base: int | None = None) -> list[int]:
        """Hexes each enemy unit can occupy next turn (its move, ZOC-stopped by ``occupied``), with its own.

        ``base``: ``occupied`` less one hex ``b``, whose reaches are reused where they are the same: an
        enemy whose reach (with its own hex) touches neither ``b`` nor a neighbour of ``b`` never meets
        the new blocked hex or the new zone of control, so its breadth-first search goes as before.
        """
        cached = cx.reach_cache.get(occupied)
        if cached is not None:
            return cached
        t = self.t
        nbb = t.nb_bits
        before = None
        if base is not None:
            before = self._enemy_reach(cx, base)
            b = (occupied ^ base).bit_length() - 1
            touched = (1 << b) | nbb[b]
        zoc = -1
        reaches = []
        for i, e in enumerate(cx.enemy_hexes):
            if before is not None and not before[i] & touched:
                reaches.append(before[i])
                continue
            if zoc < 0:
                zoc = 0
                bits = occupied
                while bits:
                    low = bits & -bits
                    zoc |= nbb[low.bit_length() - 1]
                    bits ^= low
            reaches.append(reachable_bits(e, occupied, zoc, 0, t.woods_bits, t.optional, t.dilation) | (1 << e))
        cx.reach_cache[occupied] = reaches
        return reaches

    def _attackers(self, reaches: list[int], hexes: int) -> int:
        """How many enemy units can get onto the attack ``hexes`` (limited by room to stand)."""
        n = 0
        union = 0
        for r in reaches:
            x = r & hexes
            if x:
                n += 1
                union |= x
        room = union.bit_count() * self.t.stack_limit
        return n if n < room else room

    def _refine(self, cx, own, cands, values, held_parts, keep_first: bool) -> None:
        """Re-score the best candidates with the enemy's real reach (blocking by zones of control)."""
        t = self.t
        w = self.w
        order = sorted(range(len(cands)), key=lambda i: -values[i])[: w.refine]
        if keep_first and 0 not in order:
            order.append(0)
        base_bits = 0
        for h in range(_NUM_HEXES):
            if own[h]:
                base_bits |= 1 << h
        nbb = t.nb_bits
        ent = t.enterable_bits
        for i in order:
            b = cands[i]
            occupied = base_bits | (1 << b)
            reaches = self._enemy_reach(cx, occupied, base_bits if not base_bits >> b & 1 else None)
            held_cheap, expo_cheap, held = held_parts[i]
            held_ref = 0.0
            for T, oin in held:
                held_ref += self._hold_term(self._attackers(reaches, nbb[T] & ~occupied & ent), oin)
            k = self._attackers(reaches, nbb[b] & ~occupied & ent)
            col = k - (own[b] + 1) * (2 if t.woods[b] else 1)
            expo_ref = w.lose * w.exposure * t.probs[col if col < 5 else 5][0] if col >= 0 else 0.0
            values[i] += held_ref - held_cheap - (expo_ref - expo_cheap)

    def _best_placement(self, state, u: int, cands: list[int], actions: list[int]) -> int:
        cx = self._context(state)
        values = self._placement_values(state, cx, u, cands)
        return actions[self._argmax(values)]

    def _argmax(self, values: list[float]) -> int:
        best = max(values)
        ties = [i for i, v in enumerate(values) if v >= best - 1e-9]
        if len(ties) == 1:
            return ties[0]
        return ties[int(self.rng.integers(len(ties)))]

    # -------------------------------------------------------------- movement
    def _select_unit(self, state, legal: list[int]) -> int:
        cx = self._context(state)
        best_gain = 1e-6
        best: list[tuple[int, int]] = []
        for a in legal:
            if a == _PASS:
                continue
            u = a - _UNIT0
            here = cx.uh[u]
            cands = [here, *state.reachable(u)]
            vals = self._placement_values(state, cx, u, cands, keep_first=True)
            base = vals[0]
            for b, v in zip(cands[1:], vals[1:], strict=True):
                gain = v - base
                if gain > best_gain + 1e-9:
                    best_gain = gain
                    best = [(u, b)]
                elif gain >= best_gain - 1e-9:
                    best.append((u, b))
        if not best:
            return _PASS
        u, b = best[int(self.rng.integers(len(best)))] if len(best) > 1 else best[0]
        self._plan = (len(state.history) + 1, tuple(cx.uh), u, b)
        return _UNIT0 + u

    def _move_target(self, state, legal: list[int]) -> int:
        u = state.selected
        plan = self._plan
        if (
            plan is not None
            and plan[0] == len(state.history)
            and plan[2] == u
            and plan[1] == tuple(state.unit_hex)
            and plan[3] in legal
        ):
            return plan[3]
        return self._best_placement(state, u, legal, legal)

    def _advance(self, state, legal: list[int]) -> int:
        target = state.target
        best_gain = 1e-6
        choice = _PASS
        cx = self._context(state)
        for a in legal:
            if a == _PASS:
                continue
            u = a - _UNIT0
            base, there = self._placement_values(state, cx, u, [cx.uh[u], target], keep_first=True)
            if there - base > best_gain:
                best_gain = there - base
                choice = a
        return choice

    # ---------------------------------------------------------------- combat
    def _combat(self, state, legal: list[int]) -> int:
        cx = self._context(state)
        s = self.player
        uh = cx.uh
        done = state.done
        attacked = state.attacked
        t = self.t
        # Available attacking hexes: every unit in the hex may still attack (5.2, 7.2).
        avail: dict[int, int] = {}
        blocked = set()
        for u in SIDE_UNITS[s]:
            h = uh[u]
            if h < 0:
                continue
            if (done >> u) & 1:
                blocked.add(h)
            avail[h] = avail.get(h, 0) + 1
        for h in blocked:
            avail.pop(h, None)
        fixed = state.target if state.kind == _ADD else -1
        committed = list(state.attack_hexes) if fixed >= 0 else []
        targets = set()
        for u in SIDE_UNITS[1 - s]:
            h = uh[u]
            if h >= 0 and not (attacked >> u) & 1:
                targets.add(h)
        if fixed >= 0:
            targets.add(fixed)
        for u in SIDE_UNITS[1 - s]:  # a hex holding any attacked unit cannot be attacked (5.2)
            h = uh[u]
            if h >= 0 and (attacked >> u) & 1 and h != fixed:
                targets.discard(h)
        hexes = []
        options = []
        for h in sorted(avail):
            if h in committed:
                continue
            opts = [x for x in sorted(targets) if x in t.nbset[h]]
            if opts:
                hexes.append(h)
                options.append(opts)
        base_n = {x: 0 for x in targets}
        if fixed >= 0:
            base_n[fixed] = len(state.attack_units)
        is_town = t.is_town
        base_k = {x: 0 for x in targets}
        if fixed >= 0:
            base_k[fixed] = sum(1 for h in committed if is_town[h])
        value_cache: dict[tuple[int, int, int], float] = {}

        def tv(x: int, n: int, k: int) -> float:
            key = (x, n, k)
            v = value_cache.get(key)
            if v is None:
                if x == fixed:  # declared: must be resolved, at any column the CRT has
                    v = self._attack_value(cx, x, n, committed=True, from_towns=k)
                elif n == 0:
                    v = 0.0
                else:  # an attack not worth making is not made: the units simply do not attack
                    v = max(0.0, self._attack_value(cx, x, n, from_towns=k))
                value_cache[key] = v
            return v

        best_val = _NEG
        best_assign: list[int] = []
        assign = [-1] * len(hexes)
        counts = dict(base_n)
        town_counts = dict(base_k)

        def dfs(i: int) -> None:
            nonlocal best_val, best_assign
            if i == len(hexes):
                total = 0.0
                used = 0
                for x, n in counts.items():
                    v = tv(x, n, town_counts[x])
                    if v == _NEG:
                        return
                    if n and v > 0:
                        used += n
                    total += v
                total -= 1e-4 * used  # prefer fewer attackers for the same value
                if total > best_val + 1e-12:
                    best_val = total
                    best_assign = assign[:]
                return
            h = hexes[i]
            dfs(i + 1)
            k = avail[h]
            in_town = 1 if is_town[h] else 0
            for x in options[i]:
                assign[i] = x
                counts[x] += k
                town_counts[x] += in_town
                dfs(i + 1)
                counts[x] -= k
                town_counts[x] -= in_town
            assign[i] = -1

        dfs(0)
        if len(best_assign) != len(hexes):  # no feasible plan (cannot happen with a legal target)
            best_assign = [-1] * len(hexes)
        if state.kind == _TARGET:
            per_target = {x: 0.0 for x in best_assign if x >= 0}
            for x in per_target:
                used = [h for h, y in zip(hexes, best_assign, strict=True) if y == x]
                per_target[x] = tv(x, sum(avail[h] for h in used), sum(1 for h in used if is_town[h]))
            cands = [x for x, v in per_target.items() if v > 0 and x in legal]
            if not cands:
                return _PASS
            vals = [per_target[x] for x in cands]
            return cands[self._argmax(vals)]
        # attack_add: add the planned hexes for the declared target, then resolve.
        todo = [h for h, x in zip(hexes, best_assign, strict=True) if x == fixed and h in legal]
        if todo:
            return max(todo, key=lambda h: avail[h])
        if _RESOLVE in legal:
            return _RESOLVE
        adds = [a for a in legal if a != _RESOLVE]
        return max(adds, key=lambda h: avail.get(h, 0))


def make_strike_force_one_heuristic(game, player: int, seed: int | None = None) -> StrikeForceOneHeuristic:
    """The Soviet (player 0) or U.S. (player 1) heuristic bot."""
    return StrikeForceOneHeuristic(game, player, seed=seed)
