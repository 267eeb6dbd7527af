"""Victory points: how a scenario's ``victory`` terms count on a state (:func:`count_victory_term`)."""

from __future__ import annotations

from fof_env.force_on_force.constants import CAPTURED, EVAC_KIA, EVAC_SERIOUS, KIA, SERIOUS

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
