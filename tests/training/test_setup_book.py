"""python -m training.setup_book: a random design over candidate points, written as a readable book."""

from __future__ import annotations

import json

import pytest

from agents.ppo import shipped_model_path
from agents.setup_book import read_book
from fof_env.core.registry import make_game
from training import setup_book


def test_a_small_run_writes_a_book_ppo_can_read(tmp_path, capsys):
    out = tmp_path / "book.setups.json"
    assert setup_book.main(["--game", "lost_and_found", "--side", "taliban", "--games", "6",
                            "--points", "2", "--out", str(out)]) == 0
    card = json.loads(out.read_text())
    model_card = json.loads(shipped_model_path("lost_and_found", "taliban").with_suffix(".json").read_text())
    assert card["model_sha256"] == model_card["weights"]["sha256"]
    assert card["command"].startswith("python -m training.setup_book --game lost_and_found")
    assert len(card["groups"]) == len(card["measured"]) == 4  # the four hidden teams
    for group, measured in zip(card["groups"], card["measured"], strict=True):
        assert len(group) == 2 and set(group) <= set(measured)
        assert sum(m["games"] for m in measured.values()) == 6  # every game drew one point per placement
    read_book(out, make_game("lost_and_found"), "taliban")
    assert "wrote" in capsys.readouterr().out


def test_an_unknown_side_is_one_line(capsys):
    assert setup_book.main(["--game", "lost_and_found", "--side", "nobody", "--games", "1"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_plans_from_a_measured_book_play_no_games_and_rank_each_placement(tmp_path, capsys):
    shipped = shipped_model_path("lost_and_found", "taliban")
    source = json.loads(shipped.with_name(shipped.stem + ".setups.json").read_text())
    out = tmp_path / "plans.setups.json"
    assert setup_book.main(["--game", "lost_and_found", "--side", "taliban", "--plans", "2",
                            "--from", str(shipped.with_name(shipped.stem + ".setups.json")),
                            "--out", str(out)]) == 0
    card = json.loads(out.read_text())
    assert card["measured_by"] == source.get("measured_by", {"command": source["command"], "games": source["games"]})
    assert card["measured_by"]["command"].endswith("--games 4000 --workers 2")  # the games, not a --from
    assert card["measured"] == source["measured"]
    best = [max(m, key=lambda name: m[name]["wins"] / m[name]["games"]) for m in source["measured"]]
    assert card["plans"][0] == {"weight": 1.0, "points": best}  # plan 1: every placement's best point
    assert len(card["plans"]) == 2 and card["plans"][1]["points"] != best
    book = read_book(out, make_game("lost_and_found"), "taliban")
    assert len(book.plans) == 2
    assert "plan 2:" in capsys.readouterr().out
    again = tmp_path / "again.setups.json"
    assert setup_book.main(["--game", "lost_and_found", "--side", "taliban", "--plans", "4",
                            "--from", str(out), "--out", str(again)]) == 0
    assert json.loads(again.read_text())["measured_by"] == card["measured_by"]  # the games that measured them


def test_more_plans_than_points_is_refused(capsys):
    import pytest

    with pytest.raises(SystemExit):
        setup_book.main(["--game", "lost_and_found", "--side", "taliban", "--plans", "5", "--points", "4"])
    assert "--plans must be between 0 and --points (4)" in capsys.readouterr().err


def test_plans_where_placements_share_an_area_put_no_two_units_on_one_point():
    ranked = [["a", "b", "c"], ["a", "b", "c"], ["z"]]  # two units ranking the same points; one with one point
    assert setup_book.plan_points(ranked, 3) == [["a", "b", "z"], ["b", "a", "z"], ["c", "c", "z"]]
    # plan 3: the second unit's only point no plan gave it is "c", taken by the first: shared, not repeated


def test_plan_weights_weight_the_plans_and_must_match_them(tmp_path, capsys):
    import pytest

    shipped = shipped_model_path("lost_and_found", "taliban")
    source = str(shipped.with_name(shipped.stem + ".setups.json"))
    out = tmp_path / "w.setups.json"
    assert setup_book.main(["--game", "lost_and_found", "--side", "taliban", "--plans", "2",
                            "--plan-weights", "1", "3", "--from", source, "--out", str(out)]) == 0
    assert [p["weight"] for p in json.loads(out.read_text())["plans"]] == [1.0, 3.0]
    for bad in (["1"], ["1", "0"], ["1", "nan"]):
        with pytest.raises(SystemExit):
            setup_book.main(["--game", "lost_and_found", "--side", "taliban", "--plans", "2",
                             "--plan-weights", *bad, "--from", source])
        assert "--plan-weights must give 2 finite weights over 0" in capsys.readouterr().err


def test_capped_weights_fill_the_best_points_to_the_cap_and_the_rest_to_the_next():
    assert setup_book.capped_weights(["a", "b", "c", "d", "e"], 0.3) == {"a": 0.3, "b": 0.3, "c": 0.3, "d": 0.1}
    assert setup_book.capped_weights(["a", "b", "c", "d"], 0.25) == {"a": 0.25, "b": 0.25, "c": 0.25, "d": 0.25}
    assert setup_book.capped_weights(["a", "b"], 1.0) == {"a": 1.0}
    import pytest

    with pytest.raises(ValueError, match="cannot weight 3 point"):
        setup_book.capped_weights(["a", "b", "c"], 0.3)  # 0.9 of the games would have no point


def test_over_a_book_plays_its_points_and_cap_weights_them_by_rate(tmp_path, capsys):
    import pytest

    shipped = shipped_model_path("lost_and_found", "taliban")
    source = shipped.with_name(shipped.stem + ".setups.json")
    listed = [set(group) for group in read_book(source, make_game("lost_and_found"), "taliban").groups]
    out = tmp_path / "capped.setups.json"
    assert setup_book.main(["--game", "lost_and_found", "--side", "taliban", "--over", str(source),
                            "--games", "6", "--cap", "0.3", "--out", str(out)]) == 0
    card = json.loads(out.read_text())
    for group, measured, points in zip(card["groups"], card["measured"], listed, strict=True):
        assert set(measured) == points  # the book's points, not the probed candidates
        assert sorted(group.values()) == [0.1, 0.3, 0.3, 0.3]
        rate = {name: m["wins"] / max(1, m["games"]) for name, m in measured.items()}
        weakest = min(group, key=group.get)
        assert all(rate[weakest] <= rate[name] for name in group)  # the least drawn is the worst measured
    for bad, why in ((["--cap", "0"], "--cap must be a number in (0, 1]"),
                     (["--cap", "0.3", "--plans", "2"], "a book with --plans weights its plans"),
                     (["--over", str(source), "--from", str(source)], "give one of them")):
        with pytest.raises(SystemExit):
            setup_book.main(["--game", "lost_and_found", "--side", "taliban", *bad])
        assert why in capsys.readouterr().err


def test_a_cap_too_small_for_the_points_is_one_line_before_any_game(capsys, monkeypatch):
    shipped = shipped_model_path("lost_and_found", "taliban")
    source = str(shipped.with_name(shipped.stem + ".setups.json"))
    monkeypatch.setattr(setup_book, "measure", lambda *a, **k: pytest.fail("played games"))
    for extra in (["--over", source], ["--from", source]):
        assert setup_book.main(["--game", "lost_and_found", "--side", "taliban", *extra, "--cap", "0.2"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--cap 0.2 needs at least 5 points a placement" in err
