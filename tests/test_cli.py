"""The ``fof`` command line: list, play (narrated, quiet), human play at a prompt."""

from __future__ import annotations

import io
import json

import pytest

import fof_env
from fof_env import cli
from fof_env.core.game import State


def test_list(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "strike_force_one" in out and "soviet, us" in out
    assert "heuristic" in out and "random" in out and "human" in out


def test_help_mentions_sides_and_options(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["play", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for flag in ("--soviet", "--us", "--seed", "--optional-rules", "--option", "--quiet"):
        assert flag in out


def test_play_full_game_narrated(capsys):
    assert cli.main(["play", "strike_force_one", "--soviet", "heuristic", "--us", "random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "=== Turn 1: soviet move ===" in out and "=== Turn 4: us combat ===" in out
    assert "[soviet] select_unit: sov." in out and "[soviet] attack_add: resolve" in out
    assert "ATTACK on " in out and "die " in out
    assert str(fof_env.make_game("strike_force_one").new_initial_state(1)) in out  # the map at phase start
    assert "Result: soviet wins" in out or "Result: us wins" in out


def test_play_quiet_optional_rules_and_record(capsys, tmp_path):
    path = tmp_path / "game.json"
    argv = ["play", "strike_force_one", "--us", "heuristic", "--seed", "2", "--optional-rules", "--quiet"]
    assert cli.main([*argv, "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Result:" in out and "ATTACK" not in out and "soviet move" not in out
    assert "'optional_rules': True" in out
    state = State.from_json(path.read_text())
    assert state.is_terminal and json.loads(path.read_text())["options"] == {"optional_rules": True}


def test_play_option_flag_and_errors(capsys):
    argv = ["play", "strike_force_one", "--option", "optional_rules=true", "--seed", "3", "--quiet"]
    assert cli.main(argv) == 0
    assert "'optional_rules': True" in capsys.readouterr().out
    assert cli.main(["play", "strike_force_one", "--option", "colour=red", "--quiet"]) == 2
    assert "unknown option" in capsys.readouterr().err
    assert cli.main(["play", "strike_force_one", "--us", "wizard", "--quiet"]) == 2
    assert "unknown agent kind 'wizard'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["play", "no_such_game"])


def test_human_play_bad_input_then_legal_then_quit(capsys, monkeypatch):
    lines = ["bogus", "0101", "help", "map", "sov.A", "0703", "B", "0704", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert cli.main(["play", "strike_force_one", "--soviet", "human", "--us", "heuristic", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "decision select_unit" in out and "legal: sov.A sov.B sov.C sov.D sov.E sov.F pass" in out
    assert "Not understood: cannot read action 'bogus'" in out
    assert "Illegal: '0101' is not a legal action for decision 'select_unit'" in out
    assert "'map' shows the board" in out  # help
    assert "decision move_target" in out and "context: unit=sov.A, from=0802" in out
    assert "sov.A moves 0802 -> 0703" in out and "sov.B moves 0803 -> 0704" in out  # the game went on
    assert "Game abandoned after 4 decisions" in out


def test_human_end_of_input_exits_cleanly(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\n"))
    assert cli.main(["play", "strike_force_one", "--us", "human", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "[us]" in out and "Game abandoned" in out
