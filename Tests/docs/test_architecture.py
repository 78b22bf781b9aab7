"""docs/architecture.md against the code: every target of Package.swift has
a paragraph, each paragraph's `Imports:` line is what the target's Swift
files import, and every module a file imports is one its target declares."""

from __future__ import annotations

import json
import os
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

from doc_pages import REPOSITORY

ARCHITECTURE = REPOSITORY / "docs" / "architecture.md"

# The platform's own modules: every target may use them without declaring
# them, and the architecture is not about them. Foundation is not among
# them: which targets take Foundation is a choice the architecture states
# (the pure targets avoid it, or use it only where its behaviour is the
# specification), so it is listed in `Imports:` and only exempt from being
# declared in Package.swift.
PLATFORM = {
    "Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Distributed", "Observation",
    "Synchronization", "Dispatch", "Glibc", "Musl", "Darwin", "os", "XCTest", "Testing",
}  # fmt: skip
FOUNDATION = {"Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML"}

IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)"
)


@cache
def package() -> dict:
    """Package.swift as SwiftPM reads it."""
    swift = os.environ.get("SWIFT", "swift")
    result = subprocess.run(
        [swift, "package", "dump-package"], cwd=REPOSITORY, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, f"swift package dump-package failed:\n{result.stderr}"
    return json.loads(result.stdout)


def targets(kinds: tuple[str, ...] = ("regular", "executable", "system", "test")) -> list[dict]:
    return [target for target in package()["targets"] if target["type"] in kinds]


def documented_targets() -> list[str]:
    """The targets that must have a paragraph: every one but the test targets."""
    return [target["name"] for target in targets(("regular", "executable", "system"))]


def directory(target: dict) -> Path:
    if target.get("path"):
        return REPOSITORY / target["path"]
    return REPOSITORY / ("Tests" if target["type"] == "test" else "Sources") / target["name"]


def imports(target: dict) -> dict[str, list[str]]:
    """The modules a target's Swift files import, each with the files that do."""
    found: dict[str, list[str]] = {}
    for path in sorted(directory(target).rglob("*.swift")):
        for line in code_lines(path.read_text(encoding="utf-8")):
            match = IMPORT.match(line)
            if match:
                found.setdefault(match.group(1), []).append(path.relative_to(REPOSITORY).as_posix())
    return found


def code_lines(text: str) -> list[str]:
    """A Swift file's lines outside multi-line strings and block comments
    (where `import` may be Python's, or an example's)."""
    kept = []
    in_string = in_comment = False
    for line in text.splitlines():
        outside = not in_string and not in_comment
        in_string ^= line.count('"""') % 2 == 1
        if not in_string:
            opened, closed = line.rfind("/*"), line.rfind("*/")
            if opened > closed:
                in_comment = True
            elif closed > opened:
                in_comment = False
        if outside:
            kept.append(line)
    return kept


def declared(target: dict) -> set[str]:
    """The modules Package.swift lets a target import: its target and
    product dependencies (each product here is a module of the same name)."""
    names = set()
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(dependency[kind][0])
    return names


class Paragraph:
    """A target's section of docs/architecture.md: a heading that is only
    the target's name in backticks, and in it one `Imports:` line and at
    most one `Not declared in Package.swift:` line. A test target has a row
    of a table instead, whose first cell is its name in backticks and whose
    last cell names what Package.swift does not declare."""

    def __init__(self, name: str, line: int):
        self.name = name
        self.line = line
        self.imports: set[str] | None = None
        self.undeclared: set[str] | None = None
        self.problems: list[str] = []


def names(text: str) -> set[str]:
    text = text.strip().rstrip(".")
    if text.lower() == "none":
        return set()
    found = set()
    for item in text.split(","):
        match = re.fullmatch(r"\s*`([A-Za-z_][A-Za-z0-9_-]*)`\s*", item)
        if not match:
            raise ValueError(f"expected `Module`, `Module`, … or none, found {item.strip()!r}")
        found.add(match.group(1))
    return found


@cache
def paragraphs() -> dict[str, Paragraph]:
    found: dict[str, Paragraph] = {}
    current: Paragraph | None = None
    in_fence = False
    for number, line in enumerate(ARCHITECTURE.read_text(encoding="utf-8").splitlines(), start=1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        if in_fence:
            continue
        heading = re.match(r"^(#{1,6})\s+(.*?)\s*$", line)
        if heading:
            target = re.fullmatch(r"`([A-Za-z_][A-Za-z0-9_-]*)`", heading.group(2))
            current = None
            if target:
                current = Paragraph(target.group(1), number)
                if current.name in found:
                    current.problems.append(f"a second paragraph at line {number}")
                found.setdefault(current.name, current)
            continue
        row = re.match(r"^\|\s*`([A-Za-z_][A-Za-z0-9_-]*)`\s*\|.*\|\s*([^|]*?)\s*\|\s*$", line)
        if row:
            # A test target's row: its last cell names what is not declared.
            paragraph = Paragraph(row.group(1), number)
            try:
                paragraph.undeclared = names(row.group(2))
            except ValueError as error:
                paragraph.problems.append(f"line {number}: {error}")
            if paragraph.name in found:
                found[paragraph.name].problems.append(f"a second entry at line {number}")
            found.setdefault(paragraph.name, paragraph)
            continue
        if current is None:
            continue
        for label, attribute in (("Imports:", "imports"), ("Not declared in Package.swift:", "undeclared")):
            if line.startswith(label):
                if getattr(current, attribute) is not None:
                    current.problems.append(f"a second {label!r} line at line {number}")
                try:
                    setattr(current, attribute, names(line[len(label):]))
                except ValueError as error:
                    current.problems.append(f"line {number}: {error}")
    return found


def listed(modules: set[str]) -> str:
    return ", ".join(f"`{module}`" for module in sorted(modules)) or "none"


def test_every_target_has_a_paragraph():
    missing = [name for name in documented_targets() if name not in paragraphs()]
    assert not missing, f"targets of Package.swift without a paragraph (### `Name`) in docs/architecture.md: {missing}"


def test_every_test_target_has_a_row():
    missing = [target["name"] for target in targets(("test",)) if target["name"] not in paragraphs()]
    assert not missing, f"test targets without a row in docs/architecture.md's table of test targets: {missing}"


def test_every_paragraph_is_a_target():
    known = {target["name"] for target in targets()}
    unknown = [name for name in paragraphs() if name not in known]
    assert not unknown, f"docs/architecture.md has paragraphs for targets Package.swift does not have: {unknown}"


@pytest.mark.parametrize("name", documented_targets())
def test_a_paragraph_states_its_targets_imports(name):
    paragraph = paragraphs().get(name)
    if paragraph is None:
        pytest.skip("no paragraph (test_every_target_has_a_paragraph fails)")
    assert not paragraph.problems, f"docs/architecture.md, `{name}`: " + "; ".join(paragraph.problems)
    assert paragraph.imports is not None, f"docs/architecture.md, `{name}` (line {paragraph.line}) has no 'Imports:' line"
    target = next(target for target in targets() if target["name"] == name)
    actual = {module for module in imports(target) if module not in PLATFORM}
    assert paragraph.imports == actual, (
        f"docs/architecture.md says `{name}` imports {listed(paragraph.imports)}; its files import {listed(actual)}.\n"
        f"Write: Imports: {listed(actual)}."
    )


@pytest.mark.parametrize("name", [target["name"] for target in targets()])
def test_every_import_is_declared_in_the_package(name):
    """A module a file imports but Package.swift does not declare builds only
    because another dependency happens to bring it. Such a gap is allowed
    only where docs/architecture.md names it, so that it is seen, and the
    line must go when Package.swift is mended."""
    target = next(target for target in targets() if target["name"] == name)
    found = imports(target)
    undeclared = {module for module in found if module not in PLATFORM | FOUNDATION} - declared(target) - {name}
    paragraph = paragraphs().get(name)
    stated = (paragraph.undeclared if paragraph else None) or set()
    where = "; ".join(f"`{module}` in {found[module][0]}" for module in sorted(undeclared - stated))
    assert undeclared <= stated, (
        f"`{name}` imports modules Package.swift does not declare for it: {where}. "
        "Add them to the target's dependencies."
    )
    assert stated <= undeclared, (
        f"docs/architecture.md says Package.swift does not declare {listed(stated - undeclared)} for `{name}`, "
        "but it does now, or nothing imports it: remove them from the 'Not declared in Package.swift:' line."
    )


def closure(names: set[str]) -> set[str]:
    """The targets `names` depend on, themselves included, all the way down."""
    by_name = {target["name"]: target for target in targets()}
    seen: set[str] = set()
    waiting = list(names)
    while waiting:
        name = waiting.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        waiting.extend(declared(by_name[name]))
    return seen


def test_the_wire_client_takes_no_engine():
    """A plain client (the `LprojClient` product) builds without the engine
    and without ICU's headers: what it takes is Varlink, NIO and the
    interface's generated types. The localizer is a product of its own."""
    products = {product["name"]: set(product["targets"]) for product in package()["products"]}
    wire = closure(products["LprojClient"])
    engine = {"LprojEngine", "LprojLocales", "LprojFormatting", "LprojTables", "LprojFormatStrings", "CLprojICU", "LprojFiles"}
    assert not wire & engine, f"the LprojClient product pulls in {sorted(wire & engine)}"
    assert "LprojLocalizer" in products and "LprojLocalizer" not in wire


# A declaration made public (attributes may come first), in a Swift file.
PUBLIC = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*public\s", re.MULTILINE)
GENERATED = REPOSITORY / "Sources" / "LprojInterface" / "Localization.swift"
MOST_HAND_WRITTEN_PUBLIC = 700


def what_is_api() -> str:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    return text.split("### What is API\n", 1)[1].split("\n## ", 1)[0]


def public_declarations() -> dict[str, int]:
    """How many `public` declarations each module's hand-written files make."""
    counts: dict[str, int] = {}
    for file in sorted((REPOSITORY / "Sources").rglob("*.swift")):
        if file == GENERATED:
            continue
        found = len(PUBLIC.findall(file.read_text(encoding="utf-8")))
        if found:
            module = file.relative_to(REPOSITORY / "Sources").parts[0]
            counts[module] = counts.get(module, 0) + found
    return counts


def test_only_the_api_modules_declare_anything_public():
    section = what_is_api()
    named = re.search(r"^API modules: (.+)\.$", section, re.MULTILINE)
    assert named, "the What is API paragraph names no API modules"
    api = set(re.findall(r"`(\w+)`", named.group(1)))
    assert set(public_declarations()) <= api, f"public outside the API modules: {set(public_declarations()) - api}"
    # No product is made of a module that is not API (the fuzzers' own product aside).
    products = {target for product in package()["products"] if product["name"] != "LprojFuzzing"
                and "library" in product["type"] for target in product["targets"]}
    assert products <= api, f"products of modules that are not API: {products - api}"


def test_the_public_counts_are_the_codes_and_within_the_budget():
    section = " ".join(what_is_api().split())
    hand_written = sum(public_declarations().values())
    generated = len(PUBLIC.findall(GENERATED.read_text(encoding="utf-8")))
    assert hand_written <= MOST_HAND_WRITTEN_PUBLIC
    assert f"Hand-written `public` declarations: {hand_written:,} (at most {MOST_HAND_WRITTEN_PUBLIC:,}" in section
    assert f"the generated interface adds {generated:,})" in section
