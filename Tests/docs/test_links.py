"""Links between the pages: every file a link names exists, every heading it
names (`#anchor`, as GitHub makes anchors) exists, and the README links to
every page of docs/. Links to other sites are not followed."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from doc_pages import REPOSITORY, headings, links, name, pages

# The README is what a newcomer reads first: it should fit on a few screens.
README_MOST_LINES = 300


def is_external(target: str) -> bool:
    return bool(re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE))


@pytest.mark.parametrize("page", pages(), ids=[name(page) for page in pages()])
def test_links_name_files_and_headings_that_exist(page):
    problems = []
    for link in links(page):
        if is_external(link.target):
            continue
        path_part, _, anchor = link.target.partition("#")
        target: Path = (page.parent / unquote(path_part)).resolve() if path_part else page
        if not target.exists():
            problems.append(f"{name(page)}:{link.line}: {link.target}: no such file")
            continue
        if REPOSITORY not in target.parents and target != REPOSITORY:
            problems.append(f"{name(page)}:{link.line}: {link.target}: outside the repository")
            continue
        if anchor:
            if target.suffix != ".md":
                problems.append(f"{name(page)}:{link.line}: {link.target}: an anchor in a file that is not Markdown")
                continue
            anchors = {heading.anchor for heading in headings(target)}
            if unquote(anchor) not in anchors:
                near = sorted(anchors, key=lambda candidate: -len(set(candidate) & set(anchor)))[:3]
                problems.append(
                    f"{name(page)}:{link.line}: {link.target}: no such heading in {name(target)} "
                    f"(some it has: {', '.join('#' + candidate for candidate in near)})"
                )
    assert not problems, "\n".join(problems)


def test_the_readme_links_to_every_page_of_the_docs():
    linked = {
        (REPOSITORY / unquote(link.target.partition("#")[0])).resolve()
        for link in links(REPOSITORY / "README.md")
        if not is_external(link.target)
    }
    missing = [name(page) for page in sorted((REPOSITORY / "docs").glob("*.md")) if page.resolve() not in linked]
    assert not missing, f"pages of docs/ the README does not link to: {missing}"


def test_the_readme_fits_on_a_screen():
    lines = (REPOSITORY / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines < README_MOST_LINES, (
        f"README.md has {lines} lines: keep what a newcomer reads first, and move the rest to docs/"
    )


def test_anchors_are_made_as_github_makes_them():
    from doc_pages import slug

    assert slug("Limits: no local user can stall or exhaust lprojd") == "limits-no-local-user-can-stall-or-exhaust-lprojd"
    assert slug("Pseudo-locales: `en-XA` and `ar-XB`") == "pseudo-locales-en-xa-and-ar-xb"
    assert slug("What lprojd means by…") == "what-lprojd-means-by"
    assert slug("Formatting in each client's language") == "formatting-in-each-clients-language"
    assert slug("I/O at the edges") == "io-at-the-edges"
    assert slug("The soak (`make soak`)") == "the-soak-make-soak"
    assert slug("C, for GTK and other GLib apps") == "c-for-gtk-and-other-glib-apps"
