"""One game being played through a front end: its state, its bots, undo, resign, "pass all".

A :class:`GameSession` is what ``fof play``, ``fof engine`` and ``fof serve`` hold per game.
It never shows a state: :meth:`GameSession.view` is :func:`fof_env.core.view.view` plus the
session's facts, and its :class:`~fof_env.core.view.EventLog` decides which events and
decisions each side may see as they happen.

Undo restores the exact earlier state, dice included (a clone taken before each decision):
playing the same actions again gives the same rolls, so undo can not be used to re-roll, and
it shows nothing of the dice not yet rolled. After a record is loaded, undo does not go back
past the loaded position (the record holds the final dice, not the earlier ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fof_env.core.dice import ScriptedDice
from fof_env.core.view import EventLog, view_for

AgentFactory = Any  # (spec, game, player, seed) -> Agent


class SessionError(ValueError):
    """A request the session refuses, with one line saying why (the game is unchanged)."""


@dataclass
class _Step:
    state: Any  # the state before the decision (a clone)
    mark: tuple[int, int, int, int, int]
    by: str


class GameSession:
    """A game with a bot (an agent spec) or a front end ("human") on each side.

    ``bots`` maps player -> agent spec; the other sides are played by the front end.
    ``make_agent(spec, game, player, seed)`` builds a bot (``evaluation.match.build_agent``).
    """

    def __init__(
        self,
        state,
        bots: dict[int, str] | None = None,
        *,
        seed: int | None = None,
        make_agent: AgentFactory | None = None,
        describe=None,
        autoplay: bool = True,
    ):
        self.state = state
        self.game = state.game
        self.names = tuple(self.game.player_names)
        self.bot_specs = dict(bots or {})
        self.view_of = view_for(self.game.name)
        self.log = EventLog(state, describe)
        self.steps: list[_Step] = []
        self.resigned: int | None = None
        self.auto_pass: dict[int, Any] = {}
        self.autoplay = autoplay
        self.agents: dict[int, Any] = {}
        for p, spec in self.bot_specs.items():
            agent_seed = None if seed is None else seed + 1000 * (p + 1)
            self.agents[p] = make_agent(spec, self.game, p, agent_seed) if make_agent else None
        self.agent_seeds = {p: (None if seed is None else seed + 1000 * (p + 1)) for p in self.bot_specs}

    # ---- facts -------------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        """Sides the front end plays (not a bot)."""
        return [p for p in (0, 1) if p not in self.bot_specs]

    @property
    def over(self) -> bool:
        return self.resigned is not None or self.state.is_terminal

    def result(self) -> dict[str, Any] | None:
        if self.resigned is not None:
            winner = 1 - self.resigned
            return {
                "winner": self.names[winner],
                "returns": [1.0 if p == winner else -1.0 for p in (0, 1)],
                "score": self.view_of.score(self.state),
                "reason": f"{self.names[self.resigned]} resigned",
            }
        result = self.state.result()
        if result is not None:
            result = {**result, "reason": "game over"}
        return result

    def side_index(self, side: Any) -> int:
        """0/1 for a side name or index; SessionError listing the sides otherwise."""
        try:
            return self.game.player_index(side)
        except ValueError:
            raise SessionError(f"unknown side {side!r}; sides: {', '.join(self.names)}") from None

    def to_move(self) -> int | None:
        return None if self.over else self.state.current_player

    def bot_to_move(self) -> bool:
        p = self.to_move()
        return p is not None and p in self.bot_specs

    # ---- playing ------------------------------------------------------------------------------
    def parse(self, text: Any) -> int:
        """The legal action ``text`` names, or SessionError with the reason it is not legal."""
        state = self.state
        if not isinstance(text, str):
            raise SessionError(f"an action is a canonical string like {self._example()}, got {text!r:.60}")
        try:
            action = state.str_to_action(text)
        except ValueError as exc:
            why, said = str(exc), f"cannot read action {text!r}: "  # the engine's own message may say it already
            raise SessionError(f"cannot read action {text!r:.60}: {why.removeprefix(said)}") from None
        if action not in state.legal_actions():
            raise SessionError(self.illegal_reason(text))
        return action

    def _example(self) -> str:
        legal = self.state.legal_action_strings()
        return repr(legal[0]) if legal else "'pass'"

    def illegal_reason(self, text: str) -> str:
        """Why ``text`` is not legal now, in words, and what is."""
        state = self.state
        d = state.decision
        legal = state.legal_action_strings()
        shown = ", ".join(legal[:12]) + (f" ... ({len(legal)} in all)" if len(legal) > 12 else "")
        why = ""
        if text == "pass":
            why = f"declining is not allowed in {d.kind!r} now; "
        elif "unit" in d.context and d.kind in ("move_target", "fire_target", "retreat_hex"):
            why = f"{d.context['unit']} cannot {d.kind.split('_')[0]} there; "
        return f"{text!r} is not legal for {self.names[d.player]}'s decision {d.kind!r}: {why}legal now: {shown}"

    def apply(self, action: int, by: str) -> dict[str, Any]:
        """Play ``action`` (known legal) for the side to move; returns its Played entry."""
        state = self.state
        self.steps.append(_Step(state.clone(), self.log.mark(), by))
        player = state.current_player
        entry = {
            "index": len(state.history),
            "side": self.names[player],
            "kind": state.decision.kind,
            "action": state.action_to_str(action),
            "by": by,
        }
        self.log.before(state, action, by)
        state.apply(action)
        self.log.after(state)
        return entry

    def play(self, text: Any, side: Any = None) -> list[dict[str, Any]]:
        """The front end plays ``text`` for the side to move (which must be one of its sides)."""
        self.check_running()
        p = self.state.current_player
        if side is not None and self.side_index(side) != p:
            d = self.state.decision
            raise SessionError(
                f"it is not {self.names[self.side_index(side)]}'s decision: {self.names[p]} decides {d.kind!r}"
            )
        if p in self.bot_specs:
            raise SessionError(
                f"{self.names[p]} is played by the server's bot {self.bot_specs[p]!r}; send 'bot' to make it move"
            )
        action = self.parse(text)
        return [self.apply(action, "human"), *self.run_auto()]

    def check_running(self) -> None:
        if self.resigned is not None:
            raise SessionError(f"the game is over: {self.names[self.resigned]} resigned")
        if self.state.is_terminal:
            raise SessionError("the game is over")

    def run_auto(self) -> list[dict[str, Any]]:
        """Automatic passes ("pass all reactions this turn") while they apply."""
        out = []
        while not self.over:
            p = self.state.current_player
            if p not in self.auto_pass:
                break
            if self.view_of.turn(self.state) != self.auto_pass[p]:
                del self.auto_pass[p]
                break
            d = self.state.decision
            if d.kind not in self.view_of.REACTION_KINDS or "pass" not in self.state.legal_action_strings():
                break
            out.append(self.apply(self.state.str_to_action("pass"), "auto"))
        return out

    def set_pass_all(self, side: Any, on: bool = True) -> None:
        """Pass every reaction decision of ``side`` that allows it, until the turn changes."""
        self.check_running()
        p = self.side_index(side)
        if on:
            self.auto_pass[p] = self.view_of.turn(self.state)
        else:
            self.auto_pass.pop(p, None)

    def undo(self) -> int:
        """Take back the front end's last decision and every bot or automatic decision after it
        (with no front-end side: the last decision). Returns how many decisions were undone."""
        if self.resigned is not None:
            raise SessionError(f"the game is over: {self.names[self.resigned]} resigned")
        humans = bool(self.humans)
        if not any(step.by == "human" for step in self.steps) if humans else not self.steps:
            raise SessionError("nothing to undo" + (" (no decision of yours since the game or record started)" if humans else ""))
        count = 0
        while self.steps:
            step = self.steps.pop()
            count += 1
            if not humans or step.by == "human":
                break
        self.state = step.state
        self.log.truncate(step.mark)
        self.auto_pass.clear()
        return count

    def resign(self, side: Any) -> None:
        self.check_running()
        p = self.side_index(side)
        if p in self.bot_specs:
            raise SessionError(f"{self.names[p]} is the server's bot; only a side you play can resign")
        self.resigned = p

    # ---- views --------------------------------------------------------------------------------
    def view(self, player: int, since: int = 0, played_since: int = 0) -> dict[str, Any]:
        """``player``'s view (:func:`fof_env.core.view.view`) with the events and decisions it
        may see from the given counts on, and the session's facts (bots, resignation)."""
        events = self.log.events[player]
        since = max(0, min(since, len(events)))
        played = self.log.played[player]
        played_since = max(0, min(played_since, len(played)))
        out = self.view_of.view(self.state, player, events=events[since:])
        out["events_from"] = since
        out["events_total"] = len(events)
        out["played"] = [entry.to_dict() for entry in played[played_since:]]
        out["played_from"] = played_since
        out["played_total"] = len(played)
        if player in self.bot_specs:  # a watcher looking through a bot's eyes decides nothing
            out["your_turn"] = False
        out["bots"] = {self.names[p]: spec for p, spec in sorted(self.bot_specs.items())}
        out["pass_all"] = [self.names[p] for p in sorted(self.auto_pass)]
        out["can_undo"] = self.resigned is None and (
            any(s.by == "human" for s in self.steps) if self.humans else bool(self.steps)
        )
        if self.resigned is not None:
            out.update(terminal=True, result=self.result(), decision=None, your_turn=False, legal=[])
        elif out["result"] is not None:
            out["result"] = self.result()
        return out

    # ---- records ------------------------------------------------------------------------------
    def record(self) -> str:
        return self.state.to_json()


def replay_log(game, data: dict[str, Any], describe=None) -> EventLog:
    """The :class:`EventLog` of a record's game (``data``: the checked record dict), rebuilt by
    replaying its actions from its start with its own rolls: what each side would have seen."""
    replay = game.state_from_position(data["start"], dice=ScriptedDice(list(data["rolls"])))
    log = EventLog(replay, describe)
    for text in data["actions"]:
        action = replay.str_to_action(text)
        log.before(replay, action, "record")
        replay.apply(action)
        log.after(replay)
    return log
