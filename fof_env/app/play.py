"""``fof play``: one game in the terminal, narrated, with a prompt for each human side.

Each side is played by an agent spec, as in ``fof evaluate`` (``random``, ``heuristic``,
``mcts:200``, ``mcts:time_budget=2``, ``ppo``, ``ppo:PATH`` ...), or by ``human`` (you, at a
prompt). What is printed is rendered from views (:mod:`fof_env.core.view`): with one human at
the table, everything shown is that side's view (no hidden units, no secret set-up).

At the prompt: a number from the list or a canonical action string (``sov.A``, ``0504``,
``x19y07``, ``pass`` ...); ``help``, ``map``, ``legal``, ``undo`` (take back your last decision
and the bots' answers: the dice are restored too, so a decision played again rolls the same),
``save [PATH]`` (write the game record; ``fof play --resume PATH`` continues it),
``pass-all`` (decline every reaction you are asked until the turn ends), ``quit`` (asks for a file
to save the game to first; Enter: not saved).
An illegal input gets the reason and the legal list. Before a fire target is chosen, each
target shows its firepower, defence dice and expected casualties.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from fof_env.app.session import GameSession, SessionError, replay_log
from fof_env.app.terminal import all_sides, default_kind, game_options, wrap_legal
from fof_env.core.dice import check_seed
from fof_env.core.errors import OptionError, PositionError
from fof_env.core.files import check_writable_file, write_text_atomic
from fof_env.core.game import State, record_data
from fof_env.core.narration import describe_event
from fof_env.core.narration import fmt as _fmt
from fof_env.core.registry import make_game, ruleset_of
from fof_env.core.ruleset import GENERIC_HELP

PROMPT_COMMANDS = """Other commands: 'map' shows the board as you may see it, 'legal' lists the legal actions,
'undo' takes back your last decision (and the bots' answers), 'save [PATH]' writes the game record
(continue it with 'fof play --resume PATH'), 'pass-all' declines every reaction until the turn ends,
'help' shows this, 'quit' leaves the game (offering to save it first; end of input leaves at once).
A number picks from the list."""


class QuitGame(Exception):
    """The human left the game (``quit`` or end of input: ``typed`` False)."""

    def __init__(self, typed: bool = False):
        super().__init__("quit")
        self.typed = typed


class _Undo(Exception):
    """The human asked to take back the last decision."""


class Prompt:
    """Asks a person for the decisions of ``player``; re-prompts on bad input, never loses the game."""

    def __init__(self, session: GameSession, player: int, out: TextIO, input_fn: Callable[[str], str] | None = None):
        self.session = session
        self.player = player
        self.side = session.names[player]
        self.out = out
        self._input = input_fn
        ruleset = ruleset_of(session.game)
        game_help = GENERIC_HELP if ruleset is None else ruleset.game_help(session.game.name)
        self.help_text, self.decision_help = game_help.text, game_help.decisions
        if "{units}" in self.help_text:  # the scenario's own unit ids as examples
            self.help_text = self.help_text.format(units=" or ".join(repr(u) for u in _unit_examples(session)))
        self.record_path: str | None = None

    def _print(self, text: str = "") -> None:
        print(text, file=self.out)

    def _read(self, prompt: str) -> str:
        try:
            return (self._input or input)(prompt)
        except (EOFError, KeyboardInterrupt):
            raise QuitGame from None

    def show_decision(self, view: dict[str, Any]) -> None:
        d = view["decision"]
        ctx = dict(d.get("context", {}))
        where = [f"{key} {ctx.pop(key)}" for key in ("turn", "phase") if key in ctx]
        self._print(f"[{self.side}] {', '.join(where)}: decision {d['kind']}")
        if d["kind"] in self.decision_help:
            self._print(f"  ({self.decision_help[d['kind']]})")
        if ctx:
            self._print("  context: " + ", ".join(f"{k}={_fmt(v)}" for k, v in ctx.items()))
        self._print(wrap_legal("  legal: ", [entry["action"] for entry in view["legal"]]))
        if len(view["legal"]) <= 12 or any("preview" in e for e in view["legal"]):
            self._print(self.numbered(view))
        else:
            self._print(f"  (type an action, or its number in the list: 1..{len(view['legal'])}; 'legal' numbers them)")

    def numbered(self, view: dict[str, Any]) -> str:
        """The legal actions as a numbered list with labels (and fire previews)."""
        lines = []
        for i, entry in enumerate(view["legal"], 1):
            line = f"  {i:>3}) {entry['action']:<14} {entry['label']}"
            p = entry.get("preview")
            if p:
                line += "  [" + preview_words(p) + "]"
            lines.append(line)
        return "\n".join(lines)

    def act(self) -> int:
        """Ask until a legal action is typed; returns it. Raises QuitGame or _Undo."""
        s = self.session
        view = s.view(self.player)
        self.show_decision(view)
        legal = view["legal"]
        while True:
            text = self._read(f"{self.side}> ").strip()
            low = text.lower()
            if not text:
                self._print("Please type an action (or 'help').")
                continue
            if low in ("quit", "exit", "q"):
                raise QuitGame(typed=True)
            if low in ("help", "?", "h"):
                self._print(self.help_text)
                self._print(PROMPT_COMMANDS)
                kind = view["decision"]["kind"]
                if kind in self.decision_help:
                    self._print(f"Now: {kind}: {self.decision_help[kind]}.")
                self._print(wrap_legal("Legal: ", [e["action"] for e in legal]))
                continue
            if low in ("map", "board", "show"):
                self._print(s.view(self.player)["text"])
                continue
            if low in ("legal", "list", "moves"):
                self._print(wrap_legal("Legal: ", [e["action"] for e in legal]))
                self._print(self.numbered({"legal": legal}))
                continue
            if low == "undo":
                if not view["can_undo"]:
                    self._print("Nothing to undo yet.")
                    continue
                raise _Undo
            if low == "pass-all" or low == "pass all":
                if not view["decision"]["reaction"] or "pass" not in [e["action"] for e in legal]:
                    self._print(f"'pass-all' declines reactions; {view['decision']['kind']!r} is not one you can pass.")
                    continue
                s.set_pass_all(self.player)
                self._print("Passing every reaction until the end of the turn.")
                return s.state.str_to_action("pass")
            if low.split()[0] == "save":
                self.save(text.split(None, 1)[1] if " " in text else self.record_path)
                continue
            if text.isdigit() and not self._names_action(text):  # a hex like '0504' is an action
                n = int(text)
                if 1 <= n <= len(legal):
                    return s.state.str_to_action(legal[n - 1]["action"])
                self._print(f"No choice {n}: pick 1..{len(legal)} or type an action.")
                continue
            try:
                return self._parse(text)
            except _NotUnderstood as exc:
                self._print(f"Not understood: {exc}")
            except SessionError as exc:
                self._print(f"Illegal: {text!r} is not a legal action for decision {view['decision']['kind']!r} now.")
                self._print(f"  Why: {exc}")
            self._print(wrap_legal("Legal: ", [e["action"] for e in legal]) + "   (type 'help' for help)")

    def _names_action(self, text: str) -> bool:
        try:
            self.session.state.str_to_action(text)
        except ValueError:
            return False
        return True

    def _parse(self, text: str) -> int:
        """The legal action ``text`` names (as typed, else lower case: 'PASS', 'X19Y07')."""
        state = self.session.state
        for candidate in dict.fromkeys((text, text.lower())):
            try:
                state.str_to_action(candidate)
            except ValueError as exc:
                error = exc
                continue
            return self.session.parse(candidate)
        raise _NotUnderstood(str(error))

    def save(self, path: str | None) -> None:
        if not path:
            self._print("Usage: save PATH (the game record, JSON; continue it with 'fof play --resume PATH')")
            return
        problem = check_writable_file(path)
        if problem is not None:
            self._print(f"Cannot save to {path}: {problem}")
            return
        write_text_atomic(path, self.session.record())
        self._print(f"Game record written to {path} (continue with: fof play --resume {path})")


class _NotUnderstood(ValueError):
    pass


def preview_words(p: dict[str, Any]) -> str:
    """A legal action's odds (its view ``preview``) in one line: Force on Force fire, Strike Force One's
    Combat Results Table, FUBAR's hits and saves."""
    if "odds" in p:
        if not p["odds"]:
            return f"{p['attackers']} vs {p['defense']}: differential {p['differential']:+d}, not allowed"
        odds = ", ".join(f"{r} {x:.0%}" for r, x in p["odds"].items())
        return f"{p['attackers']} vs {p['defense']}, differential {p['differential']:+d}: {odds}"
    if "expected_unsaved" in p:
        save = f"save {p['save']}+ ({p['p_save']:.0%})" if p["save"] else "no save"
        return (f"{p['dice']} dice needing {p['need']}+ ({p['p_hit']:.0%} each), {save}: "
                f"expected unsaved hits {p['expected_unsaved']:.2f}, P(>=1) {p['p_any']:.0%}")
    return (f"firepower {p['firepower']}d{p['attack_die']} vs defense {p['defense']}d{p['defense_die']}: "
            f"expected casualties {p['expected_casualties']:.2f}, P(>=1) {p['p_any']:.0%}")


def _unit_examples(session: GameSession) -> list[str]:
    """One unit id of each side (the first), as the help's examples."""
    names = getattr(session.state, "UNIT_NAMES", ())
    sides = getattr(session.state, "SIDE_UNITS", ())
    return [names[units[0]] for units in sides if units] or ["a unit id"]


def _load_resume(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise PositionError(f"--resume {path}: {exc.strerror or exc}") from None
    data = record_data(text)
    state = State.from_json(data)
    return state, data


def run_play(args, out: TextIO) -> int:
    """The ``fof play`` command (see the module docstring and ``fof play --help``)."""
    from evaluation.match import build_agent

    data = None
    if args.resume:
        state, data = _load_resume(args.resume)
        game = state.game
        if args.game is not None and args.game != game.name:
            print(f"fof play: --resume {args.resume} is a {game.name} game, not {args.game}", file=sys.stderr)
            return 2
    else:
        if args.game is None:
            print("fof play: name a game (fof list shows them) or --resume RECORD", file=sys.stderr)
            return 2
        try:
            game = make_game(args.game, **game_options(args))
        except OptionError as exc:
            print(f"fof play: {exc}", file=sys.stderr)
            return 2
        state = None
    names = game.player_names
    wrong = [side for side in all_sides() if side not in names and getattr(args, side, None) is not None]
    if wrong:
        flags = ", ".join(f"--{side}" for side in wrong)
        print(f"fof play: {flags}: not a side of {game.name}; its sides are " + ", ".join(f"--{s}" for s in names), file=sys.stderr)
        return 2
    seed = args.seed
    try:
        check_seed(seed, "--seed")
    except OptionError as exc:
        print(f"fof play: {exc}", file=sys.stderr)
        return 2
    problem = check_writable_file(args.record) if args.record else None
    if problem is not None:  # found now, not after the whole game is played
        print(f"fof play: --record {args.record}: {problem}", file=sys.stderr)
        return 2
    chosen = {}
    for item in args.agent:
        side, sep, spec = item.partition("=")
        if not sep or not spec:
            print(f"fof play: --agent {item!r}: write SIDE=SPEC, e.g. --agent {names[0]}=human", file=sys.stderr)
            return 2
        if side not in names:
            print(f"fof play: --agent {side}: not a side of {game.name}; its sides are {', '.join(names)}", file=sys.stderr)
            return 2
        chosen[side] = spec
    specs = {p: chosen.get(side) or getattr(args, side, None) or default_kind(game) for p, side in enumerate(names)}
    bots = {p: spec for p, spec in specs.items() if spec != "human"}

    def make(spec, game_, player, agent_seed):
        try:
            return build_agent(spec, game_, player, agent_seed)
        except (ValueError, TypeError, OSError) as exc:
            raise ValueError(f"{game_.player_names[player]}: {exc}") from None

    try:
        if state is None:
            state = game.new_initial_state(seed)
        session = GameSession(state, bots, seed=seed, make_agent=make, describe=describe_event)
    except (ValueError, TypeError, OSError) as exc:
        print(f"fof play: {exc}", file=sys.stderr)
        return 2
    if data is not None:
        session.log = replay_log(game, data, describe_event)
    humans = session.humans
    viewer = humans[0] if len(humans) == 1 else None
    prompts = {p: Prompt(session, p, out) for p in humans}
    for prompt in prompts.values():
        prompt.record_path = args.record
    return _Narrated(session, prompts, viewer, out, args, specs, seed).run()


class _Narrated:
    """The play loop: bots and prompts decide, the narration prints what the viewer may see."""

    def __init__(self, session: GameSession, prompts, viewer, out, args, specs, seed):
        self.s = session
        self.prompts = prompts
        self.viewer = viewer
        self.out = out
        self.args = args
        self.quiet = args.quiet
        self.specs = specs
        self.seed = seed
        self.shown_events = 0
        self.board_shown = False

    def _print(self, text: str) -> None:
        print(text, file=self.out)

    def picture(self) -> str:
        if self.viewer is not None:
            return self.s.view(self.viewer)["text"]
        return str(self.s.state)

    def events(self, start: int = 0) -> list[dict[str, Any]]:
        """The events the narration may print, from number ``start`` on (the viewer's, or all)."""
        if self.viewer is not None:
            return self.s.log.events[self.viewer][start:]
        return [{"kind": e.kind, "text": describe_event(e)} for e in self.s.state.events[start:]]

    def event_count(self) -> int:
        return len(self.s.log.events[self.viewer]) if self.viewer is not None else len(self.s.state.events)

    def narrate(self) -> None:
        new = self.events(self.shown_events)
        self.shown_events = self.event_count()
        if self.quiet:
            return
        last_phase = max((i for i, e in enumerate(new) if e["kind"] in ("phase_started", "turn_started")), default=-1)
        for i, event in enumerate(new):
            if event.get("text"):
                self._print(event["text"])
            if i == last_phase and not self.s.over:
                self._print(self.picture())
                self.board_shown = True

    def run(self) -> int:
        s = self.s
        names = s.names
        game = s.game
        self._print(f"{game.name} {game.options} seed={self.seed}: " + ", ".join(f"{names[p]}={self.specs[p]}" for p in (0, 1)))
        if self.args.resume:
            self._print(f"Resumed {self.args.resume} after {len(s.state.history)} decisions.")
            self.shown_events = self.event_count()
        self.narrate()
        decisions = 0
        while not s.over:
            player = s.state.current_player
            prompt = self.prompts.get(player)
            try:
                if prompt is not None:
                    auto = s.run_auto()
                    if auto:
                        for entry in auto:
                            self._say(entry)
                        self.narrate()
                        continue
                    if not self.board_shown:  # the board before the first question
                        self._print(self.picture())
                        self.board_shown = True
                    action = prompt.act()
                    by = "human"
                else:
                    action = s.agents[player].act(s.state)
                    by = "bot"
            except QuitGame as exc:
                if exc.typed and prompt is not None:
                    self.offer_save(prompt)
                self._print(f"Game abandoned after {len(s.state.history)} decisions (no result).")
                return 0
            except _Undo:
                undone = s.undo()
                decisions -= undone
                self.shown_events = self.event_count()
                self._print(f"Undone: {undone} decision(s).")
                self._print(self.picture())
                continue
            text = s.state.action_to_str(action)
            secret = self.viewer is not None and not s.view_of.action_visible(s.state, self.viewer, text)
            kind = s.state.decision.kind
            secret_setup = self.viewer is not None and s.view_of.secret_from(s.state, self.viewer)
            entry = s.apply(action, by)
            decisions += 1
            if not self.quiet:
                if secret:
                    if secret_setup:
                        self._print(f"  [{names[player]}] {kind}: (hidden from you)")
                else:
                    self._say(entry)
            self.narrate()
        if not self.quiet:
            self._print(self.picture())
        result = s.result()
        winner = result["winner"]
        words = "draw" if winner is None else f"{winner} wins"
        self._print(f"Result: {words}; score {getattr(s.state, 'score', None)}; {decisions} decisions")
        if self.args.record:
            try:
                write_text_atomic(self.args.record, s.record())
            except OSError as exc:
                print(f"fof play: cannot write record {self.args.record}: {exc.strerror or exc}", file=sys.stderr)
                return 1
            self._print(f"Record written to {self.args.record}")
        return 0

    def offer_save(self, prompt: Prompt) -> None:
        """Ask whether to save the game before leaving (end of input: not saved)."""
        try:
            path = prompt._read("Save the game to continue it later? File name (Enter: do not save): ").strip()
        except QuitGame:
            return
        if path:
            prompt.save(path)

    def _say(self, entry: dict[str, Any]) -> None:
        if not self.quiet:
            self._print(f"  [{entry['side']}] {entry['kind']}: {entry['action']}")

