"""One ladder per game: every agent of a game rated on one Bradley-Terry scale.

``python -m evaluation.ladder [--game G ...] [--games 100] [--search SPEC ...]
[--search-games 10] [--agent SPEC ...] [--workers 2] [--seed 7] [--out reports/ladders]``

Agents. For each game: ``random``, ``heuristic`` (where the game has one), ``ppo`` (where
a model ships for at least one of its sides; it plays only those sides), every ``--agent``
spec that builds for that game (e.g. a league bot, ``ppo:runs/x/model.safetensors``; one
that does not is left out with a note), and the ``--search`` specs (default,
:func:`default_search`: the guided search of :mod:`agents.mcts` at 5 and 20 simulations a
decision, labelled ``g5`` and ``g20``, and where a model ships for both sides the
AlphaZero-style search over those models at 128, labelled ``az128``).

Games. Search agents cost 100 to 1,000 times more per decision than the others, so the
ladder plays two kinds of pairings and fits one model to all of them:

* the *base* tournament: every ordered pairing of the non-search agents (mirrors
  included), ``--games`` games each;
* *search* pairings: each search spec against every other agent (the other search specs
  included), on both sides, ``--search-games`` games each (no mirrors).

Seeds follow :mod:`evaluation.tournament` (a game's seeds depend only on the ladder seed,
the two spec strings and the game's index), so a ladder is reproducible and adding an
agent does not change the games of the others. The fit is :func:`evaluation.ratings.fit_ratings`
over every game (anchor ``random`` = 0 Elo; draws = half wins; a side-0 advantage term),
with 95 % intervals; an agent with few games gets a wide interval, not a wrong rank.

Labels. Any ``--search`` or ``--agent`` entry may be written ``LABEL=SPEC`` (a label holds no
``:``), e.g. ``g20=mcts:simulations=20,rollout=heuristic``: the ladder shows the label; the games'
seeds still come from the spec.

Output: ``<out>/<game>.md`` (the ladder, the side advantage, each pairing's W/D/L) and
``<out>/<game>.json`` (ratings, tallies and every game's outcome), plus ``<out>/README.md``
with every game's ladder in one page. Progress goes to stderr, one line per pairing group.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, TextIO

from evaluation.ratings import Ratings, fit_ratings
from evaluation.report import markdown_table, ratings_rows
from evaluation.stats import wilson_interval
from evaluation.tallies import GameOutcome, tally_pairing
from evaluation.tournament import AgentSpecError, check_agents, run_tournament
from fof_env.core.files import write_text_atomic
from fof_env.core.registry import fixed_scenario_games, list_games, make_game

GUIDED = "rollout=heuristic,rollout_limit=20,evaluation=score,prior=heuristic"  # agents/mcts.py's guided search
DEFAULT_SEARCH = (f"g5=mcts:simulations=5,{GUIDED}", f"g20=mcts:simulations=20,{GUIDED}")
# each side's shipped policy as the PUCT prior, the critics value every new leaf (agents/mcts.py)
AZ_SEARCH = "az128=mcts:simulations=128,batch=8,rollout_limit=0,evaluation=ppo,prior=ppo"
# each side's policy as prior, its value net (trained on results against the heuristic) at every leaf, the
# opponent played by its heuristic bot (agents/mcts.py, "Opponent model")
VALUE_SEARCH = "v64=mcts:simulations=64,opponent=heuristic,prior=ppo,evaluation=value,rollout_limit=0,batch=8"
def default_games() -> list[str]:
    """Every registered game but the scenario engines: with their defaults they play a shipped scenario
    that is a game of its own (:func:`fof_env.core.registry.fixed_scenario_games`; name them with --game
    to rate them)."""
    return fixed_scenario_games()


@dataclass
class Ladder:
    """One game's ladder: the agents, every game played, and the fitted ratings."""

    game: str
    player_names: tuple[str, str]
    agents: list[str]
    search: list[str]
    outcomes: list[GameOutcome]
    notes: list[str]
    seconds: float

    @cached_property
    def ratings(self) -> Ratings:
        """The Bradley-Terry fit over every game (fitted once; the Markdown and the JSON both read it)."""
        return fit_ratings(((o.agents[0], o.agents[1], o.side0_points) for o in self.outcomes), self.agents)

    def pairings(self) -> list[tuple[str, str]]:
        """The ordered pairings played, in the order first played."""
        seen: dict[tuple[str, str], None] = {}
        for o in self.outcomes:
            seen.setdefault(o.agents, None)
        return list(seen)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "player_names": list(self.player_names),
            "agents": self.agents,
            "search": self.search,
            "ratings": self.ratings.to_dict(),
            "notes": self.notes,
            "seconds": round(self.seconds, 1),
            "outcomes": [o.to_dict() for o in self.outcomes],
        }


