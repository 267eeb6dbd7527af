"""Set-up books: a learned bot's unseen placements drawn from points measured to suit it.

A policy trained by PPO plays best from the set-up it learned, but a bot that hides every team at
one point is beaten by anyone who has played it once (:mod:`agents.mixed_setup`). The heuristic's
mixed draw spreads the set-up over the heuristic's own best points, which need not be the points the
learned policy plays well from. A **set-up book** is the measured answer: for each of the bot's
unseen placements, in the order the game asks for them, a few points with their weights, chosen by
``python -m training.setup_book`` from games the model played from random set-ups, and stored beside
the model as ``<model>.setups.json`` (format :data:`BOOK_FORMAT`): game, side, the sha256 of the
weights it was measured for, the exact command, the games it played and, per placement, every
candidate point's measured win rate.

A book is data read from disk: :func:`read_book` checks it and refuses anything malformed in one
line (:class:`~agents.policy_io.ModelFileError`). Drawing (:meth:`SetupBook.draw`) never picks an
illegal point: at a placement whose listed points are none of them legal it returns None, and the
caller falls back to the heuristic's draw.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.policy_io import ModelFileError
from fof_env.core.files import write_text_atomic

BOOK_FORMAT = "fof-setup-book/1"
BOOK_SUFFIX = ".setups.json"
MAX_GROUPS = 64  # placements a book may list
MAX_POINTS = 64  # points per placement
MAX_BYTES = 1 << 20


def book_path(model_path: str | Path) -> Path:
    """Where the set-up book of the model at ``model_path`` lives: ``x.safetensors`` -> ``x.setups.json``."""
    path = Path(model_path)
    return path.with_name(path.name.rsplit(".", 1)[0] + BOOK_SUFFIX)


@dataclass(frozen=True)
class SetupBook:
    """Per unseen placement (in the order the game asks for them), ``{point name: weight}``.

    Attributes: ``groups`` (one dict per placement), ``model_sha256`` (the weights it was measured
    for), ``card`` (the whole JSON object as read).
    """

    groups: tuple[dict[str, float], ...]
    model_sha256: str
    card: dict[str, Any]

    def draw(self, state, draw: Callable[[float], float]) -> int | None:
        """The action for the unseen placement ``state`` asks for: a point of the first group with a
        point legal now, among its legal points by weight (``draw(total)`` returns a float in
        ``[0, total)`` from the caller's own generator); None if no group has a legal point. Where the
        placements' points are disjoint (each unit sets up in its own area) the first such group is
        that placement's own; the book needs no count of the placements already made."""
        legal = {state.action_to_str(a): a for a in state.legal_actions()}
        for group in self.groups:
            points = [(name, w) for name, w in group.items() if name in legal]
            if points:
                x = draw(sum(w for _, w in points))
                for name, w in points:
                    x -= w
                    if x < 0:
                        return legal[name]
                return legal[points[-1][0]]
        return None


def read_book(path: str | Path, game, side: str) -> SetupBook:
    """The book at ``path`` for ``game`` and ``side``, checked; one-line ModelFileError otherwise."""
    path = Path(path)

    def refuse(why: str) -> ModelFileError:
        return ModelFileError(f"cannot use set-up book {path}: {why}")

    try:
        if path.stat().st_size > MAX_BYTES:
            raise refuse(f"it is over {MAX_BYTES} bytes")
        card = json.loads(path.read_bytes())
    except OSError as exc:
        raise refuse(exc.strerror or type(exc).__name__) from None
    except ValueError as exc:
        raise refuse(f"not valid JSON ({str(exc).splitlines()[0]})") from None
    if not isinstance(card, dict) or card.get("format") != BOOK_FORMAT:
        raise refuse(f"not a {BOOK_FORMAT} object")
    if card.get("game") != game.name or card.get("side") != side:
        raise refuse(f"it is for {card.get('game')!r} / {card.get('side')!r}, not {game.name!r} / {side!r}")
    sha = card.get("model_sha256")
    if not isinstance(sha, str):
        raise refuse("model_sha256 is missing")
    raw = card.get("groups")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_GROUPS:
        raise refuse(f"groups must be a list of 1..{MAX_GROUPS} placements")
    groups = []
    for i, group in enumerate(raw):
        if not isinstance(group, dict) or not 1 <= len(group) <= MAX_POINTS:
            raise refuse(f"group {i} must map 1..{MAX_POINTS} point names to weights")
        for name, weight in group.items():
            if isinstance(weight, bool) or not isinstance(weight, (int, float)) \
                    or not math.isfinite(weight) or weight <= 0:
                raise refuse(f"group {i}: the weight of {name!r} must be a finite number over 0")
        groups.append({str(k): float(v) for k, v in group.items()})
    return SetupBook(tuple(groups), sha, card)


def write_book(path: str | Path, card: dict[str, Any]) -> None:
    """Write ``card`` to ``path`` whole (:func:`fof_env.core.files.write_text_atomic`)."""
    write_text_atomic(path, json.dumps(card, indent=2) + "\n")
