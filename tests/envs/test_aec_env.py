"""The PettingZoo AEC adapter (every game)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from fof_env.core.errors import IllegalActionError, OptionError
from fof_env.envs.aec_env import WargameAECEnv, env, raw_env
from tests.envs.conftest import GAME, GAME_SIDES, GAMES, LAF, LAF_SIDES, OTHER_RULES, SIDES
from tests.envs.potentials import lost_and_found_phi


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        # api_test recommends agent names like "player_0"; ours are the side names.
        warnings.filterwarnings("ignore", message=".*agents to be named.*")
        yield


@pytest.mark.parametrize("other", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_api_test(game, other):
    kwargs = {**OTHER_RULES[game], "reward": "shaped", "auto_single": True} if other else {}
    api_test(env(game=game, **kwargs), num_cycles=1000)


@pytest.mark.parametrize("game", GAMES)
def test_api_test_raw(game):
    api_test(raw_env(game=game), num_cycles=200)


@pytest.mark.parametrize("other_rules", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_seed_test(game, other_rules):
    options = OTHER_RULES[game] if other_rules else {}
    seed_test(lambda: env(game=game, **options), num_cycles=500)


@pytest.mark.parametrize("auto_single", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_agent_selection_follows_the_engine(game, auto_single):
    sides = GAME_SIDES[game]
    e = WargameAECEnv(game, auto_single=auto_single, infos="full")
    rng = np.random.default_rng(0)
    assert e.possible_agents == list(sides)
    for seed in range(4 if game == GAME else 10):
        e.reset(seed=seed)
        runs = same = 0
        previous = None
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                assert terminated and not truncated
                assert info["winner"] in (*sides, None)
                assert reward == pytest.approx(info["returns"][sides.index(agent)])
                e.step(None)
                continue
            state = e.game_state
            assert sides[state.current_player] == agent
            assert info["decision"] == state.decision.kind
            assert e.infos[sides[1 - sides.index(agent)]]["decision"] is None
            assert np.array_equal(obs["action_mask"].astype(bool), state.legal_mask())
            assert np.array_equal(obs["observation"], state.observation(sides.index(agent)))
            other = e.observe(sides[1 - sides.index(agent)])
            assert not other["action_mask"].any()
            if auto_single:
                assert obs["action_mask"].sum() > 1
            same += agent == previous
            runs += 1
            previous = agent
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert e.agents == []
        if game == GAME:
            assert same > runs / 2  # turns do not alternate: most decisions follow one by the same side
        else:
            assert same > 0  # e.g. the Taliban deploy every team, then decide which hide


def _random_episode_rewards(e, rng) -> dict[str, float]:
    """Play the reset env ``e`` to its end with random legal actions; each agent's summed rewards
    (``last()`` reports the cumulative reward since the agent last acted: the sum is the episode's)."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, r, terminated, truncated, info = e.last()
        totals[agent] += r
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("reward", ["win", "shaped"])
def test_lost_and_found_rewards_sum_to_the_returns(reward):
    e = WargameAECEnv(LAF, reward=reward)
    rng = np.random.default_rng(2)
    for seed in range(10):
        e.reset(seed=seed)
        start = [lost_and_found_phi(e.game_state, p) for p in (0, 1)]
        totals = _random_episode_rewards(e, rng)
        state = e.game_state
        for p, side in enumerate(LAF_SIDES):
            expected = state.returns()[p]
            if reward == "shaped":
                expected += lost_and_found_phi(state, p) - start[p]
            assert totals[side] == pytest.approx(expected)


def test_illegal_action_raises_state_unchanged():
    e = WargameAECEnv(GAME)
    e.reset(seed=0)
    record = e.game_state.to_json()
    with pytest.raises(IllegalActionError, match="select_unit .soviet to decide.*78=pass"):
        e.step(0)
    assert e.game_state.to_json() == record


def test_lost_and_found_illegal_action_raises_state_unchanged():
    e = WargameAECEnv(LAF)
    e.reset(seed=0)
    record = e.game_state.to_json()
    with pytest.raises(IllegalActionError, match=r"deploy .taliban to decide.*=x19y07"):
        e.step(353)
    assert e.game_state.to_json() == record


def test_unknown_option():
    with pytest.raises(OptionError, match="bogus"):
        WargameAECEnv(GAME, bogus=True)
    with pytest.raises(OptionError, match="bogus.*rules"):
        WargameAECEnv(LAF, bogus=True)


@pytest.mark.parametrize("game", GAMES)
def test_render_modes(game):
    e = WargameAECEnv(game, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    if game == GAME:
        assert "0101" in text
    else:
        assert "pilot: x21y17" in text and "tal.1" in text and "deploy" in text
    e = WargameAECEnv(game, render_mode="rgb_array")
    e.reset(seed=0)
    image = e.render()
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8


def test_sides_of_lost_and_found():
    e = WargameAECEnv(LAF)
    assert e.possible_agents == list(LAF_SIDES) and SIDES != LAF_SIDES
    e.reset(seed=0)
    assert e.agent_selection == "taliban"
    assert e.observation_space("usmc")["action_mask"].shape == (354,)


@pytest.mark.parametrize("game", GAMES)
def test_minimal_infos_are_numbers_with_the_same_keys_every_step(game):
    sides = GAME_SIDES[game]
    e = WargameAECEnv(game)  # infos="minimal" is the default
    rng = np.random.default_rng(4)
    for seed in range(3):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            assert set(e.infos) == set(e.agents)
            for a, info in e.infos.items():
                assert set(info) == {"acting", "result", "illegal"}
                assert {type(v) for v in info.values()} <= {np.int64, np.float32}, info
                assert info["acting"] == int(not e.terminations[a] and a == e.agent_selection)
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                assert info["result"] == e.game_state.returns()[sides.index(agent)] != 0.0 or game == LAF
                assert info["illegal"] == 0 and info["acting"] == 0
                e.step(None)
                continue
            assert info["result"] == 0.0 and info["acting"] == 1
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("infos", ["minimal", "full"])
@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_loss_ends_the_game_for_the_agent_that_played_it(game, infos):
    sides = GAME_SIDES[game]
    e = env(game=game, illegal_action="loss", infos=infos)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(5):  # a few legal decisions first
        e.step(int(rng.choice(np.flatnonzero(e.last()[0]["action_mask"]))))
    culprit = e.agent_selection
    other = sides[1 - sides.index(culprit)]
    record = e.unwrapped.game_state.to_json()
    illegal = int(np.flatnonzero(e.observe(culprit)["action_mask"] == 0)[0])
    e.step(illegal)
    assert e.unwrapped.game_state.to_json() == record  # the state is left as it was
    assert e.terminations == {culprit: True, other: True} and not any(e.truncations.values())
    assert e.rewards == {culprit: -1.0, other: 1.0}
    for a in sides:
        assert not e.observe(a)["action_mask"].any()
    if infos == "minimal":
        assert e.infos[culprit] == {"acting": 0, "result": -1.0, "illegal": 1}
        assert e.infos[other] == {"acting": 0, "result": 1.0, "illegal": 1}
    else:
        assert e.infos[culprit]["winner"] == other and f"illegal action {illegal}" in e.infos[culprit]["illegal_action"]
        assert e.infos[culprit]["termination"] == e.infos[other]["termination"] == "illegal action"
        assert e.infos[other]["returns"][sides.index(culprit)] == -1.0
    totals = dict.fromkeys(sides, 0.0)
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        assert terminated
        totals[agent] += reward
        e.step(None)
    assert totals == {culprit: -1.0, other: 1.0} and e.agents == []
    with pytest.raises(ValueError, match="illegal_action"):
        WargameAECEnv(game, illegal_action="ignore")
    with pytest.raises(ValueError, match="infos"):
        WargameAECEnv(game, infos="some")


@pytest.mark.parametrize("game", GAMES)
def test_unknown_keyword_is_also_a_type_error_worded_like_pythons(game):
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'frameskip'") as err:
        WargameAECEnv(game, frameskip=4)
    assert isinstance(err.value, OptionError) and "illegal_action, infos" in str(err.value)


def test_human_render_prints_the_text_map(capsys):
    e = WargameAECEnv(GAME, render_mode="human")
    e.reset(seed=0)
    assert e.render() is None
    printed = capsys.readouterr().out
    assert printed == str(e.game_state) + "\n" and "0101" in printed
    assert e.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    e.metadata["render_modes"].append("x")  # what CaptureStdoutWrapper does: no other env sees it
    assert WargameAECEnv(GAME).metadata["render_modes"] == ["human", "ansi", "rgb_array"]


def test_an_unknown_render_mode_is_refused():
    with pytest.raises(ValueError, match="render_mode must be None or one of"):
        WargameAECEnv(GAME, render_mode="video")


def test_margin_rewards_sum_to_each_sides_vp_lead():
    e = WargameAECEnv("compound_raid", reward="margin")
    rng = np.random.default_rng(4)
    for seed in range(3):
        e.reset(seed=seed)
        totals = _random_episode_rewards(e, rng)
        vp = e.game_state.victory_points()
        for p, agent in enumerate(e.possible_agents):
            assert totals[agent] == pytest.approx((vp[p] - vp[1 - p]) / 20)  # no +/-1 for the result
        assert e.game_state.is_terminal
