"""``fof evaluate`` and ``fof replay`` (added to the ``fof`` parser by :mod:`fof_env.app.cli`).

Examples::

    fof evaluate --game GAME --agents random heuristic --games 200 --workers 2
    fof evaluate --game GAME --option KEY=VALUE --agents heuristic mcts:200 ppo --games 50
    fof evaluate --resume OUT     # after Ctrl-C, SIGTERM, a kill
    fof evaluate --game GAME --agents random heuristic --backend ray --address HEAD:6379
    fof replay OUT/records/GAME/heuristic__vs__random/0000.json --every 20
    fof replay game.json --quiet --gif game.gif

(``fof evaluate --help`` lists every game's own examples.)

``fof evaluate`` checks the tournament (:func:`evaluation.tournament.plan_tournament`:
every spec built for each side), writes its definition to ``OUT/tournament.json``
(``--out``, default ``reports/<game>-<UTC date-time>``), plays it
(:func:`evaluation.tournament.play_tournament`) on the ``--backend`` executor
(:mod:`evaluation.executors`), logging every finished game to ``OUT/games.jsonl``
and writing its record under ``OUT/records`` (unless ``--no-records``), then writes
the report (:func:`evaluation.report.write_report`) and prints the Markdown tables.
Ctrl-C or SIGTERM stops the workers, keeps the log and exits 130 or 143 after one
line saying how to go on: ``fof evaluate --resume OUT`` plays the games the log
lacks, with the same results as an uninterrupted run (:mod:`evaluation.journal`).
Every refusal (a bad spec, option or flag, an ``--out`` that is a file or already
holds a tournament, an output that cannot be written, Ray missing) is one line on
stderr with exit status 2; before any game, nothing is written then.

``fof replay`` re-simulates a record (:func:`evaluation.replay.replay`), prints it,
optionally writes PNG frames / a GIF, and exits 0 only if the re-simulated final
state equals the recorded one (1 if it differs, 2 if the record cannot be replayed).

matplotlib, Pillow and torch are imported inside the commands, not here.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import os
import sys
from pathlib import Path
from typing import TextIO

from evaluation.compare import add_parser as _add_compare
from evaluation.frames import Frames as _Frames  # the replay's PNG frames and GIF
from fof_env.core.registry import examples, list_games


def default_out_dir(game: str) -> Path:
    """``reports/<game>-<YYYYmmdd-HHMMSS>`` (UTC), relative to the current directory."""
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%d-%H%M%S")
    return Path("reports") / f"{game}-{stamp}"


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add this package's subcommands to the ``fof`` parser."""
    ev = sub.add_parser(
        "evaluate",
        help="tournament: every agent against every other on both sides, report with ratings",
        description=(
            "Play every ordered pairing of the agents (A on the first side against B on the second, "
            "A against itself included unless --no-mirror), --games games each, in --workers processes "
            "or on Ray (--backend ray); log each finished game to OUT/games.jsonl (a killed run goes on "
            "with --resume OUT); write results.json, results.csv, report.md and a self-contained "
            "report.html (win-rate matrix, Bradley-Terry/Elo ratings with a side advantage, PPO training "
            "curves, a GIF of a game per pairing) into --out, and the game records (replayable with "
            "`fof replay`) under OUT/records."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(
            "Agent specs: random, heuristic, mcts:200 (simulations), ppo (the shipped model), "
            "ppo:runs/x/model.safetensors, or kind:key=value,key=value; "
            "SPEC@side plays that side only (heuristic@usmc).\n"
            + "".join(f"Example: {line}\n" for line in examples("evaluate"))
            + "Resume: fof evaluate --resume OUT [--workers N] [--backend ray [--address HOST:6379]]"
        ),
    )
    ev.add_argument("--game", choices=list_games(), help="the game (required unless --resume)")
    ev.add_argument("--agents", nargs="+", metavar="SPEC", help="agent specs, distinct (required unless --resume)")
    ev.add_argument("--games", type=int, help="games per ordered pairing (default 50)")
    ev.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes, or a local Ray's CPUs (default: the number of CPUs; results do not depend on it)",
    )
    ev.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: this machine's processes (default); ray: Ray tasks (pip install 'fof-env[ray]')",
    )
    ev.add_argument(
        "--address",
        metavar="HOST:PORT",
        help="with --backend ray: join this Ray cluster (`ray start --head` prints it) instead of a local Ray",
    )
    ev.add_argument("--seed", type=int, help="tournament seed (default 0)")
    ev.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="a game option, e.g. --option optional_rules=true, --option rules=quick (repeatable)",
    )
    ev.add_argument("--out", metavar="DIR", help="report directory (default reports/<game>-<UTC time>)")
    ev.add_argument(
        "--resume",
        metavar="OUT",
        help="go on with the tournament in OUT (its tournament.json and games.jsonl): play the games missing",
    )
    ev.add_argument("--no-mirror", action="store_true", help="skip each agent against itself")
    ev.add_argument("--no-records", action="store_true", help="do not save the game records")
    ev.add_argument("--no-html", action="store_true", help="skip report.html (and matplotlib)")
    ev.add_argument("--no-gifs", action="store_true", help="no game GIFs (nor their replay pages) in report.html")
    ev.add_argument("--no-progress", action="store_true", help="no progress bar")
    ev.set_defaults(run=run_evaluate)

    rp = sub.add_parser(
        "replay",
        help="re-simulate a game record, print it, check it reproduces the recorded final state",
        description=(
            "Re-simulate a game record (from `fof play --record` or `fof evaluate`): build the game with "
            "the record's options, start from its dice seed, apply the recorded actions, print the map at "
            "the start, every N decisions and at the end, and verify that the final state equals the "
            "recorded one exactly (exit 1 if not, 2 if the record cannot be replayed)."
        ),
    )
    rp.add_argument("record", help="the record file (JSON)")
    rp.add_argument(
        "--every",
        type=int,
        default=0,
        metavar="N",
        help="also print the map (and take a frame) every N decisions (default 0: start and end only)",
    )
    rp.add_argument("--png", metavar="DIR", help="write a PNG frame per shown map into DIR")
    rp.add_argument("--gif", metavar="PATH", help="write the shown maps as an animated GIF")
    rp.add_argument("--frame-ms", type=int, default=500, help="GIF frame duration in ms (default 500)")
    rp.add_argument("--quiet", action="store_true", help="print only the result and the verification")
    rp.set_defaults(run=run_replay)
    _add_compare(sub)  # fof compare: Lost & Found under two rule systems (evaluation/compare.py)


