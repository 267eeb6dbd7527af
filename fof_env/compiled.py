"""An optional compiled build: the same modules, compiled by Cython, never run stale.

``make compiled`` (``python -m fof_env.compiled build --package fof_env --package agents``, with the
``compiled`` extra: Cython, and a C compiler) compiles every module of the packages named, unchanged,
into an extension module beside its source (``x.cpython-311-x86_64-linux-gnu.so`` next to ``x.py``).
Left out: ``__init__`` files, ``fof_env``'s command line, web app and these two modules, and any module
Cython cannot compile (the build names them). The C files and objects go to ``build/compiled/``; the
manifest ``fof_env/compiled.json``, written last and whole, records the SHA-256 of each source as it was
compiled. The code compiled is the Python code with Python's semantics (``annotation_typing`` off: no
annotation turns a value into a C type), so a compiled game is the same game, die for die; ``make
compiled-check`` replays every golden suite on the build.

**Never stale.** :mod:`fof_env.compiled_guard` imports a module from its source instead of its build
when the manifest does not hold the hash of the source as it is now (edited since, a build under way,
no readable manifest), with one warning, and every module from source when ``FOF_COMPILED=0``.

``python -m fof_env.compiled status`` lists what runs compiled (``--require``: exit 1 unless the whole
build is fresh and on); ``clean`` removes every extension module beside a source of the project.
Without a build nothing changes.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from fof_env.compiled_guard import (
    FORMAT,
    MANIFEST,
    PACKAGE,
    PACKAGE_DIR,
    disabled_by_environment,
    extension_beside,
    is_fresh,
    read_manifest,
    source_hash,
    watched_folders,
)

ROOT = PACKAGE_DIR.parent
BUILD_DIR = ROOT / "build" / "compiled"
LEFT_OUT = ("cli", "compiled", "compiled_guard", "app")  # first component under fof_env/ never compiled
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}
# The C compiler's warnings on generated code say nothing to a user.
QUIET = ["-w"] if os.name == "posix" else []


def module_sources(packages: tuple[str, ...] = (PACKAGE,)) -> list[tuple[str, Path]]:
    """``(dotted name, source)`` of every module a build of ``packages`` compiles: all but ``__init__``
    files and, in ``fof_env``, :data:`LEFT_OUT`. Only packages the guard watches can be built."""
    folders = watched_folders()
    out = []
    for package in packages:
        if package not in folders:
            raise ValueError(f"{package!r} is not a package the guard watches (fof_env; in a source checkout, "
                             f"the project's packages: {', '.join(folders)})")  # fmt: skip
        for name, path in _modules_of(folders[package]):
            if package == PACKAGE and name.split(".")[1] in LEFT_OUT:
                continue
            out.append((name, path))
    return out


def built_modules() -> list[tuple[str, Path]]:
    """``(dotted name, source)`` of every module the guard watches with an extension module beside its
    source, whatever the manifest says."""
    return [(name, path) for folder in watched_folders().values() for name, path in _modules_of(folder)
            if extension_beside(path) is not None]  # fmt: skip


def _modules_of(folder: Path) -> list[tuple[str, Path]]:
    """``(dotted name, source)`` of every module but the ``__init__`` files of the package in ``folder``."""
    return [(".".join((folder.name, *path.relative_to(folder).with_suffix("").parts)), path)
            for path in sorted(folder.rglob("*.py")) if path.name != "__init__.py"]  # fmt: skip


def build(packages: tuple[str, ...] = (PACKAGE,), jobs: int | None = None) -> int:
    """Compile :func:`module_sources` of ``packages`` and write the manifest last; the exit status."""
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
        from setuptools.command.build_ext import build_ext
    except ImportError as exc:
        print(f"fof_env.compiled: the build needs Cython and setuptools (pip install 'fof-env[compiled]'): {exc}",
              file=sys.stderr)  # fmt: skip
        return 2
    try:
        sources = module_sources(packages)
    except ValueError as exc:
        print(f"fof_env.compiled: {exc}", file=sys.stderr)
        return 2
    MANIFEST.unlink(missing_ok=True)  # until the new build is whole, nothing of an old one is trusted
    start = time.perf_counter()
    old_cwd = Path.cwd()
    os.chdir(ROOT)  # the C files name their sources relative to the project
    try:
        hashes, extensions, skipped = {}, [], []
        for name, source in sources:
            digest = source_hash(source)
            extension = Extension(name, [str(source.relative_to(ROOT))], extra_compile_args=QUIET)
            try:
                extensions += cythonize([extension], build_dir=str(BUILD_DIR), compiler_directives=DIRECTIVES,
                                        quiet=True)  # fmt: skip
            except Exception as exc:  # noqa: BLE001 - Cython reports a module it cannot compile in many ways
                skipped.append(f"{name} ({type(exc).__name__})")
                continue
            hashes[name] = digest
        print(f"fof_env.compiled: {len(extensions)} modules to C in {time.perf_counter() - start:.0f} s"
              + (f"; left as source: {', '.join(skipped)}" if skipped else ""))  # fmt: skip
        command = build_ext(Distribution({"ext_modules": extensions, "script_args": ["--quiet"]}))
        command.inplace = True
        command.build_temp = str(BUILD_DIR / "temp")
        command.build_lib = str(BUILD_DIR / "lib")
        command.parallel = jobs or os.cpu_count() or 1
        command.ensure_finalized()
        command.run()
    except Exception as exc:  # noqa: BLE001 - a compiler error: no manifest, so the sources run
        print(
            f"fof_env.compiled: the build failed ({type(exc).__name__}: {exc}); the sources run",
            file=sys.stderr,
        )
        return 1
    finally:
        os.chdir(old_cwd)
    _write_manifest(hashes)
    print(f"fof_env.compiled: {len(hashes)} modules compiled in {time.perf_counter() - start:.0f} s; "
          f"manifest {MANIFEST.relative_to(ROOT)}")  # fmt: skip
    return 0


def _write_manifest(hashes: dict[str, str]) -> None:
    """Write the manifest whole or not at all (a temporary file renamed over it)."""
    tmp = MANIFEST.with_suffix(".json.tmp")
    text = json.dumps({"format": FORMAT, "python": sys.version.split()[0], "modules": hashes}, indent=1,
                      sort_keys=True)  # fmt: skip
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(MANIFEST)


def status(require: bool = False) -> int:
    """Print which modules a new process would run compiled; with ``require``, 1 unless all of the build."""
    manifest = read_manifest()
    disabled = disabled_by_environment()
    fresh, stale = [], []
    for name, source in built_modules():
        (fresh if is_fresh(manifest, name, source) else stale).append(name)
    extra = sorted(set(manifest) - set(fresh) - set(stale))
    state = "off (FOF_COMPILED=0)" if disabled else f"{len(fresh)} modules run compiled"
    print(f"fof_env.compiled: {state}; {len(stale)} stale (run from source); {len(extra)} built but missing")
    for name in stale:
        print(f"  stale: {name}")
    for name in extra:
        print(f"  missing: {name}")
    if require and (disabled or not fresh or stale or extra):
        return 1
    return 0


def clean() -> int:
    """Remove every extension module beside a source of the project, the manifest and ``build/compiled``."""
    removed = 0
    for _, source in built_modules():
        while (ext := extension_beside(source)) is not None:
            ext.unlink()
            removed += 1
    MANIFEST.unlink(missing_ok=True)
    if BUILD_DIR.exists():
        import shutil

        shutil.rmtree(BUILD_DIR)
    print(f"fof_env.compiled: removed {removed} extension modules")
    return 0


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m fof_env.compiled", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compile the package's modules (needs Cython and a C compiler)")
    b.add_argument(
        "--package",
        action="append",
        default=None,
        metavar="NAME",
        help="a top-level package of the project to compile (repeatable; default: fof_env)",
    )
    b.add_argument("--jobs", type=int, default=None, help="parallel compiler jobs (default: the CPUs)")
    s = sub.add_parser("status", help="what runs compiled")
    s.add_argument("--require", action="store_true", help="exit 1 unless the whole build is fresh and on")
    sub.add_parser("clean", help="remove the build")
    args = parser.parse_args(argv)
    if args.command == "build":
        return build(tuple(dict.fromkeys(args.package or [PACKAGE])), args.jobs)
    if args.command == "status":
        return status(args.require)
    return clean()


if __name__ == "__main__":
    sys.exit(main())
