"""``fof compare``: Lost & Found under Force on Force and under FUBAR, side by side."""

from __future__ import annotations

import json

from evaluation import compare
from fof_env import cli


def test_fof_compare_plays_both_rule_systems_and_writes_the_tables(tmp_path, capsys):
    assert cli.main(["compare", "--agents", "random", "heuristic", "--games", "1", "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "| heuristic vs random |" in text and "Force on Force: W/D/L" in text and "FUBAR: W/D/L" in text
    data = json.loads((tmp_path / "compare.json").read_text())
    assert [s["game"] for s in data["systems"].values()] == ["lost_and_found", "fubar_lost_and_found"]
    for system in data["systems"].values():
        assert len(system["pairings"]) == 4 and len(system["outcomes"]) == 4
    assert (tmp_path / "compare.md").read_text().startswith("# Lost & Found under two rule systems")


def test_pairing_summary_counts_wins_vp_and_margins():
    class Outcome:
        def __init__(self, winner, vp, auto=0):
            self.winner, self.vp, self.decisions = winner, vp, 10
            self.score = {"taliban_vp": vp[0], "usmc_vp": vp[1], "taliban_auto_victory": auto}

    s = compare.pairing_summary([Outcome(0, (5, 0)), Outcome(1, (1, 3)), Outcome(None, (2, 2)), Outcome(0, (0, 0), auto=1)])
    assert (s["side0_wins"], s["draws"], s["side0_losses"], s["automatic_victories"]) == (2, 1, 1, 1)
    assert (s["side0_vp_mean"], s["side1_vp_mean"]) == (2.0, 1.25)
    assert s["margin_histogram"] == {"<=-10": 0, "-9..-5": 0, "-4..-1": 1, "0": 2, "1..4": 0, "5..9": 1, ">=10": 0}
    assert s["margin_quartiles"] == [-0.5, 0.0, 1.25]


def test_bad_arguments_are_one_line_and_exit_2(capsys):
    assert cli.main(["compare", "--games", "0"]) == 2
    assert cli.main(["compare", "--agents", "random", "random"]) == 2
    assert capsys.readouterr().err.count("\n") == 2
