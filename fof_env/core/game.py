"""The kernel contract every ruleset implements (modelled on OpenSpiel's State API).

A :class:`Game` holds static data (map, tables, options); a :class:`State` holds
one position plus its dice, history and event log. Rulesets subclass both and
implement the underscored hooks; this module supplies validation, masks,
records (``to_json``/``from_json``) and the shared bookkeeping.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from fof_env.core.dice import Dice, ScriptedDice, SeededDice, check_seed, dice_from_json
from fof_env.core.errors import IllegalActionError, OptionError, PositionError
from fof_env.core.events import DiceRolled, EventLog
from fof_env.core.options import OptionSpec
from fof_env.core.outcome import Outcome, Termination

RECORD_FORMAT = "fof-record/2"
READABLE_RECORD_FORMATS = ("fof-record/1", RECORD_FORMAT)  # /1 records carry no ``final`` block


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
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()  # the keyword options ``make_game`` checks
    num_actions: int
    observation_shape: tuple[int, ...]
    max_decisions: int
    options: dict[str, Any]

    def initial_position(self) -> dict[str, Any]:
        """The scenario's starting position in the ruleset's position format."""
        raise NotImplementedError

    def new_initial_state(self, seed: int | None = None) -> State:
        """The scenario's start with dice seeded by ``seed`` (None or an integer 0..2**64-1;
        anything else raises :class:`~fof_env.core.errors.OptionError`).

        Clones a template built once per game from :meth:`initial_position` (the set-up
        never changes), so a reset costs a clone rather than parsing the position again.
        A set-up that rolls dice before its first decision is built anew from the seed.
        """
        seed = check_seed(seed)
        template = getattr(self, "_template", None)
        if template is None:
            template = self._template = self.state_from_position(self.initial_position())
        if template._rolls:
            return self.state_from_position({**self.initial_position(), "seed": seed})
        state = template.clone()
        state.dice = SeededDice(seed)
        state._start = {**state._start, "seed": seed}
        return state

    def state_from_position(self, position: dict[str, Any], *, dice: Dice | None = None) -> State:
        """A state set up as ``position`` says (the ruleset's position format); raises
        :class:`~fof_env.core.errors.PositionError` naming what is wrong.

        The dice are ``SeededDice(position["seed"])`` unless ``dice`` is given; either way
        they roll whatever the set-up itself rolls before the first decision (a record
        replays its own rolls from the start this way). ``position`` is copied, never kept.
        """
        raise NotImplementedError

    def player_index(self, side: str | int) -> int:
        """0/1 for a side name or index; ValueError listing the sides otherwise."""
        if isinstance(side, (int, np.integer)) and not isinstance(side, (bool, np.bool_)) and int(side) in (0, 1):
            return int(side)
        if side in self.player_names:
            return self.player_names.index(side)  # type: ignore[arg-type]
        raise ValueError(f"unknown side {side!r}; sides of {self.name}: {', '.join(self.player_names)}")

    def side_in_any_case(self, name: str) -> int | None:
        """0/1 for a side name written in any case (``"USMC"`` is ``"usmc"``), None for no side of this game.

        For agent specs and options a person types; :meth:`player_index` stays exact, because a side's
        name is also a key (model cards, run folders, records).
        """
        folded = name.casefold()
        for player, side in enumerate(self.player_names):
            if side.casefold() == folded:
                return player
        return None

    def state_from_json(self, record: str | dict[str, Any] | bytes) -> State:
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
    events: EventLog
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

    def is_unseen_placement(self) -> bool:
        """Whether the current decision places a unit where the other side has nothing to answer it
        with: a set-up point chosen while no enemy unit is on the table, or one kept secret. Bots draw
        these from a mixed strategy (``agents.mixed_setup``) and ``WargameEnv(learner_setup=...)``
        has an agent play them. False unless the ruleset says otherwise."""
        return False

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
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = [] if self.is_terminal else self._legal_actions()
        return legal[:]

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
        if type(action) is int:  # the common case first
            index = action
        elif isinstance(action, str):
            try:
                index = self.str_to_action(action)
            except ValueError as exc:
                raise IllegalActionError(action, self._decision_name(), self._legal_strings()) from exc
        elif isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            index = int(action)
        else:
            raise IllegalActionError(action, self._decision_name(), self._legal_strings())
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = [] if self.is_terminal else self._legal_actions()
        if index not in legal:
            raise IllegalActionError(action, self._decision_name(), self._legal_strings())
        self._legal_cache = None  # apply_unchecked, inlined
        self._mask_cache = None
        self.history.append(index)
        self._apply(index)

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
        self.events.add(DiceRolled, (sides, value, purpose))
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

    def digest(self) -> str:
        """SHA-256 (hex) of the game, its options and :meth:`fingerprint`: equal digests, equal
        positions and futures. Records keep the final state's digest so a replay can prove itself."""
        payload = [self.game.name, self.game.options, list(self.fingerprint())]
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=_plain)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def termination(self) -> str:
        """Why the finished game ended: its ruleset's ``termination`` hook, else
        :attr:`~fof_env.core.outcome.Termination.GAME_OVER`."""
        from fof_env.core.registry import game_hook

        reason = game_hook(self.game, "termination")
        return Termination.GAME_OVER if reason is None else reason(self)

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it runs): :class:`~fof_env.core.outcome.Outcome`."""
        if not self.is_terminal:
            return None
        r = self.returns()
        return Outcome(self.termination(), self.winner, (float(r[0]), float(r[1])))

    def outcome_dict(self) -> dict[str, Any] | None:
        """:meth:`outcome` as JSON data (side names for the winner), None while the game runs."""
        outcome = self.outcome()
        return None if outcome is None else outcome.to_dict(self.game.player_names)

    def result(self) -> dict[str, Any] | None:
        """The result of a finished game as plain data (None while it runs): ``winner`` (side
        name or None for a draw), ``returns`` and ``score`` (why it ended: :meth:`outcome`)."""
        if not self.is_terminal:
            return None
        winner = self.winner
        score = getattr(self, "score", None)
        return {
            "winner": None if winner is None else self.game.player_names[winner],
            "returns": [float(r) for r in self.returns()],
            "score": dict(score) if isinstance(score, dict) else score,
        }

    # ---- records -----------------------------------------------------------
    def to_json(self) -> str:
        """A replayable record: start position, actions, the dice rolled, dice state, and the
        ``final`` block that proves it (decisions, the final state's :meth:`digest`, the result and
        the :meth:`outcome`)."""
        record = {
            "format": RECORD_FORMAT,
            "game": self.game.name,
            "options": self.game.options,
            "start": self._start,
            "actions": self._history_strings(),
            "rolls": list(self._rolls),
            "dice": self.dice.to_json(),
            "final": {"decisions": len(self.history), "digest": self.digest(), "result": self.result(),
                      "outcome": self.outcome_dict()},
        }
        return json.dumps(record)

    def _history_strings(self) -> list[str]:
        replay = self.game.state_from_position(self._start, dice=ScriptedDice(self._rolls))
        out = []
        for a in self.history:
            out.append(replay.action_to_str(a))
            replay.apply_unchecked(a)
        return out

    @staticmethod
    def from_json(record: str | bytes | dict[str, Any], game: Game | None = None) -> State:
        """Rebuild the exact state written by :meth:`to_json`: set up its start with its own dice
        rolls, replay its actions, restore the final dice, and check the ``final`` block.

        Raises :class:`PositionError` with one line saying what is wrong: not JSON, not a
        record, a missing or mistyped field, an action that is not a canonical string or is
        not legal where it stands, rolls left over or missing, or a final state whose decision
        count, digest or result differs from the record's (an edited or truncated record).
        """
        from fof_env.core.registry import make_game

        data = record_data(record)
        if game is None:
            try:
                game = make_game(data["game"], **data["options"])
            except (OptionError, TypeError) as exc:
                raise PositionError(f"game record: cannot build its game: {exc}") from None
        try:
            state = game.state_from_position(data["start"], dice=ScriptedDice(data["rolls"]))
        except PositionError as exc:
            raise PositionError(f"game record: its start position: {exc}") from None
        except RuntimeError as exc:  # the set-up ran out of recorded rolls
            raise PositionError(f"game record: its start position cannot be set up: {exc}") from None
        for i, text in enumerate(data["actions"]):
            if not isinstance(text, str):
                raise PositionError(f"game record: action {i} is {text!r}, not an action string")
            try:
                state.apply(text)
            except (IllegalActionError, RuntimeError) as exc:
                raise PositionError(f"record action {i} ({text!r}) cannot be replayed: {exc}") from None
        left = state.dice.remaining  # type: ignore[union-attr]
        if left:
            raise PositionError(
                f"game record: {len(left)} of its {len(data['rolls'])} dice rolls are left over after its "
                f"{len(data['actions'])} actions (a truncated or edited record)"
            )
        state.dice = dice_from_json(data["dice"])
        problems = final_problems(state, data.get("final"))
        if problems:
            raise PositionError("game record does not reproduce its final state: " + "; ".join(problems))
        return state

    def _init_bookkeeping(self, seed: int | None, start: dict[str, Any], dice: Dice | None = None) -> None:
        self.dice = dice if dice is not None else SeededDice(seed)
        self.history = []
        self.events = EventLog()
        self._rolls = []
        self._start = start
        self._legal_cache = None
        self._mask_cache = None

    def _copy_bookkeeping(self, other: State) -> None:
        self.game = other.game
        self.dice = other.dice.clone()
        self.history = list(other.history)
        self.events = other.events.copy()
        self._rolls = list(other._rolls)
        self._start = other._start
        self._legal_cache = other._legal_cache
        self._mask_cache = other._mask_cache  # never written in place


def _plain(value: Any) -> Any:
    """JSON for the few non-JSON values a fingerprint holds (tuples are lists already)."""
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, np.integer):
        return int(value)
    raise TypeError(f"fingerprint value {value!r} has no canonical JSON form")


def record_data(record: str | bytes | dict[str, Any]) -> dict[str, Any]:
    """The record as a dict with every field of the right type, or one-line :class:`PositionError`."""
    if isinstance(record, bytes):
        try:
            record = record.decode("utf-8")
        except UnicodeDecodeError:
            raise PositionError("not a game record: the data is not UTF-8 text (a binary file?)") from None
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as exc:
            raise PositionError(f"not a game record: not JSON ({exc})") from None
    if not isinstance(record, dict):
        raise PositionError(f"not a game record: a record is a JSON object, got {type(record).__name__}")
    fmt = record.get("format")
    if fmt not in READABLE_RECORD_FORMATS:
        raise PositionError(f"not a game record (format {fmt!r}, want {RECORD_FORMAT!r})")
    kinds = {"game": str, "options": dict, "start": dict, "actions": list, "rolls": list, "dice": dict}
    for key, kind in kinds.items():
        if key not in record:
            raise PositionError(f"malformed game record: missing {key!r}")
        if not isinstance(record[key], kind):
            raise PositionError(
                f"malformed game record: {key!r} must be a JSON {_JSON_NAMES[kind]}, got {record[key]!r:.60}"
            )
    if not all(isinstance(r, int) and not isinstance(r, bool) for r in record["rolls"]):
        raise PositionError("malformed game record: 'rolls' must be a list of integers (die faces)")
    final = record.get("final")
    if final is not None and not isinstance(final, dict):
        raise PositionError(f"malformed game record: 'final' must be an object, got {final!r:.60}")
    return record


_JSON_NAMES = {str: "string", dict: "object", list: "array"}


def final_problems(state: State, final: dict[str, Any] | None) -> list[str]:
    """How ``state`` differs from a record's ``final`` block (empty: it matches, or there is none)."""
    if final is None:
        return []
    problems = []
    if final.get("decisions") != len(state.history):
        problems.append(f"it ends after {len(state.history)} decisions, the record says {final.get('decisions')!r}")
    if final.get("digest") != state.digest():
        problems.append("the final position's digest differs from the recorded one")
    result = json.loads(json.dumps(state.result()))  # as a record holds it (tuples become lists)
    if final.get("result") != result:
        problems.append(f"the result is {result}, the record says {final.get('result')}")
    if "outcome" in final and final["outcome"] != state.outcome_dict():  # records before outcomes lack it
        problems.append(f"the outcome is {state.outcome_dict()}, the record says {final['outcome']}")
    return problems
