"""Measure a learned bot's set-up book: ``python -m training.setup_book``.

``python -m training.setup_book --game GAME --side SIDE [--model PATH] [--opponent heuristic]
[--games 3000] [--points 4] [--cap W] [--plans 0] [--plan-weights W ...] [--from BOOK] [--over BOOK] [--seed 0]
[--workers 1] [--out PATH]`` finds the model's unseen
placements (the k-th one the side makes in a game) and their candidate points: every point the
game's heuristic draws there in 50 probe games, and the two the policy itself likes best. It then
plays ``--games`` games of the model against ``--opponent``, each from a set-up drawn uniformly
among the candidates, placement by placement (dice seed ``1_000_000 + seed + i``), and measures
each candidate's win rate over the games that used it (a random design: each placement's points are
drawn independently, so each rate averages over the other placements). The book lists, per
placement, the ``--points`` best points with equal weights, so each is drawn in ``1/--points`` of
games (with 4, the default, a point passes 40% of 100 games by chance less than once in a
thousand; with 3, about once in sixteen); it is written whole to ``--out`` (default beside the model,
:func:`agents.setup_book.book_path`) with the command, the weights' sha256 and every candidate's
rate, which ``ppo`` then reads by default (:mod:`agents.setup_book`).

``--over BOOK`` plays the games over the points ``BOOK`` lists per placement instead of the probed
candidates: it measures how well the model plays from each point of a book it was trained on.
``--cap W`` weights the book by the rates instead of equally: the best points get ``W`` each and the
next the rest (:func:`capped_weights`; with ``W`` 0.3, four points at 0.3, 0.3, 0.3 and 0.1), so that
no point is drawn in more than ``W`` of games (0.3: it passes 40% of 100 games by chance about once
in ninety) while the weakest is drawn least.

``--plans K`` (at most ``--points``) also lists K whole set-ups with equal weights, plan k giving
each placement its k-th best point (:func:`plan_points`, where placements share an area), so that
the bot plays one of K set-ups through instead of mixing placements independently: a model
trained on those K set-ups (``fof train --learner-setup ppo:path=...,setup=book``) plays each of
them well, and each point is still drawn in 1/K of
games (``--plan-weights`` weights them otherwise: a book to train with that draws a weak plan more
often). ``--from BOOK`` plays no games: it takes the candidates and rates measured in ``BOOK`` (for
any weights) and binds the new book to ``--model``'s; the new card keeps the old command and games
under ``measured_by``.
"""

from __future__ import annotations

import argparse
import math
import random
import shlex
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from agents.setup_book import BOOK_FORMAT, book_path, read_book, write_book
from evaluation.match import build_agent
from evaluation.setup_spread import seeded_agent
from fof_env.core.registry import make_game

PROBE_GAMES = 50
POLICY_POINTS = 2
GAME_SEED_BASE = 1_000_000


class ForcedSetup:
    """Plays the side's k-th unseen placement at ``points[k]`` (by name), then defers to ``bot``."""

    def __init__(self, bot, points: list[str]):
        self.bot, self.points, self.made = bot, points, 0

    def act(self, state) -> int:
        if state.is_unseen_placement() and self.made < len(self.points):
            name = self.points[self.made]
            self.made += 1
            try:
                action = state.str_to_action(name)
            except ValueError:
                action = None
            if action in state.legal_actions():
                return action
        return self.bot.act(state)


def candidates(game, side: str, model: str) -> list[list[str]]:
    """Per unseen placement of ``side``, the candidate points (module docstring), in a fixed order."""
    player = game.player_index(side)
    seen: list[Counter] = []
    policy = build_agent(f"ppo:path={model},setup=policy", game, player, 0)
    liked: list[list[str]] = []
    for seed in range(PROBE_GAMES):
        state = game.new_initial_state(GAME_SEED_BASE - 1 - seed)
        bots = [build_agent("heuristic", game, p, 2 * seed + p) for p in (0, 1)]
        k = 0
        while not state.is_terminal:  # until the side's first decision that is not an unseen placement
            mover = state.current_player
            if mover == player and not state.is_unseen_placement():
                break
            action = bots[mover].act(state)
            if mover == player:
                if k == len(seen):
                    seen.append(Counter())
                seen[k][state.action_to_str(action)] += 1
                if seed == 0:
                    probs = policy.action_probabilities(state)
                    best = sorted(state.legal_actions(), key=lambda a: (-probs[a], a))[:POLICY_POINTS]
                    liked.append([state.action_to_str(a) for a in best])
                k += 1
            state.apply(action)
    if not seen:
        raise SystemExit(f"setup_book: {side} makes no unseen placement at the start of {game.name}")
    return [sorted(set(counter) | set(liked[k] if k < len(liked) else [])) for k, counter in enumerate(seen)]


