"""TorchRL: ``PettingZooWrapper(use_mask=True)`` on the AEC env and ``GymEnv`` by Gymnasium id."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("torchrl", reason="TorchRL is in the dev extras (torchrl==0.14.1)")

import torch  # noqa: E402
from torchrl.envs import ActionMask, GymEnv, PettingZooWrapper, TransformedEnv  # noqa: E402
from torchrl.envs.utils import check_env_specs  # noqa: E402

from fof_env.envs.aec_env import env as aec_env  # noqa: E402
from tests.integrations.conftest import GAMES, IDS, LONGER, SIDES  # noqa: E402


@pytest.fixture(autouse=True)
def _quiet_and_seeded():
    torch.manual_seed(0)  # TorchRL's random rollouts draw from torch's global generator
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_wrapper_masked_rollout(game):
    env = PettingZooWrapper(aec_env(game=game), use_mask=True, seed=0)
    check_env_specs(env)
    steps = 150 * LONGER.get(game, 1)
    td = env.rollout(steps, break_when_any_done=False)  # raises on any illegal action (illegal_action="raise")
    acted = 0
    for side in SIDES[game]:
        group = td[side]
        acting = group["mask"][:, 0]  # TorchRL's per-agent "is acting now" mask
        assert torch.equal(acting, group["info", "acting"][:, 0].bool())
        mask, action = group["action_mask"][acting, 0], group["action"][acting, 0]
        assert mask.any(-1).all()  # the agent to act always has a legal action
        assert mask.gather(-1, action[:, None]).all()  # and took one
        acted += int(acting.sum())
    assert acted == steps  # exactly one agent decides at every step
    assert td["next", "done"].any()  # a game ended and the next one started inside the rollout


@pytest.mark.parametrize("game", GAMES)
def test_gym_env_by_id_masked_rollout(game):
    side = SIDES[game][1]
    base = GymEnv(IDS[game], side=side, infos="minimal", illegal_action="loss")  # probes frameskip
    assert base.wrapper_frame_skip == 1 and base._env.unwrapped.side == side
    env = TransformedEnv(base.auto_register_info_dict(), ActionMask())
    check_env_specs(env)
    td = env.rollout(200 * LONGER.get(game, 1), break_when_any_done=False)
    action = td["action"].argmax(-1)  # one-hot actions
    assert td["action_mask"].any(-1).all()  # never all False, across episode ends too
    assert td["action_mask"].gather(-1, action[:, None]).all()
    assert not td["next", "illegal"].any()  # no episode was lost to an illegal action
    assert td["next", "done"].sum() >= 2
    finals = td["next", "result"][td["next", "done"].squeeze(-1)]
    assert set(finals.flatten().tolist()) <= {-1.0, 0.0, 1.0}
