"""Train a value net on game results: ``python -m training.value_net --game G --side S``.

Plays ``--games`` games of ``--agent`` (the side's player, default ``ppo``) against ``--opponent``
(default ``heuristic``), game ``i`` on dice seed ``seed + i`` with both agents seeded from it; keeps,
at every decision of every game (whoever moves), the side's own observation and the side's final
result (+1 win, -1 loss, 0 draw: the game's ``returns()``, never a shaped return); splits the games
(not the positions, which are correlated within a game) into training games and held-out games; fits
a ``tanh`` multilayer perceptron by mean squared error with Adam (early stopping on a tenth of the
training games); and writes ``--out`` (``NAME.safetensors`` + ``NAME.json``, the format of
:mod:`agents.value_net`) with its card: the games, the command, and the held-out report.

**Held-out report** (also printed): mean squared error of the net and of the constant predictor (the
training games' mean result), the AUC of the net's value between won and lost positions (draws left
out; 0.5 is a coin), overall, per turn and per mover (the side to move, or the other). A net that
does not beat the constant on held-out games is written all the same, and says so: its card's
``metrics.beats_constant`` is false and the command exits 1.

The net values positions against the opponent it was trained with: a search that reads it
(``mcts:evaluation=value``) should model that opponent in its tree (``opponent=heuristic``).
Deterministic for a seed on one machine (torch's CPU arithmetic).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.policy_io import sha256_of, write_atomic
from agents.value_net import CARD_FORMAT, WEIGHTS_FORMAT, ValueNet

__all__ = ["Positions", "auc", "collect", "fit", "game_ranges", "held_out_report", "main", "run_jobs",
           "write_value_net"]


@dataclass
class Positions:
    """Rows of positions: the side's observation, its final result, the turn, whether it moved, the game."""

    observations: np.ndarray  # N x D float32
    results: np.ndarray  # N float32, in {-1, 0, 1}
    turns: np.ndarray  # N int (-1 where the game has no turn counter)
    movers: np.ndarray  # N bool: the side was the one to move
    games: np.ndarray  # N int: the game's index

    @staticmethod
    def join(parts: Sequence[Positions]) -> Positions:
        return Positions(*(np.concatenate([getattr(p, f) for p in parts]) for f in
                           ("observations", "results", "turns", "movers", "games")))  # fmt: skip

    def take(self, rows: np.ndarray) -> Positions:
        return Positions(self.observations[rows], self.results[rows], self.turns[rows], self.movers[rows],
                         self.games[rows])  # fmt: skip


def _play(job: tuple[str, dict[str, Any], int, str, str, int, int, int]) -> Positions:
    """Games ``first .. first + count - 1`` (one worker's share of :func:`collect`)."""
    from evaluation.match import build_agent
    from fof_env.core.registry import make_game

    game_name, options, player, agent, opponent, seed, first, count = job
    game = make_game(game_name, **options)
    obs, results, turns, movers, games = [], [], [], [], []
    for i in range(first, first + count):
        game_seed = seed + i
        agents = [None, None]
        agents[player] = build_agent(agent, game, player, game_seed * 2)
        agents[1 - player] = build_agent(opponent, game, 1 - player, game_seed * 2 + 1)
        state = game.new_initial_state(game_seed)
        start = len(obs)
        while not state.is_terminal:
            mover = state.current_player
            obs.append(np.asarray(state.observation(player), dtype=np.float32))
            turns.append(int(getattr(state, "turn", -1)))
            movers.append(mover == player)
            state.apply(agents[mover].act(state))
        result = float(state.returns()[player])
        results.extend([result] * (len(obs) - start))
        games.extend([i] * (len(obs) - start))
    width = game.new_initial_state(0).observation(player).shape[0]
    return Positions(np.asarray(obs, dtype=np.float32).reshape(-1, width), np.asarray(results, dtype=np.float32),
                     np.asarray(turns), np.asarray(movers, dtype=bool), np.asarray(games))  # fmt: skip


