"""The Gymnasium adapter: API conformance, masks, illegal actions, rewards, seeding (every game)."""

from __future__ import annotations

import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import fof_env
from fof_env.core.errors import IllegalActionError, OptionError
from fof_env.envs.gym_env import IllegalActionLoss, LearnerIllegalActionError, WargameEnv
from fof_env.envs.registration import env_id
from tests.envs.conftest import GAME, GAME_SIDES, GAMES, LAF, LAF_SIDES, OTHER_RULES, random_legal
from tests.envs.potentials import lost_and_found_phi, strike_force_one_phi

SCORE_KEYS = {GAME: {"soviet_towns"}, LAF: {"taliban_vp", "usmc_vp", "taliban_auto_victory"}}


@pytest.mark.parametrize("other_rules", [False, True])
@pytest.mark.parametrize("side", [0, 1])
@pytest.mark.parametrize("game", GAMES)
def test_check_env(game, side, other_rules):
    # check_env steps with unmasked action_space.sample() (sampled *before* a reset in its
    # determinism check), so it can only pass where an illegal action ends the episode.
    options = OTHER_RULES[game] if other_rules else {}
    env = WargameEnv(game, side=GAME_SIDES[game][side], illegal_action="loss", render_mode="ansi", **options)
    check_env(env.unwrapped)


@pytest.mark.parametrize("game", GAMES)
def test_check_env_rgb_render(game):
    env = WargameEnv(game, side=GAME_SIDES[game][1], illegal_action="loss", render_mode="rgb_array")
    check_env(env.unwrapped)


@pytest.mark.parametrize(
    "game, side", [(GAME, "us"), (LAF, "taliban"), (LAF, "usmc")], ids=["sfo-us", "laf-taliban", "laf-usmc"]
)
def test_check_env_through_gym_make_checks_every_render_mode(game, side):
    env = gym.make(env_id(game), side=side, illegal_action="loss", render_mode="ansi")
    check_env(env.unwrapped)


@pytest.mark.parametrize("game", GAMES)
def test_spaces_match_the_game(game):
    g = fof_env.make_game(game)
    env = WargameEnv(game)
    assert env.action_space == gym.spaces.Discrete(g.num_actions)
    assert env.observation_space.shape == g.observation_shape
    assert env.observation_space.dtype == np.float32
    assert env.observation_space.low.min() == -1.0 and env.observation_space.high.max() == 1.0


def test_lost_and_found_spaces():
    env = gym.make("fof_env/LostAndFound-v0", side="usmc")
    assert env.action_space == gym.spaces.Discrete(354)
    assert env.unwrapped.side == "usmc" and env.unwrapped.opponent_side == "taliban"


@pytest.mark.parametrize("auto_single", [True, False])
@pytest.mark.parametrize("side", [0, 1])
def test_masks_are_the_engines_legal_mask(side, auto_single, game_opponent):
    game, opponent = game_opponent
    options = OTHER_RULES[game]
    env = WargameEnv(game, side=side, opponent=opponent, auto_single=auto_single, **options)
    rng = np.random.default_rng(1)
    singles = 0
    for episode in range(4 if game == GAME else 8):
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
        assert terminated and not truncated and env.game_state.is_terminal
        assert not env.game_state.legal_mask().any() and info["decision"] == "terminal"
        # the end's mask is the next unseeded episode's first mask: never all False (NEXT_STEP)
        end_mask = info["action_mask"]
        assert end_mask.any() and np.array_equal(env.action_masks(), end_mask)
        assert info["winner"] in (*GAME_SIDES[game], None) and set(info["score"]) >= SCORE_KEYS[game]
        assert info["termination"] == env.game_state.outcome().termination  # why it ended: the game's Outcome
        if game == GAME:
            assert info["winner"] is not None  # Strike Force One has no draws
        _, next_info = env.reset()
        assert np.array_equal(next_info["action_mask"], end_mask)
        assert np.array_equal(next_info["action_mask"], env.game_state.legal_mask())
    if auto_single:
        assert singles == 0  # the env applied every single-choice learner decision


