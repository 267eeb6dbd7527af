"""fof_env/force_on_force/victory.py: a term counted on its own equals its share of victory_points, and the
cache of a feature's points is reused per table and bounded; the one-pass count equals the terms counted one by one."""

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


def _with_figures(s, figs, pos, terms):
    """What victory counting reads of state ``s``, with other figures, points and victory terms."""
    from dataclasses import replace
    from types import SimpleNamespace

    from fof_env.force_on_force.constants import LIGHT, OK

    def effective(u):
        return figs[u][OK] + figs[u][LIGHT]

    return SimpleNamespace(sc=replace(s.sc, victory=terms), figs=figs, pos=pos, SIDE_UNITS=s.SIDE_UNITS,
                           effective=effective, active=lambda u: pos[u] >= 0 and effective(u) > 0)  # fmt: skip


def test_the_one_pass_count_equals_the_terms_counted_one_by_one():
    """scenario_victory_points (what observations and results ask) against count_victory_term, term by
    term, for every kind of term on both sides, on positions of random play (casualties, held features: the
    four buildings of Hedgerow Hamlet) with a figure of some units moved to captured or evacuated and a unit
    sent into a feature the other side holds (random play takes no prisoners, evacuates no one and
    seldom contests a building)."""
    from fof_env.force_on_force.constants import CAPTURED, EVAC_KIA, EVAC_SERIOUS, OK
    from fof_env.force_on_force.scenario import VictoryTerm

    kinds = ("enemy_kia", "enemy_serious", "enemy_captured", "enemy_casualties", "units_destroyed")
    checked = scored = contested = 0
    for game in ("wwii_hedgerow_hamlet", "lost_and_found"):
        sc = make_game(game).new_initial_state(0).sc
        features = sorted({t.feature for t in sc.victory if t.feature} or sc.table.feature_by_id)[:4]
        terms = tuple(VictoryTerm(side, kind, 1 + 2 * i + side) for i, kind in enumerate(kinds) for side in (0, 1))
        terms += tuple(VictoryTerm(side, "feature_held", 11 + side + 2 * i, f)
                       for i, f in enumerate(features) for side in (0, 1))  # fmt: skip
        for seed in range(16):
            s = make_game(game).new_initial_state(seed)
            rng = random.Random(seed)
            while not s.is_terminal:
                legal = s.legal_actions()
                s.apply(legal[rng.randrange(len(legal))])
                if rng.random() < 0.1:
                    figs = [list(f) for f in s.figs]
                    for f in figs:
                        if f[OK] and rng.random() < 0.3:
                            f[OK] -= 1
                            f[rng.choice((CAPTURED, EVAC_KIA, EVAC_SERIOUS))] += 1
                    pos = list(s.pos)
                    inside = set().union(*(victory._points_inside(sc.table, f) for f in features))
                    holders = [u for u in s.SIDE_UNITS[0] if pos[u] in inside]
                    movers = [u for u in s.SIDE_UNITS[1] if s.effective(u)]
                    if holders and movers and rng.random() < 0.5:
                        pos[rng.choice(movers)] = pos[rng.choice(holders)]
                    view = _with_figures(s, figs, pos, terms)
                    want = [0, 0]
                    for term in terms:
                        want[term.side] += term.points * victory.count_victory_term(view, term)
                    assert victory.scenario_victory_points(view) == want
                    checked += 1
                    scored += want != [0, 0]
                    held = [set(points) for points in victory.held_points(view)]
                    contested += any(victory._points_inside(sc.table, f) & held[0] & held[1] for f in features)
    assert checked > 200 and scored > 100 and contested > 5  # positions that score, some with a feature contested
