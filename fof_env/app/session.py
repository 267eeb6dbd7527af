"""One game being played through a front end: its state, its bots, undo, resign, "pass all".

A :class:`GameSession` is what ``fof play``, ``fof engine`` and ``fof serve`` hold per game.
It never shows a state: :meth:`GameSession.view` is :func:`fof_env.core.view.view` plus the
session's facts, and its :class:`~fof_env.core.view.EventLog` decides which events and
decisions each side may see as they happen.

Undo restores the exact earlier state, dice included (a clone taken before each decision):
playing the same actions again gives the same rolls, so undo can not be used to re-roll, and
it shows nothing of the dice not yet rolled. After a record is loaded, undo does not go back
past the loaded position (the record holds the final dice, not the earlier ones). There is no
undo once the game is over. Three rules (``undo=``):

* ``"free"`` (a game with no bot, ``fof play`` on one's own machine): any decision back to the start;
* ``"fair"`` (a front end against a server's bot): only decisions after which the front end's side
  learned nothing: no die rolled (nor a card drawn: the deck is shuffled with dice and drawing
  changes what the side knows), no decision of the other side shown to it, and its
  :meth:`~fof_env.core.view.RulesetView.knowledge` of the other side unchanged; anything else is
  refused with one line saying what was learned;
* ``"practice"``: any decision; where the undone decisions taught something (as the fair rule
  sees it) the future is drawn anew: fresh dice from ``fresh_seed()`` and freshly seeded bots, so
  an undo can be used to try again but not to see the same future twice;
* ``"consent"`` (two players on two connections: a friend game): a side takes back its own last
  decision, and only its own decisions since, only if since then it learned nothing (as the fair
  rule sees it) and only once the other side agrees: :meth:`GameSession.ask_undo` asks, and the
  request stands until a decision is played or it is answered (:meth:`GameSession.agree_undo`
  makes it, :meth:`GameSession.decline_undo` refuses it).

A game may have a ``friend`` seat: a side played by a second front end (a friend game); records
name that seat ``"friend"``. :meth:`GameSession.public_view` is what both sides may see (a
spectator's view).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fof_env.core.dice import ScriptedDice, SeededDice
from fof_env.core.outcome import Outcome, Termination
from fof_env.core.view import EventLog, view_for

AgentFactory = Any  # (spec, game, player, seed) -> Agent
UNDO_RULES = ("free", "fair", "practice", "consent")
FRONT_END = "front end"  # a seat no bot holds, as records and replies name it
FRIEND = "friend"  # a seat a second front end holds (a friend game), as records and replies name it


class SessionError(ValueError):
    """A request the session refuses, with one line saying why (the game is unchanged)."""


@dataclass
class _Step:
    state: Any  # the state before the decision (a clone)
    mark: tuple[int, ...]  # EventLog.mark() before the decision
    by: str
    player: int  # who decided
    known: Any = None  # what ``player`` knew then (RulesetView.knowledge), worked out once when first asked


class GameSession:
    """A game with a bot (an agent spec) or a front end ("human") on each side.

    ``bots`` maps player -> agent spec; the other sides are played by the front end.
    ``make_agent(spec, game, player, seed)`` builds a bot (``evaluation.match.build_agent``);
    its seed is ``agent_seeds[player]`` when given, else ``seed + 1000 * (player + 1)`` (None
    without a seed). ``undo`` is the undo rule (module docstring); ``fresh_seed()`` draws the
    practice rule's new futures (default: the ``secrets`` module). ``provenance`` is written into
    the record's ``session`` block (the engine keeps the seed's make-up there). ``friend``: the
    side a second front end plays (a friend game: the ``"consent"`` undo rule), or None.
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
        agent_seeds: dict[int, int | None] | None = None,
        undo: str = "free",
        fresh_seed: Callable[[], int] | None = None,
        friend: int | None = None,
    ):
        if undo not in UNDO_RULES:
            raise ValueError(f"undo rule {undo!r}; rules: {', '.join(UNDO_RULES)}")
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
        self.undo_rule = undo
        self.friend = friend
        self.takebacks = 0  # undos so far: a front end holding older events asks again from 0
        self._undo_asked: tuple[int, int] | None = None  # (side, decisions then): the consent rule's request
        self.provenance: dict[str, Any] = {}
        self._make_agent = make_agent
        self._fresh_seed = fresh_seed or (lambda: secrets.randbits(63))
        if agent_seeds is None:
            agent_seeds = {p: (None if seed is None else seed + 1000 * (p + 1)) for p in self.bot_specs}
        self.agent_seeds = {p: agent_seeds.get(p) for p in self.bot_specs}
        self.agents: dict[int, Any] = {}
        for p, spec in self.bot_specs.items():
            self.agents[p] = make_agent(spec, self.game, p, self.agent_seeds[p]) if make_agent else None

    # ---- facts -------------------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        """Sides the front end plays (not a bot)."""
        return [p for p in (0, 1) if p not in self.bot_specs]

    @property
    def over(self) -> bool:
        return self.resigned is not None or self.state.is_terminal

    @property
    def practice(self) -> bool:
        """A practice game: free undo, a new future after each (module docstring)."""
        return self.undo_rule == "practice"

    def seats(self) -> dict[str, str]:
        """Side name -> its bot's agent spec, ``"friend"`` (a second front end's seat) or ``"front end"``."""
        return {name: self.bot_specs.get(p, FRIEND if p == self.friend else FRONT_END) for p, name in enumerate(self.names)}

    def shown_kind(self, viewers: list[int] | tuple[int, ...] | None = None) -> str:
        """The current decision's kind as the front end may be told it: ``"secret"`` for a decision
        kept from every side it plays (``viewers``, default: every front-end side; a bot's hidden
        set-up, a friend's), as its views show it."""
        state = self.state
        viewers = list(viewers) if viewers is not None else (self.humans or [0, 1])
        if any(self.view_of.action_visible(state, p) for p in viewers):
            return state.decision.kind
        return "secret"

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

    def outcome(self) -> dict[str, Any] | None:
        """How the game ended (:class:`~fof_env.core.outcome.Outcome` as data): a resignation, or the
        state's own outcome; None while it runs."""
        if self.resigned is not None:
            return Outcome.forfeit(self.resigned, Termination.RESIGNATION).to_dict(self.names)
        return self.state.outcome_dict()

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
        player = state.current_player
        self.steps.append(_Step(state.clone(), self.log.mark(), by, player))
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
            raise SessionError(
                f"it is not {self.names[self.side_index(side)]}'s decision: {self.names[p]} decides {self.shown_kind()!r}"
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

    def _undo_target(self, side: int | None = None) -> int | None:
        """The step undo would go back to: the front end's last decision (under the consent rule:
        ``side``'s; with no front-end side, the last decision); None when there is none."""
        if not self.humans:
            return len(self.steps) - 1 if self.steps else None
        return next((i for i in range(len(self.steps) - 1, -1, -1)
                     if self.steps[i].by == "human" and (side is None or self.steps[i].player == side)), None)  # fmt: skip

    def undo_problem(self, side: int | None = None) -> str | None:
        """Why undo is refused now (one line), or None when it is allowed (under the consent rule:
        whether ``side`` may ask to take back its last decision)."""
        if self.resigned is not None:
            return f"the game is over: {self.names[self.resigned]} resigned"
        if self.state.is_terminal:
            return "the game is over: no undo once it has ended (its record holds every roll)"
        if self.undo_rule == "consent":
            return self._consent_problem(side)
        target = self._undo_target()
        if target is None:
            return "nothing to undo" + (" (no decision of yours since the game or record started)" if self.humans else "")
        if self.undo_rule == "fair":
            learned = self._learned_since(target)
            if learned is not None:
                return (
                    f"undo refused: since that decision {learned}; against a bot undo takes back only decisions "
                    "that showed you nothing new (start a practice game for free takebacks)"
                )
        return None

    def _consent_problem(self, side: int | None) -> str | None:
        if side is None:
            raise ValueError("the consent rule takes back one side's decision: name the side")
        target = self._undo_target(side)
        if target is None:
            return "nothing to undo (no decision of yours since the game started)"
        if any(step.player != side for step in self.steps[target + 1 :]):
            return f"undo refused: {self.names[1 - side]} has decided since; a takeback is of your own decisions only"
        learned = self._learned_since(target)
        if learned is not None:
            return (f"undo refused: since that decision {learned}; between two players a takeback is of decisions "
                    "that showed you nothing new, and only when the other side agrees")  # fmt: skip
        return None

    def undo_asked(self) -> int | None:
        """The side whose takeback request stands (the consent rule), or None: a request lapses
        when a decision is played."""
        asked = self._undo_asked
        if asked is None or asked[1] != len(self.state.history) or self.over:
            return None
        return asked[0]

    def ask_undo(self, side: int) -> None:
        """``side`` asks to take back its last decision (the consent rule); SessionError with the
        reason when it may not. The request stands until a decision is played or it is answered."""
        if self.undo_rule != "consent":
            raise SessionError("a takeback request is for a game between two players; send 'undo'")
        problem = self.undo_problem(side)
        if problem is not None:
            raise SessionError(problem)
        self._undo_asked = (side, len(self.state.history))

    def agree_undo(self, side: int) -> int:
        """``side`` agrees to the other side's standing takeback request: it is made (the number of
        decisions taken back), or SessionError when there is none or it may no longer be made."""
        asker = self.undo_asked()
        if asker is None or asker == side:
            raise SessionError(f"no takeback request of {self.names[1 - side]} stands")
        return self.undo(asker)

    def decline_undo(self, side: int) -> None:
        """``side`` refuses the other side's standing takeback request."""
        asker = self.undo_asked()
        if asker is None or asker == side:
            raise SessionError(f"no takeback request of {self.names[1 - side]} stands")
        self._undo_asked = None

    def _learned_since(self, target: int) -> str | None:
        """What the side that decided step ``target`` learned since (None: nothing)."""
        step = self.steps[target]
        p = step.player
        before, now = step.state, self.state
        if len(now._rolls) != len(before._rolls):
            return "a die was rolled"
        played_from = step.mark[2 + p]
        if any(entry.side != self.names[p] for entry in self.log.played[p][played_from:]):
            return f"you saw {self.names[1 - p]}'s answer"
        if step.known is None:
            step.known = self.view_of.knowledge(before, p)
        if step.known != self.view_of.knowledge(now, p):
            return "you saw something new of the other side"
        return None

    def undo(self, side: int | None = None) -> int:
        """Take back the front end's last decision and every bot or automatic decision after it
        (with no front-end side: the last decision; under the consent rule: ``side``'s last decision
        and its own after it, once asked for and agreed: :meth:`agree_undo`), as the undo rule
        allows; SessionError with the reason otherwise. Returns how many decisions were undone."""
        if self.undo_rule == "consent" and (side is None or self.undo_asked() != side):
            raise SessionError("between two players a takeback needs the other side's consent: ask for it first")
        problem = self.undo_problem(side)
        if problem is not None:
            raise SessionError(problem)
        target = self._undo_target(side)
        taught = self.practice and self._learned_since(target) is not None
        step = self.steps[target]
        count = len(self.steps) - target
        del self.steps[target:]
        self.state = step.state
        self.log.truncate(step.mark)
        self.auto_pass.clear()
        self._undo_asked = None
        self.takebacks += 1
        if taught:
            self.redraw()
        return count

    def redraw(self) -> None:
        """A new future: fresh dice and freshly seeded bots (the practice rule's undo, or a loaded
        position whose dice the client knew)."""
        self.state.dice = SeededDice(self._fresh_seed())
        for p, spec in self.bot_specs.items():
            self.agent_seeds[p] = self._fresh_seed()
            if self._make_agent is not None:
                self.agents[p] = self._make_agent(spec, self.game, p, self.agent_seeds[p])

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
        out = self.view_of.view(self.state, player)
        self._add_log(out, self.log.events[player], self.log.played[player], since, played_since)
        if player in self.bot_specs:  # a watcher looking through a bot's eyes decides nothing
            out["your_turn"] = False
        out["pass_all"] = [self.names[player]] if player in self.auto_pass else []  # its own setting only
        out["can_undo"] = self.undo_problem(player if self.undo_rule == "consent" else None) is None
        asker = self.undo_asked()
        out["undo_asked"] = None if asker is None else self.names[asker]
        return self._add_facts(out)

    def public_view(self, since: int = 0, played_since: int = 0) -> dict[str, Any]:
        """What both sides may see (a spectator's view: :meth:`~fof_env.core.view.RulesetView.public_view`),
        with the events and decisions shown to both sides from the given counts on, and the
        session's facts; it decides nothing and can undo nothing."""
        out = self.view_of.public_view(self.state)
        self._add_log(out, self.log.public_events, self.log.public_played, since, played_since)
        out["pass_all"] = []
        out["can_undo"] = False
        out["undo_asked"] = None
        return self._add_facts(out)

    @staticmethod
    def _add_log(out: dict[str, Any], events: list, played: list, since: int, played_since: int) -> None:
        since = max(0, min(since, len(events)))
        played_since = max(0, min(played_since, len(played)))
        out["events"] = events[since:]
        out["events_from"] = since
        out["events_total"] = len(events)
        out["played"] = [entry.to_dict() for entry in played[played_since:]]
        out["played_from"] = played_since
        out["played_total"] = len(played)
        out["decisions"] = len(played)  # those this viewer was shown: no count of secret ones

    def _add_facts(self, out: dict[str, Any]) -> dict[str, Any]:
        out["bots"] = {self.names[p]: spec for p, spec in sorted(self.bot_specs.items())}
        out["practice"] = self.practice
        out["takebacks"] = self.takebacks
        if self.resigned is not None:
            out.update(terminal=True, result=self.result(), outcome=self.outcome(), decision=None, your_turn=False,
                       legal=[])  # fmt: skip
        elif out["result"] is not None:
            out["result"] = self.result()
        return out

    # ---- records ------------------------------------------------------------------------------
    def record(self) -> str:
        """The game record (``State.to_json``) with a ``session`` block: the seats (side -> agent
        spec or ``"front end"``), whether it is a practice game, the side that resigned (or None),
        the engine's ``provenance`` (how the dice were seeded) and the bots' seeds."""
        record = json.loads(self.state.to_json())
        record["session"] = {
            "seats": self.seats(),
            "practice": self.practice,
            "resigned": None if self.resigned is None else self.names[self.resigned],
            **self.provenance,
            "agent_seeds": {self.names[p]: seed for p, seed in sorted(self.agent_seeds.items())},
        }
        return json.dumps(record)


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
