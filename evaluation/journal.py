"""A tournament's folder on disk, written so that a kill at any moment loses nothing logged.

``OUT/tournament.json`` (:class:`TournamentDefinition`) says what the tournament is:
game, full options, agent specs, games per pairing, seed, mirror pairings, records
on/off (plus, for information, when it started and the command). It is written
once, atomically, before the first game.

``OUT/games.jsonl`` (:class:`GameLog`) holds one line per finished game, the
``GameOutcome.to_dict()`` of :mod:`evaluation.tallies`, appended as soon as the
parent process receives it: each batch is written, flushed and ``os.fsync``-ed.
A kill can only tear the last line: :func:`read_log` drops an incomplete final
line (one without its newline) and truncates the file to the complete lines; any
other bad line is an error (the log was edited or damaged, not torn).

Every whole file is written by :func:`fof_env.core.files.write_text_atomic`: a temporary file in the
same folder, then ``os.replace``, so a reader sees the old file or the new one,
never half of one. A failed write raises :class:`OutputError` naming the file and
the system's reason.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from evaluation.tallies import GameOutcome
from fof_env.core.files import write_text_atomic

DEFINITION_FILE = "tournament.json"
LOG_FILE = "games.jsonl"
DEFINITION_FORMAT = "fof-tournament-definition/1"


class OutputError(RuntimeError):
    """A file of the tournament folder could not be written (``str()``: ``cannot write PATH: reason``)."""

    def __init__(self, path: str | os.PathLike, reason: str):
        super().__init__(f"cannot write {path}: {reason}")
        self.path = Path(path)
        self.reason = reason

    @classmethod
    def from_os_error(cls, path: str | os.PathLike, exc: OSError) -> OutputError:
        return cls(path, exc.strerror or str(exc))


class LogError(ValueError):
    """A tournament folder that cannot be resumed (no definition, a damaged definition or log)."""


# ----------------------------------------------------------------------------- definition
@dataclass(frozen=True)
class TournamentDefinition:
    """Everything that decides a tournament's games (``OUT/tournament.json``).

    ``options`` are the game's full options (defaults included), ``agents`` the spec
    strings in the order given; ``started`` (ISO time) and ``command`` are kept for
    information only and never compared.
    """

    game: str
    options: dict[str, Any]
    agents: tuple[str, ...]
    games: int
    seed: int
    mirror: bool
    records: bool
    started: str = ""
    command: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["agents"] = list(self.agents)
        data["command"] = list(self.command)
        return {"format": DEFINITION_FORMAT, **data}

    @classmethod
    def from_dict(cls, data: Any) -> TournamentDefinition:
        """Parse :meth:`to_dict` output; :class:`LogError` if it is not one."""
        if not isinstance(data, dict) or data.get("format") != DEFINITION_FORMAT:
            raise LogError(f"not a tournament definition (format {DEFINITION_FORMAT!r} expected)")
        try:
            out = cls(
                game=str(data["game"]),
                options=dict(data["options"]),
                agents=tuple(str(a) for a in data["agents"]),
                games=int(data["games"]),
                seed=int(data["seed"]),
                mirror=bool(data["mirror"]),
                records=bool(data["records"]),
                started=str(data.get("started", "")),
                command=tuple(str(c) for c in data.get("command", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise LogError(f"damaged tournament definition: {type(exc).__name__}: {exc}") from None
        return out


def holds_tournament(out_dir: str | os.PathLike) -> bool:
    """True if ``out_dir`` already holds a tournament (its definition or its game log)."""
    out = Path(out_dir)
    return (out / DEFINITION_FILE).exists() or (out / LOG_FILE).exists()


def write_definition(out_dir: str | os.PathLike, definition: TournamentDefinition) -> Path:
    """Create ``out_dir`` (and parents) and write ``tournament.json`` into it, atomically.

    On failure, the folders this call created are removed again and
    :class:`OutputError` names the file that could not be written."""
    out = Path(out_dir)
    created = [p for p in (out, *out.parents) if not p.exists()]
    path = out / DEFINITION_FILE
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, json.dumps(definition.to_dict(), indent=1) + "\n")
    except OSError as exc:
        for folder in created:  # innermost first
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise OutputError.from_os_error(path, exc) from None
    return path


def read_definition(out_dir: str | os.PathLike) -> TournamentDefinition:
    """``OUT/tournament.json`` as a :class:`TournamentDefinition`; :class:`LogError` if missing or bad."""
    path = Path(out_dir) / DEFINITION_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LogError(f"no tournament to resume in {out_dir} (no {DEFINITION_FILE})") from None
    except OSError as exc:
        raise LogError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(f"{path}: not JSON ({exc})") from None
    return TournamentDefinition.from_dict(data)


# ----------------------------------------------------------------------------- game log
def read_log(path: str | os.PathLike, *, repair: bool = True) -> list[GameOutcome]:
    """The outcomes logged in ``path`` (none if it does not exist).

    An incomplete final line (a kill in mid-write) is ignored and, with ``repair``,
    cut off the file. Any other line that is not a logged outcome raises
    :class:`LogError` with its line number."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise LogError(f"cannot read {path}: {exc.strerror or exc}") from None
    complete = data.rfind(b"\n") + 1  # bytes up to the end of the last whole line
    outcomes = []
    for number, line in enumerate(data[:complete].splitlines(), start=1):
        if not line.strip():
            continue
        try:
            outcomes.append(GameOutcome.from_dict(json.loads(line)))
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise LogError(f"{path}, line {number}: not a logged game ({type(exc).__name__}: {exc})") from None
    if repair and complete < len(data):
        try:
            os.truncate(path, complete)
        except OSError as exc:
            raise OutputError.from_os_error(path, exc) from None
    return outcomes


class GameLog:
    """``OUT/games.jsonl``, opened for appending (created if missing)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        try:
            self._fh = self.path.open("a", encoding="utf-8")
        except OSError as exc:
            raise OutputError.from_os_error(self.path, exc) from None

    def append(self, outcomes: Sequence[GameOutcome]) -> None:
        """Append one line per outcome, flush and fsync (one ``fsync`` per call)."""
        if not outcomes:
            return
        text = "".join(json.dumps(o.to_dict(), separators=(",", ":")) + "\n" for o in outcomes)
        try:
            self._fh.write(text)
            self._fh.flush()
            os.fsync(self._fh.fileno())
        except OSError as exc:
            raise OutputError.from_os_error(self.path, exc) from None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._fh.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
