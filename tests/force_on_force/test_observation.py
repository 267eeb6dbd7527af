"""The Force on Force observation (``observation.py``, version 1): literal values at documented offsets,
and every value within [-1, 1] even where a count exceeds the scale it is divided by."""

from __future__ import annotations

import pytest

from fof_env.force_on_force import observation as fo
from tests.force_on_force.helpers import LAF as st
from tests.force_on_force.helpers import make, unit


def unit_row(obs, player: int, name: str) -> list[float]:
    base = fo.unit_row(st.LAYOUT, player, st.UNIT_NAMES.index(name))
    return [float(v) for v in obs[base : base + fo.UNIT_FEATURES]]


def test_a_units_row_holds_its_documented_features():
    """Per unit: known, mine, on table, x/36, y/36, effective, light, down, serious, KIA, captured (each
    /10), TQ/12 ... (the module docstring's order)."""
    s = make({"usmc.A": unit("x09y27", 2, light=1, down=1, kia=1), "tal.1": unit("x33y03")})
    row = unit_row(s.observation(st.USMC), st.USMC, "usmc.A")
    assert row[:12] == pytest.approx([1.0, 1.0, 1.0, 9 / 36, 27 / 36, 0.2, 0.1, 0.1, 0.0, 0.1, 0.0, 8 / 12])
    assert unit_row(s.observation(st.TALIBAN), st.TALIBAN, "usmc.A")[1] == 0.0  # not the Taliban's


@pytest.mark.parametrize(("state_name", "feature"), [("ok", 5), ("light", 6), ("down", 7), ("serious", 8),
                                                    ("kia", 9), ("captured", 10)])  # fmt: skip
def test_counts_beyond_ten_figures_stay_within_the_observation_bounds(state_name, feature):
    """A position may field 12 figures (003's worked example); each count feature is clamped at 1."""
    figures = {"ok": 1, state_name: 11} if state_name != "ok" else {"ok": 12}
    s = make({"usmc.A": {"at": "x29y17", "figures": figures}, "tal.2": unit("x05y17")})
    obs = s.observation(st.USMC)
    row = unit_row(obs, st.USMC, "usmc.A")
    assert row[feature] == 1.0 and row[5] == pytest.approx(1.0 if state_name == "ok" else 0.1)
    assert float(obs.max()) <= 1.0


def test_victory_points_beyond_twenty_stay_within_the_observation_bounds():
    """VP are shown /20 and clamped: 4 KIA + 4 KIA + 3 KIA and a serious wound is 23 Taliban VP (000:
    "Per USMC KIA = 2 VP", "Per USMC with Serious Wound = 1 VP")."""
    units = {"usmc.A": unit("x05y05", 0, kia=4), "usmc.B": unit("x05y11", 0, kia=4),
             "usmc.C": unit("x05y17", 1, kia=3, serious=1), "tal.1": unit("x33y03")}  # fmt: skip
    s = make(units)
    assert s.victory_points() == (23, 10)  # the helpers' pilot left the table in turn 1: 10 VP
    game_at, size = fo.piece(st.LAYOUT, "game")
    assert (game_at, size) == (8 * 28, 16)
    game_block = s.observation(st.TALIBAN)[game_at : game_at + size]
    assert float(game_block[4]) == 1.0 and float(game_block[5]) == 0.5  # my VP, the enemy's VP
    assert float(s.observation(st.USMC)[game_at + 5]) == 1.0
