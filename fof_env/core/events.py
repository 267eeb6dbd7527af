"""Typed event log entries shared by all rulesets.

Each ruleset defines its own frozen dataclasses deriving from :class:`Event`; the
log is append-only and the entries are immutable, so clones share them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of every event. ``kind`` is the class name in snake case."""

    @property
    def kind(self) -> str:
        name = type(self).__name__
        return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    """One die roll: ``sides`` faces, ``value`` rolled, ``purpose`` in words."""

    sides: int
    value: int
    purpose: str


class EventLog:
    """A state's event log: to its readers a list of :class:`Event` (``len``, indexing, slices,
    iteration, ``==``); to the engine an append-only log.

    ``append(event)`` takes a built event; ``add(cls, args)`` takes its class and arguments and builds
    ``cls(*args)`` only when the entry is first read (then keeps it), so play that nobody watches
    (search, training) never pays for the objects. Read, both give the same events.
    """

    __slots__ = ("_entries", "_own")

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._entries: list[Any] = list(events)
        self._own = True  # False while the list is shared with a copy: copied on the next write

    def append(self, event: Event) -> None:
        if not self._own:
            self._entries = self._entries[:]
            self._own = True
        self._entries.append(event)

    def add(self, cls: type[Event], args: tuple) -> None:
        """Log ``cls(*args)``, built when first read."""
        if not self._own:
            self._entries = self._entries[:]
            self._own = True
        self._entries.append((cls, args))

    def copy(self) -> EventLog:
        """A log with the same entries, sharing them until either side writes (a clone for search
        costs no copy of a long log)."""
        other = EventLog.__new__(EventLog)
        other._entries = self._entries
        other._own = self._own = False
        return other

    def _build(self, i: int) -> Event:
        entry = self._entries[i]
        if type(entry) is tuple:
            cls, args = entry
            entry = self._entries[i] = cls(*args)  # a shared list too: the same event, built
        return entry

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._build(i) for i in range(*index.indices(len(self._entries)))]
        n = len(self._entries)
        if not -n <= index < n:
            raise IndexError("event index out of range")
        return self._build(index % n)

    def __iter__(self) -> Iterator[Event]:
        for i in range(len(self._entries)):
            yield self._build(i)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (EventLog, list)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"


class DiscardedEvents(EventLog):
    """A log that keeps nothing: for states whose events nobody reads (a search's worlds). Empty to
    readers; its copies are new empty logs of the same kind."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__()

    def append(self, event: Event) -> None:
        pass

    def add(self, cls: type[Event], args: tuple) -> None:
        pass

    def copy(self) -> DiscardedEvents:
        return DiscardedEvents()


Sequence.register(EventLog)
