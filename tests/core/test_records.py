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
    assert record["format"] == "fof-record/2"
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


# ---------------------------------------------------------------- records that prove themselves
def _lost_and_found_record(seed: int = 3, steps: int = 60) -> dict:
    state = fof_env.make_game("lost_and_found").new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    return json.loads(state.to_json())


def test_a_record_carries_its_final_digest_and_result():
    state = _random_game(6, False)
    record = json.loads(state.to_json())
    final = record["final"]
    assert final["decisions"] == len(record["actions"]) == len(state.history)
    assert final["digest"] == state.digest() and len(final["digest"]) == 64
    assert final["result"]["winner"] in ("soviet", "us") and final["result"]["returns"] in ([1.0, -1.0], [-1.0, 1.0])
    assert set(final["result"]["score"]) == {"soviet_towns", "soviet_units", "us_units"}
    assert final["outcome"] == {"termination": "turn limit", "winner": final["result"]["winner"],
                                "returns": final["result"]["returns"]}  # fmt: skip
    mid = json.loads(_random_game(6, False, 10).to_json())["final"]
    assert mid["result"] is None and mid["outcome"] is None and mid["decisions"] == 10


def test_a_record_written_before_outcomes_still_replays():
    record = json.loads(_random_game(6, False).to_json())
    del record["final"]["outcome"]
    assert State.from_json(json.dumps(record)).outcome().termination == "turn limit"


def test_the_digest_tells_positions_apart():
    a = _random_game(6, False, 10)
    b = _random_game(6, False, 11)
    assert a.digest() != b.digest() and a.digest() == _random_game(6, False, 10).digest()
    optional = fof_env.make_game("strike_force_one", optional_rules=True).new_initial_state(0)
    basic = fof_env.make_game("strike_force_one").new_initial_state(0)
    assert optional.digest() != basic.digest()  # the options are part of what the digest covers


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.update(actions=None), "malformed game record: 'actions' must be a JSON array, got None"),
        (lambda r: r.update(options=[]), "malformed game record: 'options' must be a JSON object"),
        (lambda r: r.update(rolls=["6"]), "'rolls' must be a list of integers"),
        (lambda r: r["actions"].__setitem__(0, 5), "game record: action 0 is 5, not an action string"),
        (lambda r: r.update(actions=r["actions"][:-3]), "dice rolls are left over"),
        (lambda r: r.update(final=[]), "'final' must be an object"),
        (lambda r: r["final"].update(decisions=3), "does not reproduce its final state: it ends after"),
        (lambda r: r["final"].update(digest="0" * 64), "the final position's digest differs"),
        (lambda r: r["final"].update(result={"winner": "usmc"}), "the result is"),
        (lambda r: r["final"].update(outcome={"termination": "resignation"}), "the outcome is"),
    ],
)
def test_records_that_do_not_prove_themselves_are_refused_in_one_line(mutate, message):
    record = _lost_and_found_record()
    mutate(record)
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace("[", r"\[")) as exc:
        State.from_json(record)
    assert "\n" not in str(exc.value)


def test_a_truncated_record_with_its_rolls_cut_to_match_is_caught_by_its_final_block():
    record = json.loads(_random_game(9, True).to_json())
    replay = fof_env.make_game("strike_force_one", optional_rules=True).state_from_position(record["start"])
    for text in record["actions"][:-2]:
        replay.apply(text)
    record.update(actions=record["actions"][:-2], rolls=replay._rolls, dice=replay.dice.to_json())
    with pytest.raises(PositionError, match="it ends after .* decisions, the record says"):
        State.from_json(record)


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n\x00\x00", "{}", "[1, 2]", b'{"format": "fof-record/2"}'])
def test_binary_or_empty_records_are_refused_in_one_line(data):
    with pytest.raises(PositionError) as exc:
        State.from_json(data)
    assert "\n" not in str(exc.value) and ("not a game record" in str(exc.value) or "missing" in str(exc.value))


def test_version_one_records_still_load():
    """Records written before the ``final`` block existed replay as before."""
    record = _lost_and_found_record(seed=4)
    record["format"] = "fof-record/1"
    del record["final"]
    state = State.from_json(record)
    assert len(state.history) == len(record["actions"])
