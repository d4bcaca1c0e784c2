"""The repository stands alone: the rulebook and the API outline are copies kept equal to
`../shared/` (where a checkout has it beside), and every relative link of every Markdown file
leads to a file of the repository (and, with `#anchor`, to a heading of it)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"

# copy in the repository -> its original in ../shared/
COPIES = {
    "seeds/RULES.md": "RULES.md",
    "docs/API.md": "API.md",
    **{f"seeds/{p.name}": f"seeds/{p.name}" for p in sorted((ROOT / "seeds").glob("*.txt"))},
}


@pytest.mark.parametrize("copy", sorted(COPIES))
def test_the_copy_equals_the_shared_original(copy: str) -> None:
    original = SHARED / COPIES[copy]
    if not original.exists():
        pytest.skip(f"{copy} is this repository's copy of the rule texts' original, which only the "
                    "maintainers' workspace holds (../shared/); a clone has the copy alone, so "
                    "there is nothing to compare it with here, and nothing to do")
    assert (ROOT / copy).read_bytes() == original.read_bytes(), f"copy {original} to {copy}"


def markdown_files() -> list[Path]:
    """The Markdown files git tracks (or would: new ones not yet added count too)."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
                            cwd=ROOT, capture_output=True, text=True, check=False)
    if listed.returncode == 0 and listed.stdout.strip():
        return [ROOT / line for line in listed.stdout.splitlines() if (ROOT / line).exists()]
    skip = {".venv", "node_modules", ".git", "artifacts", "build"}
    return [p for p in ROOT.rglob("*.md") if not skip & set(p.relative_to(ROOT).parts)]


LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")


def links(text: str) -> list[str]:
    """The targets of the Markdown links of `text`, outside code blocks and code spans."""
    return LINK.findall(CODE.sub("", FENCE.sub("", text)))


def named_paths(text: str) -> list[str]:
    """Markdown files named in code spans by a path that climbs (`../RULES.md`): references a
    reader follows by hand, so they must resolve too."""
    spans = (s.strip("`") for s in CODE.findall(FENCE.sub("", text)))
    return [s for s in spans if s.startswith("../") and s.endswith(".md") and " " not in s]


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown text."""
    out: set[str] = set()
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", FENCE.sub("", text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", "")).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def broken_links(path: Path) -> list[str]:
    text = path.read_text("utf-8")
    out = []
    for target in [*links(text), *named_paths(text)]:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto: ...
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            out.append(f"{target}: no such file")
        elif ROOT not in linked.parents and linked != ROOT:
            out.append(f"{target}: outside the repository")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked.read_text("utf-8")):
            out.append(f"{target}: no heading #{anchor} in {linked.relative_to(ROOT)}")
    return out


def test_every_relative_link_of_every_markdown_file_resolves() -> None:
    files = markdown_files()
    assert ROOT / "README.md" in files and len(files) >= 4
    broken = {str(p.relative_to(ROOT)): b for p in files if (b := broken_links(p))}
    assert not broken, broken


def test_the_link_check_finds_a_link_that_leaves_the_repository(tmp_path: Path) -> None:
    """The check itself: the README's old links to ../shared/ and seeds/README.md's to ../RULES.md
    are reported, a link inside code is not, and an anchor must name a heading."""
    page = ROOT / "seeds" / "_probe.md"
    page.write_text("[rules](../../shared/RULES.md) [up](../RULES.md) `[x](nowhere.md)` "
                    "[ok](RULES.md) [speed](../README.md#speed) [gone](../README.md#no-such-part) "
                    "`../NOTES.md`\n")
    try:
        found = broken_links(page)
        assert [b.split(":")[0] for b in found] == ["../../shared/RULES.md", "../RULES.md",
                                                    "../README.md#no-such-part", "../NOTES.md"], found
    finally:
        page.unlink()


def test_the_readme_links_the_rulebook_and_the_api_outline_in_the_repository() -> None:
    targets = links((ROOT / "README.md").read_text("utf-8"))
    assert "seeds/RULES.md" in targets and "docs/API.md" in targets


# --- the docs site (mkdocs.yml) and the README's size -------------------------------------------

README_MAX_LINES = 200


def test_the_readme_is_at_most_200_lines() -> None:
    """A newcomer reads what it is, the two commands, one session, the endpoints, the errors and
    the links; the rest is the docs site (issue 25)."""
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines: move a section to docs/"


def nav_pages(nav: object) -> list[str]:
    """The pages named in an mkdocs `nav` (its entries: a page, {title: page} or {title: [...]})."""
    if isinstance(nav, str):
        return [] if re.match(r"^[a-z][a-z0-9+.-]*:", nav, re.I) else [nav]
    if isinstance(nav, list):
        return [page for entry in nav for page in nav_pages(entry)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in nav_pages(value)]
    raise AssertionError(f"not a nav entry: {nav!r}")


def unlisted_and_missing(docs: Path, config: dict[str, object]) -> tuple[list[str], list[str]]:
    """The Markdown pages of `docs` the nav of `config` leaves out, and the pages it names that
    do not exist."""
    pages = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))
    named = nav_pages(config.get("nav", []))
    return [p for p in pages if p not in named], [p for p in named if not (docs / p).is_file()]


def site_config() -> dict[str, object]:
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    assert isinstance(config, dict)
    return config


def test_every_page_under_docs_is_in_the_nav_of_mkdocs_yml() -> None:
    config = site_config()
    assert config.get("docs_dir", "docs") == "docs" and config.get("theme", {})["name"] == "material"
    docs = [p for p in markdown_files() if p.relative_to(ROOT).parts[0] == "docs"]
    assert docs, "no page under docs/"
    unlisted, missing = unlisted_and_missing(ROOT / "docs", config)
    assert not unlisted, f"pages under docs/ missing from mkdocs.yml's nav: {unlisted}"
    assert not missing, f"mkdocs.yml's nav names pages that do not exist: {missing}"


def test_the_nav_check_finds_an_orphaned_page_and_a_missing_one(tmp_path: Path) -> None:
    (tmp_path / "guide").mkdir()
    for page in ("index.md", "guide/one.md", "guide/orphan.md"):
        (tmp_path / page).write_text("# a page\n")
    config = {"nav": [{"Home": "index.md"}, {"Guide": [{"One": "guide/one.md"}, "guide/gone.md",
                                                       {"Out": "https://example.org/"}]}]}
    assert unlisted_and_missing(tmp_path, config) == (["guide/orphan.md"], ["guide/gone.md"])
