"""The downed pilot's own moves, as every rule system plays them (000 "Lost & Found", "The Downed Pilot").

"One of Charlie Squad's fireteams must make contact with the downed pilot by moving into cohesion
distance. The pilot can be moved as part of that fireteam. He may be handed off to another Marine
fireteam if the two fireteams are in contact. ... If a unit the pilot is with is wiped out, the pilot
will move to the nearest cover that takes him away from the nearest Taliban unit."

These are the geometric parts of that rule on the shared tabletop (:class:`fof_env.core.tabletop.Table`
distances, in inches), as pure functions of points. Each ruleset keeps its glue: its cohesion distance,
which units may reach or hunt him (who is in play, who is hidden), what counts as cover under its
rules, and its events. The pilot's building, start and VP are the ``downed_pilot`` objective of a
shared table (:mod:`fof_env.core.tables`) or a scenario's own rule settings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

EPS = 1e-9  # distances closer than this are equal


def within(dist_row: Sequence[float], p: int, reach_in: float) -> bool:
    """Whether point ``p`` (-1: off the table) is within ``reach_in`` inches of the point whose distance
    row is ``dist_row``: a unit making contact with the pilot, or one taking him in a hand-off."""
    return p >= 0 and dist_row[p] <= reach_in + EPS


def flee_point(dist: Sequence[Sequence[float]], here: int, threats: Iterable[int], covered: Sequence) -> int:
    """Where the pilot at ``here`` goes when the unit he is with is wiped out: "the nearest cover that
    takes him away from the nearest" enemy. ``threats``: the points of the enemy units he may flee
    from; the nearest is the closest to him (ties: the lowest point). ``covered[p]``: whether p is in
    cover. The answer is the covered point nearest to him (ties: the lowest) that is farther from that
    enemy than he is now; -1 (he stays) when there is no enemy or no such point."""
    row = dist[here]
    threat = min(threats, key=lambda p: (row[p], p), default=-1)
    if threat < 0:
        return -1
    away = row[threat]
    best = -1
    for p, cover in enumerate(covered):
        if not cover or dist[p][threat] <= away + EPS:
            continue
        if best < 0 or row[p] < row[best] - EPS:
            best = p
    return best