# ----------------------------------------------------------------------------- evaluate
# The flags that define a tournament (saved in OUT/tournament.json): refused with --resume.
_DEFINING = {
    "game": "--game",
    "agents": "--agents",
    "games": "--games",
    "seed": "--seed",
    "option": "--option",
    "out": "--out",
    "no_mirror": "--no-mirror",
    "no_records": "--no-records",
}


class _Refused(Exception):
    """A one-line refusal of ``fof evaluate`` (exit status 2)."""


def _new_definition(args: argparse.Namespace):
    """The tournament the flags describe and its folder (refusals as :class:`_Refused`)."""
    from evaluation import journal
    from fof_env.core.errors import OptionError
    from fof_env.core.options import parse_assignments

    if not args.game or not args.agents:
        raise _Refused("give --game and --agents (or --resume OUT to go on with a tournament)")
    games = 50 if args.games is None else args.games
    seed = 0 if args.seed is None else args.seed
    if games < 1 or seed < 0:
        raise _Refused("--games and --workers must be at least 1, --seed at least 0")
    out_dir = Path(args.out) if args.out else default_out_dir(args.game)
    if out_dir.exists() and not out_dir.is_dir():
        raise _Refused(f"--out {out_dir} is a file, not a folder")
    if journal.holds_tournament(out_dir):
        raise _Refused(
            f"{out_dir} already holds a tournament: go on with it (fof evaluate --resume {out_dir}) "
            "or choose another --out folder"
        )
    try:
        options = parse_assignments(args.option or [], "--option")
    except OptionError as exc:
        raise _Refused(str(exc)) from None
    definition = journal.TournamentDefinition(
        game=args.game,
        options=options,  # replaced by the full options once the game is built
        agents=tuple(args.agents),
        games=games,
        seed=seed,
        mirror=not args.no_mirror,
        records=not args.no_records,
        started=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        command=("fof", *getattr(args, "argv", [])),
    )
    return definition, out_dir


def _saved_definition(args: argparse.Namespace):
    """The tournament saved in ``--resume OUT`` and its logged games (the log's torn tail cut off)."""
    from evaluation import journal

    given = [flag for key, flag in _DEFINING.items() if getattr(args, key, None) not in (None, False)]
    out_dir = Path(args.resume)
    if given:
        raise _Refused(
            f"--resume plays the tournament saved in {out_dir / journal.DEFINITION_FILE}; "
            f"leave out {', '.join(given)}"
        )
    try:
        definition = journal.read_definition(out_dir)
        done = journal.read_log(out_dir / journal.LOG_FILE)
    except (journal.LogError, journal.OutputError) as exc:
        raise _Refused(str(exc)) from None
    return definition, out_dir, done


