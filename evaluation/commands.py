"""``fof evaluate`` and ``fof replay`` (added to the ``fof`` parser by :mod:`fof_env.cli`).

Examples::

    fof evaluate --game strike_force_one --agents random heuristic --games 200 --workers 2
    fof evaluate --game lost_and_found --option rules=quick --agents heuristic mcts:200 ppo --games 50
    fof replay reports/strike_force_one/records/strike_force_one/heuristic__vs__random/0000.json --every 20
    fof replay game.json --quiet --gif game.gif

``fof evaluate`` runs :func:`evaluation.tournament.run_tournament` and writes the
report (:func:`evaluation.report.write_report`) into ``--out`` (default
``reports/<game>-<UTC date-time>``), the game records under ``<out>/records``
(unless ``--no-records``), and prints the Markdown tables. A bad agent spec or game
option stops it before any game with exit status 2.

``fof replay`` re-simulates a record (:func:`evaluation.replay.replay`), prints it,
optionally writes PNG frames / a GIF, and exits 0 only if the re-simulated final
state equals the recorded one (1 if it differs, 2 if the record cannot be replayed).

matplotlib, Pillow and torch are imported inside the commands, not here.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from fof_env.core.registry import list_games


def default_out_dir(game: str) -> Path:
    """``reports/<game>-<YYYYmmdd-HHMMSS>`` (UTC), relative to the current directory."""
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%d-%H%M%S")
    return Path("reports") / f"{game}-{stamp}"


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add this package's subcommands to the ``fof`` parser."""
    ev = sub.add_parser(
        "evaluate",
        help="tournament: every agent against every other on both sides, report with ratings",
        description=(
            "Play every ordered pairing of the agents (A on the first side against B on the second, "
            "A against itself included unless --no-mirror), --games games each, in --workers processes; "
            "write results.json, results.csv, report.md and a self-contained report.html (win-rate "
            "matrix, Bradley-Terry/Elo ratings with a side advantage, PPO training curves) into --out, "
            "and the game records (replayable with `fof replay`) under OUT/records."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "Agent specs: random, heuristic, mcts:200 (simulations), ppo (the shipped model), "
            "ppo:runs/x/model.zip, or kind:key=value,key=value.\n"
            "Example: fof evaluate --game strike_force_one --agents random heuristic mcts:100 --games 50"
        ),
    )
    ev.add_argument("--game", required=True, choices=list_games(), help="the game")
    ev.add_argument("--agents", required=True, nargs="+", metavar="SPEC", help="agent specs (distinct)")
    ev.add_argument("--games", type=int, default=50, help="games per ordered pairing (default 50)")
    ev.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes (default: the number of CPUs; results do not depend on it)",
    )
    ev.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    ev.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. --option optional_rules=true, --option rules=quick (repeatable)",
    )
    ev.add_argument("--out", metavar="DIR", help="report directory (default reports/<game>-<UTC time>)")
    ev.add_argument("--no-mirror", action="store_true", help="skip each agent against itself")
    ev.add_argument("--no-records", action="store_true", help="do not save the game records")
    ev.add_argument("--no-html", action="store_true", help="skip report.html (and matplotlib)")
    ev.add_argument("--no-progress", action="store_true", help="no progress bar")
    ev.set_defaults(run=run_evaluate)

    rp = sub.add_parser(
        "replay",
        help="re-simulate a game record, print it, check it reproduces the recorded final state",
        description=(
            "Re-simulate a game record (from `fof play --record` or `fof evaluate`): build the game with "
            "the record's options, start from its dice seed, apply the recorded actions, print the map at "
            "the start, every N decisions and at the end, and verify that the final state equals the "
            "recorded one exactly (exit 1 if not, 2 if the record cannot be replayed)."
        ),
    )
    rp.add_argument("record", help="the record file (JSON)")
    rp.add_argument(
        "--every",
        type=int,
        default=0,
        metavar="N",
        help="also print the map (and take a frame) every N decisions (default 0: start and end only)",
    )
    rp.add_argument("--png", metavar="DIR", help="write a PNG frame per shown map into DIR")
    rp.add_argument("--gif", metavar="PATH", help="write the shown maps as an animated GIF")
    rp.add_argument("--frame-ms", type=int, default=500, help="GIF frame duration in ms (default 500)")
    rp.add_argument("--quiet", action="store_true", help="print only the result and the verification")
    rp.set_defaults(run=run_replay)


