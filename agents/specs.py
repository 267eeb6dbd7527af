"""Agent specs: ``"kind[:args][@side]"`` read into an agent (:func:`build_agent`).

A spec names an agent kind (:func:`agents.base.agent_kinds`) and its keyword arguments:
``"mcts:simulations=128,batch=8"``, ``"ppo:runs/a/model.safetensors"`` (a bare value is the kind's
positional keyword), ``"heuristic@taliban"`` (a trailing ``@side`` says which side it may play).
This is the factory the environments use for opponents named by a spec
(:func:`fof_env.envs.opponents.register_agent_factory`), and the one every command line reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from agents.base import Agent, make_agent, positional_keyword
from fof_env.core.errors import OptionError
from fof_env.core.options import parse_assignments, parse_value

AgentSpec = str | Callable[..., Agent]

_SIDE_SUFFIX = re.compile(r"@([A-Za-z][A-Za-z0-9_-]*)$")


def split_side(spec: str) -> tuple[str, str | None]:
    """``"kind[:args]@side"`` -> ``("kind[:args]", "side")``; ``(spec, None)`` without the suffix.

    The suffix is a trailing ``@`` and a name of letters, digits, ``_`` and ``-``
    (so a model path such as ``ppo:runs/a@b/model.safetensors`` keeps its ``@``).

    >>> split_side("mcts:simulations=128@usmc")
    ('mcts:simulations=128', 'usmc')
    >>> split_side("heuristic")
    ('heuristic', None)
    """
    match = _SIDE_SUFFIX.search(spec)
    if match is None:
        return spec, None
    return spec[: match.start()], match.group(1)


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"kind[:args][@side]"`` -> ``(kind, keyword arguments)`` (see the module docstring);
    a trailing ``@side`` is not part of either (:func:`split_side`; :func:`build_agent` applies it).

    ``args`` with an ``=`` are ``key=value,key=value``; without one, the whole
    text after the first ``:`` is the value of the kind's positional keyword (so
    ``"ppo:C:/models/a,b.zip"`` keeps its colon and comma), read as a number or
    boolean where it looks like one, except for a ``...path`` keyword (kept as text). Raises
    :class:`~fof_env.core.errors.OptionError` (a ``ValueError``) for a bare value
    given to a kind that takes no positional argument, or an empty kind.

    >>> parse_agent_spec("mcts:200")
    ('mcts', {'simulations': 200})
    >>> parse_agent_spec("heuristic:temperature=0.5,greedy=true")
    ('heuristic', {'temperature': 0.5, 'greedy': True})
    """
    kind, colon, args = split_side(spec)[0].partition(":")
    kind = kind.strip()
    if not kind:
        raise OptionError(f"agent spec {spec!r}: no agent kind before ':'")
    if not colon or not args.strip():
        return kind, {}
    if "=" not in args:
        keyword = positional_keyword(kind)
        if keyword is None:
            raise OptionError(
                f"agent spec {spec!r}: agent kind {kind!r} takes no bare argument; "
                f"write {kind}:key=value[,key=value]"
            )
        value = args.strip()
        # a path stays text ("ppo:2024" is a file named 2024); other values are read as numbers/booleans
        return kind, {keyword: value if keyword.endswith("path") else parse_value(value)}
    return kind, parse_assignments(args.split(","), f"agent spec {spec!r}")


def build_agent(spec: AgentSpec, game, player: int, seed: int | None) -> Agent:
    """An agent from a spec (see the module docstring) for ``player`` of ``game``.

    Raises :class:`~fof_env.core.errors.OptionError` (a ``ValueError``) for a spec
    whose ``@side`` is not a side of the game or not ``player``'s side.
    """
    if callable(spec):
        return spec(game, player, seed=seed)
    side = split_side(spec)[1]
    if side is not None:
        plays = game.side_in_any_case(side)
        if plays is None:
            known = ", ".join(game.player_names)
            raise OptionError(f"agent spec {spec!r}: {side!r} is not a side of {game.name} (its sides: {known})")
        if plays != player:
            raise OptionError(f"agent spec {spec!r} plays {side} only, not {game.player_names[player]}")
    kind, kwargs = parse_agent_spec(spec)
    return make_agent(kind, game, player, seed=seed, **kwargs)
