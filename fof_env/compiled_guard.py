"""Lets a compiled build run only while it is fresh (the build: :mod:`fof_env.compiled`).

Python prefers an extension module to the source beside it, so an edited source would go on running
its old build. :class:`StaleGuard`, installed on ``sys.meta_path`` when this module is imported (and
``fof_env`` imports it first of all), stops that for every module of ``fof_env`` and, in a source
checkout (a folder with ``pyproject.toml`` above ``fof_env``), of every package beside it: a module
with an extension module beside its source is imported from the source instead when the build's
manifest (``fof_env/compiled.json``) does not hold the SHA-256 of the source as it is now (edited
since, or no readable manifest), with one warning naming it, or always when the environment sets
``FOF_COMPILED=0``. Without a build it does nothing.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

PACKAGE = "fof_env"
PACKAGE_DIR = Path(__file__).parent  # as the import system spells it in __path__
PROJECT = PACKAGE_DIR.parent if (PACKAGE_DIR.parent / "pyproject.toml").is_file() else None
MANIFEST = PACKAGE_DIR / "compiled.json"
FORMAT = "fof-compiled-1"
DISABLE_VARIABLE = "FOF_COMPILED"


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_fresh(manifest: dict[str, str], name: str, source: Path) -> bool:
    """Whether the build of module ``name`` was made from ``source`` as it is now."""
    return manifest.get(name) == source_hash(source)


def disabled_by_environment() -> bool:
    return os.environ.get(DISABLE_VARIABLE) == "0"


def watched_folders() -> dict[str, Path]:
    """Top-level package -> folder of every package the guard watches: fof_env and, in a source
    checkout, every package of the project folder."""
    folders = {PACKAGE: PACKAGE_DIR}
    if PROJECT is not None:
        for init in sorted(PROJECT.glob("*/__init__.py")):
            folders.setdefault(init.parent.name, init.parent)
    return folders


def extension_beside(source: Path) -> Path | None:
    """The extension module built beside ``source``, if any."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def read_manifest(path: Path = MANIFEST) -> dict[str, str]:
    """Module name -> source hash of the build; {} when there is none or it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    modules = data.get("modules") if isinstance(data, dict) and data.get("format") == FORMAT else None
    if not isinstance(modules, dict):
        return {}
    return {k: v for k, v in modules.items() if isinstance(k, str) and isinstance(v, str)}


class StaleGuard(importlib.abc.MetaPathFinder):
    """Imports a watched module from its source when the extension beside it is not vouched for.

    ``find_spec`` answers only for a module of a watched package (the module docstring) with an
    extension module beside its source: it returns the source's spec unless the manifest holds the
    source's current hash (and ``FOF_COMPILED`` is not ``0``), in which case it returns None and the
    normal import finds the extension. Every other import it leaves alone at once."""

    fof_stale_guard = True

    def __init__(self, manifest: Path = MANIFEST, disabled: bool | None = None,
                 watched: dict[str, Path] | None = None) -> None:  # fmt: skip
        """``watched``: top-level package -> its folder, instead of :func:`watched_folders`."""
        self.manifest_path = manifest
        self.disabled = disabled_by_environment() if disabled is None else disabled
        self._manifest: dict[str, str] | None = None
        self._watched = watched
        self._scopes: dict[str, str] | None = None  # read on the first import it is asked about
        self.stale: list[str] = []

    def find_spec(self, fullname: str, path=None, target=None):
        if not path or "." not in fullname:
            return None
        scope = self._scope(fullname.partition(".")[0])
        if scope is None:
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path:
            source = Path(entry) / f"{leaf}.py"
            if not (entry == scope or entry.startswith(scope + os.sep)) or not source.is_file():
                continue
            if extension_beside(source) is None or self._vouched(fullname, source):
                return None
            return importlib.util.spec_from_file_location(fullname, source)
        return None

    def _scope(self, top: str) -> str | None:
        """The folder of top-level package ``top`` if the guard watches it, else None."""
        if self._scopes is None:
            watched = watched_folders() if self._watched is None else self._watched
            self._scopes = {name: str(folder) for name, folder in watched.items()}
        return self._scopes.get(top)

    def _vouched(self, fullname: str, source: Path) -> bool:
        if self.disabled:
            return False
        if self._manifest is None:
            self._manifest = read_manifest(self.manifest_path)
        if is_fresh(self._manifest, fullname, source):
            return True
        self.stale.append(fullname)
        warnings.warn(f"fof_env: {fullname} changed since its compiled build (or the build's manifest is "
                      f"missing); importing it from {source.name}. Run `make compiled` again, or "
                      "`make compiled-clean`.", RuntimeWarning, stacklevel=2)  # fmt: skip
        return False


def install() -> StaleGuard:
    """Put a :class:`StaleGuard` first on ``sys.meta_path`` (once per process)."""
    for finder in sys.meta_path:
        if getattr(finder, "fof_stale_guard", False):  # (a reloaded module's guard too)
            return finder
    guard = StaleGuard()
    sys.meta_path.insert(0, guard)
    return guard


install()
