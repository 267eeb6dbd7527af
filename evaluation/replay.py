"""Re-simulate a game record (``fof-record/2``, from ``state.to_json()``) and check it.

A record holds the game, its options, the start position (with the dice seed),
the actions as canonical strings, the dice rolled and the final dice state
(:meth:`fof_env.core.game.State.to_json`). :func:`replay` rebuilds the game with
the record's options, starts from ``game.new_initial_state(seed)`` (or, for a
record that starts elsewhere, from its start position with its seed), applies the
recorded actions one by one through the validating ``state.apply``, and optionally
narrates the game (the text map at the start, every ``every`` decisions and at the
end; each action and the events it caused, as ``fof play`` prints them) and calls
``on_frame(state, decision)`` at the same points (for PNG/GIF frames).

Verification: the re-simulated final state must equal the recorded one exactly:
its own record (``to_json``: options, start, actions, every die rolled, the final
dice state) must equal the given one, and the record's ``final`` block (decisions,
the final state's :meth:`~fof_env.core.game.State.digest`, the result) must match
it, so an edited record (options, actions) or a truncated one is reported, never
"verified". A ``fof-record/1`` record has no ``final`` block: it replays, but is not
verified. A
record without a dice seed (a game played with unseeded dice) cannot be
re-simulated from a seed: it is replayed with its recorded rolls instead, and the
result says so.

An action that is not legal where the record has it, a record that runs out of
rolls, or a malformed record raises :class:`ReplayError` (a ``ValueError``) with
the action's number, text, the decision and the legal actions.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from fof_env.core.dice import ScriptedDice, dice_from_json
from fof_env.core.errors import IllegalActionError, OptionError, PositionError
from fof_env.core.game import State, final_problems, record_data
from fof_env.core.registry import make_game


class ReplayError(ValueError):
    """A record that cannot be replayed (illegal action, malformed, out of dice rolls)."""


@dataclass
class ReplayResult:
    """What :func:`replay` found."""

    state: State  # the re-simulated final state
    decisions: int
    seeded: bool  # re-simulated from the dice seed (False: from the recorded rolls)
    problems: list[str] = field(default_factory=list)  # empty: the final state equals the record's

    @property
    def verified(self) -> bool:
        return not self.problems

    def result_line(self) -> str:
        """``"Result: soviet wins; score {...}; 83 decisions"`` (or the game still running)."""
        state = self.state
        names = state.game.player_names
        if not state.is_terminal:
            outcome = "game not finished (the record stops before the end)"
        else:
            outcome = "draw" if state.winner is None else f"{names[state.winner]} wins"
        return f"Result: {outcome}; score {getattr(state, 'score', None)}; {self.decisions} decisions"


def load_record(source: str | Path | dict[str, Any]) -> dict[str, Any]:
    """A record as a dict, from a dict, a JSON string or a file path, with every field of the
    right type; :class:`ReplayError` (one line) if it is not one (binary files included)."""
    if not isinstance(source, dict):
        text = str(source)
        if isinstance(source, Path) or not text.lstrip().startswith("{"):
            try:
                source = Path(source).read_bytes()
            except OSError as exc:
                raise ReplayError(f"cannot read record {source}: {exc.strerror or exc}") from None
    try:
        return record_data(source)
    except PositionError as exc:
        raise ReplayError(str(exc)) from None


def _initial_state(data: dict[str, Any]) -> tuple[State, bool]:
    """The record's start, dice seeded from its seed (or scripted from its rolls when it has none)."""
    try:
        game = make_game(data["game"], **data.get("options", {}))
    except (OptionError, TypeError) as exc:
        raise ReplayError(f"cannot build the record's game: {exc}") from None
    start = data["start"]
    seed = start.get("seed")
    # With a seed the dice (set-up rolls included) are re-simulated from it; without, scripted.
    dice = None if seed is not None else ScriptedDice(data["rolls"])
    try:
        state = game.state_from_position(start, dice=dice)
    except (PositionError, ValueError, RuntimeError) as exc:
        raise ReplayError(f"cannot set up the record's start position: {exc}") from None
    return state, seed is not None


