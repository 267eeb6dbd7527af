"""A record's replay for the board: frames from the one filtering layer, the umpire only for finished games."""

from __future__ import annotations

import json
from functools import cache

import pytest

import agents
import fof_env
from fof_env.core.errors import PositionError
from fof_env.core.narration import describe_event
from fof_env.core.replay_frames import ReplayTooLong, replay_frames
from fof_env.core.view import EventLog, view_for


@cache
def heuristic_game(name: str, seed: int, stop: int | None = None) -> str:
    """The record of a heuristic-against-heuristic game (cut after ``stop`` decisions when given)."""
    game = fof_env.make_game(name)
    state = game.new_initial_state(seed)
    bots = [agents.make_agent("heuristic", game, p, seed=p) for p in (0, 1)]
    while not state.is_terminal and (stop is None or len(state.history) < stop):
        state.apply(bots[state.current_player].act(state))
    return state.to_json()


def test_each_side_sees_its_own_frames_and_the_umpire_both_once_the_game_is_over():
    """Lost & Found: the USMC's frames are its views, step by step (never a Hidden Taliban team, nor the
    Taliban's secret set-up), its log is its EventLog's; the umpire's frames show every unit on the table."""
    record = heuristic_game("lost_and_found", 3)
    frames = replay_frames(record, describe_event)
    data = json.loads(record)
    assert frames["finished"] and frames["viewers"] == ["umpire", "taliban", "usmc"]
    assert frames["title"] == "Force on Force: Lost & Found" and frames["colours"]["usmc"] == "#3a6030"
    n = len(data["actions"])
    assert frames["decisions"] == n and all(len(frames["by_viewer"][v]["frames"]) == n + 1 for v in frames["viewers"])
    game = fof_env.make_game("lost_and_found")
    rview = view_for(game.name)
    state = game.state_from_position(data["start"], dice=fof_env.ScriptedDice(list(data["rolls"])))
    log = EventLog(state, describe_event)
    hidden_seen = 0
    for step, text in enumerate(["", *data["actions"]]):
        if text:
            action = state.str_to_action(text)
            log.before(state, action, "record")
            state.apply(action)
            log.after(state)
        usmc = frames["by_viewer"]["usmc"]["frames"][step]
        mine = rview.view(state, 1, lean=True)["board"]
        assert usmc["board"]["units"] == mine["units"]
        shown = {u["id"] for u in usmc["board"]["units"]}
        for u, name in enumerate(state.UNIT_NAMES):
            if state.UNIT_SIDE[u] == 0 and (state.hidden[u] or rview.secret_from(state, 1)):
                hidden_seen += 1
                assert name not in shown, (step, name)
        umpire = {u["id"] for u in frames["by_viewer"]["umpire"]["frames"][step]["board"]["units"]}
        on_table = {name for u, name in enumerate(state.UNIT_NAMES) if state.pos[u] >= 0 and any(state.figs[u])}
        assert umpire == on_table
        assert usmc["events_total"] == len(log.events[1]) and usmc["played_total"] == len(log.played[1])
    assert hidden_seen  # the game had something to hide
    played = frames["by_viewer"]["usmc"]["played"]
    assert [{k: x for k, x in p.items() if k != "step"} for p in played] == [p.to_dict() for p in log.played[1]]
    assert all(data["actions"][p["step"] - 1] == p["action"] for p in played)  # the frame after each decision
    assert frames["by_viewer"]["usmc"]["events"] == log.events[1]
    assert len(frames["by_viewer"]["umpire"]["played"]) == n


def test_an_unfinished_record_replays_as_each_side_saw_it_and_no_more():
    frames = replay_frames(heuristic_game("lost_and_found", 3, stop=30), describe_event)
    assert not frames["finished"] and frames["result"] is None
    assert frames["viewers"] == ["taliban", "usmc"] and "umpire" not in frames["by_viewer"]


def test_the_last_decision_is_highlighted_with_the_moves_it_made():
    """Strike Force One: a move_target step points at its hex and carries the move (origin, destination)."""
    record = heuristic_game("strike_force_one", 2)
    frames = replay_frames(record, describe_event)
    actions = json.loads(record)["actions"]
    soviet = frames["by_viewer"]["soviet"]["frames"]
    assert soviet[0]["last"] is None
    step = next(k for k in range(1, len(actions)) if soviet[k]["last"] and soviet[k]["last"]["moves"])
    last = soviet[step]["last"]
    assert last["kind"] == "move_target" and last["hex"] == actions[step - 1] == last["moves"][0]["to"]
    assert frames["static"]["hexes"] and "hexes" not in soviet[step]["board"]
    assert [t for t, _ in frames["turns"]] == [1, 2, 3, 4]


def test_bad_and_too_long_records_are_refused():
    with pytest.raises(PositionError):
        replay_frames('{"format": "fof-record/2"}')
    with pytest.raises(ReplayTooLong, match="a replay takes at most 5"):
        replay_frames(heuristic_game("strike_force_one", 2), limit=5)
    padded = json.loads(heuristic_game("strike_force_one", 2))
    padded["actions"] += ["pass"] * 600  # longer than the game's own cap: refused before replaying it
    with pytest.raises(ReplayTooLong, match="its game ends within 600"):
        replay_frames(padded)
