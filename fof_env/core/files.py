"""Writing files so that a crash or a kill never leaves a half-written one."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_bytes_atomic(path: str | os.PathLike, data: bytes, mode: int | None = None) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder (``.NAME.PID.tmp``),
    fsynced, then renamed into place (``os.replace``): readers see the old file or the new one, never
    a part. ``mode`` (e.g. ``0o600``): the file's permissions from its creation on (None: the
    process's default). Raises ``OSError`` (the folder is missing or read-only, the disk is full ...)
    with the temporary file removed; a kill mid-write leaves only the temporary file
    (:func:`remove_stale_temporaries` clears those)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if mode is not None:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()  # a temporary left by a killed writer of the same pid
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            os.fchmod(fd, mode)  # whatever the umask
            fh = os.fdopen(fd, "wb")
        else:
            fh = open(tmp, "wb")  # noqa: SIM115 - closed by the with below
        with fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return path


def write_text_atomic(path: str | os.PathLike, text: str, mode: int | None = None) -> Path:
    """:func:`write_bytes_atomic` of ``text`` in UTF-8."""
    return write_bytes_atomic(path, text.encode("utf-8"), mode)


def remove_stale_temporaries(folder: str | os.PathLike) -> int:
    """Delete the ``.*.tmp`` files that an atomic write killed mid-way left in ``folder`` and below;
    returns how many."""
    removed = 0
    for tmp in Path(folder).rglob(".*.tmp"):
        with contextlib.suppress(OSError):
            tmp.unlink()
            removed += 1
    return removed


def check_writable_file(path: str | os.PathLike) -> str | None:
    """Why ``path`` cannot take a new file (its folder is missing, it is a folder, the folder is not
    writable), or None when it can: checked before long work whose result goes there."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        return f"{path} is a folder, not a file"
    if not folder.is_dir():
        return f"folder {folder} does not exist"
    if not os.access(folder, os.W_OK):
        return f"folder {folder} is not writable"
    return None
