"""Report files: JSON, CSV, Markdown, and a self-contained HTML page with its figures."""

from __future__ import annotations

import csv
import dataclasses
import json
import re

import pytest

from agents.base import RandomAgent
from evaluation.report import markdown_report, training_sections, write_report
from evaluation.tournament import TournamentResult, run_tournament


@pytest.mark.parametrize("game", ["strike_force_one", "lost_and_found"])
def test_report_files(small_tournaments, game, tmp_path):
    result = small_tournaments[game]
    paths = write_report(result, tmp_path / "out")
    assert set(paths) == {"json", "csv", "md", "html"} and all(p.exists() for p in paths.values())

    data = json.loads(paths["json"].read_text())
    assert data["game"] == game and data["agents"] == ["random", "heuristic"] and data["seed"] == 5
    assert data["options"] == result.options and data["games_per_pairing"] == 3
    assert len(data["pairings"]) == 4 and len(data["games"]) == 12 and len(data["agent_sides"]) == 4
    assert data["ratings"]["anchor"] == "random" and data["timing"]["games"] == 12
    side0 = result.player_names[0]
    for p in data["pairings"]:
        s = p["sides"][side0]
        assert s["wins"] + s["draws"] + s["losses"] == p["games"] == 3

    rows = list(csv.DictReader(paths["csv"].open()))
    assert len(rows) == 4
    row = rows[2]
    assert (row["side0_agent"], row["side1_agent"]) == ("heuristic", "random")
    assert int(row["side0_wins"]) + int(row["side0_draws"]) + int(row["side0_losses"]) == 3
    assert float(row["side0_win_low"]) <= float(row["side0_win_rate"]) <= float(row["side0_win_high"])
    assert (row["side0_vp_mean"] != "") == (game == "lost_and_found")

    md = paths["md"].read_text()
    assert md == markdown_report(result)
    assert f"| {side0} | {result.player_names[1]} | games |" in md
    assert "| heuristic | random | 3 |" in md and "## Ratings" in md and "Side advantage of" in md
    if game == "lost_and_found":
        assert "VP mean taliban / usmc" in md and "own VP mean" in md

    page = paths["html"].read_text()
    assert page.startswith("<!DOCTYPE html>") and "<table>" in page
    assert "http:" not in page and "https:" not in page and "<link" not in page and "<script" not in page
    sources = re.findall(r'src="([^"]*)"', page)
    assert len(sources) == 2 and all(s.startswith("data:image/png;base64,") for s in sources)
    assert "Training curves" not in page  # no PPO agent, no card


def test_training_curves_from_cards(small_tournaments, tmp_path):
    result = small_tournaments["strike_force_one"]
    curve = [
        {"timesteps": t, "win_rate": w, "low": w - 0.1, "high": min(1.0, w + 0.1), "games": 20}
        for t, w in ((1000, 0.2), (2000, 0.5), (3000, 0.7))
    ]
    fake = dataclasses.replace(
        result,
        agents=["random", "heuristic", "ppo:runs/missing.zip"],
        cards={"heuristic": {"soviet": {"curve": curve, "timesteps": 3000}, "us": {"game": "x"}}},
    )
    sections = {title: (png, note) for title, png, note in training_sections(fake)}
    png, note = sections["heuristic playing soviet"]
    assert png.startswith(b"\x89PNG") and note == "3 evaluations, 3000 timesteps in all"
    assert sections["heuristic playing us"] == (None, "the model card has no training curve: plot skipped")
    assert sections["ppo:runs/missing.zip playing soviet"][1].startswith("no model card")
    assert "random playing soviet" not in sections
    page = write_report(dataclasses.replace(fake, agents=result.agents), tmp_path)["html"].read_text()
    assert "Training curves" in page and page.count("<img") == 3


class CardedAgent(RandomAgent):
    """A random agent with a model card, as the PPO agent has."""

    card = {
        "game": "strike_force_one",
        "curve": [
            {"timesteps": 512, "win_rate": 0.1, "low": 0.0, "high": 0.3, "games": 10},
            {"timesteps": 1024, "win_rate": 0.4, "low": 0.2, "high": 0.6, "games": 10},
        ],
    }


def carded(game, player, seed=None):
    return CardedAgent(game, player, seed)


def test_cards_of_built_agents_reach_the_report(tmp_path):
    result = run_tournament("strike_force_one", {}, [carded, "random"], 1, progress=False)
    assert result.cards == {"carded": {"soviet": CardedAgent.card, "us": CardedAgent.card}}
    page = write_report(result, tmp_path)["html"].read_text()
    assert "carded playing soviet" in page and "carded playing us" in page and page.count("<img") == 4
    again = TournamentResult.from_dict(json.loads((tmp_path / "results.json").read_text()))
    assert again.to_dict() == result.to_dict()
    assert markdown_report(again) == markdown_report(result)


def test_curve_points_of_a_both_sides_model():
    from evaluation.plots import curve_points

    curve = [{"timesteps": t, "win_rate": 0.5, "side": s} for t in (1, 2) for s in ("soviet", "us")]
    assert [p["side"] for p in curve_points(curve, "us")] == ["us", "us"]
    plain = [{"timesteps": 1, "win_rate": 0.5}]
    assert curve_points(plain, "us") == plain and curve_points(curve, None) == curve
