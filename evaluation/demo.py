"""The demo, ``make demo``: a short tournament on every game, printed and written as a report.

For each game (every registered game but the scenario engines; a game's spec may cap its games per
pairing and its MCTS simulations, :attr:`fof_env.core.ruleset.GameSpec.demo`) the agents
``random``, ``heuristic``, ``mcts:<--mcts>`` (a small search) and ``ppo`` (the
pretrained models shipped in ``agents/models``) play each other on both sides,
``--games`` games per ordered pairing, on ``--workers`` processes
(:func:`evaluation.tournament.plan_tournament`, :func:`~evaluation.tournament.play_tournament`). The Markdown tables (per pairing
and per side with Wilson 95 % intervals, VP means, Bradley-Terry ratings) are
printed; ``--out`` (default ``reports/demo``) gets, per game, ``results.json``,
``results.csv``, ``report.md``, ``report.html`` (self-contained, with plots, and per
pairing a link to its records and a small GIF of its first game) and the game
records, plus ``index.html``: per game the strongest agent and a small ratings table, linking
the game's report (which opens with the heatmap and the ratings, then the learning curves, then
the strongest agent's games as GIFs linking their replays on the board's viewer). While a tournament runs, a line
every 10 s says how many of its games are done and about how long the rest takes.

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
from evaluation.tournament import TournamentResult, plan_tournament, play_tournament
from fof_env.core.registry import fixed_scenario_games, game_spec, make_game

# every game but the scenario engines (they play a shipped scenario that is a game of its own), featured first
GAMES = tuple(sorted(fixed_scenario_games(), key=lambda name: not game_spec(name).featured))
# Games whose tournament is smaller, to keep the demo near 3 minutes on 2 cores: (most games per
# ordered pairing, most MCTS simulations), from their specs (a long rollout plays a whole random game).
SMALL = {name: game_spec(name).demo for name in GAMES if game_spec(name).demo is not None}


def demo_agents(game_name: str, mcts: int) -> list[str]:
    """random, heuristic, small MCTS, and ppo if a model ships for a side (it plays only where one does)."""
    agents = ["random", "heuristic", f"mcts:{mcts}"]
    game = make_game(game_name)
    if any(shipped_model_path(game_name, side).exists() for side in game.player_names):
        agents.append("ppo")
    return agents


_INDEX_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em; max-width: 1100px; color: #222; }
section { border-top: 1px solid #ccc; padding: 0.5em 0 1em; }
table { border-collapse: collapse; font-size: 0.9em; margin: 0.4em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
p.answer { font-size: 1.1em; background: #fff7d6; border: 1px solid #e0c96a; padding: 0.4em 0.7em; }
"""


def write_index(out: Path, reports: dict[str, tuple[Path, TournamentResult]]) -> Path:
    """``index.html``: per game, who beats whom at a glance (the strongest agent, a small ratings
    table, the side advantage) and links to its report, its heatmap and its games' replays."""
    sections = []
    for game, (path, result) in reports.items():
        href = html.escape(str(path.relative_to(out)), quote=True)
        ratings = result.ratings.ratings
        best = ratings[0]
        rows = "".join(
            f"<tr><td class='num'>{i}</td><td>{html.escape(r.agent)}</td><td class='num'>{r.elo:+.0f}</td>"
            f"<td class='num'>{r.interval:.0f}</td><td class='num'>{r.games}</td></tr>"
            for i, r in enumerate(ratings, start=1)
        )
        title = html.escape(game_title(game))
        side0 = html.escape(result.player_names[0])
        sections.append(
            f'<section id="{html.escape(game, quote=True)}"><h2>{title}</h2>'
            f'<p class="answer">Strongest: <b>{html.escape(best.agent)}</b> ({best.elo:+.0f} Elo, +/- {best.interval:.0f}).'
            f" {side0} (side 0) advantage {result.ratings.side_advantage:+.0f} Elo.</p>"
            "<table><tr><th>rank</th><th>agent</th><th>rating (Elo)</th><th>+/- 95%</th><th>games</th></tr>"
            f"{rows}</table>"
            f'<p><a href="{href}">Full report</a> · <a href="{href}#heatmap">who beats whom</a> · '
            f'<a href="{href}#games">games and replays</a> · {result.total_games} games, '
            f"{result.games_per_pairing} per ordered pairing</p></section>"
        )
    page = out / "index.html"
    page.write_text(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>fof_env demo: who beats whom</title>"
        f"<style>{_INDEX_CSS}</style></head><body><h1>fof_env demo: who beats whom</h1>"
        "<p>A short tournament per game: every agent against every other on both sides. Ratings: "
        "Bradley-Terry on the Elo scale, random = 0, with 95% intervals.</p>"
        + "".join(sections)
        + "</body></html>\n"
    )
    return page


