"""The search as teacher: one round of expert iteration, ``python -m training.expert_iteration``.

A round (Anthony, Tian & Barber, "Thinking Fast and Slow with Deep Learning and Tree Search", 2017;
AlphaZero's policy target):

1. **Search games.** ``--games`` games of the search ``--search`` (an ``mcts`` spec, e.g.
   ``mcts:simulations=64,opponent=heuristic,prior=ppo,evaluation=value,rollout_limit=0,batch=8``)
   playing ``--side`` against ``--opponent`` (default ``heuristic``), game ``i`` on dice seed
   ``seed + i``. With ``prior=ppo`` the search reads the policy being improved (``--init``; default
   the model shipped for the side). At every decision the search makes with more than one legal
   action, the policy's observation, the legal mask and the search's root **visit distribution** are
   kept (with ``root=gumbel`` its **improved policy** ``softmax(logits + sigma(q))`` instead, the
   target of Gumbel MuZero: :mod:`agents.gumbel_root`), and, once the game ends, its result for the side. The side's unseen placements
   (:mod:`agents.mixed_setup`) are not searched: the ``ppo`` bot of ``--init`` makes them as it
   would in play (its set-up book where one matches it, else the heuristic's draw), seeded by the
   game, so the policy learns from the set-ups its bot will draw.
2. **Train.** From ``--init``, the policy head is fitted to the visit distributions by cross-entropy
   (or, with ``--target move``, to the move the search played, one-hot: a target as sharp as the
   search's choice) and the value head to the game results by squared error (``--epochs`` passes, Adam at
   ``--learning-rate``, gradient norm clipped to 0.5); the last tenth of the games are held out and
   their cross-entropy and the agreement of the policy's most probable action with the search's
   move, before and after, are reported.
3. **Evaluate.** The new policy and ``--init`` play ``--eval-games`` games each against the opponent
   on the same dice seeds (from ``seed + 1,000,000``), so the round's gain is paired.

Writes ``--out``/``model.safetensors`` and ``model.json``, a model card like ``fof train``'s (the same
architecture; ``command`` is this command; ``expert_iteration`` holds the round's figures and the
init model's command and sha256; ``final_evaluation`` the new policy's games), ``round.json``, and
``model.setups.json``, the init model's set-up book bound to the new weights, where it has one. The
search games, the round's long part, are kept in ``search_games.npz`` (plain arrays, read with
``allow_pickle=False``) as soon as they are played: ``--resume`` reads them instead of playing them
again, if a round with the same game, side, search, opponent, init weights, games and seed saved them
(a round cut short in training or evaluation, or the same games trained with another ``--target``,
``--epochs`` or ``--learning-rate``).
``--init`` of a round is the model the previous round wrote. Nothing is unpickled: the policies travel
between processes as model files.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from training.value_net import game_ranges, run_jobs

__all__ = ["main", "play_search_games", "search_target", "train_on_visits"]

GAMES_FILE = "search_games.npz"  # a round's search games, so that --resume need not play them again
_ROWS = ("obs", "mask", "target", "result", "game", "chosen")  # per searched decision


def _search_job(job: tuple) -> dict[str, Any]:
    """One worker's share of the search games: observations, masks, visit targets, results."""
    from agents.ppo import PPOAgent
    from evaluation.match import build_agent
    from fof_env.core.registry import make_game

    game_name, player, spec, opponent, init, seed, first, count = job
    game = make_game(game_name)
    observer = PPOAgent(game, player, path=init)
    rows: dict[str, list] = {k: [] for k in _ROWS}
    wins = 0.0
    for i in range(first, first + count):
        observer.reseed((seed + i) * 2)  # its set-up draw (book or heuristic) is the game's, not entropy's
        searcher = build_agent(spec, game, player, (seed + i) * 2)
        if getattr(searcher, "_nets", None) is not None:  # prior=ppo / evaluation=ppo: the policy being improved
            searcher._nets[player] = observer
        other = build_agent(opponent, game, 1 - player, (seed + i) * 2 + 1)
        agents = [searcher, other] if player == 0 else [other, searcher]
        state = game.new_initial_state(seed + i)
        start = len(rows["obs"])
        while not state.is_terminal:
            mover = state.current_player
            if mover == player and state.is_unseen_placement():  # the bot's set-up, as it ships: not searched
                action = observer.act(state)
            elif mover == player and len(state.legal_actions()) > 1:
                obs, mask = observer.observe(state), state.legal_mask()
                action = searcher.act(state)
                target = search_target(searcher.last_search, game.num_actions)
                rows["obs"].append(obs)
                rows["mask"].append(mask)
                rows["target"].append(target)
                rows["chosen"].append(action)
            else:
                action = agents[mover].act(state)
            state.apply(action)
        result = float(state.returns()[player])
        wins += 1.0 if result > 0 else 0.5 if result == 0 else 0.0
        rows["result"] += [result] * (len(rows["obs"]) - start)
        rows["game"] += [i] * (len(rows["obs"]) - start)
    return {**{k: np.asarray(v) for k, v in rows.items()}, "wins": wins, "games": count}


