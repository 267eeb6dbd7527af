"""Events in words: :func:`describe_event` gives the one line ``fof play``, replays and views print.

An event is narrated by the ruleset that defines its class (its :class:`~fof_env.core.ruleset.Ruleset`'s
``narration``: event kind -> ``text(fields) -> str | None``), else by the words shared by every
ruleset here (a move, a new turn, a note), else as ``kind: field=value, ...``. Dice rolls are not
narrated (None): the result that used them shows them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

Narration = Mapping[str, Callable[[dict[str, Any]], str | None]]


def fmt(value: Any) -> str:
    """A value as a person reads it: lists as ``[a, b]``, everything else as ``str``."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _moved(d: dict[str, Any]) -> str:
    how = " (rapid)" if d.get("rapid") else ""
    if d.get("how") == "deploy":  # a set-up placement
        return f"  {d['unit']} sets up at {d['destination']}"
    if d.get("how") and d["how"] not in ("vehicle",):  # walk, run, duck & weave ...
        how = f" ({d['how'].replace('_', ' ')})"
    if d["origin"] == "off table":  # a set-up or an arrival from a table edge
        return f"  {d['unit']} arrives at {d['destination']}{how}"
    if d["destination"] == "off table":
        return f"  {d['unit']} leaves the table from {d['origin']}{how}"
    return f"  {d['unit']} moves {d['origin']} -> {d['destination']}{how}"


SHARED: Narration = {
    "dice_rolled": lambda d: None,
    "turn_started": lambda d: f"=== Turn {d['turn']}: initiative {d['initiative']} ===",
    "unit_moved": _moved,
    "note": lambda d: f"  {d['text']}",
}


def describe_event(event) -> str | None:
    """One line of text for ``event``; None for events not worth printing (module docstring)."""
    d = event.to_dict()
    kind = d["kind"]
    text = _narration(type(event).__module__).get(kind) or SHARED.get(kind)
    if text is not None:
        return text(d)
    rest = ", ".join(f"{k}={fmt(v)}" for k, v in d.items() if k != "kind")
    return f"  {kind}: {rest}"


@cache
def _narration(module: str) -> Narration:
    """The narration of the ruleset whose package holds ``module`` (empty for none)."""
    from fof_env.core.registry import rulesets
    from fof_env.core.ruleset import resolve

    for ruleset in rulesets():
        if module == ruleset.package or module.startswith(ruleset.package + "."):
            return resolve(ruleset.narration) or {}
    return {}
