"""Golden digests (``evaluation/golden.py``): the games recorded before a restructuring still play the same.

``make golden`` replays all of them (4,400 games each of Strike Force One and Lost & Found, and 1,200 of each
of the two FUBAR scenarios, Compound Raid and Hedgerow Hamlet); the suite replays the first of each kind.
"""

from __future__ import annotations

import pytest

from evaluation import golden


@pytest.mark.parametrize("game", ["strike_force_one", "lost_and_found"])
def test_the_first_games_of_every_suite_match_their_golden_digests(game):
    assert golden.check(game, games=40) == []


@pytest.mark.parametrize("game", ["fubar_lost_and_found", "fubar_village_patrol", "compound_raid",
                                  "wwii_hedgerow_hamlet"])
def test_the_scenario_games_and_their_heuristic_bots_match_their_golden_digests(game):
    assert golden.check(game, games=10) == []


def test_a_changed_game_is_reported(monkeypatch):
    real = golden.game_digest

    def off_by_one(suite, seed, game=None):
        return real(suite, seed + 1, game) if seed == 3 else real(suite, seed, game)

    monkeypatch.setattr(golden, "game_digest", off_by_one)
    problems = golden.check("lost_and_found", games=5)
    assert len(problems) == 4 and all(" game 3: digest " in p for p in problems)


@pytest.mark.parametrize("seed", [0, 7])
def test_a_digest_depends_on_the_game_not_on_how_the_state_stores_it(seed):
    suite = golden.SUITES["lost_and_found"][0]
    assert golden.game_digest(suite, seed) == golden.game_digest(suite, seed)
    assert golden.game_digest(suite, seed) != golden.game_digest(suite, seed + 1)


def test_writing_the_heuristic_suites_keeps_the_random_ones(monkeypatch, tmp_path):
    """``--write --players heuristic`` replays only the bots' games: the random suites stay as they were."""
    import json
    import shutil

    shutil.copy(golden.golden_path("compound_raid"), tmp_path / "compound_raid.json")
    before = json.loads((tmp_path / "compound_raid.json").read_text())["suites"]
    monkeypatch.setattr(golden, "GOLDEN_DIR", tmp_path)
    monkeypatch.setattr(golden, "suite_digests", lambda suite, games=None: iter([f"new {suite.players}"]))
    after = json.loads(golden.write("compound_raid", "heuristic").read_text())["suites"]
    keys = {s.players: s.key for s in golden.SUITES["compound_raid"]}
    assert after[keys["random"]] == before[keys["random"]] and len(after[keys["random"]]) == 1000
    assert after[keys["heuristic"]] == ["new heuristic"]
