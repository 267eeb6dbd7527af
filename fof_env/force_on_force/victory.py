"""Victory points: how a scenario's ``victory`` terms count on a state (:func:`count_victory_term`)."""

from __future__ import annotations

import weakref

from fof_env.force_on_force.constants import CAPTURED, EVAC_KIA, EVAC_SERIOUS, KIA, SERIOUS

_inside_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # table -> {feature id: flags}


def _points_inside(table, feature_id: str) -> bytes:
    """Per table point, 1 where the feature ``feature_id`` contains it (``Feature.contains``; cached)."""
    per_table = _inside_cache.setdefault(table, {})
    flags = per_table.get(feature_id)
    if flags is None:
        feature = table.feature_by_id[feature_id]
        flags = per_table[feature_id] = bytes(feature.contains(x, y) for x, y in table.xy)
    return flags


def count_victory_term(s, term) -> int:
    """How many times ``term`` (a :class:`~fof_env.force_on_force.scenario.VictoryTerm`) scores now:

    * ``enemy_kia``: enemy figures killed (escorted off the table or not);
    * ``enemy_serious``: enemy figures seriously wounded (idem);
    * ``enemy_captured``: enemy figures captured;
    * ``enemy_casualties``: all three;
    * ``units_destroyed``: enemy units in the game with no figure left able to fight;
    * ``feature_held``: 1 while the side has an active unit inside the feature and the enemy none.
    """
    kind = term.kind
    enemy = s.SIDE_UNITS[1 - term.side]
    if kind == "feature_held":
        inside = _points_inside(s.sc.table, term.feature)

        def holds(side: int) -> bool:
            return any(s.active(u) and inside[s.pos[u]] for u in s.SIDE_UNITS[side])

        return int(holds(term.side) and not holds(1 - term.side))
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
