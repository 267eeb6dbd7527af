"""Victory points: how a scenario's ``victory`` terms count on a state (:func:`count_victory_term`)."""

from __future__ import annotations

from fof_env.core.identity_cache import by_identity
from fof_env.force_on_force.constants import CAPTURED, EVAC_KIA, EVAC_SERIOUS, KIA, LIGHT, OK, SERIOUS

_inside_cache: dict[tuple[int, str], tuple[object, frozenset[int]]] = {}  # (id(table), feature id) -> (table, points)


def _points_inside(table, feature_id: str) -> frozenset[int]:
    """The table points the feature ``feature_id`` contains (``Feature.contains``; cached)."""
    got = _inside_cache.get((id(table), feature_id))
    if got is None or got[0] is not table:
        if len(_inside_cache) >= 256:
            _inside_cache.clear()
        feature = table.feature_by_id[feature_id]
        inside = frozenset(p for p, (x, y) in enumerate(table.xy) if feature.contains(x, y))
        got = _inside_cache[id(table), feature_id] = (table, inside)
    return got[1]


def held_points(s) -> tuple[list[int], list[int]]:
    """Per side, the points of its active units (what ``feature_held`` terms look at)."""
    return tuple([s.pos[u] for u in s.SIDE_UNITS[side] if s.active(u)] for side in (0, 1))  # type: ignore[return-value]


def count_victory_term(s, term, held: tuple[list[int], list[int]] | None = None) -> int:
    """How many times ``term`` (a :class:`~fof_env.force_on_force.scenario.VictoryTerm`) scores now:

    * ``enemy_kia``: enemy figures killed (escorted off the table or not);
    * ``enemy_serious``: enemy figures seriously wounded (idem);
    * ``enemy_captured``: enemy figures captured;
    * ``enemy_casualties``: all three;
    * ``units_destroyed``: enemy units in the game with no figure left able to fight;
    * ``feature_held``: 1 while the side has an active unit inside the feature and the enemy none
      (``held``: :func:`held_points` of ``s``, when the caller has it).
    """
    kind = term.kind
    enemy = s.SIDE_UNITS[1 - term.side]
    if kind == "feature_held":
        inside = _points_inside(s.sc.table, term.feature)
        held = held or held_points(s)
        return int(not inside.isdisjoint(held[term.side]) and inside.isdisjoint(held[1 - term.side]))
    if kind == "units_destroyed":
        return sum(1 for u in enemy if s.sc.profiles[u].figures and not s.effective(u) and any(s.figs[u]))
    total = 0
    for u in enemy:
        f = s.figs[u]
        if kind in ("enemy_kia", "enemy_casualties"):
            total += f[KIA] + f[EVAC_KIA]
        if kind in ("enemy_serious", "enemy_casualties"):
            total += f[SERIOUS] + f[EVAC_SERIOUS]
        if kind in ("enemy_captured", "enemy_casualties"):
            total += f[CAPTURED]
    return total


class _Tally:
    """A scenario's ``victory`` terms regrouped to be counted in one pass over the units: per side, the VP per
    enemy figure killed, seriously wounded and captured, per enemy unit destroyed, and each ``feature_held``
    term as (side, points, the feature's points as a bit mask)."""

    __slots__ = ("per_figure", "per_destroyed", "held")

    def __init__(self, sc) -> None:
        self.per_figure = [[0, 0, 0], [0, 0, 0]]  # by side: (KIA, serious, captured) VP per enemy figure
        self.per_destroyed = [0, 0]
        self.held: list[tuple[int, int, int]] = []
        for term in sc.victory:
            kind, weights = term.kind, self.per_figure[term.side]
            if kind == "feature_held":
                mask = sum(1 << p for p in _points_inside(sc.table, term.feature))
                self.held.append((term.side, term.points, mask))
            elif kind == "units_destroyed":
                self.per_destroyed[term.side] += term.points
            else:
                for i, counted in enumerate((("enemy_kia", "enemy_casualties"), ("enemy_serious", "enemy_casualties"),
                                             ("enemy_captured", "enemy_casualties"))):
                    if kind in counted:
                        weights[i] += term.points


@by_identity(64)
def _tally(sc) -> _Tally:
    """The scenario's terms as a tally (cached per scenario)."""
    return _Tally(sc)


def scenario_victory_points(s) -> list[int]:
    """[side 0 VP, side 1 VP] from the scenario's ``victory`` terms alone (no rule module's hooks): the sum
    over the terms of ``points * count_victory_term(s, term)``, counted in one pass (observations ask it
    at every step; a test checks the two agree)."""
    tally = _tally(s.sc)
    vp = [0, 0]
    figs, profiles = s.figs, s.sc.profiles
    for side in (0, 1):
        wk, ws, wc = tally.per_figure[side]
        per_destroyed = tally.per_destroyed[side]
        if not (wk or ws or wc or per_destroyed):
            continue
        total = 0
        for u in s.SIDE_UNITS[1 - side]:
            f = figs[u]
            total += wk * (f[KIA] + f[EVAC_KIA]) + ws * (f[SERIOUS] + f[EVAC_SERIOUS]) + wc * f[CAPTURED]
            if per_destroyed and profiles[u].figures and not (f[OK] + f[LIGHT]) and any(f):
                total += per_destroyed
        vp[side] += total
    if tally.held:
        pos = s.pos
        held = [0, 0]
        for side in (0, 1):
            mask = 0
            for u in s.SIDE_UNITS[side]:
                p = pos[u]
                if p >= 0 and figs[u][OK] + figs[u][LIGHT] > 0:  # State.active
                    mask |= 1 << p
            held[side] = mask
        for side, points, inside in tally.held:
            if inside & held[side] and not inside & held[1 - side]:
                vp[side] += points
    return vp
