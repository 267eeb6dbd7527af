"""``python -m evaluation.endings``: an agent's games that it did not win, counted by why they ended."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from dataclasses import replace

import pytest

from evaluation.endings import agent_endings, main, standing
from evaluation.journal import read_log
from fof_env import cli
from fof_env.core.game import State

NAMES = ("taliban", "usmc")


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    """A `fof evaluate` folder: random and heuristic on Lost & Found, 3 games per ordered pairing."""
    out = tmp_path_factory.mktemp("endings") / "laf"
    argv = ["evaluate", "--game", "lost_and_found", "--agents", "random", "heuristic", "--games", "3",
            "--workers", "1", "--seed", "3", "--out", str(out), "--no-progress", "--no-html"]
    assert cli.main(argv) == 0
    return out


def test_every_game_not_won_is_counted_once_by_the_outcome_its_record_proves(tournament):
    outcomes = read_log(tournament / "games.jsonl", repair=False)
    tallies = {t.agent: t for t in agent_endings(outcomes, NAMES, ["random", "heuristic"])}
    for agent in ("random", "heuristic"):
        expected: Counter = Counter()
        games = 0
        for outcome in outcomes:
            for side, name in enumerate(outcome.agents):
                if name != agent:
                    continue
                games += 1
                if outcome.winner != side:
                    record = (tournament / "records" / outcome.record).read_text()
                    replayed = State.from_json(record).outcome()  # the log says what the game itself says
                    assert outcome.termination == replayed.termination == json.loads(record)["final"]["outcome"]["termination"]
                    expected["draw" if outcome.winner is None else "loss", replayed.termination] += 1
        got = Counter()
        for ending, n in tallies[agent].endings.items():
            got[ending.result, ending.termination] += n
        assert tallies[agent].games == games == 12  # 3 games each against the other on both sides, 6 mirror games
        assert got == expected and sum(got.values()) > 0


def test_the_standing_is_the_final_victory_points_where_the_game_counts_them_else_the_score(tournament):
    outcome = read_log(tournament / "games.jsonl", repair=False)[0]
    assert standing(replace(outcome, vp=(3, 3)), NAMES) == "3-3 (taliban-usmc)"
    score_only = replace(outcome, vp=None, score={"soviet_towns": 0, "soviet_units": 6})
    assert standing(score_only, ("soviet", "us")) == "soviet_towns 0, soviet_units 6"


def test_a_game_logged_before_outcomes_counts_as_unknown(tournament):
    outcome = next(o for o in read_log(tournament / "games.jsonl", repair=False) if o.winner != 0)
    old = replace(outcome, termination=None)
    (tally,) = agent_endings([old], NAMES, [outcome.agents[0]])
    assert [e.termination for e in tally.endings] == ["unknown"]


def test_the_table_lists_the_top_endings_and_sums_the_rest(tournament, capsys):
    (tally,) = agent_endings(read_log(tournament / "games.jsonl", repair=False), NAMES, ["heuristic"])
    assert main([str(tournament), "--agent", "heuristic", "--top", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        f"heuristic: {tally.not_won} of 12 games not won ({tally.count('draw')} draws, {tally.count('loss')} losses)"
    )
    assert lines[1].split() == ["games", "result", "ended", "by", "standing", "at", "the", "end"]
    (_, n), *rest = tally.endings.most_common()
    assert lines[2].split()[0] == str(n) and len(rest) >= 1  # these 12 games end in several ways
    assert lines[3:] == [f"  {sum(k for _, k in rest):>5}  in {len(rest)} other endings"]


def test_no_game_is_replayed_the_records_are_not_needed(tournament, tmp_path, capsys):
    bare = tmp_path / "bare"
    shutil.copytree(tournament, bare, ignore=shutil.ignore_patterns("records"))
    assert main([str(bare), "--agent", "random"]) == 0
    assert capsys.readouterr().out.startswith("random: ")


def test_bad_input_is_one_line_and_exit_2(tournament, tmp_path, capsys):
    assert main([str(tmp_path / "nothing")]) == 2
    assert capsys.readouterr().err == (
        f"error: no tournament in {tmp_path / 'nothing'} (no tournament.json): give the --out folder of a "
        "`fof evaluate` run\n"
    )
    assert main([str(tournament), "--agent", "ppo"]) == 2
    assert capsys.readouterr().err == f"error: {tournament}: no agent 'ppo' in this tournament; its agents: random, heuristic\n"

    damaged = tmp_path / "damaged"
    shutil.copytree(tournament, damaged)
    (damaged / "games.jsonl").write_text("{not json\n")
    assert main([str(damaged)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1

    with pytest.raises(SystemExit) as exit_info:
        main([str(tournament), "--top", "0"])
    assert exit_info.value.code == 2 and "--top must be at least 1, got 0" in capsys.readouterr().err

