"""Views: everything one side may know, as plain JSON data. The one filtering layer.

``view(state, player)`` is what every front end shows a side: the CLI, ``fof engine``
(JSON lines on stdio), ``fof serve`` (WebSocket) and the browser board all render views;
none of them reads a state directly. A view never holds what ``player`` may not know: the
other side's hidden units, the other side's decision details, future dice.

A ruleset supplies its own :class:`RulesetView` subclass (its :class:`~fof_env.core.ruleset.Ruleset`'s
``view``; :func:`register_view` sets one for a single game); a game without one gets this module's generic view: the decision, the legal actions with labels,
the score and the text picture of that player's view (``state.view_text(player)`` where the
state has it, else ``str(state)``, so a ruleset with hidden information must supply one of
the two). The tabletop rulesets share :func:`table_board` (units on the points of a
:class:`fof_env.core.tabletop.Table`, features as rects and segments), so the browser draws
any of them.

A view (``VIEW_FORMAT``) is a dict with: ``format``, ``game``, ``options``, ``sides``,
``side``/``player`` (whose view), ``turn``, ``decisions`` (decisions played so far),
``terminal``, ``result`` (None while running), ``outcome`` (None while running: ``termination``,
``winner``, ``returns``, :class:`~fof_env.core.outcome.Outcome`), ``score``, ``decision`` (None at the end:
``kind``, ``side``, ``player``, ``reaction`` and, for the owner only, ``context``),
``your_turn``, ``legal`` (the owner's legal actions, canonical strings with labels and
what they point at: ``hex``, ``unit``, ``point``/``x``/``y``, ``preview``; empty for the
other side), ``board`` (ruleset-specific, ``type`` ``"hexmap"``, ``"table"`` or
``"text"``) and ``text`` (the text picture), ``colours`` (side -> ``#rrggbb``, the scenario's), ``victory`` (the
victory conditions in words) and ``score_text`` (the score in words). ``docs/protocol.md``
documents every field;
``fof_env/app/schemas/protocol.schema.json`` (``$defs/view``) is its JSON Schema.

Events reach a side through :class:`EventLog`: it decides, when events happen, which of
them each side may see (a decision secret from a side hides its action and its effects;
an event naming a unit hidden from a side stays hidden from it), exactly as ``fof play``
narrated them before views existed. Each side's events and decisions are numbered in its own
list (0, 1, 2 ...), so their numbers count only what that side was shown, never what was kept
from it; a session's view counts ``decisions`` the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fof_env.core.ruleset import resolve

VIEW_FORMAT = "fof-view/1"
UMPIRE = "umpire"  # the viewer of a replay who sees both sides (finished games only)
SPECTATOR = "spectator"  # a watcher of a game in progress: what both sides may see, no more

# game name -> a RulesetView subclass or "module:Class" set by register_view (wins over the ruleset's).
_VIEWS: dict[str, str | type[RulesetView]] = {}
_CACHE: dict[str, RulesetView] = {}


def register_view(game_name: str, target: str | type[RulesetView]) -> None:
    """Make ``target`` (a :class:`RulesetView` subclass or ``"module:Class"``) the view of ``game_name``."""
    _VIEWS[game_name] = target
    _CACHE.pop(game_name, None)


def view_for(game_name: str) -> RulesetView:
    """The view of ``game_name``: one registered for it, else its ruleset's, else the generic :class:`RulesetView`."""
    cached = _CACHE.get(game_name)
    if cached is not None:
        return cached
    target = _VIEWS.get(game_name)
    if target is None:
        from fof_env.core.registry import ruleset_of

        ruleset = ruleset_of(game_name)
        target = (ruleset.view if ruleset is not None else None) or RulesetView
    made = _CACHE[game_name] = resolve(target)()
    return made


