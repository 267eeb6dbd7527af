"""The README's and docs/'s relative links and pictures lead somewhere: every ``[text](path#anchor)``
names a file of the repository and, for a Markdown file, one of its headings (GitHub's anchors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but ``-`` and ``_`` dropped, spaces to ``-``."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def prose(page: Path) -> str:
    """The page's text without its fenced code blocks (a ``#`` there is a comment, not a heading)."""
    return _FENCE.sub("", page.read_text(encoding="utf-8"))


def anchors(page: Path) -> set[str]:
    return {anchor(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", prose(page), re.M)}


def links(page: Path) -> list[str]:
    return [t for t in _LINK.findall(prose(page))
            if not re.match(r"[a-z]+:", t)]  # http:, https:, mailto: are not ours to check


def test_the_anchor_of_a_heading_follows_github():
    assert anchor("The league (`--side both`)") == "the-league---side-both"
    assert anchor("Ladders (measured)") == "ladders-measured"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading(page):
    broken = []
    for target in links(page):
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(f"{target}: no heading with the anchor #{fragment}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)
