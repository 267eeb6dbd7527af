"""The engine protocol (``fof-protocol/1``): one JSON object per request, one per reply.

The same :class:`Engine` answers ``fof engine`` (JSON lines on stdio) and ``fof serve``
(WebSocket): ``Engine.handle_text(text, owner)`` takes one message and returns one reply
dict, and never raises. Every reply has ``"ok"``; a request that fails gets
``{"ok": false, "error": "<one line>"}`` and changes nothing (a game is never left half
changed: every command checks before it changes, and bots decide on a copy of the state).
Each request is checked against its JSON Schema (``schemas/protocol.schema.json``,
``$defs/<cmd>_request``) before it is read; ``docs/protocol.md`` documents every message.

Commands: ``hello``, ``new``, ``view``, ``play``, ``bot``, ``undo``, ``resign``, ``pass_all``,
``save``, ``load``, ``close``, ``games``. Games are kept per ``owner`` (a connection): an id is
good only for the connection that made the game.

No peeking: every view comes from :meth:`GameSession.view` (the one filtering layer,
:mod:`fof_env.core.view`); a front end that plays one side against a bot gets only that
side's view; a game record (which holds the hidden set-up and the dice state) is sent only
once the game is over, while a save mid-game stays on the server under its save id.
Nothing from a client is unpickled: requests and records are JSON, model files are
safetensors, and ``ppo:PATH`` specs are refused unless the engine allows model paths.
"""

from __future__ import annotations

import concurrent.futures
import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from fof_env.app.session import GameSession, SessionError, replay_log
from fof_env.core.errors import IllegalActionError, OptionError, PositionError
from fof_env.core.game import record_data
from fof_env.core.registry import list_games, make_game

PROTOCOL = "fof-protocol/1"
COMMANDS = ("hello", "new", "view", "play", "bot", "undo", "resign", "pass_all", "save", "load", "close", "games")
MAX_LINE = 1 << 20  # bytes of one request
MAX_SIMULATIONS = 20000


