"""``make bench``: its arithmetic on a fake clock (exact figures), and its rows on a tiny budget."""

import itertools

import numpy as np
import pytest

import fof_env
from evaluation import bench
from fof_env.core.registry import game_spec


@pytest.fixture
def fake_clock(monkeypatch):
    """``time.perf_counter`` in the benchmark advances exactly 1 ms per call."""
    ticks = itertools.count()
    monkeypatch.setattr(bench.time, "perf_counter", lambda: next(ticks) / 1000)


def _random_game_lengths(game_name: str, options: dict, games: int) -> list[int]:
    """Decisions of random games ``0..games-1``, the moves drawn from one ``default_rng(0)`` in turn."""
    game = fof_env.make_game(game_name, **options)
    rng = np.random.default_rng(0)
    lengths = []
    for seed in range(games):
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        lengths.append(len(state.history))
    return lengths


@pytest.mark.parametrize("checked", [True, False])
def test_engine_rates_count_decisions_and_games_over_the_clock(fake_clock, checked):
    """A 3.5 ms budget on a clock that ticks 1 ms per reading: the loop reads it at 1, 2, 3 ms (three
    games start) and 4 ms (stop), then 5 ms for the elapsed time. So decisions/s is the three games'
    decisions over 5 ms and games/s is 3 / 5 ms = 600."""
    decisions, games = bench.engine_rates("lost_and_found", {}, 0.0035, 1, checked=checked)
    assert decisions == pytest.approx(sum(_random_game_lengths("lost_and_found", {}, 3)) / 0.005)
    assert games == pytest.approx(600.0)


def test_median_game_ms_times_each_game_between_two_clock_readings(fake_clock):
    assert bench.median_game_ms("strike_force_one", {}, 5) == pytest.approx(1.0)


def _rows(game: str, seconds: float = 0.05, median_games: int = 2) -> list[tuple[str, float, str]]:
    """Every benchmarked option set's rows of ``game`` (its spec's ``bench``)."""
    spec = game_spec(game)
    return [row for v in spec.bench for row in bench.variant_rows(spec, v, seconds, 1, median_games)]


def test_lost_and_found_rows():
    rows = _rows("lost_and_found", median_games=3)
    names = [name for name, _, _ in rows]
    assert len(rows) == 2 * 7
    assert "Lost & Found: engine decisions/s (validated apply)" in names
    assert "Lost & Found, quick rules: median ms per random game (3 games)" in names
    assert "Lost & Found: Gym env steps/s with masks (usmc learner)" in names
    notes = {name: note for name, _, note in rows}
    assert notes["Lost & Found: engine decisions/s (validated apply)"].startswith("target >= 10,000: ")
    assert notes["Lost & Found, quick rules: median ms per random game (3 games)"].startswith("target < 50 ms: ")


def test_wwii_rows():
    rows = _rows("wwii_hedgerow_hamlet")
    notes = {name: note for name, _, note in rows}
    assert len(rows) == 7  # four engine rows, a Gym row per learner side, the heuristic bot
    assert notes["Hedgerow Hamlet: engine decisions/s (validated apply)"].startswith("target >= 10,000: ")
    assert notes["Hedgerow Hamlet: median ms per random game (2 games)"] == ""  # no median target
    assert "Hedgerow Hamlet: Gym env steps/s with masks (us learner)" in notes
    assert all(value > 0 for _, value, _ in rows)


def test_compound_raid_rows():
    rows = _rows("compound_raid")
    notes = {name: note for name, _, note in rows}
    assert len(rows) == 7  # four engine rows, a Gym row per learner side, the heuristic bot
    assert notes["Compound Raid: engine decisions/s (validated apply)"].startswith("target >= 10,000: ")
    assert notes["Compound Raid: median ms per random game (2 games)"].startswith("target < 50 ms: ")
    assert {"Compound Raid: Gym env steps/s with masks (british learner)",
            "Compound Raid: Gym env steps/s with masks (militia learner)"} <= set(notes)
    assert all(value > 0 for _, value, _ in rows)


def test_a_set_without_targets_has_no_verdicts():
    rows = _rows("strike_force_one")
    assert len(rows) == 2 * 7 and all(note == "" for _, _, note in rows)


def test_main_prints_one_game(capsys, tmp_path):
    out_json = tmp_path / "bench.json"
    argv = ["--game", "lost_and_found", "--seconds", "0.05", "--repeats", "1", "--median-games", "2"]
    assert bench.main([*argv, "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "Lost & Found, quick rules: median ms per random game (2 games)" in out
    assert "Strike Force One" not in out and "connect_four_v3" in out
    assert out_json.exists()


def test_search_rows_compare_batched_and_single_network_calls():
    """Each side of both featured games: batch=1 then batch=8, the ratio printed beside the batched row."""
    rows = bench.search_rows(seconds=0.01, repeats=1)
    names = [name for name, _, _ in rows]
    assert names[:2] == [
        "Lost & Found taliban search (PPO prior+critic): iterations/s, batch=1",
        "Lost & Found taliban search (PPO prior+critic): iterations/s, batch=8",
    ]
    assert "Strike Force One soviet search (PPO prior+critic): iterations/s, batch=8" in names
    assert len(rows) == 8 and all(value > 0 for _, value, _ in rows)
    for (_, single, _), (_, batched, note) in zip(rows[::2], rows[1::2], strict=True):
        assert note == f"x{batched / single:.2f} of batch=1"
