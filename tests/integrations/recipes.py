"""The library recipes of docs/rl_libraries.md: its fenced blocks whose first line is ``# recipe: NAME``."""

from __future__ import annotations

import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rl_libraries.md"
SECTION = "# Use it with other RL libraries"
RECIPES = ("sb3", "torchrl", "cleanrl", "rllib", "pettingzoo")
_BLOCK = re.compile(r"^```(?:python|sh)\n# recipe: (\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def readme_recipes(readme: Path = PAGE) -> dict[str, str]:
    """``{name: code}`` of every recipe block in the section (the tag line dropped)."""
    text = readme.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    section = text[start : end if end >= 0 else len(text)]
    return {name: code for name, code in _BLOCK.findall(section)}
