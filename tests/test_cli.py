"""The ``fof`` command line: list, play (narrated, quiet), human play at a prompt."""

from __future__ import annotations

import io
import json

import pytest

import agents
import fof_env
from fof_env import cli
from fof_env.core.game import State


def test_list(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "strike_force_one" in out and "soviet*, us*" in out
    assert "heuristic" in out and "random" in out and "human" in out


def test_help_mentions_sides_and_options(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["play", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for flag in ("--soviet", "--us", "--seed", "--optional-rules", "--option", "--quiet"):
        assert flag in out


def test_play_full_game_narrated(capsys):
    assert (
        cli.main(["play", "strike_force_one", "--soviet", "heuristic", "--us", "random", "--seed", "1"]) == 0
    )
    out = capsys.readouterr().out
    assert "=== Turn 1: soviet move ===" in out and "=== Turn 4: us combat ===" in out
    assert "[soviet] select_unit: sov." in out and "[soviet] attack_add: resolve" in out
    assert "ATTACK on " in out and "die " in out
    assert str(fof_env.make_game("strike_force_one").new_initial_state(1)) in out  # the map at phase start
    assert "Result: soviet wins; score {'soviet_towns': 3, 'soviet_units': 6, 'us_units': 2}; 82 decisions" in out


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
    assert (
        cli.main(["play", "strike_force_one", "--soviet", "human", "--us", "heuristic", "--seed", "1"]) == 0
    )
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


# ------------------------------------------------------------------ Lost & Found
LAF_OPTIONS = "{'rules': 'quick', 'fog_of_war': True, 'taliban_teams': 4, 'ambush': True, 'ambush_fires_first': 'on_4+', 'capture': True}"


def test_list_and_help_show_lost_and_found_sides(capsys):
    assert cli.main(["list"]) == 0
    assert "lost_and_found  gym id: fof_env/LostAndFound-v0  sides: taliban*, usmc*" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    out = capsys.readouterr().out
    assert "--taliban" in out and "--usmc" in out and "rules=quick" in out
    assert cli.game_sides("lost_and_found") == ("taliban", "usmc")
    assert cli.game_sides("strike_force_one") == ("soviet", "us")


def test_play_lost_and_found_random_narrated(capsys):
    argv = ["play", "lost_and_found", "--taliban", "random", "--usmc", "random", "--seed", "1"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "seed=1: taliban=random, usmc=random" in out
    assert "[taliban] deploy: x" in out and "[usmc] attach_leader: usmc." in out
    assert "=== Turn 1: initiative " in out and "FIRE tal.2 -> usmc.B" in out
    assert "reaction test: " in out and "squad leader attached to" in out
    assert "pilot: x21y17" in out  # the table, printed at the start of each turn
    assert "Result: " in out and "'taliban_vp'" in out


def test_play_lost_and_found_quiet_option_and_record(capsys, tmp_path):
    path = tmp_path / "laf.json"
    argv = ["play", "lost_and_found", "--taliban", "random", "--usmc", "random", "--seed", "4"]
    assert cli.main([*argv, "--option", "rules=quick", "--quiet", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert LAF_OPTIONS in out and "Result:" in out and "[taliban]" not in out and "=== Turn" not in out
    state = State.from_json(path.read_text())
    assert state.is_terminal and json.loads(path.read_text())["options"]["rules"] == "quick"
    assert state.game.name == "lost_and_found"


def test_play_side_flags_must_belong_to_the_game(capsys):
    assert cli.main(["play", "lost_and_found", "--soviet", "random", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "--soviet: not a side of lost_and_found; its sides are --taliban, --usmc" in err
    assert cli.main(["play", "strike_force_one", "--usmc", "random", "--quiet"]) == 2
    assert "--usmc: not a side of strike_force_one; its sides are --soviet, --us" in capsys.readouterr().err
    assert cli.main(["play", "lost_and_found", "--option", "rules=fast", "--quiet"]) == 2
    assert "rules must be one of" in capsys.readouterr().err
    assert cli.main(["play", "lost_and_found", "--optional-rules", "--quiet"]) == 2
    assert "unknown option(s) ['optional_rules'] for lost_and_found" in capsys.readouterr().err
    assert cli.main(["play", "lost_and_found", "--taliban", "wizard", "--quiet"]) == 2
    assert "unknown agent kind 'wizard'" in capsys.readouterr().err


def test_play_lost_and_found_default_kinds(capsys):
    from agents.heuristic import heuristic_games

    game = fof_env.make_game("lost_and_found")
    expected = "heuristic" if "lost_and_found" in heuristic_games() else "random"
    assert cli.default_kind(game) == expected
    assert cli.main(["play", "lost_and_found", "--seed", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"taliban={expected}" in out and f"usmc={expected}" in out and "Result: " in out


def test_human_play_lost_and_found(capsys, monkeypatch):
    lines = ["bogus", "x01y01", "help", "map", "X19Y15", "", "pass", "legal", "x19y21", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    argv = ["play", "lost_and_found", "--taliban", "human", "--usmc", "random", "--seed", "1"]
    assert cli.main([*argv, "--option", "rules=quick"]) == 0
    out = capsys.readouterr().out
    assert "[taliban] turn 0: decision deploy" in out and "context: initiative=taliban, unit=tal.1" in out
    assert "legal: x19y07 x17y09 x19y09 x21y09 x15y11" in out
    assert "Not understood: cannot read action 'bogus': use a point like 'x01y01'..'x35y35'" in out
    assert "Illegal: 'x01y01' is not a legal action for decision 'deploy' now." in out
    assert "a table point like 'x19y07'" in out and "Now: deploy: choose the point" in out  # help
    assert "pilot: x21y17; contact: False" in out  # map
    assert "[taliban] deploy: x19y15" in out and "tal.1 arrives at x19y15" in out  # upper case read
    assert "Please type an action" in out
    assert "Illegal: 'pass' is not a legal action for decision 'deploy' now." in out
    assert "Legal: x19y21 x17y23" in out
    assert "context: initiative=taliban, unit=tal.2" in out and "[taliban] deploy: x19y21" in out
    assert "Game abandoned after 2 decisions" in out


def test_human_usmc_lost_and_found_end_of_input(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("usmc.B\n"))
    argv = ["play", "lost_and_found", "--taliban", "random", "--usmc", "human", "--seed", "3", "--quiet"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "[usmc] turn 0: decision attach_leader" in out and "legal: usmc.A usmc.B usmc.C" in out
    assert "Game abandoned after" in out


def test_long_legal_lists_wrap():
    text = cli._wrap_legal("  legal: ", [f"x{i:02d}y01" for i in range(1, 36, 2)] * 3, width=60)
    lines = text.splitlines()
    assert len(lines) > 2 and all(len(line) <= 60 for line in lines)
    assert lines[0].startswith("  legal: x01y01") and lines[1].startswith(" " * 9 + "x")


def test_human_usmc_never_sees_hidden_taliban(capsys, monkeypatch):
    """No peeking at the keyboard either: with a human USMC, the Taliban deployment and hiding are
    narrated without their points, and 'map' leaves hidden teams out (rulings R27)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("map\nquit\n"))
    argv = ["play", "lost_and_found", "--taliban", "heuristic", "--usmc", "human", "--seed", "3"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "[taliban] deploy: (hidden from you)" in out
    assert "[taliban] declare_hidden: (hidden from you)" in out
    assert "tal.1 arrives at" not in out  # the deployment events stay secret
    game = fof_env.make_game("lost_and_found")
    state = game.new_initial_state(3)
    bot = agents.make_agent("heuristic", game, 0, seed=3 + 1000)
    while state.current_player == 0:
        state.apply(bot.act(state))
    hidden = [u for u in range(5) if state.hidden[u]]
    assert hidden  # the heuristic hides its teams in the woods
    for u in hidden:
        name = state.action_to_str(324 + u)
        assert f" {name} " not in out and f"{name}=" not in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--seed", "-1"], "fof play: --seed must be None or an integer 0..2**64-1, got -1\n"),
        (["--record", "{tmp}"], "fof play: --record {tmp}: {tmp} is a folder, not a file\n"),
        (["--record", "{tmp}/missing/game.json"], "fof play: --record {tmp}/missing/game.json: folder {tmp}/missing does not exist\n"),
    ],
)
def test_play_refuses_bad_arguments_before_playing(tmp_path, capsys, extra, message):
    extra = [a.replace("{tmp}", str(tmp_path)) for a in extra]
    argv = ["play", "lost_and_found", "--taliban", "random", "--usmc", "random", "--seed", "1", "--quiet"]
    assert cli.main([*argv, *extra]) == 2
    captured = capsys.readouterr()
    assert captured.err == message.replace("{tmp}", str(tmp_path)) and "Result" not in captured.out


def test_play_writes_its_record_whole(tmp_path, capsys):
    path = tmp_path / "game.json"
    argv = ["play", "strike_force_one", "--soviet", "random", "--us", "random", "--seed", "4", "--quiet"]
    assert cli.main([*argv, "--record", str(path)]) == 0
    record = json.loads(path.read_text())
    assert record["final"]["decisions"] == len(record["actions"]) and list(tmp_path.iterdir()) == [path]


def test_play_a_scenario_file_with_agents_named_by_side(capsys):
    """``--agent SIDE=SPEC`` names the sides of a scenario file, which have no flags of their own."""
    scenario = "--option=scenario=tests/force_on_force/scenarios/crossroads.json"
    argv = ["play", "force_on_force", scenario, "--agent", "red=random", "--agent", "blue=mcts:4", "--seed", "2"]
    assert cli.main([*argv, "--quiet"]) == 0
    assert "seed=2: red=random, blue=mcts:4" in capsys.readouterr().out
    assert cli.main(["play", "force_on_force", scenario, "--agent", "green=random"]) == 2
    assert capsys.readouterr().err == "fof play: --agent green: not a side of force_on_force; its sides are red, blue\n"
    assert cli.main(["play", "force_on_force", scenario, "--agent", "red"]) == 2
    assert capsys.readouterr().err == "fof play: --agent 'red': write SIDE=SPEC, e.g. --agent red=human\n"