def play(job: tuple) -> list[tuple[list[str], int]]:
    """``(set-up, 1 if the model won else 0)`` for each ``(seed, set-up)`` of ``job``."""
    game_name, side, model, opponent, games = job
    game = make_game(game_name)
    player = game.player_index(side)
    specs = {player: f"ppo:path={model},setup=policy", 1 - player: opponent}
    kept: dict[int, object] = {}  # one agent per side, re-seeded each game
    results = []
    for seed, points in games:
        bots = {p: seeded_agent(kept, specs[p], game, p, 2 * seed + p) for p in (0, 1)}
        bots[player] = ForcedSetup(bots[player], points)
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            state.apply(bots[state.current_player].act(state))
        results.append((points, int(state.returns()[player] > 0)))
    return results


def measure(game_name: str, side: str, model: str, opponent: str, games: int, seed: int, workers: int,
            groups: list[list[str]]) -> list[dict[str, list[int]]]:
    """Per placement, ``{point: [wins, games]}`` over ``games`` games from uniformly drawn set-ups."""
    rng = random.Random(seed)
    design = [(GAME_SEED_BASE + seed + i, [rng.choice(points) for points in groups]) for i in range(games)]
    pieces = max(1, min(games, 8 * workers))
    jobs = [(game_name, side, model, opponent, design[i::pieces]) for i in range(pieces)]
    if workers <= 1:
        outcomes = [play(job) for job in jobs]
    else:
        with ProcessPoolExecutor(workers) as pool:
            outcomes = list(pool.map(play, jobs))
    tallies: list[dict[str, list[int]]] = [{p: [0, 0] for p in points} for points in groups]
    for chunk in outcomes:
        for points, won in chunk:
            for k, name in enumerate(points):
                tallies[k][name][0] += won
                tallies[k][name][1] += 1
    return tallies


def cap_fits(points: int, cap: float) -> bool:
    """``points`` points can share the draw with none over ``cap`` (at least ceil(1 / cap) of them)."""
    return points * cap >= 1 - 1e-9


def capped_weights(ranked: list[str], cap: float) -> dict[str, float]:
    """Weights for ``ranked`` (best first) that sum to 1 with none over ``cap``: ``cap`` for each of
    the best while they fit, the rest to the next point (the weighted draw that scores most, if the
    rates add up, among those that draw no point in more than ``cap`` of games)."""
    if not 0 < cap <= 1 or not cap_fits(len(ranked), cap):
        raise ValueError(f"cannot weight {len(ranked)} point(s) with none over {cap}")
    weights: dict[str, float] = {}
    left = 1.0
    for name in ranked:
        if left <= 1e-9:
            break
        weights[name] = round(min(cap, left), 6)
        left -= weights[name]
    return weights


def book_card(game, side: str, sha256: str, tallies, points: int, games: int,
              command: str, plans: int = 0, cap: float | None = None) -> dict:
    """The book: per placement the ``points`` points with the best measured rates (ties to the name),
    equal weights (with ``cap``, :func:`capped_weights` over all the ranked points instead); with
    ``plans``, :func:`plan_points`' plans, equal weights, each plan's points added to their
    placements' groups."""
    def rate(item):
        wins, n = item[1]
        return wins / n if n else 0.0

    ranked = [[name for name, _ in sorted(tally.items(), key=lambda item: (-rate(item), item[0]))]
              for tally in tallies]
    groups = [capped_weights(names, cap) if cap else dict.fromkeys(names[:points], 1.0) for names in ranked]
    measured = [{name: {"wins": tally[name][0], "games": tally[name][1]} for name in names}
                for names, tally in zip(ranked, tallies, strict=True)]
    card = {"format": BOOK_FORMAT, "game": game.name, "side": side, "model_sha256": sha256,
            "command": command, "games": games, "groups": groups, "measured": measured}
    if plans:
        chosen = plan_points(ranked, plans)
        for plan in chosen:
            for group, name in zip(groups, plan, strict=True):
                group.setdefault(name, 1.0)
        card["plans"] = [{"weight": 1.0, "points": plan} for plan in chosen]
    return card


def plan_points(ranked: list[list[str]], plans: int) -> list[list[str]]:
    """``plans`` whole set-ups from each placement's points ranked best first: plan k gives each
    placement its best point that no earlier plan gave it and no earlier placement of plan k took
    (so where placements share an area, two units are not planned onto one point and each
    placement's points differ from plan to plan while it has enough); where none is left, its best
    point no earlier plan gave it, else its best."""
    chosen: list[list[str]] = []
    for _ in range(plans):
        plan: list[str] = []
        for k, names in enumerate(ranked):
            given = {earlier[k] for earlier in chosen}
            fresh = [n for n in names if n not in given]
            plan.append(next((n for n in fresh if n not in plan), fresh[0] if fresh else names[0]))
        chosen.append(plan)
    return chosen


