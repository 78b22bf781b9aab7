"""The documentation as the tests read it: pages, their fenced blocks with
their markers, their headings as GitHub names them, and their links."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]


def pages() -> list[Path]:
    """The pages whose links and examples are checked: the README, docs/,
    the examples' own READMEs and the panel's."""
    return [
        REPOSITORY / "README.md",
        *sorted((REPOSITORY / "docs").glob("*.md")),
        *sorted((REPOSITORY / "Examples").glob("*/README.md")),
        REPOSITORY / "panel" / "README.md",
    ]


def name(page: Path) -> str:
    """A page's path in the repository, for messages and test ids."""
    return page.relative_to(REPOSITORY).as_posix()


# A marker is an HTML comment on the line right above a fence: GitHub does
# not show it, and a reader of the source sees what the tests do with the block.
MARKER = re.compile(r"^\s*<!--\s*example:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^`\s]*)[^`]*$")


@dataclass
class Block:
    """A fenced block: its language (the info string's first word), its
    lines (the fence's indentation removed), and its marker, if any."""

    page: Path
    line: int  # 1-based line of the opening fence
    language: str
    lines: list[str]
    marker: str | None

    @property
    def where(self) -> str:
        return f"{name(self.page)}:{self.line}"

    @property
    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)


def blocks(page: Path) -> list[Block]:
    """Every fenced block of a page, in order."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        indent, fence, language = match.group(1), match.group(2), match.group(3)
        start = index
        body: list[str] = []
        index += 1
        while index < len(lines):
            closing = lines[index].strip()
            if closing.startswith(fence) and set(closing) == {fence[0]}:
                break
            line = lines[index]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            index += 1
        marker = None
        if start > 0:
            above = MARKER.match(lines[start - 1])
            if above:
                marker = above.group(1)
        found.append(Block(page, start + 1, language.lower(), body, marker))
        index += 1
    return found


def prose(page: Path) -> str:
    """A page without its fenced blocks and code spans: where links and
    headings are."""
    return "\n".join(re.sub(r"(`+)(?:(?!\1).)+?\1", "", line) for line in prose_with_code_spans(page).splitlines())


@dataclass
class Heading:
    level: int
    text: str
    anchor: str


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading (github-slugger): the rendered text,
    lowercased, without punctuation or symbols, spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links show their text
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.strip().lower()
    kept = []
    for character in text:
        category = unicodedata.category(character)
        if character in " -_" or category[0] in "LNM":
            kept.append(character)
    return "".join(kept).replace(" ", "-")


def headings(page: Path) -> list[Heading]:
    """A page's headings, with anchors numbered as GitHub numbers repeats."""
    seen: dict[str, int] = {}
    found: list[Heading] = []
    for line in prose_with_code_spans(page).splitlines():
        match = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.append(Heading(len(match.group(1)), match.group(2), base if count == 0 else f"{base}-{count}"))
    return found


def prose_with_code_spans(page: Path) -> str:
    """A page without its fenced blocks (headings keep their code spans)."""
    kept: list[str] = []
    fence: str | None = None
    for line in page.read_text(encoding="utf-8").splitlines():
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(2)
            kept.append("")
            continue
        if fence is not None:
            if line.strip().startswith(fence) and set(line.strip()) == {fence[0]}:
                fence = None
            kept.append("")
            continue
        kept.append(line)
    return "\n".join(kept)


@dataclass
class Link:
    page: Path
    line: int
    target: str


INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML_LINK = re.compile(r"""<(?:a|img)\s[^>]*?(?:href|src)=["']([^"']+)["']""")


def links(page: Path) -> list[Link]:
    """Every link and image of a page's prose (not in code)."""
    found: list[Link] = []
    for number, line in enumerate(prose(page).splitlines(), start=1):
        for pattern in (INLINE_LINK, REFERENCE_LINK, HTML_LINK):
            for match in pattern.finditer(line):
                found.append(Link(page, number, match.group(1)))
    return found
