"""FUBAR's observation encoder counts a unit's figures inline; these tests hold it to the state's queries."""

from __future__ import annotations

import random

import pytest

import fof_env
from fof_env.fubar import observation
from fof_env.fubar.constants import CAPT, CAS, SUPP

STANDING, SUPPRESSED, CASUALTIES, BROKEN, ABLE = 7, 8, 9, 17, 28  # unit features (module docstring)


def _positions(game: str, games: int):
    g = fof_env.make_game(game)
    rng = random.Random(5)
    for seed in range(games):
        s = g.new_initial_state(seed)
        while not s.is_terminal:
            yield s
            s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("game", ["fubar_lost_and_found", "fubar_village_patrol"])
def test_unit_counts_equal_the_states_queries(game):
    """Standing, Suppressed, casualties, broken and the figures able to fire (State.able: an infantry
    HMG takes a second crewman, Village Patrol's HMG teams) agree with the state in every position of
    random play, for both players' unit orders."""
    checked = hmg_checked = 0
    for s in _positions(game, 6):
        sc, m = s.sc, s.sc.m
        for player in (0, 1):
            obs = observation.encode(s, player)
            order = sc.side_units[player] + sc.side_units[1 - player]
            for k, u in enumerate(order):
                row = obs[k * observation.UNIT_FEATURES : (k + 1) * observation.UNIT_FEATURES]
                if not row[0]:  # not in play, or not yet set up
                    continue
                fs = [s.fs[f] for f in s.members[u][:m]]
                assert row[STANDING] == pytest.approx(sum(st <= SUPP for st in fs) / m)
                assert row[SUPPRESSED] == pytest.approx(fs.count(SUPP) / m)
                assert row[CASUALTIES] == pytest.approx(sum(st in (CAS, CAPT) for st in fs) / m)
                assert bool(row[BROKEN]) == (not s.is_veh(u) and s.broken(u))
                on = s.pos[u] >= 0 and not s.gone[u]
                able = len(s.able(u)) / m if on and s.live(u) else 0.0
                assert row[ABLE] == pytest.approx(able)
                checked += 1
                hmg_checked += on and any(sc.hmg[f] for f in s.members[u])
    assert checked > 1000
    assert hmg_checked > 0 or game == "fubar_lost_and_found"
