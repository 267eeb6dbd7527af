"""Bad input to the kernel and the env constructors: one clear line each, nothing changed.

Found by an outside review, tried as a hostile and a careless user would (issue 9): seeds
of the wrong type, option values of the wrong type (NumPy scalars that later broke
``to_json``), a side given as a bool, action texts that are not canonical.
"""

from __future__ import annotations

import json
import pickle

import gymnasium as gym
import numpy as np
import pytest

import fof_env
from fof_env.core.errors import (
    IllegalActionError,
    OptionError,
    PositionError,
    UnknownOptionError,
)
from fof_env.envs.aec_env import env as aec_env
from fof_env.envs.gym_env import WargameEnv

GAMES = ("strike_force_one", "lost_and_found")


def one_line(exc: pytest.ExceptionInfo) -> str:
    text = str(exc.value)
    assert text and "\n" not in text, f"not one line: {text!r}"
    return text


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("seed", [-1, "abc", 1.5, True, 2**64, [1]])
def test_new_initial_state_refuses_a_seed_that_is_not_a_non_negative_integer(game_name, seed):
    game = fof_env.make_game(game_name)
    with pytest.raises(OptionError) as exc:
        game.new_initial_state(seed=seed)
    assert one_line(exc) == f"seed must be None or an integer 0..2**64-1, got {seed!r}"


@pytest.mark.parametrize("game_name", GAMES)
def test_numpy_seeds_are_plain_ints_in_the_record(game_name):
    state = fof_env.make_game(game_name).new_initial_state(np.uint32(7))
    record = json.loads(state.to_json())
    assert record["start"]["seed"] == 7 and type(state._start["seed"]) is int


def test_numpy_option_values_become_plain_values_that_records_can_hold():
    game = fof_env.make_game("lost_and_found", taliban_teams=np.int64(3), fog_of_war=np.bool_(False))
    assert game.options["taliban_teams"] == 3 and type(game.options["taliban_teams"]) is int
    assert game.options["fog_of_war"] is False
    state = game.new_initial_state(1)
    state.apply(state.legal_actions()[0])
    assert json.loads(state.to_json())["options"]["taliban_teams"] == 3


@pytest.mark.parametrize(
    ("game_name", "options", "message"),
    [
        ("lost_and_found", {"taliban_teams": "4"}, "lost_and_found: taliban_teams must be an integer, got '4'"),
        ("lost_and_found", {"taliban_teams": True}, "lost_and_found: taliban_teams must be an integer, got True"),
        ("lost_and_found", {"taliban_teams": 5}, "lost_and_found: taliban_teams must be one of 3, 4, got 5"),
        ("lost_and_found", {"fog_of_war": "no"}, "lost_and_found: fog_of_war must be True or False, got 'no'"),
        ("lost_and_found", {"rules": 1}, "lost_and_found: rules must be a str, got 1"),
        ("strike_force_one", {"optional_rules": 1}, "strike_force_one: optional_rules must be True or False, got 1"),
    ],
)
def test_option_values_of_the_wrong_type_are_refused(game_name, options, message):
    with pytest.raises(OptionError) as exc:
        fof_env.make_game(game_name, **options)
    assert one_line(exc) == message


def test_an_unknown_option_is_also_a_type_error_worded_like_python():
    """Libraries probe which keywords an env takes by catching Python's own TypeError."""
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'frameskip'") as exc:
        fof_env.make_game("strike_force_one", frameskip=4)
    assert isinstance(exc.value, UnknownOptionError) and isinstance(exc.value, OptionError)
    one_line(exc)


@pytest.mark.parametrize(
    "error",
    [
        IllegalActionError("x", "select_unit", ["a", "b"]),
        UnknownOptionError("strike_force_one", ["bogus"], "optional_rules (bool)"),
        PositionError("turn must be an integer 1..4, got 0"),
    ],
)
def test_errors_survive_pickling_with_their_message(error):
    """A worker process or a vector env's subprocess sends errors back pickled."""
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error) and str(again) == str(error)


@pytest.mark.parametrize("side", [True, False, np.bool_(True), 2, "nato"])
def test_a_side_must_be_a_side_name_or_index(side):
    with pytest.raises(ValueError, match="unknown side") as exc:
        WargameEnv("strike_force_one", side=side)
    one_line(exc)


def test_gym_make_refuses_a_flag_that_is_not_a_bool():
    with pytest.raises(OptionError) as exc:
        gym.make("fof_env/StrikeForceOne-v0", auto_single="no")
    assert one_line(exc) == "auto_single must be True or False, got 'no'"
    with pytest.raises(OptionError, match="auto_single must be True or False"):
        aec_env(game="lost_and_found", auto_single="yes")


@pytest.mark.parametrize("text", ["n01", "n\u0661", "n12", "n0", "N1", " n1", "n1 "])
def test_split_counts_are_read_only_in_their_canonical_form(text):
    """"n1".."n11" name the dice of a split fire; "n01" or Arabic-Indic digits are not the same text."""
    state = fof_env.make_game("lost_and_found").new_initial_state(0)
    with pytest.raises(ValueError, match=r"cannot read action .* a count 'n1'\.\.'n11'") as exc:
        state.str_to_action(text)
    one_line(exc)
    assert state.str_to_action("n1") == 332 and state.action_to_str(332) == "n1"  # the canonical text reads
    assert state.str_to_action("n11") == 342 and state.action_to_str(342) == "n11"


def test_an_action_given_as_a_non_canonical_text_leaves_the_state_unchanged():
    state = fof_env.make_game("lost_and_found").new_initial_state(0)
    before = state.digest()
    with pytest.raises(IllegalActionError) as exc:
        state.apply("x19y07 ")
    one_line(exc)
    assert state.digest() == before
