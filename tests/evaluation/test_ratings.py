"""Bradley-Terry / Elo ratings with a side advantage: order independence, recovery, edge cases."""

from __future__ import annotations

import random

import numpy as np
import pytest

from evaluation.ratings import ELO_PER_LOGIT, expected_score, fit_ratings

TRUE = {"random": 0.0, "weak": 150.0, "mid": 400.0, "strong": 700.0}
SIDE = 120.0


def synthetic_games(n: int, seed: int, draw: float = 0.1) -> list[tuple[str, str, float]]:
    """n games per ordered pairing (mirrors included) from the model with TRUE ratings and SIDE;
    a game is a draw with probability ``draw``."""
    rng = np.random.default_rng(seed)
    games = []
    for a in TRUE:
        for b in TRUE:
            p = 1.0 / (1.0 + 10.0 ** (-(TRUE[a] - TRUE[b] + SIDE) / 400.0))
            for _ in range(n):
                if rng.random() < draw:
                    games.append((a, b, 0.5))
                else:
                    games.append((a, b, float(rng.random() < p)))
    return games


def test_ratings_do_not_depend_on_the_order_of_games():
    games = synthetic_games(30, seed=1)
    first = fit_ratings(games)
    for seed in range(3):
        shuffled = list(games)
        random.Random(seed).shuffle(shuffled)
        other = fit_ratings(shuffled, agents=list(reversed(list(TRUE))))
        assert [r.agent for r in other.ratings] == [r.agent for r in first.ratings]
        for a, b in zip(first.ratings, other.ratings, strict=True):
            assert a.elo == pytest.approx(b.elo, abs=1e-9) and a.se == pytest.approx(b.se, abs=1e-9)
            assert (a.games, a.points) == (b.games, b.points)
        assert other.side_advantage == pytest.approx(first.side_advantage, abs=1e-9)
        assert other.side_advantage_se == pytest.approx(first.side_advantage_se, abs=1e-9)


def test_ratings_recover_synthetic_strengths():
    r = fit_ratings(synthetic_games(400, seed=2, draw=0.0))
    assert [x.agent for x in r.ratings] == ["strong", "mid", "weak", "random"]
    assert r.anchor == "random" and r["random"].elo == 0.0 and r["random"].se == 0.0
    for name, true in TRUE.items():
        assert abs(r[name].elo - true) < 4 * r[name].se + 1e-9, (name, r[name])
    assert abs(r.side_advantage - SIDE) < 4 * r.side_advantage_se
    assert 0 < r["mid"].se < 60 and r.games == 16 * 400
    assert expected_score(r, "strong", "random") > 0.9 > 0.1 > expected_score(r, "random", "strong")


def test_stronger_agent_is_rated_higher_and_perfect_records_stay_finite():
    games = [("h", "random", 1.0)] * 20 + [("random", "h", 0.0)] * 20 + [("h", "h", 1.0), ("h", "h", 0.0)]
    r = fit_ratings(games)
    assert r["h"].elo > 400 and np.isfinite(r["h"].elo) and np.isfinite(r["h"].se)
    assert r["h"].games == 42 and r["h"].points == 41.0 and r["random"].points == 0.0
    assert abs(r.side_advantage) < 1e-6  # a perfect record on both sides says nothing about the sides
    # a stronger prior pulls the perfect record in
    assert fit_ratings(games, prior_sd=200.0)["h"].elo < r["h"].elo


def test_mean_anchor_draws_and_side_only_games():
    r = fit_ratings([("a", "b", 0.5)] * 10 + [("b", "a", 0.5)] * 10)
    assert r.anchor is None and r["a"].elo == pytest.approx(0.0, abs=1e-9) == r["b"].elo
    assert r["a"].se == pytest.approx(r["b"].se) and r["a"].se > 0
    assert abs(r.side_advantage) < 1e-9
    mirror = fit_ratings([("x", "x", 1.0)] * 30 + [("x", "x", 0.0)] * 10, agents=["x", "y"])
    expected = np.log(3.0) * ELO_PER_LOGIT  # 3:1 for side 0, slightly shrunk by the prior
    assert 0.9 * expected < mirror.side_advantage < expected
    assert mirror["y"].games == 0 and mirror["x"].games == 40 and mirror["x"].points == 20.0


def test_bad_input():
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        fit_ratings([("a", "b", 0.7)])
    with pytest.raises(ValueError, match="not in the agent list"):
        fit_ratings([("a", "b", 1.0)], agents=["a"])
    with pytest.raises(ValueError, match="no agents"):
        fit_ratings([])


def test_tournament_ratings(small_tournaments):
    r = small_tournaments["lost_and_found"].ratings
    assert r.anchor == "random" and r["heuristic"].elo > 0 and r.games == 12
    d = r.to_dict()
    assert d["ratings"][0]["agent"] == "heuristic" and "interval95" in d["ratings"][0]
