"""The Gymnasium adapter: API conformance, masks, illegal actions, rewards, seeding."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import fof_env
from fof_env.core.errors import IllegalActionError, OptionError
from fof_env.envs.gym_env import IllegalActionLoss, LearnerIllegalActionError, WargameEnv
from fof_env.envs.shaping import strike_force_one_potential
from tests.envs.conftest import GAME, SIDES, random_legal


@pytest.mark.parametrize("optional_rules", [False, True])
@pytest.mark.parametrize("side", SIDES)
def test_check_env(side, optional_rules):
    # check_env steps with unmasked action_space.sample() (sampled *before* a reset in its
    # determinism check), so it can only pass where an illegal action ends the episode.
    env = WargameEnv(
        GAME, side=side, optional_rules=optional_rules, illegal_action="loss", render_mode="ansi"
    )
    check_env(env.unwrapped)


def test_check_env_rgb_render():
    env = WargameEnv(GAME, side="us", illegal_action="loss", render_mode="rgb_array")
    check_env(env.unwrapped)


def test_check_env_through_gym_make_checks_every_render_mode():
    env = gym.make("fof_env/StrikeForceOne-v0", side="us", illegal_action="loss", render_mode="ansi")
    check_env(env.unwrapped)


def test_spaces_match_the_game():
    game = fof_env.make_game(GAME)
    env = WargameEnv(GAME)
    assert env.action_space == gym.spaces.Discrete(game.num_actions)
    assert env.observation_space.shape == game.observation_shape
    assert env.observation_space.dtype == np.float32


@pytest.mark.parametrize("auto_single", [True, False])
@pytest.mark.parametrize("side", SIDES)
def test_masks_are_the_engines_legal_mask(side, auto_single, opponent):
    env = WargameEnv(GAME, side=side, opponent=opponent, auto_single=auto_single, optional_rules=True)
    rng = np.random.default_rng(1)
    singles = 0
    for episode in range(4):
        obs, info = env.reset(seed=100 + episode)
        done = False
        while not done:
            state = env.game_state
            assert state.current_player == env.player
            expected = state.legal_mask()
            assert np.array_equal(env.action_masks(), expected)
            assert np.array_equal(info["action_mask"], expected)
            assert info["decision"] == state.decision.kind
            assert env.observation_space.contains(obs)
            assert np.array_equal(obs, state.observation(env.player))
            singles += expected.sum() == 1
            obs, reward, terminated, truncated, info = env.step(random_legal(rng, expected))
            done = terminated or truncated
        assert terminated and not truncated
        assert not info["action_mask"].any() and info["decision"] == "terminal"
        assert info["winner"] in SIDES and set(info["score"]) >= {"soviet_towns"}
    if auto_single:
        assert singles == 0  # the env applied every single-choice learner decision


def test_illegal_action_raises_and_changes_nothing():
    env = WargameEnv(GAME, side="soviet")
    obs, info = env.reset(seed=3)
    record = env.game_state.to_json()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(LearnerIllegalActionError) as err:
        env.step(illegal)
    message = str(err.value)
    assert f"illegal action {illegal}" in message and "select_unit" in message
    assert "68=sov.A" in message and "78=pass" in message  # every legal action, index and text
    assert isinstance(err.value, IllegalActionError) and isinstance(err.value, ValueError)
    assert env.game_state.to_json() == record
    assert np.array_equal(env.action_masks(), info["action_mask"])
    for bad in (-1, 80, 2.5, None, "0909"):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    assert env.game_state.to_json() == record
    env.step(np.int64(78))  # still playable; numpy integers are accepted


def test_illegal_action_loss_mode_and_wrapper():
    for env in (WargameEnv(GAME, illegal_action="loss"), IllegalActionLoss(WargameEnv(GAME))):
        obs, info = env.reset(seed=0)
        obs, reward, terminated, truncated, info = env.step(0)
        assert (reward, terminated, truncated) == (-1.0, True, False)
        assert info["winner"] == "us" and "illegal action 0" in info["illegal_action"]
        with pytest.raises(gym.error.ResetNeeded):
            env.step(78)


class _CheatingOpponent:
    player = 1

    def act(self, state):
        return 0  # never legal for the U.S. at its first decision


def test_opponent_illegal_action_is_not_a_learner_loss():
    env = IllegalActionLoss(WargameEnv(GAME, side="soviet", opponent=_CheatingOpponent()))
    env.reset(seed=0)
    with pytest.raises(IllegalActionError) as err:
        while True:
            env.step(78)  # soviet passes until the opponent must act
    assert not isinstance(err.value, LearnerIllegalActionError)
    assert "opponent us" in str(err.value)


def _terminal_position():
    # Turn 4, Soviet movement: the Soviets hold two towns; only U.S. decisions remain
    # once the Soviet learner passes, so the opponent's decision ends the game.
    return {
        "turn": 4,
        "phase": "soviet_move",
        "units": {"soviet": {"A": "0303", "B": "0506"}, "us": {"A": "0801", "B": "0109"}},
    }


@pytest.mark.parametrize("reward_mode", ["win", "shaped"])
def test_terminal_reward_reaches_learner_when_opponent_ends_game(reward_mode):
    env = WargameEnv(GAME, side="soviet", reward=reward_mode)
    for seed in range(5):
        obs, info = env.reset(seed=seed, options={"position": _terminal_position()})
        assert info["decision"] == "select_unit"
        start_phi = strike_force_one_potential(env.game_state, 0)
        after_pass = env.game_state.clone()
        after_pass.apply(78)
        assert not after_pass.is_terminal and after_pass.current_player == 1  # the U.S. must still act
        obs, reward, terminated, truncated, info = env.step(78)  # pass: end the Soviet turn
        assert terminated and not truncated
        assert info["opponent_actions"] > 0
        expected = info["returns"][0]
        if reward_mode == "shaped":
            expected += strike_force_one_potential(env.game_state, 0) - start_phi
        assert reward == pytest.approx(expected)
        assert abs(info["returns"][0]) == 1.0


@pytest.mark.parametrize("side", SIDES)
def test_episode_reward_is_the_result(side, opponent):
    env = WargameEnv(GAME, side=side, opponent=opponent)
    shaped = WargameEnv(GAME, side=side, opponent=opponent, reward="shaped")
    rng = np.random.default_rng(7)
    ended_by_opponent = 0
    for seed in range(12):
        for e in (env, shaped):
            e.reset(seed=seed)
        start_phi = strike_force_one_potential(shaped.game_state, shaped.player)
        total = total_shaped = 0.0
        done = False
        while not done:
            a = random_legal(rng, env.action_masks())
            _, r, terminated, truncated, info = env.step(a)
            _, rs, *_ = shaped.step(a)
            total += r
            total_shaped += rs
            done = terminated or truncated
        assert total == info["returns"][env.player] == (1.0 if info["winner"] == side else -1.0)
        final_phi = strike_force_one_potential(shaped.game_state, shaped.player)
        assert total_shaped == pytest.approx(total + final_phi - start_phi)
        ended_by_opponent += info["opponent_actions"] > 0
    if side == "soviet":
        assert ended_by_opponent > 0  # the U.S. combat phase ends every full game


def _rollout(env, seed, actions_rng_seed, n=200):
    rng = np.random.default_rng(actions_rng_seed)
    obs, info = env.reset(seed=seed)
    trace = [(obs, None, info["action_mask"])]
    for _ in range(n):
        a = random_legal(rng, info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(a)
        trace.append((obs, reward, info["action_mask"]))
        if terminated or truncated:
            obs, info = env.reset()  # unseeded: continues the env's own seeded stream
            trace.append((obs, None, info["action_mask"]))
    return trace


@pytest.mark.parametrize("side", SIDES)
def test_same_seed_same_actions_same_episode(side, opponent):
    a = _rollout(WargameEnv(GAME, side=side, opponent=opponent), seed=11, actions_rng_seed=5)
    b = _rollout(WargameEnv(GAME, side=side, opponent=opponent), seed=11, actions_rng_seed=5)
    assert len(a) == len(b)
    for (oa, ra, ma), (ob, rb, mb) in zip(a, b, strict=True):
        assert np.array_equal(oa, ob) and ra == rb and np.array_equal(ma, mb)
    c = _rollout(WargameEnv(GAME, side=side, opponent=opponent), seed=12, actions_rng_seed=5)
    assert any(not np.array_equal(x[0], y[0]) for x, y in zip(a, c, strict=False))


def test_seeded_reset_is_that_game():
    game = fof_env.make_game(GAME)
    env = WargameEnv(GAME, side="soviet")
    obs, info = env.reset(seed=42)
    assert info["episode_seed"] == 42
    assert np.array_equal(obs, game.new_initial_state(42).observation(0))
    # the engine's dice are the game's: the record replays
    rng = np.random.default_rng(0)
    for _ in range(30):
        obs, r, term, trunc, info = env.step(random_legal(rng, info["action_mask"]))
        if term:
            break
    replay = game.state_from_json(env.game_state.to_json())
    assert replay.history == env.game_state.history
    assert np.array_equal(replay.observation(0), env.game_state.observation(0))


def test_unseeded_resets_are_reproducible_after_one_seed():
    seeds = []
    for _ in range(2):
        env = WargameEnv(GAME, side="us")
        env.reset(seed=9)
        seeds.append([env.reset()[1]["episode_seed"] for _ in range(3)])
    assert seeds[0] == seeds[1] and len(set(seeds[0])) == 3


def test_options_and_arguments_are_checked():
    with pytest.raises(OptionError, match="unknown option.*bogus.*side, opponent"):
        WargameEnv(GAME, bogus=1)
    with pytest.raises(OptionError, match="optional_rules"):
        WargameEnv(GAME, optional_rules="yes")
    with pytest.raises(OptionError, match="unknown game"):
        WargameEnv("chess")
    with pytest.raises(ValueError, match="unknown side"):
        WargameEnv(GAME, side="nato")
    with pytest.raises(ValueError, match="unknown agent kind"):
        WargameEnv(GAME, opponent="grandmaster")
    with pytest.raises(ValueError, match="reward"):
        WargameEnv(GAME, reward="dense")
    with pytest.raises(ValueError, match="render_mode"):
        WargameEnv(GAME, render_mode="human")
    with pytest.raises(ValueError, match="illegal_action"):
        WargameEnv(GAME, illegal_action="ignore")
    with pytest.raises(ValueError, match="plays player 1"):
        WargameEnv(GAME, side="us", opponent=_CheatingOpponent())
    with pytest.raises(ValueError, match="reset option"):
        WargameEnv(GAME).reset(options={"positon": {}})
    with pytest.raises(gym.error.ResetNeeded):
        WargameEnv(GAME).step(78)


def test_side_by_index_and_game_object():
    game = fof_env.make_game(GAME, optional_rules=True)
    env = WargameEnv(game, side=1)
    assert env.side == "us" and env.game is game
    with pytest.raises(OptionError):
        WargameEnv(game, optional_rules=True)


def test_gym_make_ids_and_kwargs():
    assert "fof_env/StrikeForceOne-v0" in gym.registry
    env = gym.make("fof_env/StrikeForceOne-v0", side="us", opponent="random", optional_rules=True)
    obs, info = env.reset(seed=0)
    assert env.unwrapped.game.options == {"optional_rules": True}
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"])
    a = int(np.flatnonzero(info["action_mask"])[0])
    env.step(a)
    env.close()