def _hidden_taliban_are_blank(obs: np.ndarray, state) -> int:
    """Assert the USMC observation shows nothing of hidden Taliban units but the flag; count them."""
    from fof_env.force_on_force import observation as fo
    from tests.force_on_force.helpers import LAF as st

    n = st.NUM_POINTS
    board_at = fo.piece(st.LAYOUT, "board")[0]
    known_enemy = obs[board_at + 5 * n : board_at + 6 * n]
    hidden = 0
    for u in st.SIDE_UNITS[st.TALIBAN]:
        if not state.hidden[u] or not any(state.figs[u]):
            continue
        hidden += 1
        base = fo.unit_row(st.LAYOUT, st.USMC, u)
        row = obs[base : base + fo.UNIT_FEATURES]
        assert row[14] == 1.0 and np.count_nonzero(row) == 1, f"hidden {st.UNIT_NAMES[u]} leaks: {row}"
        if state.pos[u] >= 0 and all(state.pos[t] != state.pos[u] for t in range(st.NUM_UNITS) if t != u):
            assert known_enemy[state.pos[u]] == 0.0, f"hidden {st.UNIT_NAMES[u]} marked on the board"
    return hidden


def test_lost_and_found_usmc_never_sees_hidden_taliban(laf_opponent):
    env = WargameEnv(LAF, side="usmc", opponent=laf_opponent)
    rng = np.random.default_rng(3)
    seen_hidden = 0
    for seed in range(10):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            seen_hidden += _hidden_taliban_are_blank(obs, env.game_state)
            obs, _, terminated, truncated, info = env.step(random_legal(rng, info["action_mask"]))
            done = terminated or truncated
    assert seen_hidden > 0  # the Taliban do hide in these games


@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_raises_and_changes_nothing(game):
    env = WargameEnv(game, side=0)
    obs, info = env.reset(seed=3)
    state = env.game_state
    record = state.to_json()
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(LearnerIllegalActionError) as err:
        env.step(illegal)
    message = str(err.value)
    assert f"illegal action {illegal}" in message and state.decision.kind in message
    for a in state.legal_actions():  # every legal action, index and text
        assert f"{a}={state.action_to_str(a)}" in message
    if game == GAME:
        assert "select_unit" in message and "68=sov.A" in message and "78=pass" in message
    assert isinstance(err.value, IllegalActionError) and isinstance(err.value, ValueError)
    assert env.game_state.to_json() == record
    assert np.array_equal(env.action_masks(), info["action_mask"])
    n = env.action_space.n
    for bad in (-1, n, 2.5, None, "0909", "x02y02"):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    assert env.game_state.to_json() == record
    env.step(np.int64(np.flatnonzero(info["action_mask"])[-1]))  # still playable; numpy integers work


@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_loss_mode_and_wrapper(game):
    g = fof_env.make_game(game)
    for env in (WargameEnv(game, illegal_action="loss"), IllegalActionLoss(WargameEnv(game))):
        obs, info = env.reset(seed=0)
        illegal = int(np.flatnonzero(~info["action_mask"])[0])
        legal = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, terminated, truncated, info = env.step(illegal)
        assert (reward, terminated, truncated) == (-1.0, True, False)
        assert info["winner"] == g.player_names[1] and f"illegal action {illegal}" in info["illegal_action"]
        assert info["termination"] == "illegal action" and info["returns"] == (-1.0, 1.0)
        assert (info["opponent_actions"], info["auto_actions"]) == (0, 0)  # nothing was played
        with pytest.raises(gym.error.ResetNeeded):
            env.step(legal)


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


class _CheatingTaliban:
    player = 0

    def act(self, state):
        return 353  # "yes" (call the air strike): never a Taliban action


def test_lost_and_found_opponent_illegal_action_is_not_a_learner_loss():
    with pytest.raises(IllegalActionError) as err:
        IllegalActionLoss(WargameEnv(LAF, side="usmc", opponent=_CheatingTaliban())).reset(seed=0)
    assert not isinstance(err.value, LearnerIllegalActionError)
    assert "opponent taliban" in str(err.value) and "deploy" in str(err.value)


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
        start_phi = 0.1 * 2 + 0.02 * (2 - 2)  # two towns, two units a side
        after_pass = env.game_state.clone()
        after_pass.apply(78)
        assert not after_pass.is_terminal and after_pass.current_player == 1  # the U.S. must still act
        obs, reward, terminated, truncated, info = env.step(78)  # pass: end the Soviet turn
        assert terminated and not truncated
        assert info["opponent_actions"] > 0
        expected = info["returns"][0]
        if reward_mode == "shaped":
            expected += strike_force_one_phi(env.game_state, 0) - start_phi
        assert reward == pytest.approx(expected)
        assert abs(info["returns"][0]) == 1.0


def _laf_last_turn(initiative: str) -> dict:
    # Turn 8 (the pilot's deadline), the initiative side's portion: once the learner (the
    # initiative side) passes, the opponent plays its portion and the end of the turn ends
    # the game: the pilot is still on the table, an automatic Taliban victory.
    return {
        "stage": "activation",
        "turn": 8,
        "initiative": initiative,
        "portion": "initiative",
        "units": {"tal.1": {"at": "x35y35"}, "usmc.A": {"at": "x01y01"}, "usmc.B": {"at": "x01y03"}},
        "pilot": {"at": "x21y17"},
    }