def split_label(entry: str) -> tuple[str, str]:
    """``"LABEL=SPEC"`` -> ``(LABEL, SPEC)`` when the text before the first ``=`` holds no ``:``;
    otherwise ``(entry, entry)`` (a plain spec, its own label)."""
    head, eq, rest = entry.partition("=")
    if eq and head and ":" not in head and rest:
        return head, rest
    return entry, entry


def _playable(game_name: str, spec: str) -> str | None:
    """None if ``spec`` builds for at least one side of ``game_name``, else why not (one line)."""
    try:
        check_agents(make_game(game_name), [spec])
    except (AgentSpecError, ValueError) as exc:
        return str(exc)
    return None


def default_search(game_name: str) -> list[str]:
    """The default search agents of ``game_name``'s ladder: :data:`DEFAULT_SEARCH`, and
    :data:`AZ_SEARCH` where a model ships for both sides (its prior and value; on a game with
    one side's model it would be a different search there), and :data:`VALUE_SEARCH` where value
    nets ship for both sides too (``agents/models/values``)."""
    from agents.value_net import shipped_value_path

    try:
        game = make_game(game_name)
        _cards, sides = check_agents(game, ["ppo"])
    except AgentSpecError:
        return list(DEFAULT_SEARCH)
    if sorted(sides["ppo"]) != [0, 1]:
        return list(DEFAULT_SEARCH)
    values = all(shipped_value_path(game.name, side.lower()).exists() for side in game.player_names)
    return [*DEFAULT_SEARCH, AZ_SEARCH, *([VALUE_SEARCH] if values else [])]


def ladder_agents(game_name: str, extra: Sequence[str] = ()) -> tuple[list[str], list[str]]:
    """The non-search agents of ``game_name``'s ladder and notes on the specs left out."""
    agents, notes = [], []
    for spec in ("random", "heuristic", "ppo", *extra):
        why = _playable(game_name, spec)
        if why is None:
            agents.append(spec)
        elif spec in extra:
            notes.append(f"{spec} left out: {why}")
    return agents, notes


def play_ladder(game_name: str, *, games: int, search: Sequence[str], search_games: int,
                extra: Sequence[str] = (), workers: int = 1, seed: int = 7,
                log: TextIO = sys.stderr) -> Ladder:
    """Play ``game_name``'s ladder (see the module docstring)."""
    start = time.perf_counter()
    labels = dict(split_label(e)[::-1] for e in (*extra, *search))  # spec -> label
    extra = [split_label(e)[1] for e in extra]
    search = [split_label(e)[1] for e in search]
    base, notes = ladder_agents(game_name, extra)
    for spec in search:
        why = _playable(game_name, spec)
        if why is not None:
            raise AgentSpecError(f"search agent {spec}: {why}")
    names = tuple(make_game(game_name).player_names)
    outcomes: list[GameOutcome] = []

    def play(specs: list[str], n: int, mirror: bool) -> None:
        t0 = time.perf_counter()
        result = run_tournament(game_name, {}, specs, n, workers=workers, seed=seed, progress=False, mirror=mirror)
        outcomes.extend(result.outcomes)
        print(f"  {game_name}: {' vs '.join(specs) if len(specs) == 2 else ', '.join(specs)}: "
              f"{len(result.outcomes)} games, {time.perf_counter() - t0:.0f} s", file=log, flush=True)

    play(base, games, True)
    if search_games > 0:
        for i, spec in enumerate(search):
            for other in base + list(search[:i]):
                play([spec, other], search_games, False)
    def label(spec: str) -> str:
        return labels.get(spec, spec)

    outcomes = [dataclasses.replace(o, agents=(label(o.agents[0]), label(o.agents[1]))) for o in outcomes]
    return Ladder(game_name, names, [label(a) for a in base + list(search)], [label(a) for a in search],
                  outcomes, notes, time.perf_counter() - start)


