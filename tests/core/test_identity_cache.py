"""fof_env.core.identity_cache: one computation per live object, by identity, within a size limit."""

from __future__ import annotations

from fof_env.core.identity_cache import by_identity


def test_computes_once_per_object_and_tells_equal_objects_apart():
    calls = []

    @by_identity(2)
    def size(obj):
        """The object's length."""
        calls.append(obj)
        return len(obj)

    a, b = [1, 2], [1, 2]  # equal, not the same object
    assert (size(a), size(a), size(b)) == (2, 2, 2)
    assert [c is a for c in calls] == [True, False] and calls[1] is b
    c = [1, 2, 3]
    assert size(c) == 3  # a third object: the cache of two is cleared first
    assert size(a) == 2 and len(calls) == 4
    assert size.__doc__ == "The object's length." and size.__name__ == "size"
