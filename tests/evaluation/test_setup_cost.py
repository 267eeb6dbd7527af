"""evaluation.setup_cost: the same games with best-point set-ups and with mixed ones."""

from __future__ import annotations

import pytest

import agents.mixed_setup as mixed_setup
from agents.mixed_setup import best_point_setups
from evaluation.setup_cost import compare, describe, main
from evaluation.setup_spread import placements
from evaluation.tallies import WDL


def test_best_point_setups_take_the_best_point_every_game_and_restore_the_mix():
    seeds = list(range(8))
    with best_point_setups():
        fixed = placements("lost_and_found", "taliban", "heuristic", "heuristic", seeds)
    assert fixed and all(len(s.points) == 1 for s in fixed)
    assert mixed_setup.SETUP_CHOICES == 4
    with pytest.raises(RuntimeError), best_point_setups():
        raise RuntimeError("boom")
    assert mixed_setup.SETUP_CHOICES == 4
    mixed = placements("lost_and_found", "taliban", "heuristic", "heuristic", seeds)
    assert any(len(s.points) > 1 for s in mixed)


def test_a_learned_bot_takes_its_argmax_point_under_best_point_setups():
    seeds = list(range(4))
    with best_point_setups():
        spreads = placements("lost_and_found", "taliban", "ppo", "heuristic", seeds)
    assert spreads and all(len(s.points) == 1 for s in spreads)


def test_compare_plays_the_same_games_both_ways_and_the_workers_agree():
    seeds = [0, 1, 2]
    one = compare("fubar_lost_and_found", "taliban", "heuristic", "heuristic", seeds)
    two = compare("fubar_lost_and_found", "taliban", "heuristic", "heuristic", seeds, workers=2)
    assert one == two and all(t.games == 3 for t in one)


def test_the_tally_reads_as_wins_draws_losses_with_its_interval():
    assert describe(WDL(3, 1, 0) + WDL(0, 0, 1)) == "3/1/1 won 60.0% [23.1%, 88.2%]"


def test_the_command_refuses_no_games(capsys):
    with pytest.raises(SystemExit):
        main(["--game", "lost_and_found", "--side", "taliban", "--games", "0"])
    assert "--games and --workers must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize(("mixed", "verdict"), [(WDL(60, 0, 40), "inside"), (WDL(40, 0, 60), "below"),
                                                (WDL(80, 0, 20), "above")])
def test_the_command_says_where_the_mixed_rate_lies(monkeypatch, capsys, mixed, verdict):
    """60/100 wins has the Wilson interval [50.2%, 69.1%]: 40% lies below it, 80% above."""
    monkeypatch.setattr("evaluation.setup_cost.compare", lambda *args: (WDL(60, 0, 40), mixed))
    assert main(["--game", "lost_and_found", "--side", "taliban", "--games", "100"]) == 0
    out = capsys.readouterr().out
    assert "best-point set-up: 60/0/40 won 60.0% [50.2%, 69.1%]" in out and f"({verdict} the best-point interval)" in out