def ladder_markdown(ladder: Ladder, level: int = 2) -> str:
    """The ladder as Markdown: the ratings table, the side advantage, and each pairing's W/D/L."""
    r = ladder.ratings
    a, b = ladder.player_names
    h = "#" * level
    lines = [f"{h} {ladder.game}", "", *markdown_table(ratings_rows(r))]
    lines += ["", f"Side advantage of {a} over {b}: {r.side_advantage:+.0f} +/- {1.96 * r.side_advantage_se:.0f} Elo; "
              f"{r.games} games; random = 0; {ladder.seconds:.0f} s.", ""]
    lines += [f"| {a} | {b} | games | {a} W/D/L | {a} score [95%] |", "|---|---|---:|---|---|"]
    for pair in ladder.pairings():
        t = tally_pairing(pair, ladder.outcomes)
        w, d, lo = t.wins[0], t.draws, t.wins[1]
        score = w + 0.5 * d
        lo_ci, hi_ci = wilson_interval(score, t.games)
        lines.append(f"| {pair[0]} | {pair[1]} | {t.games} | {w}/{d}/{lo} | "
                     f"{100 * score / t.games:.1f}% [{100 * lo_ci:.1f}, {100 * hi_ci:.1f}] |")
    for note in ladder.notes:
        lines.append(f"\nNote: {note}")
    return "\n".join(lines) + "\n"


def write_ladder(ladder: Ladder, out: Path) -> None:
    """``<out>/<game>.md`` and ``<out>/<game>.json``, each written atomically."""
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(out / f"{ladder.game}.md", ladder_markdown(ladder, level=1))
    write_text_atomic(out / f"{ladder.game}.json", json.dumps(ladder.to_dict(), indent=1) + "\n")


def write_index(ladders: Sequence[Ladder], out: Path, command: str) -> None:
    """``<out>/README.md``: every ladder of this run on one page, with the command that made it."""
    parts = ["# Ladders", "", f"Made by `{command}`.", ""]
    parts += [ladder_markdown(lad, level=2) for lad in ladders]
    write_text_atomic(out / "README.md", "\n".join(parts))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evaluation.ladder", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", nargs="+", choices=list_games(), help="games (default: every registered game but the scenario engines, which play any scenario file)")
    p.add_argument("--games", type=int, default=100, help="games per ordered pairing of the base agents")
    p.add_argument("--search", nargs="*", default=None, metavar="SPEC",
                   help=f"search agents, each played against every other agent (default {' '.join(DEFAULT_SEARCH)}, "
                        f"and {AZ_SEARCH} on a game with a model for both sides)")
    p.add_argument("--search-games", type=int, default=10, help="games per ordered pairing with a search agent")
    p.add_argument("--agent", nargs="*", default=[], metavar="SPEC", help="more agents (e.g. a league bot's ppo:PATH)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--out", default="reports/ladders")
    args = p.parse_args(argv)
    if args.games < 1 or args.search_games < 0 or args.workers < 1:
        p.error("--games and --workers must be >= 1, --search-games >= 0")
    out = Path(args.out)
    ladders = []
    try:
        for game in args.game or default_games():
            print(f"ladder {game}", file=sys.stderr, flush=True)
            search = default_search(game) if args.search is None else args.search
            ladder = play_ladder(game, games=args.games, search=search, search_games=args.search_games,
                                 extra=args.agent, workers=args.workers, seed=args.seed)
            write_ladder(ladder, out)
            ladders.append(ladder)
            print(ladder_markdown(ladder), flush=True)
    except (AgentSpecError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        if ladders:
            write_index(ladders, out, "python -m evaluation.ladder " + " ".join(sys.argv[1:] if argv is None else argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
