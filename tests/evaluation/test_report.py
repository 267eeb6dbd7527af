"""Report files: JSON, CSV, Markdown, and a self-contained HTML page with its figures."""

from __future__ import annotations

import base64
import csv
import dataclasses
import html
import io
import json
import re
from pathlib import Path

import pytest

from agents.base import RandomAgent
from evaluation import plots
from evaluation.journal import OutputError
from evaluation.report import markdown_report, training_sections, write_report
from evaluation.tournament import TournamentResult, run_tournament
from fof_env.core.registry import ruleset_of


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
    # how the games ended: per pairing, games per termination (each game's logged Outcome)
    endings = md.split("## How the games ended (games per termination)\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    kinds = endings[0].strip("| ").split(" | ")[2:]
    assert kinds == sorted({o.termination for o in result.outcomes}) and set(kinds) <= set(ruleset_of(game).terminations)
    assert [sum(int(n) for n in line.strip("| ").split(" | ")[2:]) for line in endings[2:]] == [3, 3, 3, 3]
    assert "<h2>How the games ended</h2>" in paths["html"].read_text()

    out = paths["html"].parent
    assert (out / data["records_dir"]).resolve() == Path(result.records_dir).resolve()  # relative to out

    page = paths["html"].read_text()
    assert page.startswith("<!DOCTYPE html>") and "<table>" in page
    assert "http:" not in page and "https:" not in page and "<link" not in page and "<script" not in page
    sources = re.findall(r'src="([^"]*)"', page)
    pngs = [s for s in sources if s.startswith("data:image/png;base64,")]
    gifs = [s for s in sources if s.startswith("data:image/gif;base64,")]
    assert (len(pngs), len(gifs), len(sources)) == (2, 4, 6)  # the figures, a game per pairing
    from PIL import Image

    for gif in gifs:
        image = Image.open(io.BytesIO(base64.b64decode(gif.split(",", 1)[1])))
        assert image.format == "GIF" and 2 <= image.n_frames <= 10 and image.width <= 400
    # each pairing links its records folder (relative) and its first game's replay page
    links = [html.unescape(h) for h in re.findall(r'href="([^"]*)"', page)]
    folders = [h for h in links if h.endswith("/")]
    assert not any(Path(h).is_absolute() for h in links)
    assert len(set(folders)) == 4 and {len(list((out / h).glob("*.json"))) for h in folders} == {3}
    replays = sorted({h for h in links if h.startswith("replays/")})
    assert len(replays) == 4 and all((out / h).is_file() for h in replays)
    assert "replays/heuristic__vs__random.html" in replays and ">3 records</a>" in page
    replay = (out / replays[0]).read_text()
    assert 'id="fof-replay-data"' in replay and '<script src="../viewer/board.js">' in replay
    assert (out / "viewer" / "board.js").is_file() and (out / "viewer" / "board.css").is_file()
    # the answer first: strongest agent, heatmap, ratings, then the games, then the tables
    order = [page.index(x) for x in ('class="answer"', 'id="heatmap"', 'id="ratings"', 'id="games"', 'id="tables"')]
    assert order == sorted(order) and "Strongest: " in page
    assert "Learning curves" not in page  # no PPO agent, no card


def test_gifs_are_optional_and_can_be_limited(small_tournaments, tmp_path):
    result = small_tournaments["lost_and_found"]
    page = write_report(result, tmp_path / "none", gifs=False)["html"].read_text()
    assert "image/gif" not in page and "first game" not in page and page.count("records</a>") == 4
    page = write_report(result, tmp_path / "one", gif_limit=1)["html"].read_text()
    assert page.count("data:image/gif;base64,") == 1
    no_records = dataclasses.replace(result, records_dir=None)
    page = write_report(no_records, tmp_path / "plain")["html"].read_text()
    assert "image/gif" not in page and "records</a>" not in page and "<th>records</th>" not in page


def _renamed(result: TournamentResult, old: str, new: str) -> TournamentResult:
    rename = {old: new}
    return dataclasses.replace(
        result,
        agents=[rename.get(a, a) for a in result.agents],
        pairings=[tuple(rename.get(a, a) for a in p) for p in result.pairings],
        outcomes=[dataclasses.replace(o, agents=tuple(rename.get(a, a) for a in o.agents))
                  for o in result.outcomes],
    )


def test_a_spec_with_mathtext_characters_is_drawn_as_typed(small_tournaments, tmp_path):
    name = "ppo:/tmp/a$b_c^d\\e$/model.safetensors"
    result = _renamed(small_tournaments["strike_force_one"], "heuristic", name)
    import matplotlib

    with matplotlib.rc_context({"text.parse_math": True}), pytest.raises(ValueError):  # what it guards
        plots.win_rate_matrix.__wrapped__(result.agents, result.tallies, result.player_names)
    page = write_report(result, tmp_path)["html"].read_text()
    assert html.escape(name) in page and page.count("data:image/png;base64,") == 2


def soviet_only(game, player, seed=None):
    """An agent that can play side 0 only (as ``ppo`` where one side's model ships)."""
    if player != 0:
        raise ValueError("no model for this side")
    return RandomAgent(game, player, seed)


def test_pairings_a_one_sided_agent_cannot_play_read_n_a(tmp_path):
    result = run_tournament("strike_force_one", {}, ["random", soviet_only], 2, progress=False,
                            records_dir=tmp_path / "records")
    md = markdown_report(result)
    na = " | ".join(["n/a"] * 8)
    assert "| random | random | 2 | " in md and "| soviet_only | random | 2 | " in md
    assert f"| random | soviet_only | {na} |" in md and f"| soviet_only | soviet_only | {na} |" in md
    assert "| soviet_only | us | n/a | n/a | n/a | n/a |" in md
    assert "| soviet_only | soviet | 2 | " in md
    rates, texts = plots.matrix_cells(result.agents, result.tallies, result.player_names, result.sides)
    assert [row[1] for row in texts] == ["n/a", "n/a"] and texts[1][0].startswith(("0%", "50%", "100%"))
    assert rates[0][1] != rates[0][1]  # NaN: no colour
    _, texts = plots.matrix_cells(["a", "b"], [], ("soviet", "us"))  # no mirror: not played
    assert texts == [["not played"] * 2] * 2
    page = write_report(result, tmp_path, gifs=False)["html"].read_text()
    # two pairings' rows (+ the records column) and the one-sided agent's row on its other side
    assert page.count('<td class="na">n/a</td>') == 2 * (8 + 1) + 6
    page = write_report(result, tmp_path)["html"].read_text()
    assert page.count('<td class="na">n/a</td>') == 2 * (8 + 2) + 6  # + records and first game
    assert page.count("data:image/gif;base64,") == 2


def test_an_unwritable_folder_names_the_file(small_tournaments, tmp_path, monkeypatch):
    import os

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OutputError, match=r"cannot write .*results\.json: No space left on device"):
        write_report(small_tournaments["strike_force_one"], tmp_path)
    assert list(tmp_path.iterdir()) == []  # the temporary file went too


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
    assert png.startswith(b"\x89PNG") and note == "3 evaluations up to 3000 timesteps"
    assert sections["heuristic playing us"] == (None, "the model card has no training curve: plot skipped")
    assert set(sections) == {"heuristic playing soviet", "heuristic playing us"}  # only agents with cards
    page = write_report(dataclasses.replace(fake, agents=result.agents), tmp_path, gifs=False)["html"].read_text()
    assert "Learning curves" in page and page.count("<img") == 3


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


