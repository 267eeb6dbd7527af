"""The Gymnasium env's info dict deep-copies cheaply and independently (SB3's DummyVecEnv copies it every step)."""

import copy

import numpy as np

from fof_env.envs.gym_env import WargameEnv
from fof_env.envs.infos import StepInfo


def test_a_deep_copy_of_an_info_is_equal_and_independent():
    env = WargameEnv(game="strike_force_one", side="us", opponent="random")
    _, info = env.reset(seed=3)
    assert isinstance(info, StepInfo)
    info["score"] = {"soviet_towns": 1}  # the end-of-game entries are containers: copied too
    other = copy.deepcopy(info)
    assert other.keys() == info.keys() and np.array_equal(other["action_mask"], info["action_mask"])
    other["action_mask"][:] = False
    other["score"]["soviet_towns"] = 3
    assert info["action_mask"].any() and info["score"] == {"soviet_towns": 1}
    assert {k: v for k, v in other.items() if k not in ("action_mask", "score")} == {
        k: v for k, v in info.items() if k not in ("action_mask", "score")
    }
