"""Every relative link in README.md and docs/*.md points at a file that exists, and at a heading of it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE_BLOCK = re.compile(r"^```.*?^```", re.M | re.S)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it.

    >>> slug("`borne detect` on held-out 2-D scenes")
    'borne-detect-on-held-out-2-d-scenes'
    """
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = CODE_BLOCK.sub("", page.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*$", text, re.M)}


def relative_links(page: Path) -> list[str]:
    text = CODE_BLOCK.sub("", page.read_text(encoding="utf-8"))
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def test_there_are_pages_to_check():
    assert len(PAGES) > 1
    assert any(relative_links(p) for p in PAGES)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page: Path):
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {path}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {path or page.name}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)
