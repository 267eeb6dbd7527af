"""The strength bars (evaluation/bars.py) on hand-made results: score above the same-side heuristic with
intervals apart; no room above a heuristic at 95%; VP margins where the heuristic scores 5% or less; random."""

from __future__ import annotations

import json

from evaluation.bars import judge, main, side_rate


def games(agents: tuple[str, str], wins0: int, draws: int, losses0: int, vp=(0, 0)) -> list[dict]:
    out = []
    for winner, n in ((0, wins0), (None, draws), (1, losses0)):
        out += [{"agents": list(agents), "winner": winner, "vp": list(vp)} for _ in range(n)]
    return out


def results(*blocks: list[dict]) -> dict:
    return {"game": "g", "sides": ["red", "blue"], "games": [g for b in blocks for g in b]}


def test_the_agent_must_score_above_the_heuristic_with_intervals_apart():
    r = results(games(("ppo", "heuristic"), 300, 0, 100), games(("heuristic", "heuristic"), 200, 0, 200),
                games(("ppo", "random"), 390, 0, 10))
    v = judge(r, "red", "ppo", "heuristic", "random")
    assert (v.heuristic_bar, v.random_bar) == ("met", "met")  # 75% [70.5, 79.0] above 50% [45.1, 54.9]
    close = results(games(("ppo", "heuristic"), 220, 0, 180), games(("heuristic", "heuristic"), 200, 0, 200))
    assert judge(close, "red", "ppo", "heuristic", "random").heuristic_bar == "not met"  # 55% [50.1, 59.8]
    assert "not measured" in judge(close, "red", "ppo", "heuristic", "random").random_bar


def test_a_draw_counts_half_and_the_other_side_reads_its_own_column():
    r = results(games(("heuristic", "ppo"), 100, 100, 200), games(("heuristic", "heuristic"), 300, 0, 100))
    blue = side_rate(r, "blue", {"red": "heuristic", "blue": "ppo"})
    assert (blue.games, blue.wins, blue.draws, blue.score) == (400, 200, 100, 0.625)
    assert judge(r, "blue", "ppo", "heuristic", "random").heuristic_bar == "met"  # 62.5% against 25%


def test_random_needs_95_percent_with_the_foot_at_92():
    assert judge(results(games(("ppo", "random"), 380, 0, 20)), "red", "ppo", "heuristic", "random").random_bar == "met"
    assert judge(results(games(("ppo", "random"), 190, 0, 10)), "red", "ppo", "heuristic", "random").random_bar == "not met"


def test_above_95_percent_the_agent_must_hold_it_and_do_better_against_the_learned_opponent():
    base = [games(("heuristic", "heuristic"), 396, 0, 4), games(("ppo", "heuristic"), 398, 0, 2)]
    r = results(*base, games(("ppo", "ppo"), 300, 0, 100), games(("heuristic", "ppo"), 250, 0, 150))
    assert judge(r, "red", "ppo", "heuristic", "random").heuristic_bar == "met"
    r = results(*base, games(("ppo", "ppo"), 240, 0, 160), games(("heuristic", "ppo"), 250, 0, 150))
    assert judge(r, "red", "ppo", "heuristic", "random").heuristic_bar == "not met"
    assert "not measured" in judge(results(*base), "red", "ppo", "heuristic", "random").heuristic_bar


def test_below_5_percent_the_vp_margins_are_compared():
    weak = games(("heuristic", "heuristic"), 2, 0, 198, vp=(1, 9)) + games(("heuristic", "heuristic"), 0, 0, 200, vp=(3, 9))
    better = games(("ppo", "heuristic"), 2, 0, 198, vp=(4, 8)) + games(("ppo", "heuristic"), 0, 0, 200, vp=(6, 8))
    v = judge(results(weak, better), "red", "ppo", "heuristic", "random")
    assert v.heuristic_bar == "met" and "VP margin: ppo -3.00" in v.lines[1] and "heuristic -7.00" in v.lines[1]
    same = games(("ppo", "heuristic"), 2, 0, 198, vp=(1, 9)) + games(("ppo", "heuristic"), 0, 0, 200, vp=(3, 9))
    assert judge(results(weak, same), "red", "ppo", "heuristic", "random").heuristic_bar == "not met"


def test_main_prints_each_side_and_refuses_a_missing_folder(tmp_path, capsys):
    r = results(games(("ppo", "heuristic"), 300, 0, 100), games(("heuristic", "heuristic"), 200, 0, 200))
    (tmp_path / "results.json").write_text(json.dumps(r))
    assert main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "red: heuristic bar met; random bar not measured" in out and "blue: heuristic bar not measured" in out
    assert main([str(tmp_path / "nothing")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_markdown_prints_one_table_with_a_row_per_side_of_every_report(tmp_path, capsys):
    r = results(games(("ppo", "heuristic"), 300, 0, 100), games(("heuristic", "heuristic"), 200, 0, 200),
                games(("ppo", "random"), 390, 0, 10))
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "results.json").write_text(json.dumps(r))
    assert main([str(tmp_path / "a"), str(tmp_path / "b"), "--markdown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| game | side |") and lines[1].startswith("|---|")
    assert len(lines) == 2 + 4  # two reports, two sides each
    assert lines[2] == ("| g | red | 300 / 0 / 100, 75.0% [70.5%, 79.0%] | 200 / 0 / 200, 50.0% [45.1%, 54.9%] | met "
                        "| 390 / 0 / 10, won 97.5% (foot 95.5%) | met |")
    assert lines[3].startswith("| g | blue | not played | 200 / 0 / 200, 50.0% [45.1%, 54.9%] | not measured")