def search_target(stats, num_actions: int) -> np.ndarray:
    """The policy target of one search: its improved policy where it gives one (``root=gumbel``:
    ``softmax(logits + sigma(q))``), else its root visit shares."""
    target = np.zeros(num_actions, dtype=np.float32)
    shares = stats.policy
    if shares is None:
        total = sum(stats.visits.values())
        shares = {a: n / total for a, n in stats.visits.items()}
    for a, p in shares.items():
        target[a] = p
    return target


def play_search_games(game_name: str, player: int, spec: str, opponent: str, init: str, games: int, seed: int,
                      workers: int) -> dict[str, Any]:  # fmt: skip
    """Step 1 of the module docstring, on ``workers`` processes; rows in game order."""
    jobs = [(game_name, player, spec, opponent, init, seed, first, count)
            for first, count in game_ranges(games, workers)]  # fmt: skip
    parts = run_jobs(_search_job, jobs, workers)
    out = {k: np.concatenate([p[k] for p in parts]) for k in _ROWS}
    out["score"] = sum(p["wins"] for p in parts) / games
    return out


def save_search_games(path: Path, data: dict[str, Any], key: dict[str, Any]) -> None:
    """Write the search games ``data`` and the ``key`` of the round that played them to ``path``, whole
    (a compressed ``.npz`` of plain arrays, the key as JSON text: nothing pickled)."""
    import io

    from fof_env.core.files import write_bytes_atomic

    buffer = io.BytesIO()
    np.savez_compressed(buffer, key=np.array(json.dumps(key, sort_keys=True)), score=np.array(data["score"]),
             **{k: data[k] for k in _ROWS})  # fmt: skip
    write_bytes_atomic(path, buffer.getvalue())


def load_search_games(path: Path, key: dict[str, Any]) -> dict[str, Any] | None:
    """The search games saved at ``path`` by a round with this ``key``; None where there are none, or
    they were played by another round (ValueError for a file that is not such a save)."""
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as saved:
            if json.loads(str(saved["key"])) != key:
                return None
            data = {k: saved[k] for k in _ROWS}
            data["score"] = float(saved["score"])
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(f"cannot resume from {path}: not a round's search games ({exc})") from None
    if len({len(v) for k, v in data.items() if k != "score"}) != 1:
        raise ValueError(f"cannot resume from {path}: its arrays differ in length")
    return data


def _target_name(target: str, spec: str) -> str:
    """What a round's ``--target`` fitted, as its card says it: ``move``, ``visits`` (the root's visit
    shares) or ``improved_policy`` (``visits`` with a ``root=gumbel`` search, which gives one)."""
    from agents.specs import parse_agent_spec

    if target == "visits" and parse_agent_spec(spec)[1].get("root") == "gumbel":
        return "improved_policy"
    return target


