"""Golden digests: many seeded games reduced to one hash each, so a restructuring proves it changed nothing.

``python -m evaluation.golden --check`` replays every game listed in the golden file
(``tests/golden/<game>.json``) and compares; ``--write`` (re)writes the file (``--players heuristic``:
only the heuristic-vs-heuristic suites, for a change to the bots alone). A *rule fix*
changes digests on purpose: it rewrites the file in its own commit, naming the rule.

A game's digest is the SHA-256 (first 16 hex digits) of, as canonical JSON: its actions as
canonical strings, every die rolled, every event (as dicts), the result, the final position
(``to_position()``), and the SHA-256 of every observation of the player to move at every
decision. It does not depend on how a state stores itself (slots, caches), only on what the
game does and shows, so a restructured engine that plays the same games has the same digests.

Suites per game (``SUITES``): random games (uniformly random legal actions from
``numpy.random.default_rng(seed)``) and heuristic-vs-heuristic games (bots seeded ``seed``
and ``seed + 1``), each under the option sets the game's golden file lists, game ``i`` on dice
seed ``i``. The golden files are the list: each names its game and, per suite key
(``players:option=value,...`` or ``players:defaults``), one digest per game, so a suite is read
back from its key and its length. A game without a golden file gets 1,000 random and 200
heuristic games under its default options when ``--write`` first writes one. The heuristic games
pin the scripted bots too: a bot made faster must choose as before.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import fof_env
from fof_env.core.options import parse_assignments

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
FORMAT = "fof-golden/1"


@dataclass(frozen=True)
class Suite:
    """``games`` games of ``game`` with ``options``, played by ``players`` ("random" or "heuristic")."""

    game: str
    options: dict[str, Any]
    players: str
    games: int

    @property
    def key(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.options.items())) or "defaults"
        return f"{self.players}:{opts}"


def suite_from_key(game: str, key: str, games: int) -> Suite:
    """The suite a golden file's ``key`` (:attr:`Suite.key`) names, with ``games`` games."""
    players, _, opts = key.partition(":")
    options = {} if opts == "defaults" else parse_assignments(opts.split(","), f"golden suite {key!r}")
    return Suite(game, options, players, games)


def read_suites(path: Path) -> tuple[str, tuple[Suite, ...]]:
    """(game, its suites) of the golden file ``path``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    game = data["game"]
    return game, tuple(suite_from_key(game, key, len(digests)) for key, digests in data["suites"].items())


def default_suites(game: str) -> tuple[Suite, ...]:
    """The suites of a game that has no golden file yet."""
    return (Suite(game, {}, "random", 1000), Suite(game, {}, "heuristic", 200))


SUITES: dict[str, tuple[Suite, ...]] = dict(read_suites(path) for path in sorted(GOLDEN_DIR.glob("*.json")))


def _sha(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def game_digest(suite: Suite, seed: int, game=None) -> str:
    """The digest of game ``seed`` of ``suite`` (module docstring); ``game``: the suite's game, if built."""
    game = game or fof_env.make_game(suite.game, **suite.options)
    state = game.new_initial_state(seed)
    if suite.players == "heuristic":
        from agents.heuristic import make_heuristic

        bots = [make_heuristic(game, p, seed=seed + p) for p in (0, 1)]
    rng = np.random.default_rng(seed)
    observations = hashlib.sha256()
    actions = []
    while not state.is_terminal:
        player = state.current_player
        observations.update(np.ascontiguousarray(state.observation(player)).tobytes())
        if suite.players == "heuristic":
            action = bots[player].act(state)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        actions.append(state.action_to_str(action))
        state.apply(action)
    record = {
        "actions": actions,
        "rolls": list(state._rolls),
        "events": [e.to_dict() for e in state.events],
        "result": state.result(),
        "final": state.to_position(),
        "observations": observations.hexdigest(),
    }
    return _sha(record)[:16]


def suite_digests(suite: Suite, games: int | None = None) -> Iterator[str]:
    game = fof_env.make_game(suite.game, **suite.options)
    for seed in range(suite.games if games is None else min(games, suite.games)):
        yield game_digest(suite, seed, game)


def golden_path(game: str) -> Path:
    return GOLDEN_DIR / f"{game}.json"


def write(game: str, players: str | None = None) -> Path:
    """Play every suite of ``game`` and write its golden file; with ``players`` (``"random"`` or
    ``"heuristic"``) only the suites of those players, keeping the file's other suites as they are
    (a change to the bots alone leaves the random games alone)."""
    data = {"format": FORMAT, "game": game, "how": "python -m evaluation.golden --write", "suites": {}}
    kept = json.loads(golden_path(game).read_text(encoding="utf-8"))["suites"] if players else {}
    for suite in SUITES.get(game) or default_suites(game):
        if players and suite.players != players:
            data["suites"][suite.key] = kept[suite.key]
        else:
            data["suites"][suite.key] = list(suite_digests(suite))
    path = golden_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path


def check(game: str, games: int | None = None) -> list[str]:
    """Replay the first ``games`` games (all: None) of every suite; the mismatches, as lines."""
    saved = json.loads(golden_path(game).read_text(encoding="utf-8"))["suites"]
    problems = []
    for suite in SUITES[game]:
        want = saved[suite.key]
        for seed, got in enumerate(suite_digests(suite, games)):
            if got != want[seed]:
                problems.append(f"{game} {suite.key} game {seed}: digest {got} != golden {want[seed]}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.golden", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(set(SUITES) | set(fof_env.list_games())),
                        help="default: every game with a golden file")  # fmt: skip
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="replay and compare with the golden file")
    mode.add_argument("--write", action="store_true", help="replay and (re)write the golden file")
    parser.add_argument("--games", type=int, help="only the first N games of each suite (--check)")
    parser.add_argument("--players", choices=("random", "heuristic"),
                        help="--write: only the suites of these players, the others kept from the file")
    args = parser.parse_args(argv)
    status = 0
    for game in args.game or sorted(SUITES):
        start = time.perf_counter()
        if args.write:
            print(f"wrote {write(game, args.players)} in {time.perf_counter() - start:.0f} s")
            continue
        if game not in SUITES:
            print(f"{game}: no golden file ({golden_path(game)}); write one with --write --game {game}")
            status = 1
            continue
        problems = check(game, args.games)
        total = sum(min(args.games or s.games, s.games) for s in SUITES[game])
        for line in problems[:20]:
            print(line)
        verdict = "all identical" if not problems else f"{len(problems)} differ"
        print(f"{game}: {total} games, {verdict} ({time.perf_counter() - start:.0f} s)")
        status |= bool(problems)
    return status


if __name__ == "__main__":
    sys.exit(main())