@pytest.mark.parametrize("reward_mode", ["win", "shaped"])
@pytest.mark.parametrize("side", LAF_SIDES)
def test_lost_and_found_terminal_reward_reaches_learner_when_opponent_ends_game(side, reward_mode):
    env = WargameEnv(LAF, side=side, reward=reward_mode)
    player = env.player
    for seed in range(5):
        obs, info = env.reset(seed=seed, options={"position": _laf_last_turn(side)})
        assert info["decision"] == "select_unit"
        state = env.game_state
        start_phi = lost_and_found_phi(state, player)
        after_pass = state.clone()
        after_pass.apply("pass")
        assert not after_pass.is_terminal and after_pass.current_player == 1 - player  # opponent's portion
        obs, reward, terminated, truncated, info = env.step(state.str_to_action("pass"))
        assert terminated and not truncated
        assert info["opponent_actions"] > 0 and info["winner"] == "taliban"
        assert info["score"]["taliban_auto_victory"] == 1
        expected = info["returns"][player]
        assert expected == (1.0 if side == "taliban" else -1.0)
        if reward_mode == "shaped":
            expected += lost_and_found_phi(env.game_state, player) - start_phi
        assert reward == pytest.approx(expected)


@pytest.mark.parametrize("side", [0, 1])
def test_episode_reward_is_the_result(side, game_opponent):
    game, opponent = game_opponent
    env = WargameEnv(game, side=side, opponent=opponent)
    shaped = WargameEnv(game, side=side, opponent=opponent, reward="shaped")
    potential = strike_force_one_phi if game == GAME else lost_and_found_phi
    rng = np.random.default_rng(7)
    ended_by_opponent = 0
    for seed in range(12 if game == GAME else 20):
        for e in (env, shaped):
            e.reset(seed=seed)
        start_phi = potential(shaped.game_state, shaped.player)
        total = total_shaped = 0.0
        done = False
        while not done:
            a = random_legal(rng, env.action_masks())
            _, r, terminated, truncated, info = env.step(a)
            _, rs, *_ = shaped.step(a)
            total += r
            total_shaped += rs
            done = terminated or truncated
        expected = 0.0 if info["winner"] is None else (1.0 if info["winner"] == env.side else -1.0)
        assert total == info["returns"][env.player] == expected
        final_phi = potential(shaped.game_state, shaped.player)
        assert total_shaped == pytest.approx(total + final_phi - start_phi)
        assert abs(final_phi - start_phi) < 1.0  # shaping never outweighs the result
        ended_by_opponent += info["opponent_actions"] > 0
    if (game, side) in ((GAME, 0), (LAF, 0)):
        # the U.S. combat phase ends every full SFO game; the USMC's air strike call and the
        # end of a USMC portion end many Lost & Found games
        assert ended_by_opponent > 0


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


@pytest.mark.parametrize("side", [0, 1])
def test_same_seed_same_actions_same_episode(side, game_opponent):
    game, opponent = game_opponent
    a = _rollout(WargameEnv(game, side=side, opponent=opponent), seed=11, actions_rng_seed=5)
    b = _rollout(WargameEnv(game, side=side, opponent=opponent), seed=11, actions_rng_seed=5)
    assert len(a) == len(b)
    for (oa, ra, ma), (ob, rb, mb) in zip(a, b, strict=True):
        assert np.array_equal(oa, ob) and ra == rb and np.array_equal(ma, mb)
    c = _rollout(WargameEnv(game, side=side, opponent=opponent), seed=12, actions_rng_seed=5)
    assert any(not np.array_equal(x[0], y[0]) for x, y in zip(a, c, strict=False))


@pytest.mark.parametrize("game", GAMES)
def test_seeded_reset_is_that_game(game):
    g = fof_env.make_game(game)
    env = WargameEnv(game, side=0)
    obs, info = env.reset(seed=42)
    assert info["episode_seed"] == 42
    assert np.array_equal(obs, g.new_initial_state(42).observation(0))
    # the engine's dice are the game's: the record replays
    rng = np.random.default_rng(0)
    for _ in range(30):
        obs, r, term, trunc, info = env.step(random_legal(rng, info["action_mask"]))
        if term:
            break
    replay = g.state_from_json(env.game_state.to_json())
    assert replay.history == env.game_state.history
    assert np.array_equal(replay.observation(0), env.game_state.observation(0))


