"""WargameEnv(learner_setup=KIND): an agent plays the learner's unseen placements."""

from __future__ import annotations

import pytest

import agents  # noqa: F401  (registers the agent factory the env builds opponents with)
from fof_env.envs.gym_env import WargameEnv

TEAMS = ("tal.1", "tal.2", "tal.3", "tal.4")  # placed at the start; tal.R comes on later


def _set_up(env: WargameEnv) -> dict[str, str]:
    """Where each Taliban team was placed, from the engine's state after reset."""
    state = env.game_state
    names = state.sc.table.names
    return {state.UNIT_NAMES[u]: names[state.pos[u]] for u in state.SIDE_UNITS[env.player]
            if state.UNIT_NAMES[u] in TEAMS}


def test_the_heuristic_places_the_learners_teams_and_the_learner_never_sees_it():
    env = WargameEnv("lost_and_found", side="taliban", opponent="random", learner_setup="heuristic")
    _obs, info = env.reset(seed=3)
    state = env.game_state
    assert not state.is_unseen_placement() and state.current_player == env.player
    assert state.decision.kind == "declare_hidden" and len(_set_up(env)) == 4  # the teams are on the table
    assert info["auto_actions"] == 4
    learner_only = WargameEnv("lost_and_found", side="taliban", opponent="random")
    learner_only.reset(seed=3)
    assert learner_only.game_state.is_unseen_placement()  # without the option the learner places them


def test_the_same_seed_gives_the_same_set_up_and_others_vary():
    env = WargameEnv("lost_and_found", side="taliban", opponent="random", learner_setup="heuristic")
    env.reset(seed=5)
    first = _set_up(env)
    env.reset(seed=5)
    assert _set_up(env) == first
    seen = set()
    for seed in range(12):
        env.reset(seed=seed)
        seen.add(tuple(sorted(_set_up(env).items())))
    assert len(seen) >= 6


def test_an_episode_plays_to_the_end_with_the_set_up_agent():
    env = WargameEnv("fubar_lost_and_found", side="taliban", opponent="random", learner_setup="heuristic")
    env.reset(seed=1)
    done, steps = False, 0
    while not done:
        mask = env.action_masks()
        _obs, _reward, terminated, truncated, _info = env.step(int(mask.nonzero()[0][0]))
        assert terminated or truncated or not env.game_state.is_unseen_placement()
        done = terminated or truncated
        steps += 1
    assert steps > 0


def test_a_game_without_unseen_placements_plays_as_before():
    plain = WargameEnv("strike_force_one", side="soviet", opponent="random")
    with_setup = WargameEnv("strike_force_one", side="soviet", opponent="random", learner_setup="heuristic")
    assert (plain.reset(seed=2)[0] == with_setup.reset(seed=2)[0]).all()


@pytest.mark.parametrize("bad", ["nobody", 3])
def test_a_bad_set_up_agent_is_refused_at_construction(bad):
    with pytest.raises((ValueError, TypeError), match="nobody|learner_setup must be an agent spec"):
        WargameEnv("lost_and_found", side="taliban", learner_setup=bad)


def test_a_set_up_agent_named_by_a_spec_with_arguments(tmp_path):
    """A learned bot's set-up book plays the teams: ``ppo:path=...,setup=book`` with a one-plan book."""
    import json
    import shutil

    from agents.ppo import shipped_model_path
    from agents.setup_book import BOOK_FORMAT, book_path

    model = tmp_path / "m.safetensors"
    shutil.copy(shipped_model_path("lost_and_found", "taliban"), model)
    shutil.copy(shipped_model_path("lost_and_found", "taliban").with_suffix(".json"), tmp_path / "m.json")
    sha = json.loads((tmp_path / "m.json").read_text())["weights"]["sha256"]
    plan = ["x21y11", "x23y25", "x31y21", "x17y31"]
    book_path(model).write_text(json.dumps({
        "format": BOOK_FORMAT, "game": "lost_and_found", "side": "taliban", "model_sha256": sha,
        "groups": [{p: 1} for p in plan], "plans": [{"weight": 1, "points": plan}]}))
    env = WargameEnv("lost_and_found", side="taliban", opponent="random",
                     learner_setup=f"ppo:path={model},setup=book")
    for seed in (1, 2):
        env.reset(seed=seed)
        assert _set_up(env) == dict(zip(TEAMS, plan, strict=True))
