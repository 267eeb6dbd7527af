"""A smoke run of ``make bench``'s Lost & Found figures (tiny budgets: numbers are not checked)."""

from evaluation import bench


def test_lost_and_found_rows():
    rows = bench.lost_and_found_rows(seconds=0.05, repeats=1, median_games=3)
    names = [name for name, _, _ in rows]
    assert len(rows) == 2 * 6 and all(value > 0 for _, value, _ in rows)
    assert "Lost & Found, full rules: engine decisions/s (validated apply)" in names
    assert "Lost & Found, quick rules: median ms per random game (3 games)" in names
    assert "Lost & Found, full rules: Gym env steps/s with masks (usmc learner)" in names
    notes = {name: note for name, _, note in rows}
    assert notes["Lost & Found, full rules: engine decisions/s (validated apply)"].startswith(
        "target >= 10,000: "
    )


def test_main_prints_one_game(capsys, tmp_path):
    out_json = tmp_path / "bench.json"
    argv = ["--game", "lost_and_found", "--seconds", "0.05", "--repeats", "1", "--median-games", "2"]
    assert bench.main([*argv, "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    assert "Lost & Found, quick rules: median ms per random game (2 games)" in out
    assert "Strike Force One" not in out and "connect_four_v3" in out
    assert out_json.exists()