@pytest.mark.parametrize("game", GAMES)
def test_unseeded_resets_are_reproducible_after_one_seed(game):
    seeds = []
    for _ in range(2):
        env = WargameEnv(game, side=1)
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
        WargameEnv(GAME, render_mode="video")
    with pytest.raises(ValueError, match="illegal_action"):
        WargameEnv(GAME, illegal_action="ignore")
    with pytest.raises(ValueError, match="plays player 1"):
        WargameEnv(GAME, side="us", opponent=_CheatingOpponent())
    with pytest.raises(ValueError, match="reset option"):
        WargameEnv(GAME).reset(options={"positon": {}})
    with pytest.raises(gym.error.ResetNeeded):
        WargameEnv(GAME).step(78)


def test_lost_and_found_options_and_arguments_are_checked():
    with pytest.raises(
        OptionError, match=r"unknown option.*optional_rules.*rules \(full\|quick\).*side, opponent"
    ):
        WargameEnv(LAF, optional_rules=True)
    with pytest.raises(OptionError, match="rules must be one of"):
        WargameEnv(LAF, rules="fast")
    with pytest.raises(OptionError, match="taliban_teams"):
        gym.make("fof_env/LostAndFound-v0", taliban_teams=5)
    with pytest.raises(ValueError, match="unknown side"):
        WargameEnv(LAF, side="soviet")
    with pytest.raises(ValueError, match="plays player 0"):
        WargameEnv(LAF, side="taliban", opponent=_CheatingTaliban())


@pytest.mark.parametrize("game", GAMES)
def test_side_by_index_and_game_object(game):
    g = fof_env.make_game(game, **OTHER_RULES[game])
    env = WargameEnv(g, side=1)
    assert env.side == GAME_SIDES[game][1] and env.game is g
    with pytest.raises(OptionError):
        WargameEnv(g, **OTHER_RULES[game])


def test_gym_make_ids_and_kwargs():
    assert "fof_env/StrikeForceOne-v0" in gym.registry
    env = gym.make("fof_env/StrikeForceOne-v0", side="us", opponent="random", optional_rules=True)
    obs, info = env.reset(seed=0)
    assert env.unwrapped.game.options == {"optional_rules": True}
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"])
    a = int(np.flatnonzero(info["action_mask"])[0])
    env.step(a)
    env.close()


@pytest.mark.parametrize("reward", ["win", "shaped"])
@pytest.mark.parametrize("side", LAF_SIDES)
def test_gym_make_lost_and_found(side, reward):
    assert "fof_env/LostAndFound-v0" in gym.registry
    env = gym.make(
        "fof_env/LostAndFound-v0",
        side=side,
        opponent="random",
        rules="quick",
        reward=reward,
        fog_of_war=False,
    )
    obs, info = env.reset(seed=0)
    game = env.unwrapped.game
    assert game.options["rules"] == "quick" and game.options["fog_of_war"] is False
    assert obs.shape == (2252,) == game.observation_shape and obs.dtype == np.float32
    assert obs.min() >= -1.0 and obs.max() <= 1.0
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), info["action_mask"])
    if side == "taliban":
        assert info["decision"] == "deploy"  # the Taliban set up first
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, r, terminated, truncated, info = env.step(random_legal(rng, info["action_mask"]))
        done = terminated or truncated
    assert terminated and info["winner"] in ("taliban", "usmc", None)
    env.close()


