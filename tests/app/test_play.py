"""``fof play`` as a person uses it: agent specs, numbers, reasons, undo, save/resume, pass-all,
the fire preview."""

from __future__ import annotations

import io
import json

import pytest

import fof_env
from fof_env import cli
from fof_env.core.game import State


def run(monkeypatch, capsys, argv: list[str], lines: list[str]) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert cli.main(argv) == 0
    return capsys.readouterr().out


def test_agent_specs_as_in_evaluate(capsys):
    argv = ["play", "strike_force_one", "--soviet", "mcts:3", "--us", "random", "--seed", "1", "--quiet"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "soviet=mcts:3, us=random" in out and "Result: " in out
    assert cli.main(["play", "strike_force_one", "--us", "heuristic:greedy=true", "--quiet"]) == 2
    assert "fof play: us: " in capsys.readouterr().err and "greedy" in capsys.readouterr().err + "greedy"


def test_numbers_reasons_undo_and_the_board_first(monkeypatch, capsys):
    argv = ["play", "strike_force_one", "--soviet", "human", "--us", "heuristic", "--seed", "1"]
    out = run(monkeypatch, capsys, argv, ["1", "99", "0805", "undo", "2", "1", "quit"])
    assert out.index("0101") < out.index("[soviet] turn 1")  # the map before the first question
    assert "    1) sov.A          Move sov.A (in 0802)" in out and "    7) pass           End the movement phase" in out
    assert "(type an action, or its number in the list: 1..20; 'legal' numbers them)" in out
    assert "No choice 99: pick 1..20 or type an action." in out
    assert "Illegal: '0805' is not a legal action for decision 'move_target' now." in out
    assert "Why: '0805' is not legal for soviet's decision 'move_target': sov.A cannot move there; legal now:" in out
    assert "Undone: 1 decision(s)." in out
    assert "[soviet] select_unit: sov.B" in out and "Game abandoned" in out


def test_save_and_resume(monkeypatch, capsys, tmp_path):
    path = tmp_path / "game.json"
    argv = ["play", "strike_force_one", "--soviet", "human", "--us", "heuristic", "--seed", "2"]
    out = run(monkeypatch, capsys, argv, ["sov.A", "0703", f"save {path}", "quit"])
    assert f"Game record written to {path} (continue with: fof play --resume {path})" in out
    state = State.from_json(path.read_text())
    assert len(state.history) == 2 and json.loads(path.read_text())["game"] == "strike_force_one"
    out = run(monkeypatch, capsys, ["play", "--resume", str(path), "--soviet", "human", "--us", "heuristic"], ["pass", "quit"])
    assert f"Resumed {path} after 2 decisions." in out and "[soviet] select_unit: pass" in out
    assert "sov.A moves 0802 -> 0703" not in out  # the narration goes on from where it stopped


def test_pass_all_and_the_fire_preview(monkeypatch, capsys):
    argv = ["play", "lost_and_found", "--taliban", "heuristic", "--usmc", "human", "--seed", "3", "--option", "rules=quick"]
    out = run(monkeypatch, capsys, argv, ["1", "1", "1", "1", "pass-all", *["1"] * 30, "quit"])
    assert "Passing every reaction until the end of the turn." in out
    after = out[out.index("Passing every reaction") :]
    assert "  [usmc] declare_interrupt: pass" in after and "usmc> " in after


def test_fire_preview_is_printed_before_the_target_is_chosen():
    import agents
    from fof_env.app.play import Prompt
    from fof_env.app.session import GameSession
    from fof_env.core.registry import make_game

    game = make_game("lost_and_found")
    session = GameSession(game.new_initial_state(3), {})
    bots = [agents.make_agent("heuristic", game, p, seed=p) for p in (0, 1)]
    while not (session.state.current_player == 1 and session.state.decision.kind == "fire_target"):
        session.apply(bots[session.state.current_player].act(session.state), "bot")
    out = io.StringIO()
    Prompt(session, 1, out).show_decision(session.view(1))
    text = out.getvalue()
    line = next(x for x in text.splitlines() if x.strip().startswith("1) tal."))
    assert "Fire at tal." in line and "[firepower " in line and "d" in line and "expected casualties " in line and "P(>=1) " in line


def test_help_lists_the_other_commands_once_and_quit_offers_to_save(monkeypatch, capsys, tmp_path):
    path = tmp_path / "left.json"
    argv = ["play", "strike_force_one", "--soviet", "human", "--us", "heuristic", "--seed", "1"]
    out = run(monkeypatch, capsys, argv, ["help", "sov.A", "quit", str(path)])
    assert out.count("Other commands:") == 1
    assert "Save the game to continue it later? File name (Enter: do not save): " in out
    assert f"Game record written to {path}" in out and "Game abandoned after 1 decisions (no result)." in out
    out = run(monkeypatch, capsys, ["play", "--resume", str(path), "--soviet", "human", "--us", "heuristic"], ["quit", ""])
    assert f"Resumed {path} after 1 decisions." in out and "Game abandoned after 1 decisions (no result)." in out
    assert "Game record written" not in out  # Enter: not saved


def test_an_unreadable_action_says_so_once_with_the_games_own_examples(monkeypatch, capsys):
    from fof_env.app.session import GameSession, SessionError

    for name, units in (("compound_raid", "'brit.A' or 'mil.1'"), ("wwii_hedgerow_hamlet", "'us.A' or 'ger.MG'")):
        session = GameSession(fof_env.make_game(name).new_initial_state(1))
        with pytest.raises(SessionError) as exc:
            session.parse("x")
        assert str(exc.value).count("cannot read action") == 1 and f"a unit like {units}," in str(exc.value)
    with pytest.raises(SessionError, match="^cannot read action 'yyyy[y]*: use a hex like"):  # the input cut at 60
        GameSession(fof_env.make_game("strike_force_one").new_initial_state(1)).parse("y" * 500)
    argv = ["play", "compound_raid", "--british", "human", "--seed", "1"]
    out = run(monkeypatch, capsys, argv, ["help", "quit"])
    assert "a unit by its id like 'brit.A' or 'mil.1'" in out and "'tal.1'" not in out


def test_fof_list_shows_gym_ids_and_the_sides_with_a_shipped_model(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "  strike_force_one  gym id: fof_env/StrikeForceOne-v0  sides: soviet*, us*  options:" in out
    assert "  force_on_force  gym id: fof_env/ForceOnForce-v0  sides: taliban, usmc  options:" in out


def test_events_read_as_sentences():
    """A set-up or an arrival is not a move 'off table -> x01y31'; FUBAR's and the WWII deck's events are not field dumps."""
    from fof_env.core.narration import describe_event
    from fof_env.force_on_force import events as fof
    from fof_env.force_on_force.rules.wwii_fog import FogCardDrawn, FogCardPlayed
    from fof_env.fubar import events as fubar

    assert describe_event(fof.UnitMoved("usmc.A", "off table", "x01y31", False)) == "  usmc.A arrives at x01y31"
    assert describe_event(fof.UnitMoved("usmc.A", "x01y31", "x07y31", True)) == "  usmc.A moves x01y31 -> x07y31 (rapid)"
    assert describe_event(fubar.UnitMoved("ins.H", "off table", "x27y19", "deploy")) == "  ins.H sets up at x27y19"
    assert describe_event(fubar.UnitMoved("pat.A", "x03y19", "x09y19", "walk")) == "  pat.A moves x03y19 -> x09y19 (walk)"
    assert describe_event(fubar.FireHits("usmc.B", "tal.2", (5, 6, 1), 4, 2, 0, (), 2)) == (
        "  FIRE usmc.B -> tal.2: 3 dice [5, 6, 1] need 4+: 2 hits; no save: 2 unsaved")
    assert describe_event(fubar.HitTaken("tal.2", 1, "suppressed")) == "  tal.2 figure 1 is suppressed"
    assert describe_event(fubar.ActivationRolled("tal.3", 6, 7, 4, True, "activation")) == (
        "  tal.3 activation: die 6 (7 modified), needs 4+: succeeds")
    assert describe_event(FogCardDrawn("ger", "excellent_position", True)) == (
        "  ger draws a Fog of War card: An Excellent Position (held for later)")
    assert describe_event(FogCardPlayed("us", "brownings_buzz_saw", "us.MMG enters at x05y07")).startswith("  us plays ")


def test_the_prompt_shows_the_odds_of_every_attack():
    """Strike Force One's attack targets list the Combat Results Table's odds ("Two (+1)": DE 1/6, DR 2/6, AR 2/6,
    AE 1/6); the prompt formats every ruleset's preview (it raised KeyError 'firepower' on these)."""
    from fof_env.app.play import Prompt
    from fof_env.app.session import GameSession

    position = {"turn": 1, "phase": "soviet_combat", "units": {"soviet": {"A": "0503", "B": "0604"},
                                                                  "us": {"A": "0504", "B": "0109"}}}
    session = GameSession(fof_env.make_game("strike_force_one").state_from_position(position), {})
    out = io.StringIO()
    Prompt(session, 0, out).show_decision(session.view(0))
    line = next(x for x in out.getvalue().splitlines() if x.strip().startswith("1) 0504"))
    assert line.endswith("[2 vs 1, differential +1: DE 17%, DR 33%, AR 33%, AE 17%]")
