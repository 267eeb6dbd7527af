"""``fof compare``: one scenario under two rule systems, the same bots, side by side.

::

    fof compare --agents random heuristic --games 200 --workers 2 --seed 7 --out reports/compare

plays the same tournament (every agent against every other on both sides, ``--games`` games per
ordered pairing, mirror pairings included; :func:`evaluation.tournament.run_tournament`) on a game and
on its counterpart under another rule system (a game spec's ``counterpart``: the same table, forces,
turns and victory points; ``--game`` picks the pair, default the first), and prints per pairing, for
each rule system: the first side's wins / draws / losses with Wilson 95% intervals, the mean VP of each
side, the VP margin's distribution (first side's VP - second side's: quartiles and a histogram), how
often the first side won automatically and the mean decisions per game.
``--out`` also gets ``compare.md`` and ``compare.json`` (every game's outcome under both systems).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from evaluation.stats import format_rate
from fof_env.core.registry import game_spec, game_specs, ruleset_of


def counterparts() -> list[tuple[str, str]]:
    """(game, the same scenario under another rule system) of every game spec that names a counterpart."""
    return [(spec.counterpart, spec.name) for spec in game_specs() if spec.counterpart]


def rule_systems(game: str | None = None) -> tuple[str, tuple[tuple[str, str], ...]]:
    """(the scenario's title, ((rule system, game), (rule system, game))) of the pair holding ``game``
    (None: the first pair); ValueError for a game without a counterpart."""
    pairs = counterparts()
    pair = next((p for p in pairs if game is None or game in p), None)
    if pair is None:
        raise ValueError(f"no game plays {game!r}'s scenario under another rule system; pairs: "
                         + (", ".join("/".join(p) for p in pairs) or "none"))  # fmt: skip
    return game_spec(pair[0]).title, tuple((ruleset_of(g).title, g) for g in pair)
MARGIN_BINS = ((-99, -10), (-9, -5), (-4, -1), (0, 0), (1, 4), (5, 9), (10, 99))


def _bin_label(lo: int, hi: int) -> str:
    if lo == hi:
        return f"{lo}"
    if lo <= -99:
        return f"<={hi}"
    if hi >= 99:
        return f">={lo}"
    return f"{lo}..{hi}"


def pairing_summary(outcomes: list) -> dict[str, Any]:
    """Results of one pairing's games (``GameOutcome``s): W/D/L of side 0, VP means, margin distribution."""
    n = len(outcomes)
    wins = sum(1 for o in outcomes if o.winner == 0)
    losses = sum(1 for o in outcomes if o.winner == 1)
    vps = [o.vp for o in outcomes if o.vp is not None]
    margins = [a - b for a, b in vps]
    autos = sum(1 for o in outcomes if o.score and any(k.endswith("auto_victory") and v for k, v in o.score.items()))
    quart = statistics.quantiles(margins, n=4, method="inclusive") if len(margins) >= 2 else [0.0, 0.0, 0.0]
    return {
        "games": n,
        "side0_wins": wins,
        "draws": n - wins - losses,
        "side0_losses": losses,
        "side0_vp_mean": statistics.fmean(v[0] for v in vps) if vps else 0.0,
        "side1_vp_mean": statistics.fmean(v[1] for v in vps) if vps else 0.0,
        "margin_quartiles": [round(q, 2) for q in quart],
        "margin_histogram": {_bin_label(lo, hi): sum(1 for m in margins if lo <= m <= hi) for lo, hi in MARGIN_BINS},
        "automatic_victories": autos,
        "decisions_mean": statistics.fmean(o.decisions for o in outcomes) if outcomes else 0.0,
    }


def compare(agents: list[str], games: int, *, workers: int = 1, seed: int = 0, progress: bool = False,
            game: str | None = None) -> dict:
    """Play the tournament under both rule systems of ``game``'s pair (:func:`rule_systems`); return
    ``{"scenario", "agents", "games", "systems": {label: {"game", "player_names", "pairings":
    [[a, b, summary], ...], "outcomes": [...]}}}``."""
    from evaluation.tournament import run_tournament

    title, systems = rule_systems(game)
    auto = game_spec(systems[0][1]).endings.get("auto victory")
    out: dict[str, Any] = {"scenario": title, "auto_victory": auto, "agents": list(agents), "games": games,
                           "seed": seed, "systems": {}}  # fmt: skip
    for label, game in systems:
        start = time.perf_counter()
        result = run_tournament(game, {}, agents, games, workers=workers, seed=seed, progress=progress)
        pairings = []
        for a, b in result.pairings:
            chosen = [o for o in result.outcomes if o.agents == (a, b)]
            pairings.append([a, b, pairing_summary(chosen)])
        out["systems"][label] = {
            "game": game,
            "player_names": list(result.player_names),
            "seconds": round(time.perf_counter() - start, 1),
            "pairings": pairings,
            "outcomes": [o.to_dict() for o in result.outcomes],
        }
    return out


def markdown(data: dict) -> str:
    """The side-by-side tables of :func:`compare`'s result."""
    labels = list(data["systems"])
    first = data["systems"][labels[0]]
    s0, s1 = first["player_names"]
    lines = [f"# {data['scenario']} under two rule systems ({data['games']} games per pairing, seed {data['seed']})", ""]
    lines.append(f"Rows: {s0} agent vs {s1} agent. W/D/L and win rate (Wilson 95%) are the {s0}'s; VP are means; "
                 f"margin = {s0} VP - {s1} VP (quartiles); auto = {s0} automatic victories"
                 + (f" ({data['auto_victory']})." if data.get("auto_victory") else "."))  # fmt: skip
    lines.append("")
    head = f"| {s0} vs {s1} |"
    rule = "|---|"
    for label in labels:
        head += f" {label}: W/D/L | {label}: {s0} win rate | {label}: VP {s0}/{s1} | {label}: margin Q1/Q2/Q3 | {label}: auto |"
        rule += "---|---|---|---|---|"
    lines += [head, rule]
    for k, (a, b, _) in enumerate(first["pairings"]):
        row = f"| {a} vs {b} |"
        for label in labels:
            p = data["systems"][label]["pairings"][k][2]
            q = p["margin_quartiles"]
            row += (f" {p['side0_wins']}/{p['draws']}/{p['side0_losses']} | {format_rate(p['side0_wins'], p['games'])} |"
                    f" {p['side0_vp_mean']:.2f} / {p['side1_vp_mean']:.2f} | {q[0]:g} / {q[1]:g} / {q[2]:g} |"
                    f" {p['automatic_victories']} |")  # fmt: skip
        lines.append(row)
    lines += ["", f"VP margin histograms ({s0} VP - {s1} VP):", ""]
    bins = list(first["pairings"][0][2]["margin_histogram"]) if first["pairings"] else []
    lines.append("| pairing | rules | " + " | ".join(bins) + " |")
    lines.append("|---|---|" + "---|" * len(bins))
    for k, (a, b, _) in enumerate(first["pairings"]):
        for label in labels:
            hist = data["systems"][label]["pairings"][k][2]["margin_histogram"]
            lines.append(f"| {a} vs {b} | {label} | " + " | ".join(str(hist[x]) for x in bins) + " |")
    lines += ["", " ; ".join(f"{label}: {data['systems'][label]['seconds']} s" for label in labels)]
    return "\n".join(lines)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare",
        help="one scenario under two rule systems: the same bots' pairings side by side",
        description=(
            "Play the same tournament (every agent against every other on both sides, --games games per "
            "ordered pairing) on a game and on the same scenario under another rule system (the same table, "
            "forces, turns and victory points) and print, per pairing and rule system, the first side's W/D/L "
            "with Wilson 95% intervals, the mean VP, the VP margin's quartiles and histogram and the automatic "
            "victories; --out also gets compare.md and compare.json."
        ),
        epilog="Pairs: " + ", ".join(" and ".join(pair) for pair in counterparts()),
    )
    p.add_argument("--game", choices=sorted({g for pair in counterparts() for g in pair}),
                   help="a game of the pair to compare (default: the first pair)")  # fmt: skip
    p.add_argument("--agents", nargs="+", default=["random", "heuristic"], metavar="SPEC",
                   help="agent specs (default: random heuristic)")  # fmt: skip
    p.add_argument("--games", type=int, default=50, help="games per ordered pairing and rule system (default 50)")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="folder for compare.md and compare.json")
    p.set_defaults(run=run_compare)


def run_compare(args: argparse.Namespace, out: TextIO) -> int:
    if args.games < 1 or args.workers < 1 or args.seed < 0:
        print("fof compare: --games and --workers must be at least 1, --seed at least 0", file=sys.stderr)
        return 2
    if len(set(args.agents)) != len(args.agents):
        print("fof compare: --agents must be distinct", file=sys.stderr)
        return 2
    if args.out and Path(args.out).exists() and not Path(args.out).is_dir():
        print(f"fof compare: --out {args.out} is a file", file=sys.stderr)
        return 2
    try:
        data = compare(args.agents, args.games, workers=args.workers, seed=args.seed, progress=sys.stderr.isatty(),
                       game=args.game)
    except ValueError as exc:
        print(f"fof compare: {exc}", file=sys.stderr)
        return 2
    text = markdown(data)
    print(text, file=out)
    if args.out:
        folder = Path(args.out)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "compare.md").write_text(text + "\n")
        (folder / "compare.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"Written: {folder / 'compare.md'}, {folder / 'compare.json'}", file=out)
    return 0
