"""`make demo` (python -m evaluation.demo): tournaments on both games, printed and written as reports."""

from __future__ import annotations

from evaluation import demo


def test_demo_runs_both_games_and_writes_the_reports(tmp_path, capsys):
    assert demo.main(["--games", "1", "--mcts", "2", "--workers", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for game in demo.GAMES:
        assert f"# Tournament: {game}" in out
        html = (tmp_path / game / "report.html").read_text()
        assert "data:image/png;base64," in html and "data:image/gif;base64," in html
        assert f'href="../records/{game}/random__vs__heuristic/"' in html  # the records, relative
        assert (tmp_path / "records" / game / "random__vs__heuristic" / "0000.json").exists()
        assert (tmp_path / game / "results.csv").exists()
        assert "mcts:2" in (tmp_path / game / "report.md").read_text()
    index = (tmp_path / "index.html").read_text()
    assert 'href="strike_force_one/report.html"' in index and 'href="lost_and_found/report.html"' in index