def view(state, player: int, *, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Everything ``player`` (0/1) may know of ``state`` as JSON-ready data (module docstring).

    ``events``: the entries of an :class:`EventLog` to include (``"events"`` key) when given.
    """
    return view_for(state.game.name).view(state, player, events=events)


@dataclass(frozen=True)
class Played:
    """One decision as a side may see it: its number among the decisions that side was shown, who
    decided what, and how."""

    index: int
    side: str
    kind: str
    action: str
    by: str  # "human", "bot" or "auto" (an automatic pass)
    events_before: int = 0  # this side's events logged before the decision (its place in the log)
    turn: int | None = None  # the game turn it was made in

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "side": self.side, "kind": self.kind, "action": self.action, "by": self.by,
                "events_before": self.events_before, "turn": self.turn}


class RulesetView:
    """The generic view of any game; rulesets override the hooks they need.

    Hooks (all pure functions of the state):

    * :meth:`board` -- the map/table as ``player`` may know it (default ``{"type": "text"}``);
    * :meth:`text` -- the text picture of ``player``'s view;
    * :meth:`label` / :meth:`annotate` -- a human label and pointers (``hex``, ``unit``,
      ``point``) of a legal action; :meth:`previews` -- extra numbers per action (e.g. the
      expected casualties of a fire target);
    * :meth:`context` -- the decision context as the owner may see it;
    * :meth:`event_visible` -- whether an event just logged may reach ``player``;
    * :meth:`secret_from` -- whether the current decision, its action and its effects are
      secret from ``player``; :meth:`action_visible` -- whether an action of the other side
      may be shown to ``player`` (default: unless the decision is secret);
    * :meth:`knowledge` -- what ``player`` knows of the things it does not decide (undo against
      a bot compares it before and after);
    * :meth:`title` -- the game's name for people; :meth:`colours` -- each side's colour (``#rrggbb``); :meth:`victory` -- the victory
      conditions in words; :meth:`score_text` -- the score in words;
    * :meth:`umpire_board` -- the board as an umpire sees it (for replays of finished games);
    * :meth:`public_board` / :meth:`public_text` -- the board and text picture of what both sides
      may see (a spectator's, :meth:`public_view`);
    * :attr:`REACTION_KINDS` -- decisions that answer the other side (dialogs, "pass all").
    """

    REACTION_KINDS: frozenset[str] = frozenset()

    # ---- hooks ---------------------------------------------------------------------------
    def board(self, state, player: int) -> dict[str, Any]:
        return {"type": "text"}

    def text(self, state, player: int) -> str:
        picture = getattr(state, "view_text", None)
        return picture(player) if callable(picture) else str(state)

    def label(self, state, action: int, text: str) -> str:
        return text

    def annotate(self, state, action: int, text: str) -> dict[str, Any]:
        return {}

    def previews(self, state, actions: list[int]) -> dict[int, dict[str, Any]]:
        return {}

    def context(self, state, player: int) -> dict[str, Any]:
        return _plain(dict(state.decision.context))

    def event_visible(self, state, event, player: int) -> bool:
        hidden = getattr(state, "event_hidden_from", None)
        return not (callable(hidden) and hidden(event, player))

    def secret_from(self, state, player: int) -> bool:
        secret = getattr(state, "is_secret_from", None)
        return bool(callable(secret) and secret(player))

    def action_visible(self, state, player: int, action: str | None = None) -> bool:
        """Whether the decision about to be made at ``state`` (and its ``action``, when given)
        may be shown to ``player``."""
        return state.current_player == player or not self.secret_from(state, player)

    def knowledge(self, state, player: int) -> Any:
        """What ``player`` knows now of what it does not decide itself: the other side's units as
        ``player``'s board shows them (where they are, how many figures, their status) and any Fog of
        War cards it has been shown. Two states with equal knowledge taught ``player`` nothing in
        between (a hidden unit revealed, a card drawn, an enemy hit all change it); undo against a
        bot is allowed only across decisions that left it equal."""
        board = self.board(state, player)
        mine = state.game.player_names[player]
        units = [
            {k: v for k, v in u.items() if k != "focus"}
            for u in board.get("units", ())
            if isinstance(u, dict) and u.get("side") != mine
        ]
        return _plain([units, board.get("fog_of_war"), board.get("eliminated")])

    def turn(self, state) -> int | None:
        turn = getattr(state, "turn", None)
        return turn if isinstance(turn, int) else None

    def score(self, state) -> Any:
        return _plain(getattr(state, "score", None))

    def title(self, state) -> str:
        """The game's name for people ("Strike Force One", "Force on Force: Lost & Found")."""
        return state.game.name.replace("_", " ").title()

    def colours(self, state) -> dict[str, str]:
        """Side name -> its colour (``#rrggbb``); the defaults of :mod:`fof_env.core.drawing`."""
        from fof_env.core.drawing import DEFAULT_SIDE_COLOURS

        return dict(zip(state.game.player_names, DEFAULT_SIDE_COLOURS, strict=True))

    def victory(self, state) -> list[str]:
        """The victory conditions in words, one sentence each (none by default)."""
        return []

    def score_text(self, state) -> str | None:
        """The score in words (default: the score's entries, keys with spaces)."""
        score = self.score(state)
        if isinstance(score, dict):
            return ", ".join(f"{str(k).replace('_', ' ')} {v}" for k, v in score.items()) or None
        return None if score is None else str(score)

    def umpire_board(self, state) -> dict[str, Any]:
        """The board as an umpire sees it: every unit either side knows of (each unit as its own side
        sees it) and every marker of both sides' boards. Only for a finished game (a replay): it
        holds what each side hides from the other."""
        boards = [self.board(state, p) for p in (0, 1)]
        names = state.game.player_names
        out = dict(boards[0])
        if "units" in out:
            units: dict[str, dict[str, Any]] = {}
            for p, board in enumerate(boards):
                for u in board.get("units", []):
                    if u.get("id") not in units or u.get("side") == names[p]:
                        units[u.get("id")] = u
            out["units"] = list(units.values())
        if "markers" in out:
            seen = {}
            for board in boards:
                for m in board.get("markers", []):
                    seen.setdefault(repr(sorted(m.items())), m)
            out["markers"] = list(seen.values())
        return out

    def public_board(self, state) -> dict[str, Any]:
        """The board as both sides may see it (a spectator's): each side's units as the other side's
        board shows them, so a unit either side does not know of is not there, none marked as the
        focus of a decision and their line of sight (``sees``) only to units on this board; the
        markers on both sides' boards; and the board's other entries where both boards agree. A
        ruleset whose board holds an entry that differs by viewer but may agree by chance (a card
        hand) overrides this to leave it out."""
        boards = [self.board(state, p) for p in (0, 1)]
        names = state.game.player_names
        out = {k: v for k, v in boards[0].items() if k not in ("units", "markers") and k in boards[1] and boards[1][k] == v}
        if "units" in boards[0]:
            units = [dict(u) for p in (1, 0) for u in boards[p].get("units", []) if u.get("side") != names[p]]
            ids = {u.get("id") for u in units}
            for u in units:
                if "focus" in u:
                    u["focus"] = False
                if isinstance(u.get("sees"), list):
                    u["sees"] = [s for s in u["sees"] if isinstance(s, dict) and s.get("unit") in ids]
            out["units"] = units
        if "markers" in boards[0]:
            out["markers"] = [m for m in boards[0]["markers"] if m in boards[1].get("markers", [])]
        return out

    def public_text(self, state, board: dict[str, Any]) -> str:
        """The text picture of the public ``board`` (:meth:`public_board`): the game, its turn and
        score, and each unit on it with where it stands."""
        lines = [f"{self.title(state)}, turn {self.turn(state)}" if self.turn(state) is not None else self.title(state)]
        score = self.score_text(state)
        if score:
            lines.append(score)
        for side in state.game.player_names:
            units = [u for u in board.get("units", []) if u.get("side") == side]
            lines.append(f"{side}: " + (", ".join(f"{u.get('id')} at {u.get('hex') or u.get('point')}" for u in units) or "no unit known to both sides"))
        return "\n".join(lines)

    # ---- the view ------------------------------------------------------------------------
    def legal(self, state) -> list[dict[str, Any]]:
        """The current decision's legal actions: ``action`` (canonical), ``label`` and pointers."""
        actions = state.legal_actions()
        previews = self.previews(state, actions)
        out = []
        for a in actions:
            text = state.action_to_str(a)
            entry = {"action": text, "label": self.label(state, a, text), **self.annotate(state, a, text)}
            if a in previews:
                entry["preview"] = previews[a]
            out.append(entry)
        return out

    def decision(self, state, player: int) -> dict[str, Any] | None:
        if state.is_terminal:
            return None
        d = state.decision
        names = state.game.player_names
        mine = d.player == player
        if not mine and not self.action_visible(state, player):  # e.g. a hidden unit is asked
            return {"kind": "secret", "side": names[d.player], "player": d.player, "reaction": False}
        out: dict[str, Any] = {
            "kind": d.kind,
            "side": names[d.player],
            "player": d.player,
            "reaction": d.kind in self.REACTION_KINDS,
        }
        if mine:
            out["context"] = self.context(state, player)
        return out

    def view(self, state, player: int, *, events: list[dict[str, Any]] | None = None, lean: bool = False) -> dict[str, Any]:
        """``player``'s view (the module docstring); ``lean``: without the text picture and the legal
        actions (``""`` and ``[]``: a replay's frames, which show neither)."""
        game = state.game
        names = game.player_names
        mine = not state.is_terminal and state.current_player == player
        out: dict[str, Any] = {
            "format": VIEW_FORMAT,
            "game": game.name,
            "options": _plain(dict(game.options)),
            "sides": list(names),
            "side": names[player],
            "player": player,
            "turn": self.turn(state),
            "decisions": len(state.history),
            "terminal": bool(state.is_terminal),
            "result": _plain(state.result()),
            "outcome": state.outcome_dict(),
            "score": self.score(state),
            "decision": self.decision(state, player),
            "your_turn": mine,
            "legal": self.legal(state) if mine and not lean else [],
            "board": self.board(state, player),
            "text": "" if lean else self.text(state, player),
            "colours": self.colours(state),
            "victory": self.victory(state),
            "score_text": self.score_text(state),
        }
        if events is not None:
            out["events"] = events
        return out

    def umpire_view(self, state, *, lean: bool = False) -> dict[str, Any]:
        """What an umpire sees of ``state``: the view's fields with ``side`` ``"umpire"`` (``player``
        -1), the whole decision (context included), no legal actions, :meth:`umpire_board` and the
        full text picture (``lean``: none). For replays of finished games only (:mod:`fof_env.core.replay`)."""
        game = state.game
        d = None if state.is_terminal else state.decision
        decision = None
        if d is not None:
            decision = {"kind": d.kind, "side": game.player_names[d.player], "player": d.player,
                        "reaction": d.kind in self.REACTION_KINDS, "context": self.context(state, d.player)}
        return {
            "format": VIEW_FORMAT,
            "game": game.name,
            "options": _plain(dict(game.options)),
            "sides": list(game.player_names),
            "side": UMPIRE,
            "player": -1,
            "turn": self.turn(state),
            "decisions": len(state.history),
            "terminal": bool(state.is_terminal),
            "result": _plain(state.result()),
            "outcome": state.outcome_dict(),
            "score": self.score(state),
            "decision": decision,
            "your_turn": False,
            "legal": [],
            "board": self.umpire_board(state),
            "text": "" if lean else str(state),
            "colours": self.colours(state),
            "victory": self.victory(state),
            "score_text": self.score_text(state),
        }

    def public_view(self, state, *, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """What a spectator of a game in progress sees: what both sides may see, and nothing that
        either side may not. The view's fields with ``side`` ``"spectator"`` (``player`` -1), the
        decision as the side not deciding sees it (``"secret"`` where it is kept from it; never a
        context), no legal actions, :meth:`public_board` and :meth:`public_text`."""
        game = state.game
        board = self.public_board(state)
        decision = None if state.is_terminal else self.decision(state, 1 - state.current_player)
        out = {
            "format": VIEW_FORMAT,
            "game": game.name,
            "options": _plain(dict(game.options)),
            "sides": list(game.player_names),
            "side": SPECTATOR,
            "player": -1,
            "turn": self.turn(state),
            "decisions": len(state.history),
            "terminal": bool(state.is_terminal),
            "result": _plain(state.result()),
            "score": self.score(state),
            "decision": decision,
            "your_turn": False,
            "legal": [],
            "board": board,
            "text": self.public_text(state, board),
            "colours": self.colours(state),
            "victory": self.victory(state),
            "score_text": self.score_text(state),
        }
        if events is not None:
            out["events"] = events
        return out


class EventLog:
    """The events and decisions each side may see, decided as they happen.

    Call :meth:`before` with the state about to be played (it notes whether the decision
    is secret from each side and the action text each side may see), then :meth:`after`
    with the state once played. Entries are dicts: ``{"index", "kind", ...event fields,
    "text"}`` for events and :class:`Played` for decisions; ``index`` is the entry's place in
    that side's own list. ``public_events`` / ``public_played`` are what both sides may see (a
    spectator's log): an event or decision shown to each side, numbered in their own list.
    ``mark()``/``truncate()`` support undo. An event hidden when it happened stays hidden (never
    shown later).
    """

    def __init__(self, state, describe: Callable[[Any], str | None] | None = None):
        self.view = view_for(state.game.name)
        self.names = state.game.player_names
        self.describe = describe
        self.events: list[list[dict[str, Any]]] = [[], []]
        self.played: list[list[Played]] = [[], []]
        self.public_events: list[dict[str, Any]] = []
        self.public_played: list[Played] = []
        self.seen = 0  # state.events consumed
        self._secret = [False, False]
        self._initial(state)

    def _initial(self, state) -> None:
        for p in (0, 1):
            self._secret[p] = False
        self._take(state)

    def before(self, state, action: int, by: str) -> None:
        """Note the decision ``action`` about to be played on ``state`` by ``by``."""
        text = state.action_to_str(action)
        kind = state.decision.kind
        side = self.names[state.current_player]
        turn = self.view.turn(state)
        told = 0
        for p in (0, 1):
            self._secret[p] = self.view.secret_from(state, p) and state.current_player != p
            if self.view.action_visible(state, p, text):  # else the side is not told of the decision
                self.played[p].append(Played(len(self.played[p]), side, kind, text, by, len(self.events[p]), turn))
                told += 1
        if told == 2:
            self.public_played.append(Played(len(self.public_played), side, kind, text, by, len(self.public_events), turn))

    def after(self, state) -> None:
        """Take the events the last action produced."""
        self._take(state)
        self._secret = [False, False]

    def _take(self, state) -> None:
        new = state.events[self.seen :]
        self.seen = len(state.events)
        for event in new:
            seen_by = 0
            for p in (0, 1):
                if not self._secret[p] and self.view.event_visible(state, event, p):
                    shown = self.events[p]
                    shown.append(event_dict(event, len(shown), self.describe))
                    seen_by += 1
            if seen_by == 2:
                self.public_events.append(event_dict(event, len(self.public_events), self.describe))

    def mark(self) -> tuple[int, int, int, int, int, int, int]:
        """Where each list stands: events 0 and 1, played 0 and 1, state events consumed, public
        events and public played (:meth:`truncate` goes back to it)."""
        return (len(self.events[0]), len(self.events[1]), len(self.played[0]), len(self.played[1]), self.seen,
                len(self.public_events), len(self.public_played))  # fmt: skip

    def truncate(self, mark: tuple[int, int, int, int, int, int, int]) -> None:
        e0, e1, p0, p1, seen, pe, pp = mark
        del self.events[0][e0:], self.events[1][e1:], self.played[0][p0:], self.played[1][p1:]
        del self.public_events[pe:], self.public_played[pp:]
        self.seen = seen


def event_dict(event, index: int, describe: Callable[[Any], str | None] | None = None) -> dict[str, Any]:
    """An event as JSON data: its fields, ``kind``, ``index`` and (with ``describe``) ``text``."""
    d = _plain(event.to_dict())
    d["index"] = index
    if describe is not None:
        d["text"] = describe(event)
    return d


def table_board(table, units: list[dict[str, Any]], markers: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    """A tabletop board (``type`` ``"table"``) for the browser: the table's size and grid, its
    features (``rect`` for areas, ``segment`` for walls, in inches, ``y`` southward), then the
    given ``units`` and ``markers`` (each with ``point`` and its ``x``/``y`` in inches)."""
    features = []
    for f in table.features:
        item: dict[str, Any] = {"id": f.id, "kind": f.kind}
        if f.rect is not None:
            item["rect"] = list(f.rect)
        else:
            item["segment"] = list(f.segment)
        features.append(item)
    return {
        "type": "table",
        "width": table.width_in,
        "height": table.height_in,
        "spacing": table.spacing_in,
        "features": features,
        "units": units,
        "markers": markers or [],
        **extra,
    }


def point_ref(table, p: int) -> dict[str, Any]:
    """``{"point": name, "x": inches, "y": inches}`` of table point ``p``."""
    x, y = table.xy[p]
    return {"point": table.name(p), "x": float(x), "y": float(y)}


def _plain(value: Any) -> Any:
    """JSON-ready copy: tuples to lists, numpy scalars to Python numbers."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return value.item()
    return value