# ----------------------------------------------------------------------------- evaluate
def run_evaluate(args: argparse.Namespace, out: TextIO) -> int:
    """``fof evaluate``: see the module docstring."""
    from evaluation.report import markdown_report, write_report
    from evaluation.tournament import AgentSpecError, run_tournament
    from fof_env.core.errors import OptionError
    from fof_env.core.options import parse_assignments

    if args.games < 1 or args.workers < 1 or args.seed < 0:
        print("fof evaluate: --games and --workers must be at least 1, --seed at least 0", file=sys.stderr)
        return 2
    out_dir = Path(args.out) if args.out else default_out_dir(args.game)
    try:
        options = parse_assignments(args.option, "--option")
        result = run_tournament(
            args.game,
            options,
            list(args.agents),
            args.games,
            workers=args.workers,
            seed=args.seed,
            records_dir=None if args.no_records else out_dir / "records",
            progress=not args.no_progress,
            mirror=not args.no_mirror,
        )
    except (AgentSpecError, OptionError) as exc:
        print(f"fof evaluate: {exc}", file=sys.stderr)
        return 2
    paths = write_report(result, out_dir, with_html=not args.no_html)
    print(markdown_report(result), file=out)
    print("Report: " + ", ".join(str(p) for p in paths.values()), file=out)
    if result.records_dir:
        print(
            f"Game records: {Path(result.records_dir) / args.game}/<side-0>__vs__<side-1>/NNNN.json", file=out
        )
    return 0


# ----------------------------------------------------------------------------- replay
class _Frames:
    """Collects the replay's frames: PNG files and/or GIF images (Pillow)."""

    def __init__(self, png_dir: str | None, gif: str | None):
        self.png_dir = Path(png_dir) if png_dir else None
        self.gif = gif
        self.images: list[Any] = []
        self.files: list[Path] = []
        self._render = None
        if self.png_dir is not None:
            self.png_dir.mkdir(parents=True, exist_ok=True)

    def __call__(self, state, decisions: int) -> None:
        from PIL import Image

        from fof_env.envs.support import rgb_renderer

        if self._render is None:
            self._render = rgb_renderer(state)
        image = Image.fromarray(self._render(state))
        if self.png_dir is not None:
            path = self.png_dir / f"frame_{decisions:05d}.png"
            image.save(path)
            self.files.append(path)
        if self.gif:
            self.images.append(image.convert("P", palette=Image.Palette.ADAPTIVE))

    def write_gif(self, frame_ms: int) -> Path | None:
        if not self.gif or not self.images:
            return None
        first, *rest = self.images
        first.save(self.gif, save_all=True, append_images=rest, duration=frame_ms, loop=0)
        return Path(self.gif)


def run_replay(args: argparse.Namespace, out: TextIO) -> int:
    """``fof replay``: see the module docstring."""
    from evaluation.replay import ReplayError, replay

    if args.every < 0:
        print("fof replay: --every must be >= 0", file=sys.stderr)
        return 2
    frames = _Frames(args.png, args.gif) if (args.png or args.gif) else None
    try:
        result = replay(args.record, every=args.every, out=None if args.quiet else out, on_frame=frames)
    except ReplayError as exc:
        print(f"fof replay: {args.record}: {exc}", file=sys.stderr)
        return 2
    except NotImplementedError as exc:  # no RGB renderer for this game
        print(f"fof replay: {exc}", file=sys.stderr)
        return 2
    if args.quiet:
        print(result.result_line(), file=out)
    if frames is not None:
        if frames.files:
            print(f"{len(frames.files)} PNG frames written to {frames.png_dir}", file=out)
        gif = frames.write_gif(args.frame_ms)
        if gif is not None:
            print(f"GIF written to {gif} ({len(frames.images)} frames)", file=out)
    if not result.verified:
        print(
            "fof replay: MISMATCH: the re-simulated game does not reproduce the record: "
            + "; ".join(result.problems),
            file=sys.stderr,
        )
        print("Verification FAILED: " + "; ".join(result.problems), file=out)
        return 1
    how = "from its dice seed" if result.seeded else "from its recorded dice rolls (the record has no seed)"
    print(
        f"Verified: re-simulated {how}, the final state equals the recorded final state exactly "
        "(same record: actions, dice rolls and dice state; same fingerprint).",
        file=out,
    )
    return 0
