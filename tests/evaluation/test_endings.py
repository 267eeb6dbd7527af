"""``python -m evaluation.endings``: an agent's games that it did not win, counted by their last decision."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

import fof_env
from evaluation.endings import _standing, agent_endings, main
from evaluation.journal import read_log
from fof_env import cli


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    """A `fof evaluate` folder: random and heuristic on Lost & Found, 3 games per ordered pairing."""
    out = tmp_path_factory.mktemp("endings") / "laf"
    argv = ["evaluate", "--game", "lost_and_found", "--agents", "random", "heuristic", "--games", "3",
            "--workers", "1", "--seed", "3", "--out", str(out), "--no-progress", "--no-html"]
    assert cli.main(argv) == 0
    return out


def test_every_game_not_won_is_counted_once_with_its_recorded_last_action(tournament):
    outcomes = read_log(tournament / "games.jsonl", repair=False)
    tallies = {t.agent: t for t in agent_endings(outcomes, tournament / "records", ["random", "heuristic"])}
    for agent in ("random", "heuristic"):
        expected: Counter = Counter()
        games = 0
        for outcome in outcomes:
            for side, name in enumerate(outcome.agents):
                if name != agent:
                    continue
                games += 1
                if outcome.winner != side:
                    record = json.loads((tournament / "records" / outcome.record).read_text())
                    expected["draw" if outcome.winner is None else "loss", record["actions"][-1]] += 1
        got = Counter()
        for ending, n in tallies[agent].endings.items():
            got[ending.result, ending.last_decision.rsplit(": ", 1)[1]] += n
        assert tallies[agent].games == games == 12  # 3 games each against the other on both sides, 6 mirror games
        assert got == expected and sum(got.values()) > 0


def test_the_standing_is_the_victory_points_where_the_game_counts_them_else_the_score():
    laf = fof_env.make_game("lost_and_found").new_initial_state(1)
    sfo = fof_env.make_game("strike_force_one").new_initial_state(1)
    assert _standing(laf) == "0-0 (taliban-usmc)"
    assert _standing(sfo) == "soviet_towns 0, soviet_units 6, us_units 4"


def test_the_table_lists_the_top_endings_and_sums_the_rest(tournament, capsys):
    (tally,) = agent_endings(read_log(tournament / "games.jsonl", repair=False), tournament / "records", ["heuristic"])
    assert main([str(tournament), "--agent", "heuristic", "--top", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        f"heuristic: {tally.not_won} of 12 games not won ({tally.count('draw')} draws, {tally.count('loss')} losses)"
    )
    assert lines[1].split() == ["games", "result", "last", "decision", "standing", "before", "it"]
    (_, n), *rest = tally.endings.most_common()
    assert lines[2].split()[0] == str(n) and len(rest) >= 1  # these 12 games end in several ways
    assert lines[3:] == [f"  {sum(k for _, k in rest):>5}  in {len(rest)} other endings"]


def test_bad_input_is_one_line_and_exit_2(tournament, tmp_path, capsys):
    assert main([str(tmp_path / "nothing")]) == 2
    assert capsys.readouterr().err == (
        f"error: no tournament in {tmp_path / 'nothing'} (no tournament.json): give the --out folder of a "
        "`fof evaluate` run\n"
    )
    assert main([str(tournament), "--agent", "ppo"]) == 2
    assert capsys.readouterr().err == f"error: {tournament}: no agent 'ppo' in this tournament; its agents: random, heuristic\n"

    bare = tmp_path / "bare"
    shutil.copytree(tournament, bare, ignore=shutil.ignore_patterns("records"))
    definition = json.loads((bare / "tournament.json").read_text())
    (bare / "tournament.json").write_text(json.dumps({**definition, "records": False}))
    assert main([str(bare)]) == 2
    assert capsys.readouterr().err == (
        f"error: {bare}: the tournament was played with --no-records: there are no games to replay\n"
    )

    edited = tmp_path / "edited"
    shutil.copytree(tournament, edited)
    lost = next(o for o in read_log(edited / "games.jsonl", repair=False) if o.winner != 0 and o.agents[0] == "random")
    path = edited / "records" / lost.record
    record = json.loads(path.read_text())
    record["final"]["decisions"] += 1
    path.write_text(json.dumps(record))
    assert main([str(edited), "--agent", "random"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: does not match the game it records (") and err.count("\n") == 1

    with pytest.raises(SystemExit) as exit_info:
        main([str(tournament), "--top", "0"])
    assert exit_info.value.code == 2 and "--top must be at least 1, got 0" in capsys.readouterr().err
