"""FUBAR's observation encoder counts a unit's figures inline; these tests hold it to the state's queries."""

from __future__ import annotations

import random

import numpy as np
import pytest

import fof_env
from fof_env.core.tabletop import BLOCKING_KINDS
from fof_env.fubar import observation
from fof_env.fubar.constants import CAPT, CAS, OK, SUPP
from fof_env.fubar.tables import MAX_FP

IN_PLAY, MINE, ON_TABLE, STANDING, SUPPRESSED, CASUALTIES, BROKEN, ACTIVATION, ABLE = 0, 1, 2, 7, 8, 9, 17, 19, 28
MY_UNITS, ENEMY_UNITS = 2, 3  # board planes (module docstring)


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


@pytest.mark.parametrize("game", ["fubar_lost_and_found", "fubar_village_patrol"])
def test_units_members_and_board_planes_follow_the_state(game):
    """Each unit's row: in play unless absent (not in the game, or waiting off the table to set up), its
    side, on the table, its Activation number (a standing leader's if better); its members' block, in the
    unit order, a member per slot (ok, Suppressed, casualty or captured, Fire Points, range) and zeros past
    its last member; the board's cover level / 3 and line-of-sight blocking at every point, and the planes
    of my units and the enemy's at their points."""
    members_checked = 0
    for s in _positions(game, 4):
        sc, m = s.sc, s.sc.m
        m_at, _g_at, _d_at, b_at, _size = observation._layout(sc)
        p = sc.n_points
        for player in (0, 1):
            obs = observation.encode(s, player)
            order = sc.side_units[player] + sc.side_units[1 - player]
            mine_at, enemy_at = set(), set()
            for k, u in enumerate(order):
                row = obs[k * observation.UNIT_FEATURES : (k + 1) * observation.UNIT_FEATURES]
                block = obs[m_at + k * m * observation.MEMBER_FEATURES : m_at + (k + 1) * m * observation.MEMBER_FEATURES]
                waiting = s.pos[u] < 0 and not s.gone[u] and s.attached[u] < 0 and s.turn == 0
                if not sc.present[u] or waiting:
                    assert not row.any() and not block.any()
                    continue
                mine = sc.unit_side[u] == player
                on = s.pos[u] >= 0 and not s.gone[u]
                assert (row[IN_PLAY], row[MINE], row[ON_TABLE]) == (1.0, float(mine), float(on))
                assert row[ACTIVATION] == pytest.approx(s.activation_need(u) / 6)
                if on:
                    (mine_at if mine else enemy_at).add(s.pos[u])
                want = []
                for f in s.members[u][:m]:
                    st = s.fs[f]
                    want += [float(st == OK), float(st == SUPP), float(st in (CAS, CAPT)),
                             min(sc.figs[f].fire(0.0)[0], MAX_FP) / MAX_FP, min(sc.figs[f].max_range, 48.0) / 48.0]  # fmt: skip
                    members_checked += 1
                want += [0.0] * (m * observation.MEMBER_FEATURES - len(want))
                assert block.tolist() == pytest.approx(want)
            assert obs[b_at : b_at + p].tolist() == pytest.approx([level / 3 for level in sc.geo.level])
            assert obs[b_at + p : b_at + 2 * p].tolist() == [float(k in BLOCKING_KINDS) for k in sc.table.kind_at]
            assert set(np.flatnonzero(obs[b_at + MY_UNITS * p : b_at + (MY_UNITS + 1) * p])) == mine_at
            assert set(np.flatnonzero(obs[b_at + ENEMY_UNITS * p : b_at + (ENEMY_UNITS + 1) * p])) == enemy_at
    assert members_checked > 1000
