"""Set-up books: a learned bot's unseen placements drawn from points measured to suit it.

A policy trained by PPO plays best from the set-up it learned, but a bot that hides every team at
one point is beaten by anyone who has played it once (:mod:`agents.mixed_setup`). The heuristic's
mixed draw spreads the set-up over the heuristic's own best points, which need not be the points the
learned policy plays well from. A **set-up book** is the measured answer: for each of the bot's
unseen placements, in the order the game asks for them, a few points with their weights, chosen by
``python -m training.setup_book`` from games the model played from random set-ups, and stored beside
the model as ``<model>.setups.json`` (format :data:`BOOK_FORMAT`): game, side, the sha256 of the
weights it was measured for, the exact command, the games it played and, per placement, every
candidate point's measured win rate. A book of format ``fof-setup-book/2`` may also list **plans**:
whole set-ups (one point per placement) with weights. A bot with plans draws one plan at its first
placement and plays it through, so its set-up is one of a few the model was trained and measured
on, not a product of independent draws; a placement whose planned point is not legal falls back
to that placement's group.

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

BOOK_FORMAT = "fof-setup-book/2"
READ_FORMATS = ("fof-setup-book/1", BOOK_FORMAT)
BOOK_SUFFIX = ".setups.json"
MAX_GROUPS = 64  # placements a book may list
MAX_POINTS = 64  # points per placement
MAX_PLANS = 64
MAX_BYTES = 1 << 20


def book_path(model_path: str | Path) -> Path:
    """Where the set-up book of the model at ``model_path`` lives: ``x.safetensors`` -> ``x.setups.json``."""
    path = Path(model_path)
    return path.with_name(path.name.rsplit(".", 1)[0] + BOOK_SUFFIX)


def _weighted(items: list[tuple[Any, float]], draw: Callable[[float], float]):
    """One of ``items`` (``(item, weight)``) by weight; ``draw(total)`` is a float in ``[0, total)``."""
    x = draw(sum(w for _, w in items))
    for item, w in items:
        x -= w
        if x < 0:
            return item
    return items[-1][0]


@dataclass(frozen=True)
class SetupBook:
    """Per unseen placement (in the order the game asks for them), ``{point name: weight}``, and
    optionally whole set-ups to draw as one.

    Attributes: ``groups`` (one dict per placement), ``model_sha256`` (the weights it was measured
    for), ``card`` (the whole JSON object as read), ``plans`` (``(weight, (point per placement))``
    pairs; empty when the book has none).
    """

    groups: tuple[dict[str, float], ...]
    model_sha256: str
    card: dict[str, Any]
    plans: tuple[tuple[float, tuple[str, ...]], ...] = ()

    def draw(self, state, draw: Callable[[float], float], plan: tuple[str, ...] | None = None,
             made: int | None = None) -> tuple[int | None, tuple[str, ...] | None]:
        """``(action, plan)`` for the unseen placement ``state`` asks for, the caller's ``made``-th
        (counting from 0; None: unknown). The placement's group is group ``made`` where it has a
        point legal now, else the first group that has one (where the placements' points are
        disjoint, as when each unit sets up in its own area, that is the placement's own group
        whatever the count; where units share an area only the count tells them apart). With plans,
        a new plan is drawn by weight at the first group or when ``plan`` is None, and its point is
        played if legal; otherwise a legal point of the group by weight. ``draw(total)`` returns a
        float in ``[0, total)`` from the caller's own generator; the caller passes the returned plan
        back at its next placement. The action is None if no group has a legal point."""
        legal = {state.action_to_str(a): a for a in state.legal_actions()}
        order = range(len(self.groups))
        if made is not None and 0 <= made < len(self.groups):
            order = [made, *order]
        for k in order:
            points = [(name, w) for name, w in self.groups[k].items() if name in legal]
            if not points:
                continue
            if self.plans and (k == 0 or plan is None):
                plan = _weighted(list((points_, w) for w, points_ in self.plans), draw)
            if plan is not None and plan[k] in legal:
                return legal[plan[k]], plan
            return legal[_weighted(points, draw)], plan
        return None, plan


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
    if not isinstance(card, dict) or card.get("format") not in READ_FORMATS:
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
    return SetupBook(tuple(groups), sha, card, _read_plans(card.get("plans", []), groups, refuse))


def _read_plans(raw, groups: list[dict[str, float]], refuse) -> tuple[tuple[float, tuple[str, ...]], ...]:
    """A book's ``plans`` checked: each ``{"weight": w > 0, "points": [a point of each group]}``."""
    if not isinstance(raw, list) or len(raw) > MAX_PLANS:
        raise refuse(f"plans must be a list of at most {MAX_PLANS} set-ups")
    plans = []
    for i, plan in enumerate(raw):
        weight = plan.get("weight") if isinstance(plan, dict) else None
        points = plan.get("points") if isinstance(plan, dict) else None
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) \
                or not math.isfinite(weight) or weight <= 0:
            raise refuse(f"plan {i}: weight must be a finite number over 0")
        if not isinstance(points, list) or len(points) != len(groups):
            raise refuse(f"plan {i}: points must list one point for each of the {len(groups)} placements")
        for k, name in enumerate(points):
            if not isinstance(name, str) or name not in groups[k]:
                raise refuse(f"plan {i}: {name!r} is not a point of placement {k}")
        plans.append((float(weight), tuple(points)))
    return tuple(plans)


def write_book(path: str | Path, card: dict[str, Any]) -> None:
    """Write ``card`` to ``path`` whole (:func:`fof_env.core.files.write_text_atomic`)."""
    write_text_atomic(path, json.dumps(card, indent=2) + "\n")
