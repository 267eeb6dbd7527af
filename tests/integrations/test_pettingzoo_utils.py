"""PettingZoo's own tests and utilities on the AEC env, for every game."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.wrappers import CaptureStdoutWrapper

from fof_env.envs.aec_env import env
from tests.integrations.conftest import GAMES


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's naming and observation-type advice
        yield


@pytest.mark.parametrize("game", GAMES)
def test_api_and_seed_tests(game):
    api_test(env(game=game, illegal_action="loss"), num_cycles=100)
    seed_test(lambda: env(game=game, illegal_action="loss"), num_cycles=100)


@pytest.mark.parametrize("game", GAMES)
def test_render_test_and_capture_stdout(game):
    ansi = env(game=game, render_mode="ansi")
    ansi.reset(seed=0)
    render_test(
        lambda render_mode=None: env(game=game, render_mode=render_mode),
        custom_tests={"ansi": lambda text: len(text.splitlines()) > 10},
    )
    captured = CaptureStdoutWrapper(env(game=game, render_mode="human"))
    captured.reset(seed=0)
    assert captured.render() == ansi.render() + "\n"
    assert env(game=game).metadata["render_modes"] == ["human", "ansi", "rgb_array"]  # nothing appended


@pytest.mark.parametrize("game", GAMES)
def test_turn_based_aec_to_parallel(game):
    parallel_api_test(turn_based_aec_to_parallel(env(game=game)), num_cycles=100)
    par = turn_based_aec_to_parallel(env(game=game))
    observations, infos = par.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    while par.agents:
        acting = [a for a in par.agents if infos[a]["acting"]]
        assert len(acting) == 1 and observations[acting[0]]["action_mask"].any()
        actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) if a in acting else 0
                   for a in par.agents}  # fmt: skip
        observations, rewards, terminations, truncations, infos = par.step(actions)
        steps += 1
    assert steps > 10 and set(rewards.values()) <= {-1.0, 0.0, 1.0}
