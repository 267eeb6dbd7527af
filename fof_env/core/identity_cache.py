"""Caches keyed by an object's identity, for objects whose hash costs more than the work it would save."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def by_identity(limit: int) -> Callable[[Callable[[Any], T]], Callable[[Any], T]]:
    """Decorator: ``fn(obj)`` computed once per live object, found by ``id(obj)`` and checked to be the same
    object (an id may be reused once its object is gone); at most ``limit`` entries, then cleared.

    The cache holds each object it has seen, so use it for long-lived ones (scenarios, layouts, tables).
    """

    def wrap(fn: Callable[[Any], T]) -> Callable[[Any], T]:
        cache: dict[int, tuple[Any, T]] = {}

        def cached(obj: Any) -> T:
            got = cache.get(id(obj))
            if got is None or got[0] is not obj:
                if len(cache) >= limit:
                    cache.clear()
                got = cache[id(obj)] = (obj, fn(obj))
            return got[1]

        cached.__doc__ = fn.__doc__
        cached.__name__ = getattr(fn, "__name__", "cached")
        return cached

    return wrap