def run_evaluate(args: argparse.Namespace, out: TextIO) -> int:
    """``fof evaluate``: see the module docstring."""
    try:
        return _evaluate(args, out)
    except _Refused as exc:
        print(f"fof evaluate: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # while checking the specs or starting Ray: no game played yet
        print("fof evaluate: stopped by Ctrl-C before the first game", file=sys.stderr)
        return 130


def _evaluate(args: argparse.Namespace, out: TextIO) -> int:
    import dataclasses

    from evaluation import journal
    from evaluation.executors import ExecutorUnavailable, make_executor
    from evaluation.interrupts import EXIT_STATUS, Terminated, sigterm_raises
    from evaluation.report import markdown_report, write_report
    from evaluation.tournament import AgentSpecError, TournamentError, plan_tournament, play_tournament
    from fof_env.core.errors import OptionError
    from fof_env.core.files import remove_stale_temporaries

    if args.workers < 1:
        raise _Refused("--workers must be at least 1")
    if args.address and args.backend != "ray":
        raise _Refused("--address needs --backend ray")
    resuming = bool(args.resume)
    if resuming:
        definition, out_dir, done = _saved_definition(args)
    else:
        (definition, out_dir), done = _new_definition(args), []
    try:
        plan = plan_tournament(definition.game, definition.options, list(definition.agents), definition.games,
                               seed=definition.seed, mirror=definition.mirror)
    except (AgentSpecError, OptionError, ValueError) as exc:
        raise _Refused(str(exc)) from None
    definition = dataclasses.replace(definition, options=plan.options)
    try:
        executor = make_executor(args.backend, args.workers, args.address)
    except (ExecutorUnavailable, ValueError) as exc:
        raise _Refused(str(exc)) from None
    log_path = out_dir / journal.LOG_FILE
    records_dir = out_dir / "records" if definition.records else None
    logged = len(done)

    def log_games(batch) -> None:
        nonlocal logged
        log.append(batch)
        logged += len(batch)

    try:
        # SIGTERM handled from here on (after ray.init, which sets a handler of its own)
        with sigterm_raises(), executor:
            if not resuming:
                journal.write_definition(out_dir, definition)
            elif records_dir is not None and records_dir.exists():
                remove_stale_temporaries(records_dir)
            with journal.GameLog(log_path) as log:
                result = play_tournament(plan, executor=executor, records_dir=records_dir,
                                         progress=not args.no_progress, done=done, on_games=log_games,
                                         started=definition.started or None)
    except journal.OutputError as exc:
        hint = f"; {logged} games are logged: fof evaluate --resume {out_dir}" if logged else ""
        raise _Refused(f"{exc}{hint}") from None
    except journal.LogError as exc:
        raise _Refused(f"{log_path}: {exc}") from None
    except TournamentError as exc:
        print(f"fof evaluate: {exc}; {logged} games are logged in {log_path}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, Terminated) as exc:
        what = "Ctrl-C" if isinstance(exc, KeyboardInterrupt) else "SIGTERM"
        # count what reached the file (a signal may land between a write and the count)
        with contextlib.suppress(journal.LogError, journal.OutputError):
            logged = len(journal.read_log(log_path, repair=False))
        print(
            f"fof evaluate: stopped by {what} after {logged} of {plan.total_games} games, all logged in "
            f"{log_path}; go on with: fof evaluate --resume {out_dir}",
            file=sys.stderr,
        )
        return EXIT_STATUS[type(exc)]
    try:
        paths = write_report(result, out_dir, with_html=not args.no_html, gifs=not args.no_gifs)
    except journal.OutputError as exc:
        raise _Refused(f"{exc} (every game is logged: fof evaluate --resume {out_dir} writes the report)") from None
    print(markdown_report(result), file=out)
    if resuming:
        print(f"Resumed: {result.resumed} games from {log_path}, "
              f"{result.total_games - result.resumed} played now.", file=out)
    print("Report: " + ", ".join(str(p) for p in paths.values()), file=out)
    if result.records_dir:
        print(
            f"Game records: {Path(result.records_dir) / result.game}/<side-0>__vs__<side-1>/NNNN.json", file=out
        )
        print(f"How each agent's games not won ended: python -m evaluation.endings {out_dir}", file=out)
    return 0


# ----------------------------------------------------------------------------- replay
def run_replay(args: argparse.Namespace, out: TextIO) -> int:
    """``fof replay``: see the module docstring."""
    from evaluation.replay import ReplayError, replay

    if args.every < 0:
        print("fof replay: --every must be >= 0", file=sys.stderr)
        return 2
    frames = _Frames(args.png, args.gif) if (args.png or args.gif) else None
    try:
        result = replay(args.record, every=args.every, out=None if args.quiet else out, on_frame=frames)
    except ReplayError as exc:
        print(f"fof replay: {args.record}: {exc}", file=sys.stderr)
        return 2
    except NotImplementedError as exc:  # no RGB renderer for this game
        print(f"fof replay: {exc}", file=sys.stderr)
        return 2
    if args.quiet:
        print(result.result_line(), file=out)
    if frames is not None:
        if frames.files:
            print(f"{len(frames.files)} PNG frames written to {frames.png_dir}", file=out)
        gif = frames.write_gif(args.frame_ms)
        if gif is not None:
            print(f"GIF written to {gif} ({len(frames.images)} frames)", file=out)
    if not result.verified:
        print(
            "fof replay: MISMATCH: the re-simulated game does not reproduce the record: "
            + "; ".join(result.problems),
            file=sys.stderr,
        )
        print("Verification FAILED: " + "; ".join(result.problems), file=out)
        return 1
    how = "from its dice seed" if result.seeded else "from its recorded dice rolls (the record has no seed)"
    print(
        f"Verified: re-simulated {how}, the final state equals the recorded final state exactly "
        "(same record: actions, dice rolls and dice state; same fingerprint).",
        file=out,
    )
    return 0