def verify(state: State, data: dict[str, Any], *, seeded: bool = True) -> list[str]:
    """What differs between the re-simulated ``state`` and the record ``data`` (empty: nothing).

    The record's ``final`` block (decisions, digest and result of the final state) must match
    the re-simulated state: an edited record (options, actions, rolls) or a truncated one does
    not. A ``fof-record/1`` record has no such block, and says so.
    """
    problems = []
    mine = json.loads(state.to_json())
    what = {
        "game": "the game",
        "options": "the game options",
        "start": "the start position",
        "actions": "the actions",
        "rolls": "the dice rolled",
        "dice": "the final dice state",
    }
    for key, words in what.items():
        if key == "dice" and not seeded:
            continue
        if mine.get(key) != data.get(key):
            problems.append(f"{words}: not as recorded")
    if data.get("final") is None:
        problems.append(f"the record ({data.get('format')}) holds no final digest to check the game against")
    else:
        problems.extend(final_problems(state, data["final"]))
    return problems


def replay(
    source: str | Path | dict[str, Any],
    *,
    every: int = 0,
    out: TextIO | None = None,
    on_frame: Callable[[State, int], None] | None = None,
    on_decision: Callable[[State, str], None] | None = None,
) -> ReplayResult:
    """Re-simulate the record ``source`` (dict, JSON text or path) and verify it (module docstring).

    Args:
        every: also show the map / take a frame after every ``every`` decisions (0: only
            at the start and the end).
        out: narrate to this stream (None: silent).
        on_frame: called with (state, decisions so far) at the start, every ``every``
            decisions and at the end.
        on_decision: called with (state, the recorded action's text) before each recorded
            action is applied (the state must not be changed).
    """
    from fof_env.core.narration import describe_event

    data = load_record(source)
    state, seeded = _initial_state(data)
    names = state.game.player_names

    def say(text: str) -> None:
        if out is not None:
            print(text, file=out)

    def show(decisions: int, label: str) -> None:
        if out is not None:
            say(label)
            say(str(state))
        if on_frame is not None:
            on_frame(state, decisions)

    shown = 0

    def narrate() -> None:
        nonlocal shown
        for event in state.events[shown:]:
            line = describe_event(event)
            if line is not None:
                say(line)
        shown = len(state.events)

    say(
        f"Replay of {data['game']} {state.game.options}, dice seed {data['start'].get('seed')}, "
        f"{len(data['actions'])} decisions"
        + ("" if seeded else " (no dice seed: re-simulated with the recorded rolls)")
    )
    show(0, "--- start ---")
    narrate()
    actions = data["actions"]
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise ReplayError(f"record action {i} is {text!r}, not an action string")
        if state.is_terminal:
            raise ReplayError(f"record action {i} ({text!r}): the game was already over")
        player, kind = state.current_player, state.decision.kind
        if on_decision is not None:
            on_decision(state, text)
        try:
            state.apply(text)
        except IllegalActionError as exc:
            raise ReplayError(
                f"record action {i} ({text!r}, {names[player]} {kind}) is not legal here: {exc}"
            ) from exc
        except RuntimeError as exc:  # scripted dice ran out
            raise ReplayError(f"record action {i} ({text!r}) cannot be replayed: {exc}") from exc
        say(f"  {i + 1:4d} [{names[player]}] {kind}: {text}")
        narrate()
        if every and (i + 1) % every == 0 and i + 1 < len(actions):
            show(i + 1, f"--- after decision {i + 1} ---")
    decisions = len(actions)
    if not seeded:  # the final dice state is taken from the record
        state.dice = dice_from_json(data["dice"])
    show(decisions, "--- final ---")
    result = ReplayResult(
        state=state, decisions=decisions, seeded=seeded, problems=verify(state, data, seeded=seeded)
    )
    say(result.result_line())
    return result
