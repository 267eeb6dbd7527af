"""JSON from outside (requests, scenario files, records) read as plain, bounded data.

Python's ``json`` module accepts ``NaN``, ``Infinity`` and ``1e999`` (a float that is infinite),
nests as deep as the interpreter's recursion allows, and refuses integers of more than 4,300
digits with a ``ValueError`` that is not a ``JSONDecodeError``. :func:`loads` reads JSON the way
the rest of the package expects it: finite numbers only, at most ``max_depth`` levels, every
problem one :class:`BadJSON` line; :func:`problem` checks a value already parsed;
:func:`field_path` names a field of it in an error message.
"""

from __future__ import annotations

import json
import math
from typing import Any

DEFAULT_MAX_DEPTH = 64


class BadJSON(ValueError):
    """Text that is not plain JSON (one line saying why)."""


def _no_constant(name: str) -> Any:
    raise BadJSON(f"{name} is not a number JSON allows (numbers must be finite)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON(f"the number {text[:40]} is too large (numbers must be finite)")
    return value


def loads(text: str | bytes, max_depth: int = DEFAULT_MAX_DEPTH) -> Any:
    """``text`` parsed as JSON with finite numbers only and at most ``max_depth`` nested arrays and
    objects; :class:`BadJSON` (one line saying why, for the caller to prefix) otherwise."""
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except BadJSON:
        raise
    except json.JSONDecodeError as exc:
        raise BadJSON(str(exc)) from None
    except UnicodeDecodeError:
        raise BadJSON("the text is not UTF-8") from None
    except RecursionError:
        raise BadJSON(f"nested more than {max_depth} levels") from None
    except ValueError as exc:  # an integer of more digits than int() reads
        raise BadJSON(str(exc)[:120]) from None
    found = problem(value, max_depth)
    if found is not None:
        raise BadJSON(found)
    return value


def problem(value: Any, max_depth: int = DEFAULT_MAX_DEPTH) -> str | None:
    """Why ``value`` (parsed JSON) is not plain bounded data: a float that is not finite, or arrays
    and objects nested more than ``max_depth`` levels; None when it is fine."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, float):
            if not math.isfinite(item):
                return f"the number {item} is not finite"
        elif isinstance(item, (dict, list)):
            if depth > max_depth:
                return f"nested more than {max_depth} levels"
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return None


def field_path(parts, root: str = "(the file)") -> str:
    """A field's path inside parsed JSON as error messages name it (``units[2].figures[0].support``)
    from its keys and indices; ``root`` names the whole document (no parts)."""
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or root