@cache
def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (every message under ``$defs``)."""
    text = resources.files("fof_env.app").joinpath("schemas", "protocol.schema.json").read_text()
    return json.loads(text)


@cache
def _validator(name: str):
    import jsonschema

    root = schema()
    sub = {**root["$defs"][name], "$defs": root["$defs"]}
    cls = jsonschema.validators.validator_for(root)
    return cls(sub)


def check_message(message: dict[str, Any], name: str) -> str | None:
    """None if ``message`` satisfies ``$defs/<name>``, else one line saying what is wrong."""
    import jsonschema

    errors = list(_validator(name).iter_errors(message))
    if not errors:
        return None
    err = jsonschema.exceptions.best_match(errors)
    where = "/".join(str(p) for p in err.absolute_path)
    return f"{where}: {err.message}" if where else err.message


class ProtocolError(ValueError):
    """A request refused, with one line saying why."""


@dataclass
class _Game:
    session: GameSession
    owner: Any
    lock: threading.Lock = field(default_factory=threading.Lock)
    touched: float = field(default_factory=time.monotonic)


class Engine:
    """Holds games and answers protocol messages (thread-safe; one lock per game).

    ``bot_timeout``: seconds a bot may take for one decision (the game is left unchanged when
    it runs out); ``allow_model_paths``: whether ``ppo:PATH`` bot specs may name files (the
    stdio engine allows it, ``fof serve`` not unless asked); ``save_dir``: where saves are
    written (None: kept in memory only); ``max_games``: games held at once.
    """

    def __init__(
        self,
        *,
        bot_timeout: float = 30.0,
        max_games: int = 200,
        max_line: int = MAX_LINE,
        allow_model_paths: bool = False,
        save_dir: str | Path | None = None,
        bot_workers: int = 4,
        name: str = "fof engine",
    ):
        self.bot_timeout = float(bot_timeout)
        self.max_games = int(max_games)
        self.max_line = int(max_line)
        self.allow_model_paths = allow_model_paths
        self.save_dir = Path(save_dir) if save_dir is not None else None
        self.name = name
        self.games: dict[str, _Game] = {}
        self.saves: dict[str, str] = {}
        self._lock = threading.Lock()
        self._bots = concurrent.futures.ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="fof-bot")
        self._describe = _describer()
        self._games_info: list[dict[str, Any]] | None = None

    def close(self) -> None:
        self._bots.shutdown(wait=False, cancel_futures=True)

    # ---- entry points ------------------------------------------------------------------------
    def handle_text(self, text: str | bytes, owner: Any = None) -> dict[str, Any]:
        """One request as text (a line or a WebSocket message) -> its reply. Never raises."""
        if len(text) > self.max_line:
            return _error(f"message too long: {len(text)} bytes, the limit is {self.max_line}")
        try:
            message = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            return _error(f"not JSON: {exc}")
        except RecursionError:
            return _error("not JSON: nested too deeply")
        return self.handle(message, owner)

    def handle(self, message: Any, owner: Any = None) -> dict[str, Any]:
        """One request (a parsed JSON value) -> its reply dict. Never raises."""
        if not isinstance(message, dict):
            return _error(f"a request is a JSON object with 'cmd', got {type(message).__name__}")
        cmd = message.get("cmd")
        rid = message.get("id")
        head: dict[str, Any] = {"cmd": cmd} if isinstance(cmd, str) else {}
        if rid is not None and isinstance(rid, (str, int)) and not isinstance(rid, bool):
            head["id"] = rid
        if not isinstance(cmd, str) or cmd not in COMMANDS:
            return {"ok": False, **head, "error": f"unknown command {cmd!r:.60}; commands: {', '.join(COMMANDS)}"}
        problem = check_message(message, f"{cmd}_request")
        if problem is not None:
            return {"ok": False, **head, "error": f"bad {cmd!r} request: {problem}"}
        try:
            reply = getattr(self, f"_cmd_{cmd}")(message, owner)
        except (ProtocolError, SessionError, OptionError, PositionError, IllegalActionError) as exc:
            return {"ok": False, **head, "error": _one_line(exc)}
        except Exception as exc:  # noqa: BLE001 - a bug must not stop the engine; the game is unchanged
            return {"ok": False, **head, "error": f"internal error ({type(exc).__name__}): {_one_line(exc)}"}
        return {"ok": True, **head, **reply}

    def drop_owner(self, owner: Any) -> int:
        """Forget the games of ``owner`` (a closed connection); returns how many."""
        with self._lock:
            ids = [gid for gid, g in self.games.items() if g.owner == owner]
            for gid in ids:
                del self.games[gid]
        return len(ids)

    # ---- commands ----------------------------------------------------------------------------
    def _cmd_hello(self, msg, owner) -> dict[str, Any]:
        from agents.base import agent_kinds, positional_keyword
        from agents.heuristic import heuristic_games

        if self._games_info is None:  # building every game once is slow: once per engine
            self._games_info = _games_info()
        games = self._games_info
        agents = []
        for kind in agent_kinds():
            entry: dict[str, Any] = {"kind": kind, "argument": positional_keyword(kind)}
            if kind == "heuristic":
                entry["games"] = heuristic_games()
            agents.append(entry)
        return {
            "protocol": PROTOCOL,
            "server": self.name,
            "games": games,
            "agents": agents,
            "commands": list(COMMANDS),
            "limits": {
                "max_message_bytes": self.max_line,
                "max_games": self.max_games,
                "bot_timeout_s": self.bot_timeout,
                "max_simulations": MAX_SIMULATIONS,
                "model_paths": self.allow_model_paths,
            },
        }

    def _cmd_new(self, msg, owner) -> dict[str, Any]:
        if "record" in msg or "save_id" in msg:
            return self._cmd_load(msg, owner)
        if "game" not in msg:
            raise ProtocolError("'new' needs 'game' (a name from 'hello'), or a 'record' or 'save_id' to load")
        game = make_game(msg["game"], **msg.get("options", {}))
        seed = msg.get("seed")
        if "position" in msg:
            position = dict(msg["position"])
            if seed is not None:
                position["seed"] = seed
            state = game.state_from_position(position)
        else:
            state = game.new_initial_state(seed)
        return self._start(game, state, msg, owner, seed)

    def _cmd_load(self, msg, owner) -> dict[str, Any]:
        if ("record" in msg) == ("save_id" in msg):
            raise ProtocolError("'load' needs exactly one of 'record' (a game record) or 'save_id'")
        if "save_id" in msg:
            text = self._read_save(msg["save_id"])
        else:
            text = msg["record"] if isinstance(msg["record"], str) else json.dumps(msg["record"])
        data = record_data(text)
        from fof_env.core.game import State

        state = State.from_json(data)
        log = replay_log(state.game, data, self._describe)
        return self._start(state.game, state, msg, owner, None, log)

    def _start(self, game, state, msg, owner, seed, log=None) -> dict[str, Any]:
        bots = {}
        for side, spec in msg.get("bots", {}).items():
            try:
                p = game.player_index(side)
            except ValueError as exc:
                raise ProtocolError(f"bots: {exc}") from None
            bots[p] = self._check_spec(spec)
        session = GameSession(
            state, bots, seed=seed, make_agent=self._make_agent, describe=self._describe, autoplay=msg.get("autoplay", True)
        )
        if log is not None:
            session.log = log
        with self._lock:
            if len(self.games) >= self.max_games:
                raise ProtocolError(f"the engine holds {len(self.games)} games, its limit; close one first")
            gid = "g" + secrets.token_hex(6)
            entry = self.games[gid] = _Game(session, owner)
        with entry.lock:
            try:
                played = self._autoplay(session) if session.humans and session.autoplay else []
            except Exception:
                with self._lock:  # a bot that fails at once: no game is left behind
                    self.games.pop(gid, None)
                raise
            side = self._view_side(session, msg.get("side"))
            return {
                "game": gid,
                "sides": {name: ("bot " + bots[p] if p in bots else "front end") for p, name in enumerate(session.names)},
                "played": self._shown(session, played, side),
                "view": session.view(side),
            }

    def _cmd_view(self, msg, owner) -> dict[str, Any]:
        gid, entry = self._game(msg, owner)
        with entry.lock:
            s = entry.session
            side = self._view_side(s, msg.get("side"))
            return {"game": gid, "played": [], "view": s.view(side, msg.get("since", 0), msg.get("played_since", 0))}

    def _cmd_play(self, msg, owner) -> dict[str, Any]:
        gid, entry = self._game(msg, owner)
        with entry.lock:
            s = entry.session
            mover = s.to_move()
            played = s.play(msg["action"], msg.get("side"))
            if s.autoplay:
                played += self._autoplay(s)
            side = self._view_side(s, msg.get("side", mover))
            return {"game": gid, "played": self._shown(s, played, side), "view": self._view(s, side, msg)}

    def _cmd_bot(self, msg, owner) -> dict[str, Any]:
        gid, entry = self._game(msg, owner)
        with entry.lock:
            s = entry.session
            s.check_running()
            if not s.bot_to_move():
                p = s.to_move()
                raise ProtocolError(
                    f"{s.names[p]} decides now ({s.state.decision.kind!r}) and the front end plays {s.names[p]}: send 'play'"
                )
            played, seconds = [], []
            budget = msg.get("budget", {})
            for _ in range(msg.get("count", 1)):
                if not s.bot_to_move():
                    break
                t0 = time.perf_counter()
                played.append(self._bot_move(s, budget))
                seconds.append(round(time.perf_counter() - t0, 4))
                played += s.run_auto()
            if s.autoplay and s.humans:
                played += self._autoplay(s)
            side = self._view_side(s, msg.get("side"))
            return {"game": gid, "played": self._shown(s, played, side), "seconds": seconds, "view": self._view(s, side, msg)}

    def _cmd_undo(self, msg, owner) -> dict[str, Any]:
        gid, entry = self._game(msg, owner)
        with entry.lock:
            s = entry.session
            undone = s.undo()
            side = self._view_side(s, msg.get("side"))
            return {"game": gid, "undone": undone, "played": [], "view": self._view(s, side, msg)}

    def _cmd_resign(self, msg, owner) -> dict[str, Any]:
        gid, entry = self._game(msg, owner)
        with entry.lock:
            s = entry.session
            s.resign(msg["side"])
            return {"game": gid, "played": [], "view": s.view(self._view_side(s, msg["side"]))}

    def _cmd_pass_all(self, msg, owner) -> dict[str, Any]:
        gid, entry = self._game(msg, owner)
        with entry.lock:
            s = entry.session
            p = s.side_index(msg["side"])
            if p in s.bot_specs:
                raise ProtocolError(f"{s.names[p]} is the server's bot")
            s.set_pass_all(p, msg.get("on", True))
            played = s.run_auto()
            if s.autoplay:
                played += self._autoplay(s)
            side = self._view_side(s, p)
            return {"game": gid, "played": self._shown(s, played, side), "view": s.view(side)}

    def _cmd_save(self, msg, owner) -> dict[str, Any]:
        gid, entry = self._game(msg, owner)
        with entry.lock:
            s = entry.session
            record = s.record()
            over = s.over
        save_id = "s" + secrets.token_hex(8)
        with self._lock:
            self.saves[save_id] = record
        if self.save_dir is not None:
            self.save_dir.mkdir(parents=True, exist_ok=True)
            (self.save_dir / f"{save_id}.json").write_text(record)
        out = {"game": gid, "save_id": save_id}
        if over:
            out["record"] = record
        return out

    def _cmd_close(self, msg, owner) -> dict[str, Any]:
        gid, _ = self._game(msg, owner)
        with self._lock:
            self.games.pop(gid, None)
        return {"game": gid}

    def _cmd_games(self, msg, owner) -> dict[str, Any]:
        with self._lock:
            mine = [(gid, g) for gid, g in self.games.items() if g.owner == owner]
        return {
            "games": [
                {"game": gid, "name": g.session.game.name, "over": g.session.over, "decisions": len(g.session.state.history)}
                for gid, g in mine
            ]
        }

    # ---- helpers -----------------------------------------------------------------------------
    def _game(self, msg, owner) -> tuple[str, _Game]:
        gid = msg["game"]
        with self._lock:
            entry = self.games.get(gid)
        if entry is None or entry.owner != owner:
            raise ProtocolError(f"no game {gid!r:.70} (ids come from 'new'; 'games' lists yours)")
        entry.touched = time.monotonic()
        return gid, entry

    def _view_side(self, s: GameSession, side: Any) -> int:
        """The side whose view to send: one the front end plays (any side when it plays none)."""
        if side is not None:
            p = s.side_index(side)
            if s.humans and p not in s.humans:
                raise ProtocolError(f"{s.names[p]} is played by the server's bot: its view is not yours to see")
            return p
        if len(s.humans) == 1:
            return s.humans[0]
        p = s.to_move()
        return p if p is not None else (s.humans[0] if s.humans else 0)

    def _view(self, s: GameSession, side: int, msg) -> dict[str, Any]:
        return s.view(side, msg.get("since", 0), msg.get("played_since", 0))

    def _shown(self, s: GameSession, played: list[dict[str, Any]], side: int) -> list[dict[str, Any]]:
        """The decisions just played, less those ``side`` may not be told of (its log decides)."""
        if not played:
            return []
        first = played[0]["index"]
        return [e.to_dict() for e in s.log.played[side] if e.index >= first]

    def _autoplay(self, s: GameSession) -> list[dict[str, Any]]:
        played = []
        while s.bot_to_move():
            played.append(self._bot_move(s, {}))
            played += s.run_auto()
        return played

    def _bot_move(self, s: GameSession, budget: dict[str, Any]) -> dict[str, Any]:
        p = s.state.current_player
        agent = s.agents[p]
        saved = {}
        if "simulations" in budget and hasattr(agent, "simulations"):
            saved["simulations"] = agent.simulations
            agent.simulations = int(budget["simulations"])
        if "time" in budget and hasattr(agent, "time_budget"):
            if budget["time"] > self.bot_timeout:
                raise ProtocolError(f"budget.time {budget['time']} s is over the engine's bot limit ({self.bot_timeout} s)")
            saved["time_budget"] = agent.time_budget
            agent.time_budget = float(budget["time"])
        copy = s.state.clone()
        future = self._bots.submit(agent.act, copy)
        try:
            action = future.result(timeout=self.bot_timeout)
        except concurrent.futures.TimeoutError:
            s.agents[p] = self._make_agent(s.bot_specs[p], s.game, p, s.agent_seeds.get(p))  # the old one is busy
            raise ProtocolError(
                f"{s.names[p]}'s bot {s.bot_specs[p]!r} did not decide within {self.bot_timeout:g} s; the game is unchanged"
            ) from None
        finally:
            for key, value in saved.items():
                setattr(agent, key, value)
        if action not in s.state.legal_actions():
            raise ProtocolError(f"{s.names[p]}'s bot chose an illegal action {action!r}; the game is unchanged")
        return s.apply(action, "bot")

    def _check_spec(self, spec: str) -> str:
        from evaluation.match import parse_agent_spec

        kind, kwargs = parse_agent_spec(spec)
        if "path" in kwargs and not self.allow_model_paths:
            raise ProtocolError(
                f"bot {spec!r}: this server does not load model files named by clients; use 'ppo' (the shipped model)"
            )
        sims = kwargs.get("simulations")
        if isinstance(sims, int) and sims > MAX_SIMULATIONS:
            raise ProtocolError(f"bot {spec!r}: at most {MAX_SIMULATIONS} simulations per decision")
        return spec

    def _make_agent(self, spec: str, game, player: int, seed: int | None):
        from evaluation.match import build_agent

        try:
            return build_agent(spec, game, player, seed)
        except (ValueError, TypeError, OSError) as exc:
            raise ProtocolError(f"bot {spec!r} for {game.player_names[player]}: {_one_line(exc)}") from None

    def _read_save(self, save_id: str) -> str:
        with self._lock:
            text = self.saves.get(save_id)
        if text is None and self.save_dir is not None and save_id.isalnum():
            path = self.save_dir / f"{save_id}.json"
            if path.is_file():
                text = path.read_text()
        if text is None:
            raise ProtocolError(f"no save {save_id!r:.70}")
        return text


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
    from fof_env.cli import describe_event

    return describe_event


def _error(message: str) -> dict[str, Any]:
    return {"ok": False, "error": message}


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().replace("\n", " ")
    return text[:2000] if text else type(exc).__name__
