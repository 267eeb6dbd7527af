"""``make bench`` / ``make bench-check``: the ratio and regression arithmetic on made-up figures (no timing),
the stored ratios file, and one tiny real round through a worker."""

import json

import pytest

from evaluation import speed


def _item(label: str, rates: list[float], op: str = "engine", error: str | None = None) -> speed.Item:
    item = speed.Item(label, "decisions/s", {"op": op}, error=error)
    item.rounds["ours"] = rates
    return item


def test_ratios_are_taken_within_each_round():
    assert speed.ratios([10.0, 30.0], [20.0, 30.0]) == [0.5, 1.0]
    assert speed.spread([3.0, 1.0, 2.0]) == (2.0, 1.0, 3.0)


def test_a_game_more_than_15_percent_below_its_stored_ratio_is_a_regression():
    stored = {"A": 1.0, "B": 0.5, "C": 0.2}
    measured = {"A": 0.86, "B": 0.42, "C": 0.3, "D": 0.01}  # A -14%: ok; B -16%: regression; D not stored
    assert speed.regressions(measured, stored) == ["B: ratio 0.420 is 16% below the stored 0.500"]
    assert speed.regressions({"A": 1.0}, {"A": 1.0, "B": 0.5}) == ["B: not measured (stored ratio 0.500)"]
    assert speed.regressions({"A": 0.5}, {"A": 1.0}, tolerance=0.6) == []


def test_check_uses_chess_and_falls_back_to_connect_four_without_open_spiel():
    stored = {"ratios": {speed.CHESS: {"G": 0.5}, speed.CONNECT_FOUR: {"G": 4.0}}}
    game = _item("G", [100.0, 80.0, 90.0])
    chess = _item(speed.CHESS, [200.0, 200.0, 200.0], op="spiel")
    c4 = _item(speed.CONNECT_FOUR, [25.0, 25.0, 25.0], op="pettingzoo_connect_four")
    assert speed.check([chess, c4, game], stored) == (speed.CHESS, [])  # median 0.45: 10% below, within 15%
    slow = _item("G", [60.0, 60.0, 60.0])  # 0.3 of chess: 40% below 0.5
    reference, problems = speed.check([chess, c4, slow], stored)
    assert reference == speed.CHESS and problems == ["G: ratio 0.300 is 40% below the stored 0.500"]
    missing = _item(speed.CHESS, [], op="spiel", error="ours: missing: No module named 'pyspiel'")
    reference, problems = speed.check([missing, c4, slow], stored)  # 60 / 25 = 2.4 against 4.0
    assert reference == speed.CONNECT_FOUR and problems == ["G: ratio 2.400 is 40% below the stored 4.000"]


def test_the_table_prints_median_range_and_ratios():
    chess = _item(speed.CHESS, [200.0, 100.0, 400.0], op="spiel")
    game = _item("G", [100.0, 100.0, 100.0])
    game.anchor = speed.CHESS
    game.rounds["base"] = [50.0, 25.0, 100.0]
    lines = speed.table([chess, game], has_base=True)
    assert lines[3] == ("| G | decisions/s | 100.0 [100.0-100.0] | 0.50 [0.25-1.00] of OpenSpiel chess "
                        "| 50.0 [25.0-100.0] | 2.00 [1.00-4.00] |")


def test_stored_ratios_name_every_engine_for_both_references():
    stored = json.loads(speed.RATIOS_FILE.read_text(encoding="utf-8"))
    labels = {label for label, _, _ in speed.ENGINES}
    assert set(stored["ratios"]) == {speed.CHESS, speed.CONNECT_FOUR}
    for reference, table in stored["ratios"].items():
        assert set(table) == labels, reference
        assert all(value > 0 for value in table.values())
    assert stored["tolerance"] == pytest.approx(0.15)


def test_a_worker_measures_one_engine_in_cpu_time():
    worker = speed.Worker(speed.ROOT)
    try:
        got = worker.ask({"op": "engine", "game": "strike_force_one", "options": {}, "seconds": 0.05})
        bad = worker.ask({"op": "engine", "game": "no_such_game", "options": {}, "seconds": 0.05})
    finally:
        worker.close()
    assert got["count"] > 0 and got["cpu"] >= 0.05
    assert "error" in bad


def test_a_regression_counts_only_if_a_second_run_confirms_it():
    stored = {"ratios": {speed.CHESS: {"G": 0.5, "H": 0.5}}}
    chess = _item(speed.CHESS, [200.0, 200.0, 200.0], op="spiel")
    items = [chess, _item("G", [60.0, 60.0, 60.0]), _item("H", [100.0, 100.0, 100.0])]  # G 0.3: flagged
    asked = []

    def again(rates: dict[str, list[float]]):
        def measure(fresh: list[speed.Item]) -> None:
            asked.append([i.label for i in fresh])
            for item in fresh:
                item.rounds["ours"] = rates[item.label]
        return measure

    noise = again({speed.CHESS: [200.0] * 3, "G": [95.0] * 3})  # 0.475: within 15% the second time
    first, confirmed = speed.confirm(items, speed.CHESS, stored, noise)
    assert first == ["G: ratio 0.300 is 40% below the stored 0.500"] and confirmed == []
    assert asked == [[speed.CHESS, "G"]]  # only the flagged game and its reference are measured again
    slow = again({speed.CHESS: [200.0] * 3, "G": [70.0] * 3})
    assert speed.confirm(items, speed.CHESS, stored, slow)[1] == ["G: ratio 0.350 is 30% below the stored 0.500"]
    fine = [chess, _item("G", [100.0] * 3), _item("H", [100.0] * 3)]
    assert speed.confirm(fine, speed.CHESS, stored, slow) == ([], [])
    assert len(asked) == 2  # nothing flagged: nothing measured again
