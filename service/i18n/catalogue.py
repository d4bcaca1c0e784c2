"""The gettext catalogues (Babel): one domain per folder of the referee that holds a `locale/`
folder (the base engine, each module of the game, the HTTP edge, the pictures, the command
line...), so that a module carries its own messages. A domain's messages are the `t(...)`,
`tn(...)` and `w(...)` calls of its Python files (service/engine/text.py), those of a folder that
is a domain of its own excepted; each language's translations are in
`<domain>/locale/<language>/LC_MESSAGES/messages.po`, compiled by Babel when first used.

    python -m service.i18n            # what is missing, obsolete or mismatched
    python -m service.i18n --update   # every domain's catalogues given the new ids (empty, for
                                      # a translator) and rid of the old ones
"""

from __future__ import annotations

import argparse
import io
import string
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.support import Translations

ROOT = Path(__file__).resolve().parent.parent  # service/
LANGUAGES = ("en", "de", "fr", "es", "ca")
TRANSLATED = LANGUAGES[1:]  # English is the message ids
# The message functions of service/engine/text.py and where their ids are: t(id), tn(one, many, n),
# w(word) (the game words of a domain's words.py).
KEYWORDS = {"t": None, "tn": (1, 2), "w": None}
DOMAIN = "messages"
# The catalogues' header is fixed, so that an update changes only the entries.
HEADER = "Translations of the Alhambra referee's messages (service/i18n/catalogue.py)."
CREATED = datetime(2026, 12, 7, tzinfo=UTC)


def domains() -> list[Path]:
    """Every folder of service/ that holds a `locale/` folder, in path order."""
    return sorted(p.parent for p in ROOT.rglob("locale") if p.is_dir() and "static" not in p.parts)


def sources(domain: Path) -> Iterator[Path]:
    """The Python files of a domain: under its folder, but not under a folder of another domain."""
    others = [d for d in domains() if d != domain and d.is_relative_to(domain)]
    for path in sorted(domain.rglob("*.py")):
        if not any(path.is_relative_to(o) for o in others):
            yield path


def template(domain: Path) -> Catalog:
    """The domain's message ids, extracted from its sources (Babel's Python extractor)."""
    catalog = _catalog(None)
    for path in sources(domain):
        for lineno, message, _, context in extract_from_file("python", path, keywords=KEYWORDS):
            catalog.add(message, locations=[(path.relative_to(ROOT.parent).as_posix(), lineno)],
                        context=context)
    return catalog


def _catalog(language: str | None) -> Catalog:
    return Catalog(locale=language, domain=DOMAIN, project="alhambra-referee", version="1",
                   header_comment=f"# {HEADER}", creation_date=CREATED, revision_date=CREATED,
                   fuzzy=False)


def po_path(domain: Path, language: str) -> Path:
    return domain / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(domain: Path, language: str) -> Catalog:
    path = po_path(domain, language)
    if not path.exists():
        return _catalog(language)
    with path.open("rb") as f:
        return read_po(f, locale=language, domain=DOMAIN)


@cache
def translations(language: str) -> Translations:
    """Every domain's catalogue of `language`, compiled (Babel's write_mo) and merged."""
    merged = Translations()
    for domain in domains():
        compiled = io.BytesIO()
        write_mo(compiled, read(domain, language), use_fuzzy=False)
        compiled.seek(0)
        merged.merge(Translations(fp=compiled, domain=DOMAIN))
    return merged


@cache
def translated(language: str) -> frozenset[str]:
    """The message ids (the singular of a plural one) that `language`'s catalogues translate."""
    out = set()
    for domain in domains():
        for m in read(domain, language):
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            if m.id and all(strings) and not m.fuzzy:
                out.add(m.id[0] if isinstance(m.id, tuple) else m.id)
    return frozenset(out)


def details(message: str) -> set[str]:
    """The named details of a wording (`{tile}` -> tile)."""
    return {name for _, name, _, _ in string.Formatter().parse(message) if name}


def problems() -> list[str]:
    """What keeps the catalogues from being complete: a message id with no translation in some
    language, a translation naming other details than its id, an entry no source has any more."""
    out = []
    for domain in domains():
        ids = {m.id: m for m in template(domain) if m.id}
        where = domain.relative_to(ROOT.parent).as_posix()
        for language in TRANSLATED:
            catalog = read(domain, language)
            known = {m.id: m for m in catalog if m.id}
            for key in ids:
                entry = known.get(key)
                strings = () if entry is None else (
                    entry.string if isinstance(entry.string, tuple) else (entry.string,))
                if entry is None or not all(strings) or entry.fuzzy:
                    out.append(f"{where} [{language}]: no translation of {_name(key)}")
                    continue
                wanted = details(key[0] if isinstance(key, tuple) else key)
                for s in strings:
                    if details(s) != wanted:
                        out.append(f"{where} [{language}]: {_name(key)} names {sorted(details(s))}, "
                                   f"not {sorted(wanted)}")
            out += [f"{where} [{language}]: {_name(key)} is in the catalogue but no longer in the code"
                    for key in known if key not in ids]
    return out + disagreements()


def disagreements() -> list[str]:
    """An id in several domains translated differently: the catalogues are merged into one per
    language, so one of the translations would win by the domains' order; they must agree."""
    out = []
    for language in TRANSLATED:
        said: dict[str, dict[str, object]] = {}
        for domain in domains():
            for m in read(domain, language):
                if m.id:
                    said.setdefault(_name(m.id), {})[domain.relative_to(ROOT.parent).as_posix()] = m.string
        out += [f"[{language}] {key} is translated differently in {', '.join(where)}"
                for key, where in said.items() if len({repr(s) for s in where.values()}) > 1]
    return out


def _name(key: str | tuple[str, ...]) -> str:
    return repr(key[0] if isinstance(key, tuple) else key)


def update() -> None:
    """Every domain's catalogues given the message ids its sources have now: a new id empty (for
    a translator), an old one gone; translations kept. No fuzzy matching (a guessed translation
    is a wrong one)."""
    for domain in domains():
        new = template(domain)
        for language in TRANSLATED:
            catalog = read(domain, language)
            catalog.update(new, no_fuzzy_matching=True, update_header_comment=False)
            catalog.header_comment, catalog.revision_date = f"# {HEADER}", CREATED
            catalog.obsolete.clear()
            path = po_path(domain, language)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as f:
                write_po(f, catalog, width=100, omit_header=False, sort_output=False,
                         include_previous=False, no_location=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true")
    args = parser.parse_args()
    if args.update:
        update()
    found = problems()
    print("\n".join(found) or "every message has its translation in every language")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
