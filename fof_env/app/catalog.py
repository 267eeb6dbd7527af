"""The server's own lists: the scenarios and the models a request may name, by id.

A client never names a file. A game's ``scenario`` option is the id of a shipped scenario or of one
in the operator's scenario folders (``fof serve --scenarios DIR`` / ``fof engine --scenarios DIR``:
every ``ID.json`` there, read by the ruleset its ``ruleset`` field names); a ``ppo`` bot's model is the
shipped model of its game and side (``ppo``) or a model id (``ppo:ID``): a shipped model's name
(``<game>-<side>``) or a model in the operator's model folders (``--models DIR``: every
``ID.safetensors`` with its card). Anything else is refused without touching the file system, in
the same words whether or not a file of that name exists.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fof_env.core import jsondata
from fof_env.core.registry import rulesets
from fof_env.core.ruleset import resolve


def scenario_games() -> list[str]:
    """The games whose 'scenario' option names a scenario file (each ruleset's scenario engine)."""
    return [r.scenario_files.game for r in rulesets() if r.scenario_files is not None]
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


class CatalogError(ValueError):
    """A request named something that is not on the server's lists (one line)."""


class Catalog:
    """The scenarios (per game) and models this server offers; see the module docstring."""

    def __init__(self, scenario_dirs: Iterable[str | Path] = (), model_dirs: Iterable[str | Path] = ()):
        # ruleset name -> (its scenario engine game, its scenario catalogue module)
        self._rulesets = {r.name: (r.scenario_files.game, resolve(r.scenario_files.catalog))
                          for r in rulesets() if r.scenario_files is not None}  # fmt: skip
        unmarked = [r.name for r in rulesets() if r.scenario_files is not None and r.scenario_files.claims_unmarked]
        self._unmarked = unmarked[0] if unmarked else None
        for folder in scenario_dirs:
            for path in sorted(Path(folder).glob("*.json")):
                self._add_scenario(path)
        from agents.ppo import MODEL_SUFFIX, shipped_models

        self.models: dict[str, Path] = {p.name[: -len(MODEL_SUFFIX)]: p for p in shipped_models()}
        for folder in model_dirs:
            for path in sorted(Path(folder).glob(f"*{MODEL_SUFFIX}")):
                model_id = path.name[: -len(MODEL_SUFFIX)]
                if not _ID.match(model_id) or model_id in self.models:
                    _warn(f"model {path.name}: its name is not a new id of letters, digits, '-' and '_'; left out")
                    continue
                self.models[model_id] = path.resolve()

    def _add_scenario(self, path: Path) -> None:
        scenario_id = path.name[:-5]
        where = f"scenario {path.name}"
        if not _ID.match(scenario_id):
            _warn(f"{where}: its name is not an id of letters, digits, '-' and '_'; left out")
            return
        try:
            if path.stat().st_size > (1 << 20):
                raise ValueError("larger than 1 MiB")
            data = jsondata.loads(path.read_bytes())
            ruleset = data.get("ruleset", self._unmarked) if isinstance(data, dict) else None
            if ruleset not in self._rulesets:
                raise ValueError(f"its ruleset {ruleset!r} is none of {', '.join(sorted(self._rulesets))}")
            self._rulesets[ruleset][1].register_scenario(scenario_id, path.resolve())
        except (OSError, ValueError) as exc:
            _warn(f"{where}: {exc}; left out")

    # ---- scenarios --------------------------------------------------------------------------
    def scenario_ids(self, game_name: str) -> list[str]:
        """The scenario ids game ``game_name`` takes (empty for a game with a fixed scenario)."""
        module = next((m for game, m in self._rulesets.values() if game == game_name), None)
        return module.scenario_ids() if module is not None else []

    def check_options(self, game_name: Any, options: dict[str, Any]) -> None:
        """CatalogError when ``options`` name a scenario this server does not list."""
        if game_name not in scenario_games() or "scenario" not in options:
            return
        value = options["scenario"]
        ids = self.scenario_ids(game_name)
        if not isinstance(value, str) or value not in ids:
            shown = repr(value) if isinstance(value, str) and len(value) <= 80 else "that"
            raise CatalogError(
                f"scenario {shown} is not a scenario of this server; {game_name} scenarios: {', '.join(ids)}"
            )

    # ---- models -----------------------------------------------------------------------------
    def model_path(self, model_id: Any) -> Path:
        """The weights file of model ``model_id``; CatalogError listing the ids otherwise."""
        path = self.models.get(model_id) if isinstance(model_id, str) else None
        if path is None:
            shown = repr(model_id) if isinstance(model_id, str) and len(model_id) <= 80 else "that"
            raise CatalogError(
                f"model {shown} is not a model of this server (clients name models by id, never by path); "
                f"models: {', '.join(sorted(self.models)) or 'none'}"
            )
        return path


def _warn(text: str) -> None:
    print(f"fof: {text}", file=sys.stderr)