def game_ranges(games: int, workers: int) -> list[tuple[int, int]]:
    """``(first, count)`` pieces covering games ``0 .. games - 1`` in order, four per worker (fewer for
    few games), so that the workers finish close together."""
    pieces = max(1, min(games, workers * 4))
    bounds = [games * k // pieces for k in range(pieces + 1)]
    return [(bounds[k], bounds[k + 1] - bounds[k]) for k in range(pieces) if bounds[k + 1] > bounds[k]]


def run_jobs(fn, jobs: list, workers: int) -> list:
    """``[fn(job) for job in jobs]``, in this process with one worker, else on ``workers`` processes."""
    if workers <= 1:
        return [fn(job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, jobs))


def collect(game_name: str, options: dict[str, Any], player: int, agent: str, opponent: str, games: int,
            seed: int, workers: int = 1) -> Positions:  # fmt: skip
    """Positions of ``games`` games (module docstring), played on ``workers`` processes."""
    jobs = [(game_name, options, player, agent, opponent, seed, first, count)
            for first, count in game_ranges(games, workers)]  # fmt: skip
    return Positions.join(run_jobs(_play, jobs, workers))


def auc(values: np.ndarray, results: np.ndarray) -> float | None:
    """Area under the ROC curve of ``values`` separating won (+1) from lost (-1) positions (draws left
    out; ties count half); None without both."""
    won, lost = values[results > 0], values[results < 0]
    if not len(won) or not len(lost):
        return None
    order = np.argsort(np.concatenate([won, lost]), kind="mergesort")
    ranks = np.empty(len(order))
    joined = np.concatenate([won, lost])[order]
    i = 0
    while i < len(joined):  # average ranks over ties
        j = i
        while j + 1 < len(joined) and joined[j + 1] == joined[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[: len(won)].sum() - len(won) * (len(won) + 1) / 2) / (len(won) * len(lost)))


def _scores(predicted: np.ndarray, constant: float, results: np.ndarray) -> dict[str, Any]:
    area = auc(predicted, results)
    return {"positions": int(len(results)), "mse": round(float(np.mean((predicted - results) ** 2)), 4),
            "constant_mse": round(float(np.mean((constant - results) ** 2)), 4),
            "auc": None if area is None else round(area, 4)}  # fmt: skip


def held_out_report(net: ValueNet, held: Positions, constant: float) -> dict[str, Any]:
    """The held-out scores (module docstring): ``overall``, ``by_turn`` {turn: scores}, ``by_mover``."""
    predicted = net.values(held.observations)
    report = {"overall": _scores(predicted, constant, held.results), "by_turn": {}, "by_mover": {}}
    for turn in sorted(set(held.turns.tolist())):
        rows = held.turns == turn
        report["by_turn"][str(turn)] = _scores(predicted[rows], constant, held.results[rows])
    for name, flag in (("side", True), ("other", False)):
        rows = held.movers == flag
        if rows.any():
            report["by_mover"][name] = _scores(predicted[rows], constant, held.results[rows])
    overall = report["overall"]
    report["beats_constant"] = overall["mse"] < overall["constant_mse"]
    return report


