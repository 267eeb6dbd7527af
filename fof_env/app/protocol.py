"""The engine protocol (``fof-protocol/1``): one JSON object per request, one per reply.

The same :class:`Engine` answers ``fof engine`` (JSON lines on stdio) and ``fof serve``
(WebSocket): ``Engine.handle_text(text, owner)`` takes one message and returns one reply
dict, and never raises. Every reply has ``"ok"``; a request that fails gets
``{"ok": false, "error": "<one line>"}`` and changes nothing (a game is never left half
changed: every command checks before it changes, and bots decide on a copy of the state).
Each request is read as plain JSON (finite numbers, bounded nesting: :mod:`fof_env.core.jsondata`)
and checked against its JSON Schema (``schemas/protocol.schema.json``, ``$defs/<cmd>_request``,
where an integer is never a float and a number is finite) before it is read;
``docs/protocol.md`` documents every message and :mod:`fof_env.app.limits` every bound.

Commands: ``hello``, ``new``, ``view``, ``play``, ``bot``, ``undo``, ``resign``, ``pass_all``,
``save``, ``load``, ``close``, ``games``, ``join``. Games are kept per ``owner`` (a connection): an
id is good only for the connection that made the game and the connections it let in with a link
(:mod:`fof_env.app.links`): a friend who took the seat made for them (a friend game: each plays
only its own side and sees only its own side's view; a takeback needs the other's consent) and
spectators (what both sides may see, no more: :meth:`GameSession.public_view`; they act on
nothing).

Fair play against the server's bots (``docs/protocol.md``, "Fair play"):

* **Seats** are fixed when a game starts and kept in its saves and records; no request views or
  plays a bot's side, or turns it into a front-end side.
* **No peeking**: every view comes from :meth:`GameSession.view` (the one filtering layer,
  :mod:`fof_env.core.view`); a front end playing one side against a bot gets only that side's
  view, its errors never name a decision kept from it, and every count it sees is of what it was
  shown. A game record (the hidden set-up, every roll, the dice state) is sent only once the game
  is over.
* **Saves** belong to their connection (or its token) and, against a bot, are bookmarks of one
  line of play, not branch points (:mod:`fof_env.app.saves`); **undo** against a bot takes back only
  decisions that taught nothing (:mod:`fof_env.app.session`); ``practice`` games undo freely and
  draw a new future each time.
* **Seeds**: where a bot or a friend holds a seat the dice and the bots are seeded with the
  client's seed mixed with server entropy (:mod:`fof_env.app.entropy`), revealed in the record at the end.
* **No files from clients**: scenarios and models are ids from the server's lists
  (:mod:`fof_env.app.catalog`); nothing from a client is unpickled.
* **Bots that stop**: every number of an agent spec is finite and capped (:mod:`fof_env.app.specs`);
  a bot decides in its own thread with a ``stop`` event, set when its time is up, when its game
  is closed or its connection leaves, and when the engine stops.
* **Bounds**: quotas per connection (games, saves, one bot request in flight), idle games and
  saves expire, save files are written whole with mode 0600.
"""

from __future__ import annotations

import contextlib
import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from fof_env.app import limits
from fof_env.app.catalog import Catalog, CatalogError, scenario_games
from fof_env.app.entropy import agent_seed, mixed_seed, server_entropy
from fof_env.app.links import SEAT, WATCH, Links
from fof_env.app.saves import Line, SaveError, SaveStore
from fof_env.app.session import FRIEND, FRONT_END, GameSession, SessionError, replay_log
from fof_env.app.specs import SpecError, check_spec
from fof_env.core import jsondata
from fof_env.core.dice import SeededDice
from fof_env.core.errors import IllegalActionError, OptionError, PositionError
from fof_env.core.game import State, record_data
from fof_env.core.registry import list_games, make_game

PROTOCOL = "fof-protocol/1"
COMMANDS = ("hello", "new", "view", "play", "bot", "undo", "resign", "pass_all", "save", "load", "close", "games",
            "join")  # fmt: skip
PLAYER = "player"  # a front-end side as a spectator's replies name it
NO_LINK = "no game for that link (a link is good while its game lasts; a seat's link fills its seat once)"
MAX_LINE = limits.MAX_MESSAGE_BYTES  # bytes of one request
MAX_SIMULATIONS = limits.MAX_SIMULATIONS
MAX_ERROR = 500  # characters of an error line
SWEEP_EVERY_S = 1.0


