"""The learned-policy agent: loads a MaskablePPO zip, checks its card, plays only legal actions."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from agents.base import make_agent  # noqa: E402
from agents.ppo import CARD_FORMAT, shipped_model_path, shipped_models  # noqa: E402
from evaluation.match import play_game  # noqa: E402
from fof_env.core.registry import make_game  # noqa: E402
from fof_env.envs.gym_env import WargameEnv  # noqa: E402
from tests.agents.bot_checks import act_without_touching  # noqa: E402


@pytest.fixture(scope="module")
def untrained_model(tmp_path_factory):
    """An untrained Lost & Found Taliban model with a hand-written card."""
    from sb3_contrib import MaskablePPO

    path = tmp_path_factory.mktemp("model") / "model.zip"
    env = WargameEnv("lost_and_found", side="taliban")
    MaskablePPO("MlpPolicy", env, policy_kwargs={"net_arch": [16]}, seed=0, device="cpu").save(path)
    game = env.game
    card = {"format": CARD_FORMAT, "game": game.name, "side": "taliban", "observation_version": 1,
            "num_actions": game.num_actions}
    path.with_suffix(".json").write_text(json.dumps(card))
    return path


def test_plays_only_legal_actions_and_never_touches_the_state(untrained_model):
    game = make_game("lost_and_found")
    agent = make_agent("ppo", game, "taliban", seed=0, path=str(untrained_model))
    other = make_agent("random", game, "usmc", seed=0)
    state = game.new_initial_state(3)
    while not state.is_terminal:
        action = act_without_touching(agent, state) if state.current_player == 0 else other.act(state)
        state.apply(action)


def test_sampling_is_seeded_by_the_agent(untrained_model):
    game = make_game("lost_and_found")

    def game_actions(seed):
        agents = [make_agent("ppo", game, 0, seed=seed, path=str(untrained_model), deterministic="false"),
                  make_agent("random", game, 1, seed=1)]
        return json.loads(play_game(game, agents, 5).record)["actions"]

    assert game_actions(7) == game_actions(7)


def test_probabilities_are_zero_on_illegal_actions(untrained_model):
    game = make_game("lost_and_found")
    agent = make_agent("ppo", game, "taliban", path=str(untrained_model))
    state = game.new_initial_state(0)
    probs = agent.action_probabilities(state)
    assert np.all(probs[~state.legal_mask()] == 0) and probs.sum() == pytest.approx(1.0, abs=1e-5)


def test_a_model_for_another_side_or_game_is_refused(untrained_model):
    with pytest.raises(ValueError, match="plays side 'taliban', not 'usmc'"):
        make_agent("ppo", make_game("lost_and_found"), "usmc", path=str(untrained_model))
    with pytest.raises(ValueError, match="trained for game 'lost_and_found'"):
        make_agent("ppo", make_game("strike_force_one"), "soviet", path=str(untrained_model))
    with pytest.raises(FileNotFoundError):
        make_agent("ppo", make_game("lost_and_found"), "taliban", path="no/such/model.zip")
    with pytest.raises(ValueError, match="deterministic must be true or false"):
        make_agent("ppo", make_game("lost_and_found"), "taliban", path=str(untrained_model), deterministic="maybe")


@pytest.mark.parametrize("game_name, side", [("strike_force_one", "soviet"), ("lost_and_found", "taliban")])
def test_the_shipped_model_loads_without_a_path(game_name, side):
    """make_agent("ppo", ...) with no path plays the pretrained model of the side."""
    path = shipped_model_path(game_name, side)
    assert path in shipped_models() and path.stat().st_size < 5_000_000
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["command"].startswith("fof train ") and card["wall_seconds"] <= 30 * 60
    game = make_game(game_name)
    agent = make_agent("ppo", game, side, seed=0)
    assert agent.path == path
    result = play_game(game, [agent, make_agent("random", game, 1, seed=0)] if side == game.player_names[0]
                       else [make_agent("random", game, 0, seed=0), agent], 11)
    assert result.decisions > 0
