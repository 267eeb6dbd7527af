"""The optional compiled build (fof_env/compiled.py) and the guard that keeps it from running stale
code (fof_env/compiled_guard.py): a module's extension is used only while the manifest holds its
source's hash; otherwise, or with FOF_COMPILED=0, the source is imported, with one warning."""

from __future__ import annotations

import importlib.machinery
import json
import sys
import warnings

import pytest

from fof_env import compiled, compiled_guard
from fof_env.compiled_guard import FORMAT, StaleGuard, source_hash

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


@pytest.fixture
def package(tmp_path):
    """A folder standing for a subpackage of fof_env: ``mod.py`` with an extension file beside it."""
    source = tmp_path / "mod.py"
    source.write_text("X = 1\n")
    (tmp_path / f"mod{SUFFIX}").write_bytes(b"not really a shared object")
    return tmp_path


def write_manifest(path, modules, fmt=FORMAT):
    path.write_text(json.dumps({"format": fmt, "modules": modules}))
    return path


def guard_of(manifest, folder, disabled=False):
    """A guard watching ``fof_env`` as if ``folder`` were ``fof_env/sub``."""
    return StaleGuard(manifest, disabled=disabled, watched={"fof_env": folder})


def find(guard, folder, name="fof_env.sub.mod"):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spec = guard.find_spec(name, [str(folder)])
    return spec, [str(w.message) for w in caught]


def test_a_fresh_build_is_left_to_the_normal_import(package, tmp_path):
    manifest = write_manifest(tmp_path / "m.json", {"fof_env.sub.mod": source_hash(package / "mod.py")})
    spec, warned = find(guard_of(manifest, package), package)
    assert spec is None and warned == []  # the path finder then loads the extension


def test_an_edited_source_is_imported_from_source_with_one_warning(package, tmp_path):
    manifest = write_manifest(tmp_path / "m.json", {"fof_env.sub.mod": source_hash(package / "mod.py")})
    (package / "mod.py").write_text("X = 2\n")
    guard = guard_of(manifest, package)
    spec, warned = find(guard, package)
    assert spec.origin == str(package / "mod.py")
    assert isinstance(spec.loader, importlib.machinery.SourceFileLoader)
    assert len(warned) == 1 and "fof_env.sub.mod changed since its compiled build" in warned[0]
    assert guard.stale == ["fof_env.sub.mod"]


@pytest.mark.parametrize("text", ["", "{not json", json.dumps([1, 2]), json.dumps({"format": "other", "modules": {}}),
                                  json.dumps({"format": FORMAT, "modules": [1]})])  # fmt: skip
def test_no_readable_manifest_means_no_build(package, tmp_path, text):
    manifest = tmp_path / "m.json"
    manifest.write_text(text)
    spec, warned = find(guard_of(manifest, package), package)
    assert spec.origin == str(package / "mod.py") and len(warned) == 1


def test_a_missing_manifest_means_no_build(package, tmp_path):
    spec, _ = find(guard_of(tmp_path / "absent.json", package), package)
    assert spec.origin == str(package / "mod.py")


def test_fof_compiled_0_imports_every_module_from_source(package, tmp_path, monkeypatch):
    manifest = write_manifest(tmp_path / "m.json", {"fof_env.sub.mod": source_hash(package / "mod.py")})
    monkeypatch.setenv("FOF_COMPILED", "0")
    spec, warned = find(StaleGuard(manifest, watched={"fof_env": package}), package)
    assert spec.origin == str(package / "mod.py") and warned == []


def test_modules_without_an_extension_and_other_packages_are_not_touched(package, tmp_path):
    guard = guard_of(tmp_path / "absent.json", package)
    (package / "plain.py").write_text("Y = 1\n")
    assert find(guard, package, "fof_env.sub.plain") == (None, [])
    assert find(guard, package, "elsewhere.mod") == (None, [])
    assert guard.find_spec("fof_env", None) is None


def test_the_guard_is_first_on_the_meta_path_and_installed_once():
    assert getattr(sys.meta_path[0], "fof_stale_guard", False)
    assert compiled_guard.install() is sys.meta_path[0]
    assert sum(getattr(f, "fof_stale_guard", False) for f in sys.meta_path) == 1


def test_the_build_leaves_out_init_files_the_cli_the_app_and_itself():
    names = {name for name, _ in compiled.module_sources()}
    assert "fof_env.core.dice" in names and "fof_env.envs.gym_env" in names
    assert not any(n.endswith("__init__") or n.startswith(("fof_env.app", "fof_env.cli", "fof_env.compiled"))
                   for n in names)  # fmt: skip


def test_the_build_without_cython_says_so_in_one_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "Cython", None)
    monkeypatch.setitem(sys.modules, "Cython.Build", None)
    assert compiled.build() == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "needs Cython" in err[0]


def test_status_require_fails_without_a_whole_fresh_build(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(compiled, "read_manifest", lambda: {})
    monkeypatch.setattr(compiled, "extension_beside", lambda source: None)
    assert compiled.status(require=True) == 1
    assert compiled.status() == 0
    assert "0 modules run compiled" in capsys.readouterr().out


def test_the_guard_watches_fof_env_and_in_a_checkout_the_packages_beside_it(tmp_path):
    guard = StaleGuard(tmp_path / "absent.json", disabled=False)
    assert guard._scope("fof_env") == str(compiled_guard.PACKAGE_DIR)
    assert guard._scope("agents") == str(compiled_guard.PROJECT / "agents")
    assert guard._scope("numpy") is None and guard._scope("docs") is None  # not a package of the project
    (tmp_path / "mod.py").write_text("X = 1\n")
    (tmp_path / f"mod{SUFFIX}").write_bytes(b"")
    assert find(guard, tmp_path, "agents.mod") == (None, [])  # a folder outside the package: not its module


def test_agents_imports_the_guard_before_any_module_of_its_own():
    """``import agents`` in a fresh process must not load a compiled agents module unguarded."""
    import ast
    from pathlib import Path

    tree = ast.parse((Path(compiled.ROOT) / "agents" / "__init__.py").read_text())
    first = next(node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom)))
    assert isinstance(first, ast.Import) and first.names[0].name == "fof_env.compiled_guard"


def test_outside_a_checkout_only_fof_env_is_built_or_cleaned(monkeypatch, tmp_path):
    """Installed in site-packages, the build must never touch the packages beside fof_env."""
    monkeypatch.setattr(compiled_guard, "PROJECT", None)
    with pytest.raises(ValueError, match="'agents' is not a package the guard watches"):
        compiled.module_sources(("fof_env", "agents"))
    for package, module in (("fof_env", "a"), ("agents", "b")):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
        (tmp_path / package / f"{module}.py").write_text("X = 1\n")
        (tmp_path / package / f"{module}{SUFFIX}").write_bytes(b"")
    monkeypatch.setattr(compiled_guard, "PACKAGE_DIR", tmp_path / "fof_env")
    assert [name for name, _ in compiled.built_modules()] == ["fof_env.a"]
    monkeypatch.setattr(compiled_guard, "PROJECT", tmp_path)  # a checkout: the packages beside fof_env too
    assert [name for name, _ in compiled.built_modules()] == ["fof_env.a", "agents.b"]