@cache
def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (every message under ``$defs``)."""
    text = resources.files("fof_env.app").joinpath("schemas", "protocol.schema.json").read_text()
    return json.loads(text)


def _is_integer(_checker, value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(_checker, value) -> bool:
    return _is_integer(_checker, value) or (isinstance(value, float) and math.isfinite(value))


@cache
def _validator(name: str):
    """``$defs/<name>`` with strict types: an integer is an ``int`` (never ``2.0``), a number is finite."""
    import jsonschema

    root = schema()
    sub = {**root["$defs"][name], "$defs": root["$defs"]}
    cls = jsonschema.validators.validator_for(root)
    checker = cls.TYPE_CHECKER.redefine_many({"integer": _is_integer, "number": _is_number})
    return jsonschema.validators.extend(cls, type_checker=checker)(sub)


def check_message(message: dict[str, Any], name: str) -> str | None:
    """None if ``message`` satisfies ``$defs/<name>``, else one line saying what is wrong."""
    import jsonschema

    errors = list(_validator(name).iter_errors(message))
    if not errors:
        return None
    err = jsonschema.exceptions.best_match(errors)
    where = "/".join(str(p)[:40] for p in err.absolute_path)
    text = f"{where}: {err.message}" if where else err.message
    return text if len(text) <= MAX_ERROR - 60 else text[: MAX_ERROR - 63] + "..."


class ProtocolError(ValueError):
    """A request refused, with one line saying why."""


REFUSALS = (ProtocolError, SessionError, OptionError, PositionError, IllegalActionError, SpecError, CatalogError,
            SaveError, jsondata.BadJSON)  # fmt: skip


@dataclass
class _Game:
    session: GameSession
    owner: Any  # the connection that made it (its host)
    line: Line | None = None  # a game against a bot: its line of play (fof_env.app.saves)
    id: str = ""
    friend: int | None = None  # the side a friend plays (a friend game), or None
    friend_owner: Any = None  # the connection holding the friend's seat now (None: free)
    spectators: set[Any] = field(default_factory=set)  # connections watching through a link
    lock: threading.Lock = field(default_factory=threading.Lock)
    touched: float = field(default_factory=time.monotonic)
    closed: bool = False
    stops: set[threading.Event] = field(default_factory=set)  # the stop events of its bots deciding now


class Engine:
    """Holds games and answers protocol messages (thread-safe; one lock per game).

    ``bot_timeout``: seconds a bot may take for one decision (the game is left unchanged when
    it runs out, and the bot is stopped); ``max_games`` / ``max_games_per_owner``: games held
    at once, in all and per connection; ``max_saves`` / ``max_saves_per_owner``: the same for
    saves; ``game_idle_s`` / ``save_idle_s``: idle time after which a game or a save is
    forgotten; ``save_dir``: where saves are also written (None: memory only);
    ``scenario_dirs`` / ``model_dirs``: the operator's scenario and model folders
    (:class:`~fof_env.app.catalog.Catalog`); ``bot_workers``: bot decisions running at once;
    ``extra_limits``: more figures for ``hello`` (the server's connection limit ...);
    ``entropy``: the server randomness mixed into seeds (:func:`~fof_env.app.entropy.server_entropy`;
    tests pin it to replay a game, no client can).
    """

    def __init__(
        self,
        *,
        bot_timeout: float = limits.DEFAULT_BOT_TIMEOUT_S,
        max_games: int = limits.DEFAULT_MAX_GAMES,
        max_games_per_owner: int = limits.DEFAULT_MAX_GAMES_PER_CONNECTION,
        max_saves: int = limits.DEFAULT_MAX_SAVES,
        max_saves_per_owner: int = limits.DEFAULT_MAX_SAVES_PER_CONNECTION,
        game_idle_s: float = limits.DEFAULT_GAME_IDLE_S,
        save_idle_s: float = limits.DEFAULT_SAVE_IDLE_S,
        max_line: int = MAX_LINE,
        save_dir: str | Path | None = None,
        scenario_dirs: tuple[str | Path, ...] | list[str | Path] = (),
        model_dirs: tuple[str | Path, ...] | list[str | Path] = (),
        bot_workers: int = 4,
        name: str = "fof engine",
        extra_limits: dict[str, Any] | None = None,
        entropy: Callable[[], str] = server_entropy,
    ):
        if not (math.isfinite(bot_timeout) and 0 < bot_timeout <= limits.MAX_TIME_BUDGET_S):
            raise ValueError(f"bot timeout must be over 0 and at most {limits.MAX_TIME_BUDGET_S:g} s, got {bot_timeout!r}")
        self.bot_timeout = float(bot_timeout)
        self.max_games = int(max_games)
        self.max_games_per_owner = int(max_games_per_owner)
        self.game_idle_s = float(game_idle_s)
        self.max_line = int(max_line)
        self.name = name
        self.catalog = Catalog(scenario_dirs, model_dirs)
        self.store = SaveStore(save_dir, max_saves=max_saves, max_per_owner=max_saves_per_owner, idle_s=save_idle_s)
        self.games: dict[str, _Game] = {}
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(bot_workers)
        self._in_flight: dict[Any, int] = {}
        self._stopping = False
        self._swept = time.monotonic()
        self._sweep_every = min(SWEEP_EVERY_S, self.game_idle_s / 4, self.store.idle_s / 4)
        self._describe = _describer()
        self._games_info: list[dict[str, Any]] | None = None
        self._extra_limits = dict(extra_limits or {})
        self._entropy = entropy
        self.links = Links()

    @property
    def saves(self) -> dict[str, Any]:
        """The saves held now (id -> save)."""
        return self.store.saves

    def close(self) -> None:
        """Stop every bot deciding now and refuse new bot decisions (the engine is going away)."""
        with self._lock:
            self._stopping = True
            entries = list(self.games.values())
        for entry in entries:
            for stop in list(entry.stops):
                stop.set()

    # ---- entry points ------------------------------------------------------------------------
    def handle_text(self, text: str | bytes, owner: Any = None) -> dict[str, Any]:
        """One request as text (a line or a WebSocket message) -> its reply. Never raises."""
        if len(text) > self.max_line:
            return _error(f"message too long: {len(text)} bytes, the limit is {self.max_line}")
        try:
            message = jsondata.loads(text, limits.MAX_JSON_DEPTH)
        except jsondata.BadJSON as exc:
            return _error(f"not JSON: {_one_line(exc)}")
        return self.handle(message, owner)

    def handle(self, message: Any, owner: Any = None) -> dict[str, Any]:
        """One request (a parsed JSON value) -> its reply dict. Never raises."""
        if not isinstance(message, dict):
            return _error(f"a request is a JSON object with 'cmd', got {type(message).__name__}")
        cmd = message.get("cmd")
        rid = message.get("id")
        head: dict[str, Any] = {"cmd": cmd} if isinstance(cmd, str) and cmd in COMMANDS else {}
        if (isinstance(rid, str) and len(rid) <= 200) or (_is_integer(None, rid) and abs(rid) <= limits.MAX_ID):
            head["id"] = rid
        if not isinstance(cmd, str) or cmd not in COMMANDS:
            shown = repr(cmd)[:60] if isinstance(cmd, str) else type(cmd).__name__
            return {"ok": False, **head, "error": f"unknown command {shown}; commands: {', '.join(COMMANDS)}"}
        found = jsondata.problem(message, limits.MAX_JSON_DEPTH)
        if found is not None:
            return {"ok": False, **head, "error": f"bad {cmd!r} request: {found}"}
        problem = check_message(message, f"{cmd}_request")
        if problem is not None:
            return {"ok": False, **head, "error": f"bad {cmd!r} request: {problem}"}
        self._sweep()
        try:
            reply = getattr(self, f"_cmd_{cmd}")(message, owner)
        except REFUSALS as exc:
            return {"ok": False, **head, "error": _one_line(exc)}
        except Exception as exc:  # noqa: BLE001 - a bug must not stop the engine; the game is unchanged
            return {"ok": False, **head, "error": f"internal error ({type(exc).__name__}): {_one_line(exc)}"}
        return {"ok": True, **head, **reply}

    def encode(self, reply: dict[str, Any]) -> str:
        """A reply as the one line of JSON both transports send."""
        return json.dumps(reply, separators=(",", ":"))

    def drop_owner(self, owner: Any) -> int:
        """Forget the games of ``owner`` (a closed connection) and stop their bots; returns how many."""
        with self._lock:
            ids = [gid for gid, g in self.games.items() if g.owner == owner]
            entries = [self.games.pop(gid) for gid in ids]
            for g in self.games.values():  # games it was let into: its seat is free, its watch over
                if g.friend_owner == owner:
                    g.friend_owner = None
                g.spectators.discard(owner)
        for entry in entries:
            self._closed(entry)
        self.store.forget_owner(owner)
        return len(ids)

    def _closed(self, entry: _Game) -> None:
        entry.closed = True
        self.links.drop_game(entry.id)
        for stop in list(entry.stops):
            stop.set()
        if entry.line is not None and entry.line.game is not None:
            with self._lock:
                if entry.line.game not in self.games:
                    entry.line.game = None

    def _sweep(self) -> None:
        """Forget idle games and saves (at most once a second)."""
        now = time.monotonic()
        if now - self._swept < self._sweep_every:
            return
        self._swept = now
        with self._lock:
            idle = [gid for gid, g in self.games.items() if now - g.touched > self.game_idle_s]
            entries = [self.games.pop(gid) for gid in idle]
            live = {g.line.id for g in self.games.values() if g.line is not None}
        for entry in entries:
            self._closed(entry)
        self.store.sweep(now, live)

    # ---- commands ----------------------------------------------------------------------------
    def _cmd_hello(self, msg, owner) -> dict[str, Any]:
        from agents.base import agent_kinds, positional_keyword
        from agents.heuristic import heuristic_games

        if self._games_info is None:  # building every game once is slow: once per engine
            self._games_info = _games_info()
        games = [self._with_scenarios(g) for g in self._games_info]
        agents = []
        for kind in agent_kinds():
            entry: dict[str, Any] = {"kind": kind, "argument": positional_keyword(kind)}
            if kind == "heuristic":
                entry["games"] = heuristic_games()
            if kind == "ppo":
                entry["argument"] = "model"
                entry["models"] = sorted(self.catalog.models)
            agents.append(entry)
        return {
            "protocol": PROTOCOL,
            "server": self.name,
            "games": games,
            "agents": agents,
            "commands": list(COMMANDS),
            "limits": limits.report(
                max_message_bytes=self.max_line,
                max_games=self.max_games,
                max_games_per_connection=self.max_games_per_owner,
                max_saves=self.store.max_saves,
                max_saves_per_connection=self.store.max_per_owner,
                game_idle_s=self.game_idle_s,
                save_idle_s=self.store.idle_s,
                bot_timeout_s=self.bot_timeout,
                **self._extra_limits,
            ),
        }

    def _with_scenarios(self, info: dict[str, Any]) -> dict[str, Any]:
        """A game's ``hello`` entry with its ``scenario`` option's choices: this server's scenario ids."""
        if info["name"] not in scenario_games():
            return info
        ids = self.catalog.scenario_ids(info["name"])
        options = [o for o in info["options"] if o["name"] != "scenario"]
        default = next((o["default"] for o in info["options"] if o["name"] == "scenario"), None)
        scenario = {"name": "scenario", "type": "str", "default": default, "choices": ids,
                    "doc": "a scenario id of this server (shipped, or from its operator's scenario folders)"}  # fmt: skip
        return {**info, "options": [scenario, *options]}

    def _cmd_new(self, msg, owner) -> dict[str, Any]:
        if "friend" in msg:
            clash = [k for k in ("record", "save_id", "position") if k in msg]
            clash += [k for k in ("bots", "practice") if msg.get(k)]
            if clash:
                raise ProtocolError(f"a game with a friend is a new game between two players: no {', '.join(map(repr, clash))}")
        if "record" in msg or "save_id" in msg:
            return self._cmd_load(msg, owner)
        if "game" not in msg:
            raise ProtocolError("'new' needs 'game' (a name from 'hello'), or a 'record' or 'save_id' to load")
        options = msg.get("options", {})
        self.catalog.check_options(msg["game"], options)
        game = make_game(msg["game"], **options)
        bots = self._seats(game, msg.get("bots", {}))
        friend = None
        if "friend" in msg:
            try:
                friend = game.player_index(msg["friend"])
            except ValueError as exc:
                raise ProtocolError(f"friend: {exc}") from None
        practice = msg.get("practice", False)
        client_seed = msg.get("seed")
        seed, provenance, agent_seeds = self._seeding(client_seed, bots, practice, friend is not None)
        if "position" in msg:
            position = dict(msg["position"])
            if seed is not None or bots:
                position["seed"] = seed
            state = game.state_from_position(position)
        else:
            state = game.new_initial_state(seed)
        return self._start(game, state, bots, msg, owner, practice=practice, provenance=provenance,
                           agent_seeds=agent_seeds, seed=seed, friend=friend)  # fmt: skip

    def _seeding(self, client_seed, bots: dict[int, str], practice: bool, friend: bool = False):
        """(dice seed, provenance, agent seeds): the client's seed as it is for a game with no bot and
        no friend, or a practice game; else mixed with server entropy, and the bots seeded from both."""
        if (not bots and not friend) or practice:
            return client_seed, {"seed": {"client": client_seed, "server_entropy": None, "effective": client_seed}}, None
        entropy = self._entropy()
        seed = mixed_seed(client_seed, entropy)
        agent_seeds = {p: agent_seed(client_seed, entropy, p) for p in bots}
        provenance = {"seed": {"client": client_seed, "server_entropy": entropy, "effective": seed}}
        return seed, provenance, agent_seeds

    def _cmd_load(self, msg, owner) -> dict[str, Any]:
        if ("record" in msg) == ("save_id" in msg):
            raise ProtocolError("'load' needs exactly one of 'record' (a game record) or 'save_id'")
        if "save_id" in msg:
            return self._load_save(msg, owner)
        return self._load_record(msg, owner)

    def _load_save(self, msg, owner) -> dict[str, Any]:
        save = self.store.get(msg["save_id"], owner, msg.get("token"))
        data = record_data(save.record)
        session_block = data.get("session") or {}
        seats = session_block.get("seats") or {}
        practice = bool(session_block.get("practice", False))
        game = self._record_game(data)
        bots = self._seats(game, _bot_seats(seats))
        if "bots" in msg and self._seats(game, msg["bots"]) != bots:
            raise ProtocolError(
                f"the seats of a saved game are fixed ({_seats_text(game, bots)}); load it without 'bots'"
            )
        if "practice" in msg and msg["practice"] != practice:
            raise ProtocolError(f"a saved game keeps its rules: it is {'' if practice else 'not '}a practice game")
        line = self.store.line_of(save)
        if line is not None:
            if line.over and not save.over:
                raise ProtocolError(
                    f"save {save.id} is of a game against a bot that is over: it can not be played on"
                )
            if line.decisions != save.decisions:
                raise ProtocolError(
                    f"save {save.id} is behind its game, which went on after it: against a bot a save resumes "
                    "a game, it does not take moves back (load the game's latest save)"
                )
        state = State.from_json(data, game=game)
        provenance = {k: v for k, v in session_block.items() if k in ("seed", "agent_seeds")}
        agent_seeds = None
        if bots and not practice:  # a resumed game's bots: seeded anew from server entropy
            entropy = self._entropy()
            agent_seeds = {p: agent_seed(None, entropy, p) for p in bots}
        log = replay_log(game, data, self._describe)
        return self._start(game, state, bots, msg, owner, practice=practice, provenance=provenance, log=log,
                           agent_seeds=agent_seeds, line=line, resigned=session_block.get("resigned"))  # fmt: skip

    def _load_record(self, msg, owner) -> dict[str, Any]:
        record = msg["record"]
        try:
            parsed = jsondata.loads(record) if isinstance(record, str) else record
        except jsondata.BadJSON as exc:
            raise PositionError(f"not a game record: not JSON ({exc})") from None
        data = record_data(parsed)
        game = self._record_game(data)
        session_block = data.get("session") if isinstance(data.get("session"), dict) else {}
        recorded = session_block.get("seats") if isinstance(session_block.get("seats"), dict) else None
        if "bots" in msg:
            bots = self._seats(game, msg["bots"])
            if recorded is not None and bots != self._seats(game, _bot_seats(recorded)):
                raise ProtocolError(f"the record's seats are {_seats_text(game, self._seats(game, _bot_seats(recorded)))}; "
                                    "load it without 'bots' (or with those)")  # fmt: skip
        else:
            bots = self._seats(game, _bot_seats(recorded or {}))
        practice = msg.get("practice", session_block.get("practice") is True)
        state = State.from_json(data, game=game)
        log = replay_log(game, data, self._describe)
        resigned = session_block.get("resigned")
        over = state.is_terminal or resigned in game.player_names
        provenance: dict[str, Any] = {"seed": {"client": None, "server_entropy": None, "effective": None},
                                      "from_record": True}  # fmt: skip
        agent_seeds = None
        if bots and not practice and not over:
            # the client holds this record, its dice generator included: the future is drawn anew
            entropy = self._entropy()
            seed = mixed_seed(None, entropy)
            state.dice = SeededDice(seed)
            provenance["seed"] = {"client": None, "server_entropy": entropy, "effective": seed}
            agent_seeds = {p: agent_seed(None, entropy, p) for p in bots}
        return self._start(game, state, bots, msg, owner, practice=practice, provenance=provenance, log=log,
                           agent_seeds=agent_seeds, resigned=resigned)  # fmt: skip

    def _record_game(self, data: dict[str, Any]):
        """The game a record is of, its options checked against this server's lists first."""
        self.catalog.check_options(data["game"], data["options"])
        try:
            game = make_game(data["game"], **data["options"])
        except TypeError as exc:
            raise PositionError(f"game record: cannot build its game: {exc}") from None
        if len(data["actions"]) > game.max_decisions:
            raise PositionError(f"game record: {len(data['actions'])} actions; a {game.name} game has at most {game.max_decisions}")
        return game

    def _start(self, game, state, bots: dict[int, str], msg, owner, *, practice: bool, provenance: dict[str, Any],
               agent_seeds=None, seed: int | None = None, log=None, line: Line | None = None,
               resigned: Any = None, friend: int | None = None) -> dict[str, Any]:  # fmt: skip
        humans = [p for p in (0, 1) if p not in bots]
        undo = "consent" if friend is not None else "practice" if practice else ("fair" if bots and humans else "free")
        with self._lock:
            mine = self._held(owner)
            if mine >= self.max_games_per_owner:
                raise ProtocolError(f"this connection holds {mine} games, its limit; close one first ('games' lists them)")
            if len(self.games) >= self.max_games:
                raise ProtocolError(f"the engine holds {len(self.games)} games, its limit; try again later")
        session = GameSession(state, bots, seed=seed, make_agent=self._make_agent, describe=self._describe,
                              autoplay=msg.get("autoplay", True), agent_seeds=agent_seeds, undo=undo,
                              friend=friend)  # fmt: skip
        session.provenance = dict(provenance)
        if log is not None:
            session.log = log
        if resigned in game.player_names:
            session.resigned = game.player_names.index(resigned)
        if line is None and undo == "fair":
            line = self.store.new_line(len(state.history))
        gid = "g" + _token(6)
        entry = _Game(session, owner, line, id=gid, friend=friend)
        mine_sides = tuple(p for p in humans if p != friend)
        with self._lock:
            old = self.games.pop(line.game, None) if line is not None and line.game is not None else None
            self.games[gid] = entry
        if old is not None:
            self._closed(old)  # one open game per line: the one it was saved from is closed
        if line is not None:
            line.game = gid
        with entry.lock:
            try:
                marks = self._marks(session)
                if session.humans and session.autoplay:
                    self._autoplay(entry, owner)
                side = self._view_side(session, msg.get("side"), mine_sides)
            except Exception:
                with self._lock:  # a bot that fails at once, a side not yours: no game is left behind
                    self.games.pop(gid, None)
                self._closed(entry)
                raise
            self._note(entry)
            reply = {
                "game": gid,
                "sides": self._sides(session, mine_sides),
                "played": self._shown(session, marks, side),
                "view": session.view(side),
            }
        if friend is not None:  # the friend's way in: one seat, once
            reply["join"] = self.links.make(gid, SEAT, friend)
        if msg.get("spectators"):
            reply["watch"] = self.links.make(gid, WATCH)
        return reply

    def _cmd_view(self, msg, owner) -> dict[str, Any]:
        gid, entry, mine = self._member(msg, owner)
        with entry.lock:
            s = entry.session
            if mine is None:
                if msg.get("side") is not None:
                    raise ProtocolError("a spectator sees what both sides may see: send 'view' without 'side'")
                return {"game": gid, "played": [], "view": s.public_view(msg.get("since", 0), msg.get("played_since", 0))}
            side = self._view_side(s, msg.get("side"), mine)
            return {"game": gid, "played": [], "view": self._view(s, side, msg)}

    def _cmd_play(self, msg, owner) -> dict[str, Any]:
        gid, entry, mine = self._player(msg, owner, "play")
        with entry.lock:
            s = entry.session
            mover = s.to_move()
            if entry.friend is not None:
                s.check_running()
                if mover not in mine:
                    raise ProtocolError(f"it is not your decision: {s.names[mover]} decides {s.shown_kind(mine)!r}")
            marks = self._marks(s)
            s.play(msg["action"], msg.get("side"))
            try:
                if s.autoplay:
                    self._autoplay(entry, owner)
            finally:
                self._note(entry)
            side = self._view_side(s, msg.get("side", mover), mine)
            return {"game": gid, "played": self._shown(s, marks, side), "view": self._view(s, side, msg)}

    def _cmd_bot(self, msg, owner) -> dict[str, Any]:
        gid, entry, mine = self._player(msg, owner, "ask for a bot's decision")
        with entry.lock:
            s = entry.session
            s.check_running()
            if not s.bot_to_move():
                p = s.to_move()
                if p not in mine:
                    raise ProtocolError(f"{s.names[p]} decides now ({s.shown_kind(mine)!r}) and is played by the other "
                                        "player, not by a bot")  # fmt: skip
                raise ProtocolError(
                    f"{s.names[p]} decides now ({s.shown_kind(mine)!r}) and the front end plays {s.names[p]}: send 'play'"
                )
            side = self._view_side(s, msg.get("side"), mine)
            marks = self._marks(s)
            budget = msg.get("budget", {})
            count = msg.get("count", 1)
            seconds: list[float] = []
            try:
                # 'count' decisions this side is shown; the bot's secret decisions in between (and right
                # after) are played too, uncounted and untimed, so that nothing counts them
                while s.bot_to_move() and (len(seconds) < count or not s.view_of.action_visible(s.state, side)):
                    shown = len(s.log.played[side])
                    t0 = time.perf_counter()
                    self._bot_move(entry, owner, budget)
                    took = time.perf_counter() - t0
                    if len(s.log.played[side]) > shown:
                        seconds.append(round(took, 4))
                    s.run_auto()
                if s.autoplay and s.humans:
                    self._autoplay(entry, owner)
            finally:
                self._note(entry)
            return {"game": gid, "played": self._shown(s, marks, side), "seconds": seconds, "view": self._view(s, side, msg)}

    def _cmd_undo(self, msg, owner) -> dict[str, Any]:
        gid, entry, mine = self._player(msg, owner, "undo")
        with entry.lock:
            s = entry.session
            side = self._view_side(s, msg.get("side"), mine)
            shown = len(s.log.played[side])
            out: dict[str, Any] = {"game": gid}
            if s.undo_rule == "consent":  # a takeback between two players: asked for, then agreed or declined
                asker = s.undo_asked()
                if msg.get("decline"):
                    s.decline_undo(side)
                    out["takeback"] = "declined"
                elif asker is not None and asker != side:
                    s.agree_undo(side)
                    out["takeback"] = "made"
                else:
                    s.ask_undo(side)
                    out["takeback"] = "asked"
            elif msg.get("decline"):
                raise ProtocolError("'decline' answers the other player's takeback request; this game has no other player")
            else:
                s.undo()
            self._note(entry)
            return {**out, "undone": shown - len(s.log.played[side]), "played": [], "view": self._view(s, side, msg)}

    def _cmd_resign(self, msg, owner) -> dict[str, Any]:
        gid, entry, mine = self._player(msg, owner, "resign")
        with entry.lock:
            s = entry.session
            self._own_side(s, msg["side"], mine, "resign")
            s.resign(msg["side"])
            self._note(entry)
            return {"game": gid, "played": [], "view": s.view(self._view_side(s, msg["side"], mine))}

    def _cmd_pass_all(self, msg, owner) -> dict[str, Any]:
        gid, entry, mine = self._player(msg, owner, "pass reactions")
        with entry.lock:
            s = entry.session
            p = s.side_index(msg["side"])
            if p in s.bot_specs:
                raise ProtocolError(f"{s.names[p]} is the server's bot")
            self._own_side(s, p, mine, "pass its reactions")
            marks = self._marks(s)
            s.set_pass_all(p, msg.get("on", True))
            try:
                s.run_auto()
                if s.autoplay:
                    self._autoplay(entry, owner)
            finally:
                self._note(entry)
            side = self._view_side(s, p, mine)
            return {"game": gid, "played": self._shown(s, marks, side), "view": s.view(side)}

    def _cmd_save(self, msg, owner) -> dict[str, Any]:
        gid, entry, _mine = self._player(msg, owner, "save")
        with entry.lock:
            s = entry.session
            over = s.over
            if entry.friend is not None and not over:
                raise ProtocolError("a game between two players is saved once it is over: until then its record "
                                    "would hold both sides' secrets")  # fmt: skip
            record = s.record()
            decisions = len(s.state.history)
        save_id, token = self.store.put(owner, record, entry.line, decisions, over)
        out = {"game": gid, "save_id": save_id, "token": token}
        if over:  # the record holds the hidden set-up and the dice: it leaves the server only now
            out["record"] = record
        return out

    def _cmd_close(self, msg, owner) -> dict[str, Any]:
        gid, entry, _mine = self._member(msg, owner)
        if entry.owner != owner:  # a friend or a spectator leaves; the game goes on
            with self._lock:
                if entry.friend_owner == owner:
                    entry.friend_owner = None
                entry.spectators.discard(owner)
            return {"game": gid}
        with self._lock:
            self.games.pop(gid, None)
        self._closed(entry)
        return {"game": gid}

    def _cmd_games(self, msg, owner) -> dict[str, Any]:
        with self._lock:
            mine = [(gid, g, self._role(g, owner)) for gid, g in self.games.items()]
        out = []
        for gid, g, role in mine:
            if role is None:
                continue
            s = g.session
            if role == "spectator":
                decisions = len(s.log.public_played)
            else:
                sides = self._sides_of(g, owner)
                decisions = len(s.log.played[sides[0] if len(sides) == 1 else 0])
            out.append({"game": gid, "name": s.game.name, "over": s.over, "decisions": decisions, "role": role})
        return {"games": out}

    def _cmd_join(self, msg, owner) -> dict[str, Any]:
        token = msg["token"]
        link = self.links.find(token)
        if link is None:
            raise ProtocolError(NO_LINK)
        with self._lock:
            entry = self.games.get(link.game)
            if entry is None or entry.closed or (link.kind == SEAT and entry.friend_owner is not None):
                raise ProtocolError(NO_LINK)  # the same words as a wrong token: a link tells nothing of its game
            if self._role(entry, owner) is not None:
                raise ProtocolError(f"this connection is in game {link.game} already")
            if self._held(owner) >= self.max_games_per_owner:
                raise ProtocolError(f"this connection holds {self._held(owner)} games, its limit; close one first")
            rejoin = None
            if link.kind == SEAT:
                entry.friend_owner = owner
                self.links.use(token)  # a seat's link fills it once; its holder gets its own way back
                rejoin = self.links.make(link.game, SEAT, link.side)
            else:
                if len(entry.spectators) >= limits.MAX_SPECTATORS_PER_GAME:
                    raise ProtocolError(f"that game has {limits.MAX_SPECTATORS_PER_GAME} spectators, its limit; try again later")
                entry.spectators.add(owner)
            entry.touched = time.monotonic()
        with entry.lock:
            s = entry.session
            if link.kind == WATCH:
                return {"game": link.game, "side": "spectator", "sides": self._sides(s, None), "played": [],
                        "view": s.public_view()}  # fmt: skip
            return {"game": link.game, "side": s.names[link.side], "sides": self._sides(s, (link.side,)), "played": [],
                    "view": s.view(link.side), "rejoin": rejoin}  # fmt: skip

    # ---- helpers -----------------------------------------------------------------------------
    def _member(self, msg, owner) -> tuple[str, _Game, tuple[int, ...] | None]:
        """The game ``msg`` names, if ``owner`` is in it, and the sides ``owner`` plays there (None: it
        is a spectator); the same "no game" for a game that does not exist and one it is not in."""
        gid = msg["game"]
        with self._lock:
            entry = self.games.get(gid)
            role = None if entry is None else self._role(entry, owner)
        if role is None:
            raise ProtocolError(f"no game {gid!r:.70} (ids come from 'new'; 'games' lists yours)")
        entry.touched = time.monotonic()
        return gid, entry, None if role == "spectator" else self._sides_of(entry, owner)

    def _player(self, msg, owner, what: str) -> tuple[str, _Game, tuple[int, ...]]:
        """:meth:`_member`, refusing a spectator (it may ``what`` nothing)."""
        gid, entry, mine = self._member(msg, owner)
        if mine is None:
            raise ProtocolError(f"a spectator may not {what}: it watches what both sides may see")
        return gid, entry, mine

    @staticmethod
    def _role(entry: _Game, owner: Any) -> str | None:
        """``owner``'s part in a game: ``"host"`` (it made it), ``"friend"``, ``"spectator"`` or None."""
        if entry.owner == owner:
            return "host"
        if entry.friend is not None and entry.friend_owner == owner:
            return "friend"
        return "spectator" if owner in entry.spectators else None

    @staticmethod
    def _sides_of(entry: _Game, owner: Any) -> tuple[int, ...]:
        """The sides ``owner`` (a host or a friend) plays: the friend's seat, or the host's front-end sides."""
        if entry.owner != owner:
            return (entry.friend,)
        return tuple(p for p in entry.session.humans if p != entry.friend)

    def _held(self, owner: Any) -> int:
        """Games ``owner`` holds: made, and joined (call with ``self._lock`` held)."""
        return sum(1 for g in self.games.values() if self._role(g, owner) is not None)

    @staticmethod
    def _sides(s: GameSession, mine: tuple[int, ...] | None) -> dict[str, str]:
        """Side -> who plays it, as a reply to one connection says it: ``"bot SPEC"``, ``"front end"``
        (this connection), ``"friend"`` (the other player's connection) or, to a spectator, ``"player"``."""
        out = {}
        for p, name in enumerate(s.names):
            if p in s.bot_specs:
                out[name] = "bot " + s.bot_specs[p]
            elif mine is None:
                out[name] = PLAYER
            else:
                out[name] = FRONT_END if p in mine else FRIEND
        return out

    @staticmethod
    def _own_side(s: GameSession, side: Any, mine: tuple[int, ...], what: str) -> None:
        p = s.side_index(side)
        if p not in mine and p not in s.bot_specs:
            raise ProtocolError(f"{s.names[p]} is played by the other player: only a side you play can {what}")

    def _note(self, entry: _Game) -> None:
        """Keep the game's line of play up to date with its game."""
        if entry.line is not None and entry.line.game is not None and not entry.closed:
            s = entry.session
            self.store.note(entry.line, len(s.state.history), s.over)

    def _seats(self, game, bots: dict[str, Any]) -> dict[int, str]:
        """Side name -> agent spec (from a request or a record) as player -> checked spec."""
        seats: dict[int, str] = {}
        for side, spec in bots.items():
            try:
                p = game.player_index(side)
            except ValueError as exc:
                raise ProtocolError(f"bots: {exc}") from None
            if not isinstance(spec, str) or not 0 < len(spec) <= 300:
                raise ProtocolError(f"bots: {side}: an agent spec is a string of 1..300 characters")
            self._checked(spec, game, p)
            seats[p] = spec
        return seats

    def _checked(self, spec: str, game, player: int):
        checked = check_spec(spec, bot_timeout=self.bot_timeout, catalog=self.catalog)
        if checked.side is not None:
            plays = game.side_in_any_case(checked.side)
            if plays is None:
                raise ProtocolError(f"bot {spec!r}: {checked.side!r} is not a side of {game.name} "
                                    f"(its sides: {', '.join(game.player_names)})")  # fmt: skip
            if plays != player:
                raise ProtocolError(f"bot {spec!r} plays {checked.side} only, not {game.player_names[player]}")
        return checked

    def _view_side(self, s: GameSession, side: Any, mine: tuple[int, ...] | list[int]) -> int:
        """The side whose view to send to a connection playing ``mine``: one of those (any side when it
        plays none: bot against bot)."""
        if side is not None:
            p = s.side_index(side)
            if mine and p not in mine:
                who = "the server's bot" if p in s.bot_specs else "the other player"
                raise ProtocolError(f"{s.names[p]} is played by {who}: its view is not yours to see")
            return p
        if len(mine) == 1:
            return mine[0]
        p = s.to_move()
        return p if p is not None else (mine[0] if mine else 0)

    def _view(self, s: GameSession, side: int, msg) -> dict[str, Any]:
        return s.view(side, msg.get("since", 0), msg.get("played_since", 0))

    @staticmethod
    def _marks(s: GameSession) -> tuple[int, int]:
        return len(s.log.played[0]), len(s.log.played[1])

    @staticmethod
    def _shown(s: GameSession, marks: tuple[int, int], side: int) -> list[dict[str, Any]]:
        """The decisions ``side`` was shown since ``marks`` (:meth:`_marks`)."""
        return [e.to_dict() for e in s.log.played[side][marks[side] :]]

    def _autoplay(self, entry: _Game, owner: Any) -> None:
        s = entry.session
        while s.bot_to_move():
            self._bot_move(entry, owner, {})
            s.run_auto()

    def _bot_move(self, entry: _Game, owner: Any, budget: dict[str, Any]) -> dict[str, Any]:
        """One decision of the bot to move, made in its own thread with a stop event: set when the
        bot's time is up, when the game is closed or its connection leaves, and when the engine stops."""
        s = entry.session
        p = s.state.current_player
        agent = s.agents[p]
        if "time" in budget and budget["time"] > self.bot_timeout:
            raise ProtocolError(f"budget.time {budget['time']:g} s is over the engine's bot limit ({self.bot_timeout:g} s)")
        stop = threading.Event()
        with self._lock:
            if self._stopping:
                raise ProtocolError("the engine is stopping")
            if entry.closed:
                raise ProtocolError("the game was closed")
            if self._in_flight.get(owner, 0) >= limits.BOT_REQUESTS_IN_FLIGHT:
                raise ProtocolError(
                    f"this connection has {limits.BOT_REQUESTS_IN_FLIGHT} bot request(s) in flight, its limit; wait for the reply"
                )
            self._in_flight[owner] = self._in_flight.get(owner, 0) + 1
            entry.stops.add(stop)
        saved = {}
        try:
            if "simulations" in budget and hasattr(agent, "simulations"):
                saved["simulations"] = agent.simulations
                agent.simulations = int(budget["simulations"])
            if "time" in budget and hasattr(agent, "time_budget"):
                saved["time_budget"] = agent.time_budget
                agent.time_budget = float(budget["time"])
            action = self._decide(agent, s.state.clone(), stop)
        except _OutOfTime:
            s.agents[p] = self._make_agent(s.bot_specs[p], s.game, p, s.agent_seeds.get(p))  # the old one may still run
            if self._stopping or entry.closed:
                why = "the engine is stopping" if self._stopping else "the game was closed"
                raise ProtocolError(f"{s.names[p]}'s bot was stopped: {why}; the game is unchanged") from None
            raise ProtocolError(
                f"{s.names[p]}'s bot {s.bot_specs[p]!r} did not decide within {self.bot_timeout:g} s; the game is unchanged"
            ) from None
        finally:
            for key, value in saved.items():
                setattr(agent, key, value)
            with self._lock:
                entry.stops.discard(stop)
                left = self._in_flight.get(owner, 1) - 1
                if left > 0:
                    self._in_flight[owner] = left
                else:
                    self._in_flight.pop(owner, None)
        if action not in s.state.legal_actions():
            raise ProtocolError(f"{s.names[p]}'s bot chose an illegal action {action!r}; the game is unchanged")
        return s.apply(action, "bot")

    def _decide(self, agent, state, stop: threading.Event) -> int:
        """``agent.act(state)`` in a daemon thread (``fof-bot``); _OutOfTime when ``stop`` is set or
        the bot time limit passes first (then ``stop`` is set, which a search obeys at once)."""
        from agents.base import DecisionStopped

        deadline = time.monotonic() + self.bot_timeout
        while not self._slots.acquire(timeout=0.05):  # every bot worker busy: wait, while it makes sense
            if stop.is_set() or time.monotonic() >= deadline:
                raise _OutOfTime
        box: dict[str, Any] = {}
        done = threading.Event()
        with contextlib.suppress(AttributeError):  # an agent with no place for it is dropped at the deadline
            agent.stop = stop

        def run() -> None:
            try:
                box["action"] = agent.act(state)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting request
                box["error"] = exc
            finally:
                done.set()
                self._slots.release()

        threading.Thread(target=run, name="fof-bot", daemon=True).start()
        while not done.wait(0.05):
            if stop.is_set() or time.monotonic() >= deadline:
                stop.set()
                raise _OutOfTime
        if "error" in box:
            if isinstance(box["error"], DecisionStopped):
                raise _OutOfTime
            raise box["error"]
        return box["action"]

    def _make_agent(self, spec: str, game, player: int, seed: int | None):
        from agents.base import make_agent

        checked = self._checked(spec, game, player)
        try:
            return make_agent(checked.kind, game, player, seed=seed, **checked.kwargs)
        except Exception as exc:  # noqa: BLE001 - an agent refusing its arguments, in whatever words
            text = _one_line(exc)
            for path in self.catalog.models.values():  # the model's id, never the server's path
                text = text.replace(str(path), "MODEL")
            raise ProtocolError(f"bot {spec!r} for {game.player_names[player]}: {text}") from None


class _OutOfTime(Exception):
    """A bot decision stopped before it was made (time limit, closed game, stopping engine)."""


def _bot_seats(seats: dict[str, Any]) -> dict[str, Any]:
    """The bot seats of a record's ``seats`` (a friend's seat is a front end's once loaded)."""
    return {side: spec for side, spec in seats.items() if spec not in (FRONT_END, FRIEND)}


def _seats_text(game, bots: dict[int, str]) -> str:
    return ", ".join(f"{name} {bots.get(p, FRONT_END)}" for p, name in enumerate(game.player_names))


def _token(nbytes: int) -> str:
    import secrets

    return secrets.token_hex(nbytes)


def _games_info() -> list[dict[str, Any]]:
    """What ``hello`` says of every registered game that starts with its default options."""
    from fof_env.core.view import view_for

    games = []
    for name in list_games():
        try:
            game = make_game(name)
            rview = view_for(name)
            start = game.new_initial_state(0)
            board = rview.board(start, 0)["type"]
        except Exception:  # noqa: BLE001 - a game that cannot start with its defaults is left out
            continue
        options = [
            {
                "name": spec.name,
                "type": spec.kind.__name__,
                "default": spec.default,
                "choices": list(spec.choices) if spec.choices else None,
                "doc": spec.doc,
            }
            for spec in getattr(game, "OPTIONS", ())
        ]
        games.append(
            {
                "name": name,
                "title": rview.title(start),
                "sides": list(game.player_names),
                "options": options,
                "board": board,
                "reaction_kinds": sorted(rview.REACTION_KINDS),
            }
        )
    return games


def _describer() -> Callable[[Any], str | None]:
    from fof_env.core.narration import describe_event

    return describe_event


def _error(message: str) -> dict[str, Any]:
    return {"ok": False, "error": message}


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().replace("\n", " ")
    return text[:1000] if text else type(exc).__name__
