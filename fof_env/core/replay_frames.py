"""A finished game's replay for the board: every position as each side saw it, and as an umpire.

:func:`replay_frames` takes a game record (``fof-record/2``, checked by
:meth:`fof_env.core.game.State.from_json`) and re-simulates it with its own rolls, as
:func:`fof_env.app.session.replay_log` does, taking at every step (0 = the start, ``k`` = after
``k`` decisions) one frame per viewer. The frames come from the one filtering layer only
(:mod:`fof_env.core.view`): a side's frame is ``view_for(game).view(state, side)`` and its log is
that side's :class:`~fof_env.core.view.EventLog` entries (what it was told, as it happened); the
umpire's frame is :meth:`~fof_env.core.view.RulesetView.umpire_view` with every event and decision.

No peeking at unfinished games: the umpire viewer exists only when the record's game is over
(``finished``); a record that stops before the end replays as each side saw it and nothing more.
A front end that holds a game in progress must not make a record of it to replay (the protocol
sends records only once the game is over).

The result (``format`` ``"fof-replay/1"``) is JSON data:

* ``game``, ``title``, ``sides``, ``colours``, ``victory``, ``finished``, ``result``, ``decisions`` (steps - 1),
  ``viewers`` (``"umpire"`` first when finished, then the sides), ``turns`` (``[turn, first step]``);
* ``static``: the board's parts that never change (the hexes, or the table's size and features);
* ``by_viewer[v]``: ``frames`` (one per step: ``turn``, ``decisions``, ``terminal``, ``result``,
  ``score``, ``score_text``, ``decision``, ``board`` less its static parts, ``events_total`` and
  ``played_total`` (how much of the viewer's log belongs to it) and ``last``: what the step's
  decision pointed at and the moves it caused, as the viewer may know them), ``events`` and
  ``played`` (the viewer's whole log; a side's leaves out what was hidden from it; each decision
  carries its ``step``: the frame after it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fof_env.core.dice import ScriptedDice
from fof_env.core.errors import OptionError, PositionError
from fof_env.core.registry import make_game
from fof_env.core.view import UMPIRE, EventLog, event_dict, view_for

REPLAY_FORMAT = "fof-replay/1"
_STATIC_KEYS = ("hexes", "columns", "hex_size", "orientation", "turns", "width", "height", "spacing", "features",
                "edges")
_FRAME_KEYS = ("turn", "decisions", "terminal", "result", "score", "score_text", "decision")
MAX_REPLAY_DECISIONS = 6000  # the longest game's own cap (FUBAR's max_decisions)


class ReplayTooLong(ValueError):
    """A record with more decisions than a replay takes (:data:`MAX_REPLAY_DECISIONS`, or its game's own
    ``max_decisions``)."""


def replay_frames(record: str | bytes | dict[str, Any], describe: Callable[[Any], str | None] | None = None,
                  *, limit: int = MAX_REPLAY_DECISIONS) -> dict[str, Any]:
    """The replay of ``record`` (see the module docstring); ``describe`` gives events their text
    (:func:`fof_env.core.narration.describe_event`). Raises :class:`~fof_env.core.errors.PositionError` for a record
    that does not replay and :class:`ReplayTooLong` past ``limit`` decisions."""
    from fof_env.core.game import State, record_data

    data = record_data(record)
    if len(data["actions"]) > limit:
        raise ReplayTooLong(f"the record has {len(data['actions'])} decisions; a replay takes at most {limit}")
    try:
        cap = make_game(data["game"], **data["options"]).max_decisions
    except (OptionError, TypeError) as exc:
        raise PositionError(f"game record: cannot build its game: {exc}") from None
    if len(data["actions"]) > cap:
        raise ReplayTooLong(f"the record has {len(data['actions'])} decisions; its game ends within {cap}")
    final = State.from_json(data)  # checks the whole record (actions, rolls, final block)
    game = final.game
    rview = view_for(game.name)
    names = list(game.player_names)
    finished = bool(final.is_terminal)
    viewers = ([UMPIRE] if finished else []) + names
    state = game.state_from_position(data["start"], dice=ScriptedDice(list(data["rolls"])))
    log = EventLog(state, describe)
    umpire_events: list[dict[str, Any]] = []
    umpire_played: list[dict[str, Any]] = []
    seen = 0

    def take_umpire_events() -> None:
        nonlocal seen
        for i, event in enumerate(state.events[seen:], start=seen):
            umpire_events.append(event_dict(event, i, describe))
        seen = len(state.events)

    take_umpire_events()
    first = rview.view(state, 0, lean=True)
    static = {k: first["board"][k] for k in _STATIC_KEYS if k in first["board"]}
    frames: dict[str, list[dict[str, Any]]] = {v: [] for v in viewers}
    turns: list[list[int]] = []
    steps: list[list[int]] = [[], []]  # per side: the step of each decision it was told of

    def snapshot(step: int, pointers: dict[str, Any] | None, moved: list[list[dict[str, Any]]]) -> None:
        turn = rview.turn(state)
        if turn is not None and (not turns or turns[-1][0] != turn):
            turns.append([turn, step])
        for v in viewers:
            if v == UMPIRE:
                view = rview.umpire_view(state, lean=True)
                events_total, played_total = len(umpire_events), len(umpire_played)
                known = pointers
                moves = [m for ms in moved for m in ms]
            else:
                p = names.index(v)
                view = rview.view(state, p, lean=True)
                events_total, played_total = len(log.events[p]), len(log.played[p])
                told = bool(steps[p]) and steps[p][-1] == step  # the side was told of this step's decision
                known = pointers if told else None
                moves = moved[p]
            frame = {k: view[k] for k in _FRAME_KEYS}
            frame["board"] = {k: x for k, x in view["board"].items() if k not in static}
            frame.update(events_total=events_total, played_total=played_total, last=_last(known, moves))
            frames[v].append(frame)

    snapshot(0, None, [[], []])
    for step, text in enumerate(data["actions"], start=1):
        action = state.str_to_action(text)
        pointers = {"side": names[state.current_player], "kind": state.decision.kind, "action": text,
                    **rview.annotate(state, action, text)}
        umpire_played.append({"index": step - 1, "side": pointers["side"], "kind": pointers["kind"], "action": text,
                              "by": "record", "events_before": len(umpire_events), "turn": rview.turn(state),
                              "step": step})
        marks = [len(log.events[p]) for p in (0, 1)]
        told = [len(log.played[p]) for p in (0, 1)]
        log.before(state, action, "record")
        for p in (0, 1):
            steps[p] += [step] * (len(log.played[p]) - told[p])
        state.apply(action)
        log.after(state)
        take_umpire_events()
        moved = [_moves(log.events[p][marks[p]:], state) for p in (0, 1)]
        snapshot(step, pointers, moved)
    return {
        "format": REPLAY_FORMAT,
        "game": game.name,
        "title": rview.title(state),
        "sides": names,
        "colours": rview.colours(state),
        "victory": rview.victory(state),
        "finished": finished,
        "result": final.result(),
        "decisions": len(data["actions"]),
        "viewers": viewers,
        "turns": turns,
        "static": static,
        "by_viewer": {
            v: {
                "frames": frames[v],
                "events": umpire_events if v == UMPIRE else log.events[names.index(v)],
                "played": umpire_played if v == UMPIRE else [
                    {**e.to_dict(), "step": k} for e, k in zip(log.played[names.index(v)], steps[names.index(v)], strict=True)
                ],
            }
            for v in viewers
        },
    }


def _moves(events: list[dict[str, Any]], state) -> list[dict[str, Any]]:
    """The moves among a viewer's new events: ``unit``, ``from`` and ``to`` (hex or point names)."""
    out = []
    for e in events:
        if e.get("kind") in ("unit_moved", "unit_retreated", "unit_advanced") and "destination" in e:
            out.append({"unit": e.get("unit"), "from": e.get("origin"), "to": e.get("destination")})
    return out


def _last(pointers: dict[str, Any] | None, moves: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The step's highlight: the decision's pointers (when the viewer was told of it) and its moves."""
    if pointers is None and not moves:
        return None
    out: dict[str, Any] = dict(pointers or {})
    out["moves"] = moves
    return out