def move_targets(data: dict[str, Any]) -> np.ndarray:
    """One-hot targets on the move the search played (``--target move``), in place of its visit shares."""
    target = np.zeros_like(data["target"])
    target[np.arange(len(target)), data["chosen"]] = 1.0
    return target


def _visit_cross_entropy(torch, logp, target):
    """Mean cross-entropy of the visit shares ``target`` against the masked log-probabilities ``logp``
    (an illegal action's log-probability is huge and negative, its share 0: it is left out, not 0 x -inf)."""
    return -(target * torch.where(target > 0, logp, torch.zeros_like(logp))).sum(1).mean()


def _held_out_scores(policy, data: dict[str, Any], rows: np.ndarray) -> dict[str, float]:
    import torch

    with torch.no_grad():
        obs, mask = torch.as_tensor(data["obs"][rows]), data["mask"][rows]
        logp = policy.get_distribution(obs, action_masks=mask).distribution.logits
        target = torch.as_tensor(data["target"][rows])
        cross = float(_visit_cross_entropy(torch, logp, target))
        best = logp.argmax(1).numpy()
    return {"cross_entropy": round(cross, 4), "agreement": round(float((best == data["chosen"][rows]).mean()), 4)}


def train_on_visits(init: str, data: dict[str, Any], epochs: int, learning_rate: float, seed: int,
                    batch_size: int = 256, value_coef: float = 0.5):  # fmt: skip
    """Step 2: a trainable copy of ``init`` fitted to ``data``; returns (policy, report)."""
    import torch

    from agents.policy_io import (
        build_policy,
        check_architecture,
        load_model_policy,
        load_tensors,
        read_model_card,
    )

    torch.manual_seed(seed)
    card = read_model_card(init)
    policy = build_policy(check_architecture(card["architecture"], init), lambda _progress: learning_rate)
    load_tensors(policy, {k: v.clone() for k, v in load_model_policy(init).state_dict().items()}, init)
    games = np.unique(data["game"])
    held_games = games[-max(1, len(games) // 10):]
    held = np.isin(data["game"], held_games)
    train_rows, held_rows = np.flatnonzero(~held), np.flatnonzero(held)
    before = _held_out_scores(policy, data, held_rows)
    rng = np.random.default_rng(seed)
    policy.set_training_mode(True)
    for _ in range(epochs):
        rng.shuffle(train_rows)
        for start in range(0, len(train_rows), batch_size):
            rows = train_rows[start:start + batch_size]
            obs = torch.as_tensor(data["obs"][rows])
            dist = policy.get_distribution(obs, action_masks=data["mask"][rows])
            logp = dist.distribution.logits
            target = torch.as_tensor(data["target"][rows])
            policy_loss = _visit_cross_entropy(torch, logp, target)
            value = policy.predict_values(obs).flatten()
            value_loss = torch.nn.functional.mse_loss(value, torch.as_tensor(data["result"][rows], dtype=torch.float32))
            policy.optimizer.zero_grad()
            (policy_loss + value_coef * value_loss).backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            policy.optimizer.step()
    policy.set_training_mode(False)
    after = _held_out_scores(policy, data, held_rows)
    return policy, {"decisions": int(len(data["obs"])), "held_out_decisions": int(len(held_rows)),
                    "held_out_before": before, "held_out_after": after, "epochs": epochs,
                    "learning_rate": learning_rate}  # fmt: skip


def keep_setup_book(init: str, init_card: dict[str, Any], model: Path, game, side: str, sha256: str) -> Path | None:
    """The init model's set-up book (:mod:`agents.setup_book`), bound to the new weights ``sha256`` and
    written beside ``model``: the search games drew the bot's unseen placements from it, so the new
    policy learned from those set-ups and its bot keeps drawing them. None where ``init`` has no book
    that matches its own weights (``init_card``'s: its bot draws as the heuristic does, and so will the new one)."""
    from agents.setup_book import book_path, read_book, write_book

    where = book_path(init)
    if not where.exists():
        return None
    book = read_book(where, game, side)
    if book.model_sha256 != init_card.get("weights", {}).get("sha256"):
        return None
    out = book_path(model)
    write_book(out, {**book.card, "model_sha256": sha256, "kept_from": {"book": where.name, "model_sha256": book.model_sha256}})
    return out


def _eval_job(job: tuple) -> list[float]:
    from evaluation.match import build_agent, play_game
    from fof_env.core.registry import make_game

    game_name, player, model, opponent, seed, first, count = job
    game = make_game(game_name)
    scores = []
    for i in range(first, first + count):
        me = build_agent(f"ppo:path={model}", game, player, seed + i)
        other = build_agent(opponent, game, 1 - player, seed + i + 500_000)
        result = play_game(game, [me, other] if player == 0 else [other, me], seed + i, record=False)
        r = result.returns[player]
        scores.append(1.0 if r > 0 else 0.5 if r == 0 else 0.0)
    return scores


def _evaluate(game_name: str, player: int, model: str, opponent: str, games: int, seed: int, workers: int) -> list[float]:
    jobs = [(game_name, player, model, opponent, seed, first, count) for first, count in game_ranges(games, workers)]
    return [s for part in run_jobs(_eval_job, jobs, workers) for s in part]


def _summary(scores: list[float], side: str, opponent: str) -> dict[str, Any]:
    from evaluation.tallies import WDL

    tally = WDL(sum(s == 1.0 for s in scores), sum(s == 0.5 for s in scores), sum(s == 0.0 for s in scores))
    low, high = tally.score_interval
    return {"side": side, "opponent": opponent, "games": tally.games, "wins": tally.wins, "draws": tally.draws,
            "losses": tally.losses, "win_rate": round(tally.win_rate, 4), "score": round(tally.score_rate, 4),
            "low": round(low, 4), "high": round(high, 4)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.expert_iteration", description=__doc__.split("\n\n")[0],
                                     epilog="The module docstring says what a round does.")  # fmt: skip
    parser.add_argument("--game", required=True)
    parser.add_argument("--side", required=True)
    parser.add_argument("--search", required=True, help="the teacher: an mcts spec")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--init", help="the model improved (default: the one shipped for the side)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--learning-rate", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--target", choices=("visits", "move"), default="visits",
                        help="the policy's target: the search's root visit shares (with root=gumbel its improved "
                             "policy), or its move played (one-hot)")
    parser.add_argument("--resume", action="store_true",
                        help=f"read the search games from OUT/{GAMES_FILE} where this round saved them")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    from agents.policy_io import export_weights, read_model_card, sha256_of, write_atomic
    from agents.ppo import shipped_model_path
    from evaluation.match import build_agent
    from fof_env.core.registry import make_game

    try:
        game = make_game(args.game)
    except ValueError as exc:  # OptionError: an unknown game
        parser.error(str(exc))
    player = game.side_in_any_case(args.side)
    if player is None or not args.search.startswith("mcts") or args.games < 10:
        parser.error(f"need a side of {args.game} ({', '.join(game.player_names)}), an mcts --search, --games >= 10")
    side = game.player_names[player]
    init = str(args.init or shipped_model_path(game.name, side))
    try:  # every spec and the init model checked here, before any game: one line, not a worker's traceback
        build_agent(args.search, game, player, 0)
        build_agent(args.opponent, game, 1 - player, 0)
        build_agent(f"ppo:path={init}", game, player, 0)
    except (ValueError, OSError) as exc:
        parser.error(str(exc))
    try:  # a place the model cannot go is found now, not after the games
        args.out.mkdir(parents=True, exist_ok=True)
        if not os.access(args.out, os.W_OK):
            raise PermissionError(f"{args.out} is not writable")
    except OSError as exc:
        parser.error(f"cannot write {args.out}: {exc}")
    print(f"expert_iteration: {args.games} games of {args.search} against {args.opponent} on {args.workers} "
          f"worker(s), then training and {args.eval_games} + {args.eval_games} evaluation games...", flush=True)
    start = time.perf_counter()
    init_sha256 = sha256_of(Path(init).read_bytes())
    key = {"game": game.name, "side": side, "search": args.search, "opponent": args.opponent, "games": args.games,
           "seed": args.seed, "init_sha256": init_sha256}  # fmt: skip
    saved = args.out / GAMES_FILE
    try:
        data = load_search_games(saved, key) if args.resume else None
    except ValueError as exc:
        parser.error(str(exc))
    if data is None:
        if args.resume:
            print(f"--resume: {saved} holds no search games of this round; playing them", flush=True)
        data = play_search_games(game.name, player, args.search, args.opponent, init, args.games, args.seed,
                                 args.workers)  # fmt: skip
        save_search_games(saved, data, key)
        print(f"{args.games} search games in {time.perf_counter() - start:.0f} s (kept in {saved}): the search "
              f"scored {data['score']:.3f}, {len(data['obs'])} decisions kept", flush=True)
    else:
        print(f"{args.games} search games read from {saved}: the search scored {data['score']:.3f}, "
              f"{len(data['obs'])} decisions", flush=True)
    if args.target == "move":
        data["target"] = move_targets(data)
    policy, report = train_on_visits(init, data, args.epochs, args.learning_rate, args.seed)
    print(f"held-out cross-entropy {report['held_out_before']['cross_entropy']} -> "
          f"{report['held_out_after']['cross_entropy']}, agreement with the search "
          f"{report['held_out_before']['agreement']} -> {report['held_out_after']['agreement']}", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    model = args.out / "model.safetensors"
    init_card = read_model_card(init)
    card = {k: v for k, v in init_card.items() if k not in ("resume_commands", "selected", "final_evaluation")}
    card["weights"] = export_weights(policy, model)
    kept = keep_setup_book(init, init_card, model, game, side, card["weights"]["sha256"])
    write_atomic(args.out / "model.json", (json.dumps(card, indent=1) + "\n").encode("utf-8"))  # evaluated next
    eval_seed = args.seed + 1_000_000
    new = _evaluate(game.name, player, str(model), args.opponent, args.eval_games, eval_seed, args.workers)
    old = _evaluate(game.name, player, init, args.opponent, args.eval_games, eval_seed, args.workers)
    gain = [a - b for a, b in zip(new, old, strict=True)]
    paired = float(np.mean(gain)), float(1.96 * np.std(gain, ddof=1) / np.sqrt(len(gain)))
    card.update({
        "command": "python -m training.expert_iteration " + shlex.join(argv if argv is not None else sys.argv[1:]),
        "final_evaluation": [_summary(new, side, args.opponent)],
        "expert_iteration": {
            "search": args.search, "opponent": args.opponent, "games": args.games, "seed": args.seed,
            "target": _target_name(args.target, args.search),
            "search_score": round(data["score"], 4), "training": report,
            "init": {"file": Path(init).name, "sha256": init_sha256,
                     "command": init_card.get("command")},
            "evaluation": {"new": _summary(new, side, args.opponent), "init": _summary(old, side, args.opponent),
                           "paired_gain": round(paired[0], 4), "paired_gain_95": round(paired[1], 4)},
            "seconds": round(time.perf_counter() - start, 1),
        },
    })  # fmt: skip
    write_atomic(args.out / "model.json", (json.dumps(card, indent=1) + "\n").encode("utf-8"))
    write_atomic(args.out / "round.json", (json.dumps(card["expert_iteration"], indent=1) + "\n").encode("utf-8"))
    e = card["expert_iteration"]["evaluation"]
    print(f"against {args.opponent}, {args.eval_games} games each on the same seeds: new {e['new']['score']} "
          f"[{e['new']['low']}, {e['new']['high']}], init {e['init']['score']}; paired gain "
          f"{e['paired_gain']:+.3f} +/- {e['paired_gain_95']:.3f}")
    print(f"wrote {model} and its card" + (f", and {kept.name}, its init's set-up book" if kept else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