def test_a_curve_against_two_opponents_draws_a_line_for_each():
    from evaluation.plots import training_curve

    curve = [{"timesteps": t, "opponent": o, "win_rate": w, "low": w - 0.1, "high": w + 0.05}
             for t, o, w in ((0, "random", 0.5), (0, "heuristic", 0.2), (100, "random", 0.9), (100, "heuristic", 0.4))]
    both = training_curve(curve, "two")
    one = training_curve([p for p in curve if p["opponent"] == "random"], "two")
    assert both.startswith(b"\x89PNG") and one.startswith(b"\x89PNG") and both != one


def test_a_curve_note_names_the_checkpoint_shipped():
    """A model finished from its best evaluated checkpoint stops short of its curve: the note says where."""
    from evaluation.report import curve_note

    points = [{"timesteps": t, "win_rate": 0.5} for t in (500000, 550000, 600000)]
    card = {"timesteps": 550000, "selected": {"checkpoint": "ckpt_550000.zip", "timesteps": 550000, "eval_win_rate": 0.91}}
    assert curve_note(card, points) == (
        "3 evaluations up to 600000 timesteps; the model is the checkpoint at 550000 timesteps (dotted line), "
        "its best evaluation (win rate 0.91)"
    )
    assert curve_note({"timesteps": 400}, points) == "3 evaluations up to 600000 timesteps; the model: 400 timesteps"


def test_a_game_gif_tells_the_turn_the_result_and_the_sides(small_tournaments):
    """Each frame has a caption band: the last one names the winner, and every one shows each side's colour."""
    from PIL import Image

    from evaluation.frames import CAPTION_PX, game_gif

    result = small_tournaments["strike_force_one"]
    outcome = next(o for o in result.outcomes if o.record)
    gif = Image.open(io.BytesIO(game_gif(Path(result.records_dir) / outcome.record)))
    assert gif.width == 320 and gif.n_frames == 10
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGB")
    band = last.crop((0, last.height - 2 * CAPTION_PX - 14, last.width, last.height))
    colours = {c for _, c in band.getcolors(100000)}

    def near(colour):  # the GIF's palette moves a colour a little
        return any(max(abs(a - b) for a, b in zip(c, colour, strict=True)) <= 16 for c in colours)

    assert near((178, 52, 38)) and near((58, 96, 48))  # Soviet red and U.S. green swatches
    assert band.getpixel((8, 3 + CAPTION_PX + 4 + 6)) == min(colours, key=lambda c: sum(abs(a - b) for a, b in zip(c, (178, 52, 38), strict=True)))
    assert gif.info["duration"] == 2100  # the last frame stays three times as long
    from evaluation.frames import caption_line
    from evaluation.replay import load_record, replay

    final = replay(load_record(Path(result.records_dir) / outcome.record)).state
    winner = final.game.player_names[outcome.winner]
    assert caption_line(final, outcome.decisions) == f"{winner} wins ({outcome.decisions} decisions)"
    start = final.game.new_initial_state(0)
    assert caption_line(start, 0, outcome.decisions) == f"turn 1 · decision 0/{outcome.decisions}"
