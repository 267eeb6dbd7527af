"""The shell examples of the README and docs/games.md run as written, at tiny budgets.

Every ``fof ...`` line of their ``sh`` blocks is run in order (the README's first), in one scratch folder,
through ``fof_env.cli.main``, with only its budget shrunk (``BUDGET``: fewer steps and games,
a smaller search, tiny training settings); commands that need a person (``human``) or that
other tests run (``make``, ``docs/examples/``) are left out, and said so here.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from fof_env import cli

ROOT = Path(__file__).resolve().parents[1]
PAGES = (ROOT / "README.md", ROOT / "docs" / "games.md")
_SH = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)

# the same command at a tiny budget: replaced values, and flags added per subcommand
BUDGET = {"--steps": "512", "--games": "2", "--workers": "1"}
SEARCH = {"mcts:100": "mcts:2"}
EXTRA = {
    "train": ["--envs", "1", "--n-steps", "128", "--batch-size", "64", "--n-epochs", "1", "--net-arch", "16",
              "--eval-every", "256", "--eval-games", "2", "--final-eval-games", "2",
              "--checkpoint-every", "256", "--no-progress"],
    "evaluate": ["--no-progress"],
}  # fmt: skip


def readme_commands() -> list[str]:
    """The ``fof`` command lines of the pages' sh blocks, comments dropped, in order."""
    lines = []
    blocks = [b for page in PAGES for b in _SH.findall(page.read_text(encoding="utf-8"))]
    for block in blocks:
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("fof ") and " human" not in line:
                lines.append(line)
    return lines


def tiny(argv: list[str]) -> list[str]:
    out = [SEARCH.get(a, a) for a in argv]
    for i, arg in enumerate(out[:-1]):
        if arg in BUDGET:
            out[i + 1] = BUDGET[arg]
    resume = "--resume" in out
    return out + ([] if resume else EXTRA.get(out[0], []))


def test_the_readme_has_the_examples_this_test_runs():
    commands = readme_commands()
    assert any(c.startswith("fof replay ") for c in commands) and any(c.startswith("fof train ") for c in commands)
    assert len(commands) >= 7


def test_every_readme_shell_example_runs_as_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for line in readme_commands():
        argv = tiny(shlex.split(line)[1:])
        status = cli.main(argv)
        captured = capsys.readouterr()
        assert status == 0, f"`{line}` (run as fof {' '.join(argv)}) exited {status}: {captured.err[-2000:]}"
    assert (tmp_path / "game.gif").stat().st_size > 0 and (tmp_path / "runs/sfo-soviet/model.safetensors").exists()
