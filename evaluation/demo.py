"""The demo, ``make demo``: a short tournament on every game, printed and written as a report.

For each game (Strike Force One, Force on Force "Lost & Found" and "Compound Raid", FUBAR's "Lost &
Found" and "Village Patrol", and Force on Force WWII's "Hedgerow Hamlet", the last four with at most 4
games per pairing and ``mcts:5``) the agents
``random``, ``heuristic``, ``mcts:<--mcts>`` (a small search) and ``ppo`` (the
pretrained models shipped in ``agents/models``) play each other on both sides,
``--games`` games per ordered pairing, on ``--workers`` processes
(:func:`evaluation.tournament.run_tournament`). The Markdown tables (per pairing
and per side with Wilson 95 % intervals, VP means, Bradley-Terry ratings) are
printed; ``--out`` (default ``reports/demo``) gets, per game, ``results.json``,
``results.csv``, ``report.md``, ``report.html`` (self-contained, with plots, and per
pairing a link to its records and a small GIF of its first game) and the game
records, plus ``index.html`` linking the games' reports.

Defaults take about 100 s on two cores (most of it the MCTS games; the GIFs about 3 s,
``--no-gifs`` skips them). ``fof evaluate`` runs any other tournament.
"""

from __future__ import annotations

import argparse
import html
import sys
import time
from pathlib import Path

from agents.ppo import shipped_model_path
from evaluation.report import markdown_report, write_report
from evaluation.tournament import run_tournament
from fof_env.core.registry import make_game

GAMES = ("strike_force_one", "lost_and_found", "compound_raid", "fubar_lost_and_found", "fubar_village_patrol",
         "wwii_hedgerow_hamlet")
# Games whose tournament is smaller, to keep the demo near 3 minutes on 2 cores: (most games per
# ordered pairing, most MCTS simulations). A FUBAR rollout plays a whole random game.
SMALL = {"compound_raid": (4, 5), "fubar_lost_and_found": (4, 5), "fubar_village_patrol": (4, 5),
         "wwii_hedgerow_hamlet": (4, 5)}


def demo_agents(game_name: str, mcts: int) -> list[str]:
    """random, heuristic, small MCTS, and ppo if a model ships for a side (it plays only where one does)."""
    agents = ["random", "heuristic", f"mcts:{mcts}"]
    game = make_game(game_name)
    if any(shipped_model_path(game_name, side).exists() for side in game.player_names):
        agents.append("ppo")
    return agents


def write_index(out: Path, reports: dict[str, Path]) -> Path:
    """``index.html`` linking each game's report."""
    items = "".join(
        f'<li><a href="{html.escape(str(path.relative_to(out)))}">{html.escape(game)}</a></li>'
        for game, path in reports.items()
    )
    page = out / "index.html"
    page.write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>fof_env demo</title></head>"
                    f"<body><h1>fof_env demo tournaments</h1><ul>{items}</ul></body></html>\n")
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.demo", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16, help="games per ordered pairing (default 16)")
    parser.add_argument("--mcts", type=int, default=20, help="simulations of the MCTS agent (default 20)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="reports/demo", help="report folder (default reports/demo)")
    parser.add_argument("--game", choices=GAMES, action="append", help="only this game (repeatable)")
    parser.add_argument("--no-gifs", action="store_true", help="no game GIFs in the reports")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    out = Path(args.out)
    reports = {}
    for game_name in args.game or GAMES:
        most_games, most_mcts = SMALL.get(game_name, (args.games, args.mcts))
        agents = demo_agents(game_name, min(args.mcts, most_mcts))
        result = run_tournament(game_name, {}, agents, min(args.games, most_games), workers=args.workers, seed=args.seed,
                                records_dir=out / "records", progress=sys.stderr.isatty())
        paths = write_report(result, out / game_name, gifs=not args.no_gifs)
        reports[game_name] = paths["html"]
        print(markdown_report(result))
        print(f"Report: {paths['html']}\n", flush=True)
    index = write_index(out, reports)
    print(f"Demo finished in {time.perf_counter() - start:.1f} s; open {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
