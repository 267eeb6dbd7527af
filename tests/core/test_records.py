"""Game records (to_json/from_json), fingerprints and determinism, on any game."""

import json

import numpy as np
import pytest

import fof_env
from fof_env import ScriptedDice
from fof_env.core.errors import PositionError
from fof_env.core.game import State


def _random_game(seed: int, optional: bool, stop_after: int | None = None) -> State:
    game = fof_env.make_game("strike_force_one", optional_rules=optional)
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while not state.is_terminal and (stop_after is None or steps < stop_after):
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        steps += 1
    return state


@pytest.mark.parametrize("optional", [False, True])
def test_same_seed_same_actions_same_game(optional):
    a = _random_game(5, optional)
    b = _random_game(5, optional)
    assert a.history == b.history and a.fingerprint() == b.fingerprint()
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]


@pytest.mark.parametrize("stop_after", [0, 17, 40, None])
def test_record_round_trip_mid_game_and_continues_identically(stop_after):
    state = _random_game(11, True, stop_after)
    restored = State.from_json(state.to_json())
    assert restored.fingerprint() == state.fingerprint()
    # The restored dice continue the same stream.
    rng = np.random.default_rng(0)
    while not state.is_terminal:
        a = state.legal_actions()[rng.integers(len(state.legal_actions()))]
        state.apply(a)
        restored.apply(a)
    assert restored.fingerprint() == state.fingerprint()


def test_record_with_scripted_dice_round_trips():
    game = fof_env.make_game("strike_force_one")
    state = game.new_initial_state(0)
    state.dice = ScriptedDice([1] * 50)
    rng = np.random.default_rng(3)
    while not state.is_terminal:
        state.apply(state.legal_actions()[rng.integers(len(state.legal_actions()))])
    restored = State.from_json(state.to_json())
    assert restored.fingerprint() == state.fingerprint()


def test_record_actions_are_canonical_strings():
    state = _random_game(2, False, 10)
    record = json.loads(state.to_json())
    assert record["format"] == "fof-record/1"
    assert all(isinstance(a, str) for a in record["actions"])


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.update(format="pgn"), "not a game record"),
        (lambda r: r["actions"].append("0101"), "cannot be replayed"),
        (lambda r: r.pop("start"), "malformed"),
    ],
)
def test_malformed_records_are_refused_clearly(mutate, message):
    record = json.loads(_random_game(4, False, 12).to_json())
    mutate(record)
    with pytest.raises(PositionError, match=message):
        State.from_json(record)
