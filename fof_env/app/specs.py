"""Agent specs from clients: every number finite and within the limits, models by id only.

``check_spec(spec, ...)`` reads a spec the way ``agents.specs.parse_agent_spec`` does
(``"kind[:args][@side]"``) and refuses, in one line, anything a client could use to make a bot
run without end or read a file: a number that is not finite (``inf``, ``nan``, ``1e999``), a
whole-number option given as a fraction (``mcts:20001.0``), a value past its cap
(:mod:`fof_env.app.limits`), a ``time_budget`` over the engine's bot time limit, a model that is
not on the server's list (:class:`fof_env.app.catalog.Catalog`). It returns the checked spec: the
kind, its keyword arguments (a model id replaced by its file) and the ``@side`` it is kept to.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from fof_env.app import limits
from fof_env.app.catalog import Catalog, CatalogError


class SpecError(ValueError):
    """An agent spec refused (one line)."""


@dataclass(frozen=True)
class CheckedSpec:
    spec: str  # as the client wrote it (what replies and records show)
    kind: str
    kwargs: dict[str, Any]  # a model id replaced by its file
    side: str | None  # the "@side" suffix, if any


def check_spec(spec: str, *, bot_timeout: float, catalog: Catalog) -> CheckedSpec:
    """``spec`` checked (module docstring); :class:`SpecError` naming the problem otherwise."""
    from agents.base import agent_kinds
    from agents.specs import parse_agent_spec, split_side
    from fof_env.core.errors import OptionError

    try:
        kind, kwargs = parse_agent_spec(spec)
    except OptionError as exc:
        raise SpecError(str(exc)) from None
    if kind not in agent_kinds():
        raise SpecError(f"bot {spec!r}: unknown agent kind {kind!r}; kinds: {', '.join(agent_kinds())}")
    checked: dict[str, Any] = {}
    for key, value in kwargs.items():
        if key == "path":
            try:
                checked[key] = str(catalog.model_path(value))
            except CatalogError as exc:
                raise SpecError(f"bot {spec!r}: {exc}") from None
            continue
        checked[key] = _number(spec, key, value, bot_timeout) if _is_number(value) else value
    return CheckedSpec(spec, kind, checked, split_side(spec)[1])


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _number(spec: str, key: str, value: int | float, bot_timeout: float) -> int | float:
    try:
        finite = math.isfinite(value)
    except OverflowError:
        finite = False
    if not finite:
        raise SpecError(f"bot {spec!r}: {key} must be a finite number, got {value!r:.40}")
    if key in limits.MAX_SPEC_INTS:
        low, high = limits.MAX_SPEC_INTS[key]
        if not isinstance(value, int):
            raise SpecError(f"bot {spec!r}: {key} must be a whole number, got {value!r:.40}")
        if not low <= value <= high:
            raise SpecError(f"bot {spec!r}: {key} must be {low}..{high}, got {value!r:.40}"
                            + (f" (at most {limits.MAX_SIMULATIONS} simulations per decision)" if key == "simulations" else ""))
        return value
    if key == "time_budget":
        cap = min(limits.MAX_TIME_BUDGET_S, bot_timeout)
        if not 0 < value <= cap:
            raise SpecError(f"bot {spec!r}: time_budget must be over 0 and at most {cap:g} s "
                            f"(the engine's bot time limit), got {value!r:.40}")
        return value
    if key in limits.MAX_SPEC_FLOATS:
        low, high = limits.MAX_SPEC_FLOATS[key]
        if not low <= value <= high:
            raise SpecError(f"bot {spec!r}: {key} must be {low:g}..{high:g}, got {value!r:.40}")
        return value
    if abs(value) > limits.MAX_SPEC_NUMBER:
        raise SpecError(f"bot {spec!r}: {key} must be at most {limits.MAX_SPEC_NUMBER:g} in size, got {value!r:.40}")
    return value