@pytest.mark.parametrize("game", GAMES)
def test_minimal_infos_are_numbers_with_the_same_keys_every_step(game):
    env = WargameEnv(game, side=1, infos="minimal")
    full = WargameEnv(game, side=1)
    rng = np.random.default_rng(8)
    keys = {"action_mask", "opponent_actions", "auto_actions", "result", "illegal"}
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        full.reset(seed=seed)
        done = False
        while not done:
            assert set(info) == keys and info["result"] == 0.0 and info["illegal"] == 0
            assert {type(info[k]) for k in keys - {"action_mask"}} <= {np.int64, np.float32}
            assert info["action_mask"].dtype == bool and np.array_equal(info["action_mask"], env.action_masks())
            action = random_legal(rng, info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(action)
            _, _, _, _, full_info = full.step(action)
            assert info["opponent_actions"] == full_info["opponent_actions"]
            done = terminated or truncated
        assert set(info) == keys and info["result"] == reward == full_info["returns"][1]
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    loss = WargameEnv(game, side=1, infos="minimal", illegal_action="loss")
    loss.reset(seed=0)
    *_, info = loss.step(illegal)
    assert set(info) == keys and (info["result"], info["illegal"]) == (-1.0, 1)


@pytest.mark.parametrize("game", GAMES)
def test_unknown_keyword_is_also_a_type_error_worded_like_pythons(game):
    with pytest.raises(TypeError, match="WargameEnv.. got an unexpected keyword argument 'frameskip'") as err:
        gym.make(env_id(game), frameskip=4)  # gymnasium re-raises it as type(e)(message)
    assert isinstance(err.value, OptionError)
    again = pickle.loads(pickle.dumps(err.value))
    assert type(again) is type(err.value) and str(again) == str(err.value)
    with pytest.raises(TypeError) as err:
        WargameEnv(game, frameskip=4)
    again = pickle.loads(pickle.dumps(err.value))
    assert str(again) == str(err.value) and again.unknown == ["frameskip"]
    with pytest.raises(ValueError, match="infos"):
        WargameEnv(game, infos="numbers")


def test_human_render_prints_the_text_map_on_reset_and_step(capsys):
    env = WargameEnv(GAME, side="soviet", render_mode="human")
    obs, info = env.reset(seed=0)
    assert capsys.readouterr().out == str(env.game_state) + "\n"
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert capsys.readouterr().out == str(env.game_state) + "\n"
    assert env.render() is None and "0101" in capsys.readouterr().out


def test_learner_illegal_action_error_pickles_with_its_message():
    env = WargameEnv(GAME, side=0)
    env.reset(seed=3)
    with pytest.raises(LearnerIllegalActionError) as err:
        env.step(0)
    again = pickle.loads(pickle.dumps(err.value))
    assert type(again) is LearnerIllegalActionError and str(again) == str(err.value)
    assert "78=pass" in str(again)


@pytest.mark.parametrize("game", GAMES)
def test_end_mask_modes_play_the_same_episodes(game):
    played = {}
    for mode in ("next", "empty"):
        env = WargameEnv(game, side=1, end_mask=mode)
        rng = np.random.default_rng(0)
        obs, info = env.reset(seed=5)
        seeds, end_masks, first_masks = [info["episode_seed"]], [], [info["action_mask"]]
        while len(seeds) < 4:
            obs, reward, terminated, truncated, info = env.step(random_legal(rng, info["action_mask"]))
            if terminated or truncated:
                end_masks.append(info["action_mask"])
                assert np.array_equal(env.action_masks(), info["action_mask"])
                obs, info = env.reset()
                seeds.append(info["episode_seed"])
                first_masks.append(info["action_mask"])
        played[mode] = seeds
        if mode == "next":
            assert all(np.array_equal(e, f) and e.any() for e, f in zip(end_masks, first_masks[1:], strict=True))
        else:
            assert env._next is None and not any(m.any() for m in end_masks)
    assert played["next"] == played["empty"] and len(set(played["next"])) == 4
    with pytest.raises(ValueError, match="end_mask"):
        WargameEnv(game, end_mask="all")


def test_numpy_bools_are_accepted_as_flags():
    env = WargameEnv(GAME, side="soviet", auto_single=np.bool_(False))
    assert env.auto_single is False


def test_reset_never_hands_the_learner_a_truncated_episode():
    """An episode that hits ``max_decisions`` before the learner's first decision is no episode: reset
    skips such games, and says so when none is left (here every game is cut after two decisions, four
    Taliban deployments before any USMC decision)."""
    env = WargameEnv(LAF, side="usmc")
    env.game.max_decisions = 2
    with pytest.raises(RuntimeError, match="games in a row gave the learner"):
        env.reset(seed=0)


@pytest.mark.parametrize("side", ["militia", "british"])
def test_margin_reward_adds_up_to_the_final_vp_margin_and_pays_no_result(side):
    # Compound Raid's militia all but always lose: "margin" pays (my VP - enemy VP) / 20, no +/-1.
    env = WargameEnv("compound_raid", side=side, reward="margin")
    rng = np.random.default_rng(3)
    finished = 0
    for seed in range(4):
        obs, info = env.reset(seed=seed)
        total, terminated, truncated = 0.0, False, False
        while not (terminated or truncated):
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total += reward
        vp = env.game_state.victory_points()
        me = env.player
        assert total == pytest.approx((vp[me] - vp[1 - me]) / 20)
        finished += terminated
    assert finished == 4


def test_margin_reward_needs_victory_points():
    with pytest.raises(ValueError, match="strike_force_one counts no victory points; use reward='win'"):
        WargameEnv(GAME, side="us", reward="margin")
