"""The ladder: base pairings often, search pairings sparingly, one rating fit over all of them."""

from __future__ import annotations

import io
import json

from evaluation.ladder import (
    AZ_SEARCH,
    DEFAULT_SEARCH,
    VALUE_SEARCH,
    default_games,
    default_search,
    ladder_agents,
    main,
    play_ladder,
    split_label,
)


def test_default_games_leave_out_the_generic_scenario_engines():
    games = default_games()
    assert "force_on_force" not in games and "fubar" not in games
    assert {"strike_force_one", "lost_and_found", "wwii_hedgerow_hamlet", "fubar_village_patrol"} <= set(games)


def test_the_alphazero_style_search_joins_the_default_where_a_model_ships_for_both_sides():
    assert default_search("strike_force_one") == [*DEFAULT_SEARCH, AZ_SEARCH, VALUE_SEARCH]  # value nets ship too
    assert default_search("compound_raid") == [*DEFAULT_SEARCH, AZ_SEARCH]  # no value net ships there
    assert default_search("fubar_village_patrol") == [*DEFAULT_SEARCH, AZ_SEARCH, VALUE_SEARCH]
    assert default_search("fubar") == list(DEFAULT_SEARCH)  # no model under the generic engine's name


def test_the_alphazero_style_search_stays_out_where_one_side_has_no_model(soviet_model_only):
    assert default_search("strike_force_one") == list(DEFAULT_SEARCH)


def test_agents_include_the_shipped_model_and_leave_out_a_spec_that_cannot_play():
    agents, notes = ladder_agents("strike_force_one", ["ppo:/no/such/model.safetensors"])
    assert agents == ["random", "heuristic", "ppo"]
    assert len(notes) == 1 and notes[0].startswith("ppo:/no/such/model.safetensors left out: ")


def test_search_agents_meet_every_other_agent_on_both_sides_with_their_own_game_count():
    ladder = play_ladder("strike_force_one", games=2, search=["mcts:2", "mcts:3"], search_games=1,
                         log=io.StringIO())
    counts: dict[tuple[str, str], int] = {}
    for o in ladder.outcomes:
        counts[o.agents] = counts.get(o.agents, 0) + 1
    # base: every agent on both sides, mirrors included (a model ships for each side)
    base = {(a, b) for a in ("random", "heuristic", "ppo") for b in ("random", "heuristic", "ppo")}
    assert {p: counts[p] for p in base} == dict.fromkeys(base, 2)
    search = {("mcts:2", "random"), ("random", "mcts:2"), ("mcts:2", "heuristic"), ("heuristic", "mcts:2"),
              ("ppo", "mcts:2"), ("mcts:2", "ppo"), ("mcts:3", "random"), ("random", "mcts:3"),
              ("mcts:3", "heuristic"), ("heuristic", "mcts:3"), ("ppo", "mcts:3"), ("mcts:3", "ppo"),
              ("mcts:3", "mcts:2"), ("mcts:2", "mcts:3")}
    assert {p: c for p, c in counts.items() if p not in base} == dict.fromkeys(search, 1)
    ratings = ladder.ratings
    assert {r.agent for r in ratings.ratings} == {"random", "heuristic", "ppo", "mcts:2", "mcts:3"}
    assert ratings["random"].elo == 0 and ratings.games == 32


def test_main_writes_each_ladder_and_an_index(tmp_path, capsys):
    assert main(["--game", "fubar_village_patrol", "--games", "1", "--search", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "fubar_village_patrol.json").read_text())
    # a model ships for each side, so ppo plays both: every ordered pairing of three agents
    assert data["agents"] == ["random", "heuristic", "ppo"] and len(data["outcomes"]) == 9
    assert (tmp_path / "fubar_village_patrol.md").read_text().startswith("# fubar_village_patrol\n")
    assert "## fubar_village_patrol" in (tmp_path / "README.md").read_text()


def test_a_bad_search_spec_is_one_line_and_writes_nothing(tmp_path, capsys):
    assert main(["--game", "strike_force_one", "--games", "1", "--search", "mcts:bogus=1",
                 "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: search agent mcts:bogus=1: ") and "unknown mcts option" in err[-1]
    assert not (tmp_path / "out").exists()


def test_a_label_names_an_agent_in_the_ladder_without_changing_its_games():
    plain = play_ladder("strike_force_one", games=1, search=["mcts:2"], search_games=1, log=io.StringIO())
    labelled = play_ladder("strike_force_one", games=1, search=["m2=mcts:2"], search_games=1, log=io.StringIO())
    assert "m2" in labelled.agents and "mcts:2" not in labelled.agents
    rename = {"mcts:2": "m2"}
    assert [(tuple(rename.get(a, a) for a in o.agents), o.seed, o.winner) for o in plain.outcomes] == [
        (o.agents, o.seed, o.winner) for o in labelled.outcomes]
    assert split_label("ppo:C:/x=y.safetensors") == ("ppo:C:/x=y.safetensors", "ppo:C:/x=y.safetensors")
