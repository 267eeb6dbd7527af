"""Learning-curve pictures of the shipped models, for the README.

``python -m evaluation.curves [--models DIR] [--out docs/curves]``

For each model card beside a ``*.safetensors`` in ``--models`` (default: the package's
``agents/models``), draws its curve (win rate with its 95 % interval against timesteps, from the
card's ``curve``, as ``fof train`` recorded it) with :func:`evaluation.plots.training_curve` and
writes ``<out>/<model>.png``; a card without a curve is skipped with a note. The title names the
game, the side, the steps and the wall time of training, from the card. Files are written
atomically: an interrupted run leaves every earlier picture whole.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from agents.ppo import MODELS_DIR, read_card
from evaluation.plots import training_curve
from fof_env.core.files import write_bytes_atomic

DEFAULT_OUT = Path("docs") / "curves"


def curve_title(card: dict) -> str:
    """``"<game> <side>: <steps> steps in <minutes> min"`` from a model card. When the run trained
    past the policy it kept (``--resume --best``): ``"<game> <side>: the policy of step <steps>
    (<steps_trained> steps in <minutes> min)"``, or, for a card without ``steps_trained`` whose
    curve goes further, ``"... (<minutes> min run)"``; a run of no PPO step (``--steps 0``):
    ``"<game> <side>: the imitation warm start, no PPO step (<minutes> min)"``."""
    steps = int(card.get("timesteps", 0))
    minutes = float(card.get("wall_seconds", 0.0)) / 60.0
    name = f"{card.get('game', '?')} {card.get('side', '?')}"
    trained = int(card.get("steps_trained", steps))
    last_point = max((int(p.get("timesteps", 0)) for p in card.get("curve") or []), default=0)
    if trained == 0 and last_point == 0 and card.get("imitation"):
        return f"{name}: the imitation warm start, no PPO step ({minutes:.0f} min)"
    if trained > steps:
        return f"{name}: the policy of step {steps:,} ({trained:,} steps in {minutes:.0f} min)"
    if last_point > steps:
        return f"{name}: the policy of step {steps:,} ({minutes:.0f} min run)"
    return f"{name}: {steps:,} steps in {minutes:.0f} min"


def write_curves(models: Path, out: Path) -> list[Path]:
    """One PNG per model card with a curve under ``models``; returns the files written."""
    written = []
    for weights in sorted(models.glob("*.safetensors")):
        card = read_card(weights)
        curve = card.get("curve") or []
        if not curve:
            print(f"{weights.name}: its card has no curve; skipped", file=sys.stderr)
            continue
        side = card.get("side")
        png = training_curve(curve, curve_title(card), side if side != "both" else None)
        path = out / f"{weights.stem}.png"
        out.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(path, png)
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.curves", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--models", type=Path, default=MODELS_DIR, help="folder of model cards (default: %(default)s)"
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="folder for the PNGs (default: %(default)s)"
    )
    args = parser.parse_args(argv)
    if not args.models.is_dir():
        parser.error(f"--models {args.models}: not a folder")
    for path in write_curves(args.models, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
