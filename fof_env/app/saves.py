"""Saves and lines of play: who may load a save, and when loading it would be a takeback.

**Owners and tokens.** A save belongs to the connection that made it. Each connection has a token
(made on its first save, sent in every ``save`` reply); another connection (a reconnecting page, a
restarted front end) loads those saves by giving the token, and from then on shares them. Only
the token's SHA-256 is kept, in memory and in save files. A save that is not yours reads exactly
like one that does not exist.

**Lines.** A game between a front end and a bot that is not a practice game is one *line* of play.
Its saves are bookmarks, not branch points: a save loads only while the line stands where the
save was made (no decision played since) and is not over, and loading it closes the line's game
still open, so there is never a second copy to explore the future with. Games without a bot, games
between bots and practice games have no line: their saves load any number of times.

**Bounds.** At most ``max_saves`` saves, ``max_per_owner`` per connection (or token); a save not
loaded for ``idle_s`` seconds is deleted. With a ``folder`` every save is also a file
``<save id>.json`` there (mode 0600 in a 0700 folder, written whole through a temporary file and
``os.replace``), deleted when it expires; a server restarted on the same folder loads them by id
and token, and rebuilds a line from the newest of its saves on disk (what was played after that
save, before the restart, is not known to it).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fof_env.core import jsondata
from fof_env.core.files import write_text_atomic

SAVE_FORMAT = "fof-save/1"
MAX_SAVE_FILE_BYTES = 8 << 20
_SAVE_ID = re.compile(r"^s[0-9a-f]{32}$")
DISK_SWEEP_S = 60.0


class SaveError(ValueError):
    """A save refused or not found (one line)."""


@dataclass
class Line:
    """One line of play against a bot: how far it has gone, and its game now open (if any)."""

    id: str
    decisions: int
    over: bool = False
    game: str | None = None
    touched: float = 0.0


@dataclass
class Save:
    id: str
    record: str  # the game record with its session block (JSON text)
    token_hash: str
    line: str | None
    decisions: int
    over: bool
    touched: float


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class SaveStore:
    """The saves and lines of one engine (thread-safe). See the module docstring."""

    def __init__(self, folder: str | Path | None, *, max_saves: int, max_per_owner: int, idle_s: float):
        self.folder = Path(folder) if folder is not None else None
        self.max_saves = int(max_saves)
        self.max_per_owner = int(max_per_owner)
        self.idle_s = float(idle_s)
        self.saves: dict[str, Save] = {}
        self.lines: dict[str, Line] = {}
        self._tokens: dict[Any, str] = {}
        self._lock = threading.Lock()
        self._disk_swept = 0.0

    def __len__(self) -> int:
        return len(self.saves)

    # ---- tokens ------------------------------------------------------------------------------
    def token(self, owner: Any) -> str:
        """``owner``'s token (made on first use)."""
        with self._lock:
            token = self._tokens.get(owner)
            if token is None:
                token = self._tokens[owner] = secrets.token_urlsafe(24)
            return token

    def forget_owner(self, owner: Any) -> None:
        with self._lock:
            self._tokens.pop(owner, None)

    # ---- lines -------------------------------------------------------------------------------
    def new_line(self, decisions: int) -> Line:
        line = Line("l" + secrets.token_hex(8), decisions, touched=time.monotonic())
        with self._lock:
            self.lines[line.id] = line
        return line

    def note(self, line: Line, decisions: int, over: bool) -> None:
        """``line``'s game now stands after ``decisions`` decisions (``over``: it has ended)."""
        line.decisions = decisions
        line.over = line.over or over
        line.touched = time.monotonic()

    # ---- saving ------------------------------------------------------------------------------
    def put(self, owner: Any, record: str, line: Line | None, decisions: int, over: bool) -> tuple[str, str]:
        """Keep ``record`` as a new save of ``owner``; (save id, ``owner``'s token). SaveError past a quota."""
        token = self.token(owner)
        digest = token_hash(token)
        now = time.monotonic()
        save = Save("s" + secrets.token_hex(16), record, digest, line.id if line else None, decisions, over, now)
        with self._lock:
            mine = sum(1 for s in self.saves.values() if s.token_hash == digest)
            if mine >= self.max_per_owner:
                raise SaveError(
                    f"this connection holds {mine} saves, its limit; saves not loaded for {self.idle_s:g} s are deleted"
                )
            if len(self.saves) >= self.max_saves:
                raise SaveError(f"the server holds {len(self.saves)} saves, its limit; try again later")
            self.saves[save.id] = save
        if self.folder is not None:
            try:
                self._write(save)
            except OSError as exc:
                with self._lock:
                    self.saves.pop(save.id, None)
                raise SaveError(f"the save could not be written: {exc.strerror or type(exc).__name__}") from None
        return save.id, token

    def _write(self, save: Save) -> None:
        folder = self.folder
        if not folder.is_dir():
            folder.mkdir(parents=True, mode=0o700)
            os.chmod(folder, 0o700)
        envelope = {
            "format": SAVE_FORMAT,
            "id": save.id,
            "token_sha256": save.token_hash,
            "line": save.line,
            "decisions": save.decisions,
            "over": save.over,
            "record": json.loads(save.record),
        }
        write_text_atomic(folder / f"{save.id}.json", json.dumps(envelope), mode=0o600)

    # ---- loading -----------------------------------------------------------------------------
    def get(self, save_id: str, owner: Any, token: str | None) -> Save:
        """The save ``save_id`` if it is ``owner``'s or ``token``'s (the owner then shares the token);
        SaveError in the same words whether it is someone else's or does not exist."""
        missing = SaveError(f"no save {save_id!r:.70} (ids come from 'save'; another connection's saves need its token)")
        with self._lock:
            save = self.saves.get(save_id)
        if save is None:
            save = self._read(save_id)
            if save is None:
                raise missing
        with self._lock:
            current = self._tokens.get(owner)
        mine = current is not None and hmac.compare_digest(token_hash(current), save.token_hash)
        if not mine:
            if not token or not hmac.compare_digest(token_hash(token), save.token_hash):
                raise missing
            with self._lock:
                self._tokens[owner] = token
        with self._lock:
            self.saves.setdefault(save.id, save)
        save.touched = time.monotonic()
        if self.folder is not None:
            with contextlib.suppress(OSError):
                os.utime(self.folder / f"{save.id}.json")
        return save

    def _read(self, save_id: str) -> Save | None:
        """A save from the folder (a server restarted on it), or None."""
        if self.folder is None or not _SAVE_ID.match(save_id):
            return None
        envelope = _read_envelope(self.folder / f"{save_id}.json")
        if envelope is None or envelope.get("id") != save_id:
            return None
        try:
            return Save(save_id, json.dumps(envelope["record"]), str(envelope["token_sha256"]), envelope.get("line"),
                        int(envelope["decisions"]), bool(envelope["over"]), time.monotonic())  # fmt: skip
        except (TypeError, ValueError):
            return None

    def line_of(self, save: Save) -> Line | None:
        """The line ``save`` belongs to (rebuilt from the folder's newest save of it after a restart)."""
        if save.line is None:
            return None
        with self._lock:
            line = self.lines.get(save.line)
        if line is None:
            decisions, over = save.decisions, save.over
            for envelope in self._envelopes():
                if envelope.get("line") == save.line and isinstance(envelope["decisions"], int):
                    decisions = max(decisions, envelope["decisions"])
                    over = over or bool(envelope["over"])
            line = Line(save.line, decisions, over, touched=time.monotonic())
            with self._lock:
                line = self.lines.setdefault(save.line, line)
        return line

    def _envelopes(self):
        if self.folder is None or not self.folder.is_dir():
            return
        for path in self.folder.glob("s*.json"):
            envelope = _read_envelope(path)
            if envelope is not None:
                yield envelope

    # ---- expiry ------------------------------------------------------------------------------
    def sweep(self, now: float, live_lines: set[str]) -> None:
        """Delete the saves not loaded for ``idle_s`` seconds (and their files), and the lines that no
        save and no open game (``live_lines``) refer to any more."""
        with self._lock:
            old = [s for s in self.saves.values() if now - s.touched > self.idle_s]
            for save in old:
                del self.saves[save.id]
            kept = {s.line for s in self.saves.values()} | live_lines
            for line_id in [i for i in self.lines if i not in kept]:
                del self.lines[line_id]
        if self.folder is not None:
            for save in old:
                with contextlib.suppress(OSError):
                    (self.folder / f"{save.id}.json").unlink()
            if now - self._disk_swept > DISK_SWEEP_S or old:
                self._disk_swept = now
                self._sweep_folder()

    def _sweep_folder(self) -> None:
        """Files past ``idle_s`` (a save of an earlier run never loaded since) or past ``max_saves``."""
        if not self.folder.is_dir():
            return
        files = []
        wall = time.time()
        for path in self.folder.glob("s*.json"):
            with contextlib.suppress(OSError):
                files.append((path.stat().st_mtime, path))
        files.sort(reverse=True)
        for i, (mtime, path) in enumerate(files):
            if i >= self.max_saves or wall - mtime > self.idle_s:
                with contextlib.suppress(OSError):
                    path.unlink()


def _read_envelope(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_SAVE_FILE_BYTES + 1)
        if len(data) > MAX_SAVE_FILE_BYTES:
            return None
        envelope = jsondata.loads(data, max_depth=256)
    except (OSError, ValueError):
        return None
    if not isinstance(envelope, dict) or envelope.get("format") != SAVE_FORMAT:
        return None
    if not all(k in envelope for k in ("token_sha256", "decisions", "over", "record")):
        return None
    return envelope
