"""Replaying game records: exact re-simulation from the seed, narration, frames, corrupted records."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

import fof_env
from agents import make_agent
from evaluation.replay import ReplayError, load_record, replay
from fof_env.core.game import State


def _record(small_tournaments, game: str, agents=("heuristic", "random"), index: int = 0) -> Path:
    result = small_tournaments[game]
    o = next(o for o in result.outcomes if o.agents == agents and o.index == index)
    return Path(result.records_dir) / o.record


@pytest.mark.parametrize("game", ["strike_force_one", "lost_and_found"])
def test_replay_reproduces_the_recorded_final_state(small_tournaments, game):
    path = _record(small_tournaments, game)
    out = io.StringIO()
    frames = []
    result = replay(path, every=10, out=out, on_frame=lambda s, n: frames.append((n, s.is_terminal)))
    assert result.verified and result.seeded and result.problems == []
    recorded = State.from_json(path.read_text())
    assert result.state.fingerprint() == recorded.fingerprint()
    assert json.loads(result.state.to_json()) == json.loads(path.read_text())
    n = result.decisions
    assert n == len(recorded.history) and result.state.is_terminal
    assert [f[0] for f in frames] == [0, *range(10, n, 10), n] and frames[-1][1]
    text = out.getvalue()
    assert (
        text.startswith(f"Replay of {game}")
        and "--- start ---" in text
        and "--- after decision 10 ---" in text
    )
    assert str(fof_env.make_game(game).new_initial_state(recorded._start["seed"])) in text
    assert "--- final ---" in text and result.result_line() in text and "wins" in result.result_line()


def test_on_decision_sees_each_recorded_action_before_it_is_applied(small_tournaments):
    path = _record(small_tournaments, "lost_and_found")
    seen = []

    def look(state, text):
        seen.append((text, state.str_to_action(text) in state.legal_actions(), len(state.history)))

    result = replay(path, on_decision=look)
    actions = json.loads(path.read_text())["actions"]
    assert [text for text, _, _ in seen] == actions
    assert all(legal for _, legal, _ in seen)
    assert [done for _, _, done in seen] == list(range(len(actions))) and result.verified


def test_replay_of_an_unseeded_game_uses_the_recorded_rolls():
    game = fof_env.make_game("strike_force_one")
    state = game.new_initial_state(None)
    agents = [make_agent("random", game, p, seed=p) for p in (0, 1)]
    while not state.is_terminal:
        state.apply(agents[state.current_player].act(state))
    result = replay(state.to_json())
    assert result.verified and not result.seeded
    assert result.state.fingerprint() == state.fingerprint()


def test_corrupted_records(small_tournaments, tmp_path):
    data = load_record(_record(small_tournaments, "strike_force_one"))
    bad = dict(data, actions=[*data["actions"][:3], "0101", *data["actions"][4:]])
    with pytest.raises(ReplayError, match=r"record action 3 \('0101', soviet .*\) is not legal here"):
        replay(bad)
    longer = dict(data, actions=[*data["actions"], "pass"])
    with pytest.raises(ReplayError, match="already over"):
        replay(longer)
    with pytest.raises(ReplayError, match="not a game record"):
        replay({"format": "something-else"})
    with pytest.raises(ReplayError, match="malformed game record: missing 'actions'"):
        replay({k: v for k, v in data.items() if k != "actions"})
    with pytest.raises(ReplayError, match="cannot read record"):
        replay(tmp_path / "nope.json")
    # legal actions, but dice that do not come from the seed: replays, does not verify
    tampered = dict(data, rolls=[7 - r if r != 6 else 5 for r in data["rolls"]])
    result = replay(tampered)
    assert not result.verified and "the dice rolled: not as recorded" in result.problems


def test_an_edited_record_is_reported_never_verified(tmp_path, capsys):
    """A record proves itself by its final block: editing its options or its actions (so that they
    still replay) is reported as a mismatch (exit 1), never "Verified"."""
    from fof_env import cli

    state = fof_env.make_game("lost_and_found").new_initial_state(11)
    rng = random.Random(11)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    record = json.loads(state.to_json())
    record["options"]["capture"] = False  # the actions replay the same; the game is not the same
    record["start"].pop("options", None)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(record))
    assert cli.main(["replay", str(path), "--quiet"]) == 1
    captured = capsys.readouterr()
    assert "Verified" not in captured.out and "MISMATCH" in captured.err
    assert "the final position's digest differs from the recorded one" in captured.err


@pytest.mark.parametrize("content", [b"\x00\x01\xff\xfe binary", b"", b"[]"])
def test_fof_replay_refuses_a_file_that_is_not_a_record_in_one_line(tmp_path, capsys, content):
    from fof_env import cli

    path = tmp_path / "record.json"
    path.write_bytes(content)
    assert cli.main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"fof replay: {path}: not a game record") and err.count("\n") == 1