def game_title(name: str) -> str:
    """The game's name for people (its view's title)."""
    from fof_env.core.view import view_for

    return view_for(name).title(make_game(name).new_initial_state(0))


def strongest_pairings(result: TournamentResult, limit: int | None = None) -> list[tuple[str, str]]:
    """The pairings of the strongest agent, the games the demo pictures and replays: against each other
    agent from the next strongest down, on both sides, then against itself; the first ``limit``."""
    order = [r.agent for r in result.ratings.ratings]
    best = order[0]
    wanted = [p for x in order[1:] for p in ((best, x), (x, best))] + [(best, best)]
    played = set(result.pairings)
    return [p for p in wanted if p in played][:limit]


class Progress:
    """Prints how a demo tournament goes, every ``every`` seconds: games done, the time it took, and
    about how long the rest of this tournament takes at that pace."""

    def __init__(self, label: str, total: int, out=None, every: float = 10.0):
        self.label, self.total, self.out, self.every = label, total, out or sys.stdout, every
        self.done = 0
        self.start = self.last = time.perf_counter()

    def __call__(self, batch) -> None:
        self.done += len(batch)
        now = time.perf_counter()
        if now - self.last >= self.every or self.done == self.total:
            self.last = now
            spent = now - self.start
            left = spent / self.done * (self.total - self.done) if self.done else 0.0
            print(f"  {self.label}: {self.done}/{self.total} games, {spent:.0f} s, about {left:.0f} s left",
                  file=self.out, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.demo", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=16, help="games per ordered pairing (default 16)")
    parser.add_argument("--mcts", type=int, default=20, help="simulations of the MCTS agent (default 20)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="reports/demo", help="report folder (default reports/demo)")
    parser.add_argument("--game", choices=GAMES, action="append", help="only this game (repeatable)")
    parser.add_argument("--no-gifs", action="store_true", help="no game GIFs (nor replays) in the reports")
    parser.add_argument("--replays", type=int, default=7, metavar="N",
                        help="games pictured and replayed per game: the strongest agent's first N pairings (default 7)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    out = Path(args.out)
    reports = {}
    games = args.game or GAMES
    for number, game_name in enumerate(games, start=1):
        most_games, most_mcts = SMALL.get(game_name, (args.games, args.mcts))
        agents = demo_agents(game_name, min(args.mcts, most_mcts))
        plan = plan_tournament(game_name, {}, agents, min(args.games, most_games), seed=args.seed)
        label = f"[{number}/{len(games)}] {game_name}"
        print(f"{label}: tournament of {', '.join(agents)}, {plan.games} games per ordered pairing, "
              f"{plan.total_games} games ({time.perf_counter() - start:.0f} s into the demo)", flush=True)
        result = play_tournament(plan, workers=args.workers, records_dir=out / "records",
                                 progress=sys.stderr.isatty(), on_games=Progress(label, plan.total_games))
        t0 = time.perf_counter()
        featured = strongest_pairings(result, args.replays)
        paths = write_report(result, out / game_name, gifs=not args.no_gifs, featured=featured)
        reports[game_name] = (paths["html"], result)
        print(markdown_report(result))
        print(f"Report: {paths['html']} (written in {time.perf_counter() - t0:.0f} s)\n", flush=True)
    index = write_index(out, reports)
    print(f"Demo finished in {time.perf_counter() - start:.1f} s; open {index}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
