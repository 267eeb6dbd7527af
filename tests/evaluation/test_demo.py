"""`make demo` (python -m evaluation.demo): tournaments on both games, printed and written as reports."""

from __future__ import annotations

from evaluation import demo


def test_demo_runs_both_games_and_writes_the_reports(tmp_path, capsys):
    assert demo.main(["--games", "1", "--mcts", "2", "--workers", "1", "--replays", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for game in demo.GAMES:
        assert f"# Tournament: {game}" in out
        html = (tmp_path / game / "report.html").read_text()
        assert "data:image/png;base64," in html and "data:image/gif;base64," in html
        assert f'href="../records/{game}/random__vs__heuristic/"' in html  # the records, relative
        assert (tmp_path / "records" / game / "random__vs__heuristic" / "0000.json").exists()
        assert (tmp_path / game / "results.csv").exists()
        assert "mcts:2" in (tmp_path / game / "report.md").read_text()
        assert len(list((tmp_path / game / "replays").glob("*.html"))) == 1 and (tmp_path / game / "viewer" / "board.js").is_file()
    index = (tmp_path / "index.html").read_text()
    assert 'href="strike_force_one/report.html"' in index and 'href="lost_and_found/report.html"' in index
    # the answer at a glance: per game the strongest agent and a small ratings table
    assert index.count("Strongest: <b>") == len(demo.GAMES) and index.count("<th>rating (Elo)</th>") == len(demo.GAMES)
    assert "<h2>Strike Force One</h2>" in index and "<h2>Force on Force WWII: Hedgerow Hamlet</h2>" in index
    # progress while it runs: each tournament announced, games done and the time left
    first = demo.GAMES[0]  # a featured game (Strike Force One and Lost & Found come first)
    assert first in ("strike_force_one", "lost_and_found") and set(demo.GAMES[:2]) == {"strike_force_one", "lost_and_found"}
    assert f"[1/{len(demo.GAMES)}] {first}: tournament of random, heuristic, mcts:2" in out
    assert f"[1/{len(demo.GAMES)}] {first}: 16/16 games, " in out and " s left" in out