def fit(train: Positions, hidden: Sequence[int], seed: int, epochs: int = 60, batch: int = 256,
        learning_rate: float = 1e-3, weight_decay: float = 1e-4, patience: int = 6) -> tuple[ValueNet, dict]:  # fmt: skip
    """A ``tanh`` MLP fitted to ``train``'s results by MSE; a tenth of its games (chosen by ``seed``)
    stop the training when their loss has not improved for ``patience`` epochs (the best epoch kept)."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    game_ids = np.unique(train.games)
    stop_games = set(rng.choice(game_ids, size=max(1, len(game_ids) // 10), replace=False).tolist())
    stop_rows = np.isin(train.games, list(stop_games))
    x, y = torch.as_tensor(train.observations[~stop_rows]), torch.as_tensor(train.results[~stop_rows])
    xs, ys = torch.as_tensor(train.observations[stop_rows]), torch.as_tensor(train.results[stop_rows])
    widths = [x.shape[1], *hidden, 1]
    layers: list[torch.nn.Module] = []
    for i in range(len(widths) - 1):
        layers += [torch.nn.Linear(widths[i], widths[i + 1]), torch.nn.Tanh()]
    model = torch.nn.Sequential(*layers)
    optimiser = torch.optim.Adam(model.parameters(), lr=learning_rate, weight_decay=weight_decay)
    best, best_state, waited, history = float("inf"), None, 0, []
    for _epoch in range(epochs):
        model.train()
        for rows in torch.randperm(len(x)).split(batch):
            optimiser.zero_grad()
            loss = torch.mean((model(x[rows])[:, 0] - y[rows]) ** 2)
            loss.backward()
            optimiser.step()
        model.eval()
        with torch.no_grad():
            stop_loss = float(torch.mean((model(xs)[:, 0] - ys) ** 2))
        history.append(round(stop_loss, 4))
        if stop_loss < best - 1e-4:
            best, waited = stop_loss, 0
            best_state = {k: v.clone() for k, v in model.state_dict().items()}
        else:
            waited += 1
            if waited >= patience:
                break
    model.load_state_dict(best_state)
    linears = [m for m in model if isinstance(m, torch.nn.Linear)]
    net = ValueNet([(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy()) for m in linears])
    return net, {"epochs_run": len(history), "stopping_loss": history, "best_stopping_loss": round(best, 4)}


def write_value_net(net: ValueNet, path: Path, card: dict[str, Any]) -> dict[str, Any]:
    """Write ``path`` (``.safetensors``) and its ``.json`` card (atomically); returns the card written."""
    import safetensors.torch
    import torch

    tensors = {}
    for i, (w_t, b) in enumerate(net.layers):
        tensors[f"layers.{i}.weight"] = torch.as_tensor(np.ascontiguousarray(w_t.T))
        tensors[f"layers.{i}.bias"] = torch.as_tensor(b)
    data = safetensors.torch.save(tensors, metadata={"format": WEIGHTS_FORMAT})
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data)
    card = {**card, "format": CARD_FORMAT, "hidden": [int(b.shape[0]) for _w, b in net.layers[:-1]],
            "observation_shape": [int(net.input_size)],
            "weights": {"file": path.name, "sha256": sha256_of(data), "bytes": len(data)}}  # fmt: skip
    write_atomic(path.with_suffix(".json"), (json.dumps(card, indent=1) + "\n").encode("utf-8"))
    return card


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.value_net", description=__doc__.split("\n\n")[0],
                                     epilog="The module docstring says what is kept and reported.")  # fmt: skip
    parser.add_argument("--game", required=True)
    parser.add_argument("--side", required=True, help="whose value the net predicts")
    parser.add_argument("--agent", default="ppo", help="the side's player (an agent spec; default %(default)s)")
    parser.add_argument("--opponent", default="heuristic", help="the other side's player (default %(default)s)")
    parser.add_argument("--games", type=int, default=2000, help="games played (default %(default)s)")
    parser.add_argument("--held-out", type=float, default=0.2, help="share of games held out (default %(default)s)")
    parser.add_argument("--hidden", type=int, nargs="+", default=[128, 64], help="hidden widths (default 128 64)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="the .safetensors file to write (card beside it)")
    args = parser.parse_args(argv)
    from fof_env.core.errors import OptionError
    from fof_env.core.registry import make_game

    if args.games < 10 or not 0.0 < args.held_out < 1.0 or args.out.suffix != ".safetensors":
        parser.error("need --games >= 10, 0 < --held-out < 1 and an --out ending in .safetensors")
    try:
        game = make_game(args.game)
        player = game.side_in_any_case(args.side)
        if player is None:
            raise OptionError(f"no side {args.side!r} in {args.game}; sides: {', '.join(game.player_names)}")
        from evaluation.match import build_agent

        build_agent(args.agent, game, player, 0)  # a bad spec is one line here, not a worker's traceback
        build_agent(args.opponent, game, 1 - player, 0)
    except (OptionError, ValueError, KeyError, OSError) as exc:
        print(f"value_net: {exc}", file=sys.stderr)
        return 2
    try:  # a place the file cannot go is found now, not after the games
        args.out.parent.mkdir(parents=True, exist_ok=True)
        if not os.access(args.out.parent, os.W_OK):
            raise PermissionError(f"{args.out.parent} is not writable")
    except OSError as exc:
        print(f"value_net: cannot write {args.out}: {exc}", file=sys.stderr)
        return 2
    print(f"value_net: playing {args.games} games of {args.agent} against {args.opponent} on {args.workers} "
          f"worker(s)...",
          file=sys.stderr, flush=True)  # fmt: skip
    start = time.perf_counter()
    data = collect(args.game, {}, player, args.agent, args.opponent, args.games, args.seed, args.workers)
    played = time.perf_counter() - start
    held_games = int(round(args.games * args.held_out))
    held = data.games >= args.games - held_games  # the last games are held out
    train, test = data.take(~held), data.take(held)
    net, training = fit(train, args.hidden, args.seed)
    constant = float(train.results.mean())
    report = held_out_report(net, test, constant)
    side = game.player_names[player]
    card = {
        "game": game.name, "side": side.lower(), "scenario": getattr(getattr(game, "scenario", None), "id", None),
        "games": {"agent": args.agent, "opponent": args.opponent, "played": args.games, "held_out": held_games,
                  "seed": args.seed, "positions": int(len(data.results)), "mean_result_train": round(constant, 4)},
        "training": training, "metrics": report, "seconds": {"play": round(played, 1),
                                                              "total": round(time.perf_counter() - start, 1)},
        "command": "python -m training.value_net " + shlex.join(argv if argv is not None else sys.argv[1:]),
    }  # fmt: skip
    write_value_net(net, args.out, card)
    o = report["overall"]
    print(f"{game.name} {side}: {args.games} games ({held_games} held out), {len(data.results)} positions, "
          f"played in {played:.0f} s; held-out MSE {o['mse']} vs constant {o['constant_mse']}, AUC {o['auc']}")  # fmt: skip
    for turn, s in report["by_turn"].items():
        print(f"  turn {turn}: {s['positions']} positions, MSE {s['mse']} vs {s['constant_mse']}, AUC {s['auc']}")
    for who, s in report["by_mover"].items():
        print(f"  {who} to move: {s['positions']} positions, MSE {s['mse']} vs {s['constant_mse']}, AUC {s['auc']}")
    print(f"wrote {args.out} and {args.out.with_suffix('.json')}")
    if not report["beats_constant"]:
        print("value_net: the net does not beat the constant predictor on held-out games", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
