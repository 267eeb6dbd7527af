"""fof_env/force_on_force/victory.py: a term counted on its own equals its share of victory_points, and the
cache of a feature's points is reused per table and bounded."""

import random

from fof_env.core.registry import make_game
from fof_env.force_on_force import victory


def _played(game: str, decisions: int):
    s = make_game(game).new_initial_state(3)
    rng = random.Random(3)
    for _ in range(decisions):
        if s.is_terminal:
            break
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    return s


def test_a_term_counted_without_the_held_points_finds_them_itself():
    s = _played("wwii_hedgerow_hamlet", 400)
    held = victory.held_points(s)
    counts = [victory.count_victory_term(s, term) for term in s.sc.victory]
    assert counts == [victory.count_victory_term(s, term, held) for term in s.sc.victory]
    vp = [0, 0]
    for term, n in zip(s.sc.victory, counts, strict=True):
        vp[term.side] += term.points * n
    assert tuple(vp) == s.victory_points()  # no rule module adds VP in this scenario


def test_a_features_points_are_computed_once_per_table_and_the_cache_stays_bounded(monkeypatch):
    table = make_game("wwii_hedgerow_hamlet").new_initial_state(0).sc.table
    monkeypatch.setattr(victory, "_inside_cache", {})
    first = victory._points_inside(table, "chapel")
    assert victory._points_inside(table, "chapel") is first  # the cached set, not a new one
    assert table.name(min(first)) == "x29y15" and len(first) == 6  # the chapel, x 28-32, y 14-20
    victory._inside_cache.update({(-k, "x"): (None, frozenset()) for k in range(1, 256)})  # 256 entries
    assert len(victory._inside_cache) == 256
    victory._points_inside(table, "barn")  # a miss with the cache full: cleared, then this one kept
    assert list(victory._inside_cache) == [(id(table), "barn")]
