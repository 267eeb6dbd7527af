"""The downed pilot's own moves (fof_env/core/downed_pilot.py), which Force on Force and FUBAR both play.

Seed 000_294bccfd88f0ebda.txt, "The Downed Pilot": "must make contact with the downed pilot by moving
into cohesion distance" and "If a unit the pilot is with is wiped out, the pilot will move to the nearest
cover that takes him away from the nearest Taliban unit."

The points here lie on one line, 2" apart (x = 1, 3, 5, ..., point i at x = 1 + 2i), so every distance
is worked out by hand as |xi - xj|.
"""

from fof_env.core.downed_pilot import flee_point, within

XS = [1, 3, 5, 7, 9, 11, 13]
DIST = [[float(abs(a - b)) for b in XS] for a in XS]


def covered(*points: int) -> list[bool]:
    return [p in points for p in range(len(XS))]


def test_he_flees_to_the_nearest_cover_farther_from_the_nearest_enemy():
    """Pilot at x5 (point 2), enemies at x9 (4") and x13 (8"): the nearest is x9, 4" away. Cover at x3
    (6" from x9: farther, 2" from him), x1 (8" from x9, 4" from him) and x7 (2" from x9: nearer the
    enemy, refused although 2" from him): he goes to x3."""
    assert flee_point(DIST, 2, [6, 4], covered(0, 1, 3)) == 1


def test_cover_no_farther_from_the_enemy_is_refused():
    """Pilot at x5, enemy at x9: cover at x13 is 4" from the enemy, as far as he is now (4"): it does
    not take him away, so with x7 (2") the only other cover he stays."""
    assert flee_point(DIST, 2, [4], covered(3, 6)) == -1


def test_ties_go_to_the_lowest_point():
    """Pilot at x7 (point 3), enemies at x1 and x13 (both 6"): the nearest enemy is the lowest point,
    x1. Cover at x9 and x11 is farther from x1; x9 (2" from him) is the nearer. With the enemies at x3
    and x11 and cover at x5 and x9 (both 2" from him): x3 is the threat, x5 is nearer it than he is,
    so x9. An enemy on his own point (0" away): cover at x5 and x9 both takes him away, both 2" from
    him: the lower, x5."""
    assert flee_point(DIST, 3, [6, 0], covered(4, 5)) == 4
    assert flee_point(DIST, 3, [5, 1], covered(2, 4)) == 4
    assert flee_point(DIST, 3, [3], covered(2, 4)) == 2


def test_no_enemy_no_move():
    assert flee_point(DIST, 2, [], covered(0, 1, 3)) == -1


def test_contact_is_within_cohesion_distance_inclusive():
    """A unit 2" away is within a 2" cohesion distance, 4" is not; off the table (-1) never."""
    assert within(DIST[2], 3, 2.0) and within(DIST[2], 2, 2.0)
    assert not within(DIST[2], 4, 2.0) and not within(DIST[2], -1, 2.0)
