"""The kernel contract every ruleset implements (modelled on OpenSpiel's State API).

A :class:`Game` holds static data (map, tables, options); a :class:`State` holds
one position plus its dice, history and event log. Rulesets subclass both and
implement the underscored hooks; this module supplies validation, masks,
records (``to_json``/``from_json``) and the shared bookkeeping.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from fof_env.core.dice import Dice, ScriptedDice, SeededDice, dice_from_json
from fof_env.core.errors import IllegalActionError, PositionError
from fof_env.core.events import DiceRolled, Event

RECORD_FORMAT = "fof-record/1"


@dataclass(frozen=True, slots=True)
class Decision:
    """What the engine is asking now.

    ``kind`` names the choice (``select_unit``, ``move_target``, ``retreat_hex`` ...),
    ``player`` owns it, ``context`` carries its details (acting unit, target ...).
    """

    kind: str
    player: int
    context: dict[str, Any] = field(default_factory=dict)


class Game:
    """Static description of one ruleset + scenario + options."""

    name: ClassVar[str]
    player_names: ClassVar[tuple[str, str]]
    num_actions: int
    observation_shape: tuple[int, ...]
    max_decisions: int
    options: dict[str, Any]

    def initial_position(self) -> dict[str, Any]:
        """The scenario's starting position in the ruleset's position format."""
        raise NotImplementedError

    def new_initial_state(self, seed: int | None = None) -> State:
        """The scenario's start with dice seeded by ``seed``.

        Clones a template built once per game from :meth:`initial_position` (the set-up
        never changes), so a reset costs a clone rather than parsing the position again.
        """
        template = getattr(self, "_template", None)
        if template is None:
            template = self._template = self.state_from_position(self.initial_position())
        state = template.clone()
        state.dice = SeededDice(seed)
        state._start = {**state._start, "seed": seed}
        return state

    def state_from_position(self, position: dict[str, Any]) -> State:
        raise NotImplementedError

    def player_index(self, side: str | int) -> int:
        """0/1 for a side name or index; ValueError listing the sides otherwise."""
        if isinstance(side, (int, np.integer)) and int(side) in (0, 1):
            return int(side)
        if side in self.player_names:
            return self.player_names.index(side)  # type: ignore[arg-type]
        raise ValueError(f"unknown side {side!r}; sides of {self.name}: {', '.join(self.player_names)}")

    def state_from_json(self, record: str | dict[str, Any]) -> State:
        return State.from_json(record, game=self)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"


class State:
    """One game position. Subclasses implement the ``_``-prefixed hooks.

    Invariants: ``legal_actions()`` is sorted and non-empty unless terminal;
    ``apply`` raises :class:`IllegalActionError` and leaves the state unchanged on
    an illegal action; all randomness comes from ``self.dice``.
    """

    game: Game
    dice: Dice
    history: list[int]
    events: list[Event]
    _rolls: list[int]
    _start: dict[str, Any]
    _legal_cache: list[int] | None
    _mask_cache: np.ndarray | None

    # ---- hooks -------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        raise NotImplementedError

    @property
    def is_terminal(self) -> bool:
        raise NotImplementedError

    @property
    def decision(self) -> Decision:
        raise NotImplementedError

    @property
    def decision_kind(self) -> str:
        """``decision.kind`` without building the context (``"terminal"`` at the end)."""
        return "terminal" if self.is_terminal else self.decision.kind

    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def returns(self) -> tuple[float, float]:
        raise NotImplementedError

    def observation(self, player: int) -> np.ndarray:
        raise NotImplementedError

    def action_to_str(self, action: int) -> str:
        raise NotImplementedError

    def str_to_action(self, text: str) -> int:
        raise NotImplementedError

    def to_position(self) -> dict[str, Any]:
        raise NotImplementedError

    def clone(self) -> State:
        raise NotImplementedError

    def determinize(self, player: int, rng: random.Random) -> State:
        """A copy of this state for ``player``'s search (e.g. ISMCTS): every fact ``player`` may
        not know is re-sampled from ``rng``, using only what ``player`` knows.

        The future dice are nobody's to know, and a clone would roll exactly the dice this game
        is going to roll; so the copy gets fresh ``SeededDice`` seeded from ``rng``. That is all
        this default re-samples (games without hidden information); a ruleset with hidden
        information overrides it to re-sample the hidden facts as well. The copy is a search
        state: play it, do not keep its record.
        """
        other = self.clone()
        other.dice = SeededDice(rng.getrandbits(64))
        return other

    # ---- shared ------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Sorted legal actions of the current decision (empty only when terminal)."""
        if self._legal_cache is None:
            self._legal_cache = [] if self.is_terminal else self._legal_actions()
        return list(self._legal_cache)

    def legal_mask(self) -> np.ndarray:
        """Boolean mask of length ``game.num_actions``: True exactly at ``legal_actions()``.

        Returns a fresh array each call (the state keeps its own copy until the next action).
        """
        mask = self._mask_cache
        if mask is None:
            if self._legal_cache is None:
                self.legal_actions()
            mask = np.zeros(self.game.num_actions, dtype=bool)
            mask[self._legal_cache] = True
            self._mask_cache = mask
        return mask.copy()

    def apply(self, action: int | str) -> None:
        """Apply ``action`` (an index, or its canonical string) for the current player.

        Raises :class:`IllegalActionError` (state unchanged) if it is not legal now.
        """
        if isinstance(action, str):
            try:
                index = self.str_to_action(action)
            except ValueError as exc:
                raise IllegalActionError(action, self._decision_name(), self._legal_strings()) from exc
        elif isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            index = int(action)
        else:
            raise IllegalActionError(action, self._decision_name(), self._legal_strings())
        if self._legal_cache is None:
            self.legal_actions()
        if index not in self._legal_cache:  # type: ignore[operator]
            raise IllegalActionError(action, self._decision_name(), self._legal_strings())
        self.apply_unchecked(index)

    def apply_unchecked(self, action: int) -> None:
        """Apply a known-legal action without validation (search hot path)."""
        self._legal_cache = None
        self._mask_cache = None
        self.history.append(action)
        self._apply(action)

    def roll(self, sides: int, purpose: str) -> int:
        """Roll one die from the state's dice, logging it."""
        value = self.dice.roll(sides)
        self._rolls.append(value)
        self.events.append(DiceRolled(sides, value, purpose))
        return value

    @property
    def winner(self) -> int | None:
        """Winning player, or None while running or for a draw."""
        if not self.is_terminal:
            return None
        r = self.returns()
        if r[0] > r[1]:
            return 0
        if r[1] > r[0]:
            return 1
        return None

    # Attributes that are static, derived caches or logs; everything else in a state's
    # ``__slots__`` is position and must match between equal states.
    _NOT_POSITION = frozenset(
        {"game", "sc", "dice", "events", "_legal_cache", "_reach", "_start", "_rolls", "_mask_cache"}
    )

    def fingerprint(self) -> tuple:
        """Everything that defines the position and its future (incl. the dice state).

        Two states with equal fingerprints behave identically under equal actions.
        """
        names = [n for cls in type(self).__mro__ for n in getattr(cls, "__slots__", ())]
        values = []
        for name in names:
            if name in self._NOT_POSITION:
                continue
            value = getattr(self, name)
            values.append(tuple(value) if isinstance(value, list) else value)
        values.append(json.dumps(self.dice.to_json(), sort_keys=True))
        return tuple(values)

    def _decision_name(self) -> str:
        return "terminal" if self.is_terminal else self.decision.kind

    def _legal_strings(self) -> list[str]:
        return [self.action_to_str(a) for a in self.legal_actions()]

    def legal_action_strings(self) -> list[str]:
        return self._legal_strings()

    # ---- records -----------------------------------------------------------
    def to_json(self) -> str:
        """A replayable record: start position, actions, the dice rolled, dice state."""
        record = {
            "format": RECORD_FORMAT,
            "game": self.game.name,
            "options": self.game.options,
            "start": self._start,
            "actions": self._history_strings(),
            "rolls": list(self._rolls),
            "dice": self.dice.to_json(),
        }
        return json.dumps(record)

    def _history_strings(self) -> list[str]:
        replay = self.game.state_from_position(self._start)
        replay.dice = ScriptedDice(self._rolls)
        out = []
        for a in self.history:
            out.append(replay.action_to_str(a))
            replay.apply_unchecked(a)
        return out

    @staticmethod
    def from_json(record: str | dict[str, Any], game: Game | None = None) -> State:
        """Rebuild the exact state written by :meth:`to_json` (replaying its actions)."""
        from fof_env.core.registry import make_game

        try:
            data = json.loads(record) if isinstance(record, str) else record
            if data.get("format") != RECORD_FORMAT:
                raise PositionError(
                    f"not a game record (format {data.get('format')!r}, want {RECORD_FORMAT!r})"
                )
            if game is None:
                game = make_game(data["game"], **data.get("options", {}))
            state = game.state_from_position(data["start"])
            state.dice = ScriptedDice(list(data.get("rolls", [])))
            for i, text in enumerate(data["actions"]):
                try:
                    state.apply(text)
                except (IllegalActionError, RuntimeError) as exc:
                    raise PositionError(f"record action {i} ({text!r}) cannot be replayed: {exc}") from exc
            state.dice = dice_from_json(data["dice"])
        except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as exc:
            raise PositionError(f"malformed game record: {exc!r}") from exc
        return state

    def _init_bookkeeping(self, seed: int | None, start: dict[str, Any]) -> None:
        self.dice = SeededDice(seed)
        self.history = []
        self.events = []
        self._rolls = []
        self._start = start
        self._legal_cache = None
        self._mask_cache = None

    def _copy_bookkeeping(self, other: State) -> None:
        self.game = other.game
        self.dice = other.dice.clone()
        self.history = list(other.history)
        self.events = list(other.events)
        self._rolls = list(other._rolls)
        self._start = other._start
        self._legal_cache = other._legal_cache
        self._mask_cache = other._mask_cache  # never written in place