def tallies_from(path: str, game, side: str) -> tuple[list[dict[str, list[int]]], dict]:
    """The rates measured in the book at ``path`` (:func:`measure`'s form) and the command and games
    that measured them (its ``measured_by`` where it was itself made ``--from`` another book)."""
    card = read_book(path, game, side).card
    try:
        tallies = [{str(name): [int(m["wins"]), int(m["games"])] for name, m in group.items()}
                   for group in card["measured"]]
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ValueError(f"cannot use set-up book {path}: its measured rates are missing or malformed") from None
    if not tallies or not all(tallies):
        raise ValueError(f"cannot use set-up book {path}: it measured no placement")
    return tallies, card.get("measured_by") or {"command": card.get("command"), "games": card.get("games")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.setup_book", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--side", required=True)
    parser.add_argument("--model", help="the model's weights (default: the one shipped for this game and side)")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--points", type=int, default=4, help="points per placement in the book (default 4)")
    parser.add_argument("--cap", type=float, metavar="W",
                        help="weight the best points W each, the rest to the next (default: --points equal weights)")
    parser.add_argument("--over", metavar="BOOK",
                        help="play over the points this book lists instead of the probed candidates")
    parser.add_argument("--plans", type=int, default=0,
                        help="whole set-ups in the book, plan k the k-th best point of each placement (default 0)")
    parser.add_argument("--plan-weights", type=float, nargs="+", metavar="W",
                        help="the plans' weights, one per plan (default: equal); e.g. to train more on a weak plan")
    parser.add_argument("--from", dest="source", metavar="BOOK",
                        help="take the measured rates from this book instead of playing games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", help="where to write the book (default: beside the model)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1 or args.points < 1:
        parser.error("--games, --workers and --points must be at least 1")
    if not 0 <= args.plans <= args.points:
        parser.error(f"--plans must be between 0 and --points ({args.points})")
    if args.cap is not None and not (math.isfinite(args.cap) and 0 < args.cap <= 1):
        parser.error("--cap must be a number in (0, 1]")
    if args.cap is not None and args.plans:
        parser.error("--cap weights points placement by placement; a book with --plans weights its plans")
    if args.source and args.over:
        parser.error("--from takes rates without playing; --over plays: give one of them")
    if args.plan_weights is not None and (len(args.plan_weights) != args.plans
                                          or not all(math.isfinite(w) and w > 0 for w in args.plan_weights)):
        parser.error(f"--plan-weights must give {args.plans} finite weights over 0, one per plan")
    from agents.policy_io import read_model_card
    from agents.ppo import shipped_model_path

    try:
        game = make_game(args.game)
        game.player_index(args.side)
        model = args.model or str(shipped_model_path(game.name, args.side))
        sha256 = read_model_card(model)["weights"]["sha256"]
        source = tallies_from(args.source, game, args.side) if args.source else None
        over = [list(g) for g in read_book(args.over, game, args.side).groups] if args.over else None
    except (ValueError, KeyError, OSError) as exc:
        print(f"setup_book: {exc}", file=sys.stderr)
        return 2
    command = "python -m training.setup_book " + shlex.join(argv if argv is not None else sys.argv[1:])
    if source is None:
        groups, tallies, games = over or candidates(game, args.side, model), None, args.games
    else:
        tallies, provenance = source
        groups, games = [list(tally) for tally in tallies], provenance["games"]
    short = [k + 1 for k, points in enumerate(groups) if args.cap and not cap_fits(len(points), args.cap)]
    if short:  # before any game is played
        print(f"setup_book: --cap {args.cap} needs at least {math.ceil(1 / args.cap - 1e-9)} points a placement; "
              f"placement(s) {', '.join(map(str, short))} have fewer", file=sys.stderr)
        return 2
    if tallies is None:
        print(f"{len(groups)} placements; candidates: " + "; ".join(", ".join(g) for g in groups), flush=True)
        tallies = measure(game.name, args.side, model, args.opponent, args.games, args.seed, args.workers, groups)
    card = book_card(game, args.side, sha256, tallies, args.points, games, command, args.plans, args.cap)
    if source is not None:
        card["measured_by"] = provenance
    for plan, weight in zip(card.get("plans", []), args.plan_weights or [], strict=False):
        plan["weight"] = weight
    out = args.out or book_path(model)
    write_book(out, card)
    for k, measured in enumerate(card["measured"]):
        print(f"placement {k + 1}: " + ", ".join(
            f"{name} {m['wins'] / max(1, m['games']):.1%} of {m['games']}" for name, m in measured.items())
            + f"; book: {', '.join(card['groups'][k])}")
    for k, plan in enumerate(card.get("plans", [])):
        print(f"plan {k + 1}: {', '.join(plan['points'])}")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
