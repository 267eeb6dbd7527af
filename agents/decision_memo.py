"""What a scripted bot remembers while it makes one decision.

A heuristic bot scores many candidate moves against the same position: the threat to a unit at a
point, a unit's best shot from it, the enemies it can see. Within one ``act`` the state does not
change, so a value asked for again is the value computed before. :class:`DecisionMemo` keeps those
values for the decision in hand and forgets them when it is made, so nothing computed on one
position is ever read on another::

    memo = DecisionMemo()
    with memo.deciding():
        threat = memo.get(("threat", unit, point), lambda: slow_threat(state, unit, point))

Outside ``deciding()`` :meth:`DecisionMemo.get` computes every time and remembers nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")


class DecisionMemo:
    """Values keyed by hashable tuples, remembered only inside :meth:`deciding`."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[Hashable, object] | None = None

    @contextmanager
    def deciding(self) -> Iterator[None]:
        """Remember values until the block ends (also when it raises); blocks do not nest."""
        self._values = {}
        try:
            yield
        finally:
            self._values = None

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value remembered under ``key`` in this decision, else ``compute()`` (remembered)."""
        values = self._values
        if values is None:
            return compute()
        if key in values:
            return values[key]  # type: ignore[return-value]
        got = values[key] = compute()
        return got
