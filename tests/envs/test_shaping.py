"""The shaping potentials (``reward="shaped"``): values in documented positions, and bounds."""

from __future__ import annotations

import numpy as np
import pytest

import fof_env
from fof_env.envs.support import game_support, potential_fn, resolve
from fof_env.force_on_force.potential import PILOT_WEIGHT as LAF_PILOT_WEIGHT
from fof_env.force_on_force.potential import VP_WEIGHT as LAF_VP_WEIGHT
from fof_env.force_on_force.potential import lost_and_found_potential
from fof_env.force_on_force.potential import pilot_progress as lost_and_found_pilot_progress

LAF = "lost_and_found"


@pytest.fixture(scope="module")
def game():
    return fof_env.make_game(LAF)


def _position(**extra) -> dict:
    base = {"stage": "activation", "turn": 3, "initiative": "usmc", "portion": "initiative"}
    return {**base, **extra}


def test_support_entries():
    support = game_support(LAF)
    assert support.env_name == "LostAndFound"
    assert potential_fn(fof_env.make_game(LAF)) is lost_and_found_potential
    assert resolve(support.render_rgb).__module__ == "fof_env.force_on_force.render"


def test_zero_at_the_start(game):
    state = game.new_initial_state(0)
    assert lost_and_found_potential(state, 0) == 0.0 and lost_and_found_potential(state, 1) == 0.0


def test_pilot_progress_stages(game):
    far = game.state_from_position(_position(units={"usmc.A": {"at": "x01y17"}}, pilot={"at": "x21y17"}))
    near = game.state_from_position(_position(units={"usmc.A": {"at": "x19y17"}}, pilot={"at": "x21y17"}))
    held = game.state_from_position(_position(units={"usmc.A": {"at": "x21y17"}}, pilot={"with": "usmc.A"}))
    home = game.state_from_position(_position(units={"usmc.A": {"at": "x01y17"}}, pilot={"with": "usmc.A"}))
    gone = game.state_from_position(
        _position(units={"usmc.A": {"at": "x05y17"}}, pilot={"exited_turn": 3, "contact": True})
    )
    diag = np.hypot(36, 36)
    assert lost_and_found_pilot_progress(far) == pytest.approx(0.5 * (1 - 20 / diag))
    assert lost_and_found_pilot_progress(near) == pytest.approx(0.5 * (1 - 2 / diag))
    assert lost_and_found_pilot_progress(held) == pytest.approx(0.5 + 0.5 * (1 - 21 / 36))
    assert lost_and_found_pilot_progress(home) == pytest.approx(0.5 + 0.5 * (1 - 1 / 36))
    assert lost_and_found_pilot_progress(gone) == 1.0
    # no Marine on the table: nothing yet
    empty = game.state_from_position(_position(units={"tal.1": {"at": "x35y35"}}))
    assert lost_and_found_pilot_progress(empty) == 0.0
    # the Taliban's potential ignores the pilot until it turns into VP (contact: 3 VP to the USMC)
    assert lost_and_found_potential(far, 0) == 0.0
    assert lost_and_found_potential(home, 0) == pytest.approx(-LAF_VP_WEIGHT * 3 / 20)
    assert gone.victory_points() == (0, 13)  # pilot out before turn 6 (10 VP) + contact (3 VP)
    assert lost_and_found_potential(gone, 1) == pytest.approx(LAF_VP_WEIGHT * 13 / 20 + LAF_PILOT_WEIGHT)
    assert lost_and_found_potential(gone, 0) == pytest.approx(-LAF_VP_WEIGHT * 13 / 20)


def test_casualties_count_for_the_taliban(game):
    state = game.state_from_position(
        _position(
            units={
                "usmc.A": {"at": "x05y17", "figures": {"ok": 1, "kia": 2, "serious": 1}},
                "tal.1": {"at": "x35y35"},
            },
            pilot={"at": "x21y17"},
        )
    )
    assert state.victory_points() == (5, 0)  # 2 KIA x 2 VP + 1 serious x 1 VP
    # Taliban: 0.3 x 5/20; USMC: minus that, plus 0.2 x progress, the nearest Marine 16" from the pilot
    assert lost_and_found_potential(state, 0) == pytest.approx(0.075)
    assert lost_and_found_potential(state, 1) == pytest.approx(-0.075 + 0.2 * 0.5 * (1 - 16 / np.hypot(36, 36)))


def test_bounded_over_random_games(game):
    rng = np.random.default_rng(0)
    for seed in range(100):
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            phi = (lost_and_found_potential(state, 0), lost_and_found_potential(state, 1))
            assert -LAF_VP_WEIGHT <= phi[0] <= LAF_VP_WEIGHT
            assert -LAF_VP_WEIGHT <= phi[1] <= LAF_VP_WEIGHT + LAF_PILOT_WEIGHT
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])


def test_strike_force_one_potential_counts_towns_and_the_unit_balance():
    """phi = 0.1 x towns held by the Soviets + 0.02 x (Soviet units - U.S. units), for the Soviets; the
    U.S. gets minus that. One town (0303), three Soviet units against one U.S. unit: 0.1 + 0.04 = 0.14
    (mutation audit, issue 16: the unit term's sign could flip unnoticed)."""
    from fof_env.strike_force_one.potential import potential as strike_force_one_potential

    game = fof_env.make_game("strike_force_one")
    state = game.state_from_position(
        {"turn": 2, "phase": "soviet_move", "units": {"soviet": {"A": "0303", "B": "0605", "C": "0705"},
                                                     "us": {"A": "0101"}}}  # fmt: skip
    )
    assert state.score == {"soviet_towns": 1, "soviet_units": 3, "us_units": 1}
    assert strike_force_one_potential(state, 0) == pytest.approx(0.14)
    assert strike_force_one_potential(state, 1) == pytest.approx(-0.14)
