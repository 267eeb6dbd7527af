"""No generic module knows a game by name: the rulesets are plugins.

Every registered game id, every game's Gymnasium name and every scenario id of a ruleset's scenario
files appears only inside the rules packages (and the heuristic modules their rulesets name, part of
their plugin). The generic layers (core, envs, app, agents, training, evaluation) ask the rulesets'
records instead. Searched: every Python source file of ``fof_env``, ``agents``, ``training`` and
``evaluation``, docstrings and comments included (an example in a help text belongs in the ruleset's
own examples); not searched: tests, docs and data files (JSON, the model files), the Makefile's
recipes for the shipped models, and the browser board's script (``fof_env/app/static``), which still
keys its legend on game names.
"""

from __future__ import annotations

import re
from pathlib import Path

from fof_env.core.registry import game_specs, list_games, rulesets
from fof_env.core.ruleset import resolve

ROOT = Path(__file__).resolve().parent.parent
GENERIC = ("fof_env", "agents", "training", "evaluation")


def registered_ids() -> set[str]:
    """Every game id, Gymnasium name and scenario id the rulesets register."""
    ids = set(list_games()) | {spec.gym_name for spec in game_specs()}
    for ruleset in rulesets():
        if ruleset.scenario_files is not None:
            ids |= set(resolve(ruleset.scenario_files.catalog).scenario_ids())
    return ids


def plugin_files() -> tuple[set[Path], set[Path]]:
    """(the rules packages' folders, the heuristic modules their rulesets name)."""
    folders = {ROOT / Path(*r.package.split(".")) for r in rulesets()}
    hooks = [r.heuristic for r in rulesets()] + [spec.heuristic for spec in game_specs()]
    modules = {ROOT / Path(*hook.partition(":")[0].split(".")).with_suffix(".py") for hook in hooks if hook}
    return folders, modules


def generic_sources() -> list[Path]:
    folders, modules = plugin_files()
    out = []
    for top in GENERIC:
        for path in sorted((ROOT / top).rglob("*.py")):
            if path not in modules and not any(folder in path.parents for folder in folders):
                out.append(path)
    return out


def pattern(ids: set[str]) -> re.Pattern[str]:
    """An id as a word of its own: not inside a longer name of letters and digits (``_``, ``.``, ``/``,
    ``-`` and quotes end it, so ``make_game("an_id")``, ``an_id_potential`` and ``pkg/an_id`` match)."""
    words = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9])(?:{words})(?![A-Za-z0-9])")


def test_no_generic_source_file_names_a_game_or_a_scenario():
    ids = registered_ids()
    find = pattern(ids)
    hits = []
    for path in generic_sources():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            found = find.search(line)
            if found:
                hits.append(f"{path.relative_to(ROOT)}:{number}: {found.group(0)}")
    assert len(ids) >= 10 and len(generic_sources()) >= 80  # what was searched for, and where
    assert hits == []


def test_the_search_finds_the_names_where_they_belong():
    """The same search over the rules packages and their heuristic modules finds every game id there."""
    folders, modules = plugin_files()
    text = "\n".join(p.read_text(encoding="utf-8") for f in folders for p in f.rglob("*.py"))
    text += "\n".join(p.read_text(encoding="utf-8") for p in modules)
    assert {m.group(0) for m in pattern(set(list_games())).finditer(text)} == set(list_games())
    assert pattern({"an_id"}).findall('make_game("an_id") an_id_potential pkg/an_id.json AnId an_idx') == ["an_id"] * 3
