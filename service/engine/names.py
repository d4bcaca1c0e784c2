"""Player names: text people read, so one spelling per name, nothing invisible in it, and no two
names at a table that look alike. Standards decide, not hand-made character classes:

- each name is enforced by the PRECIS Nickname profile (RFC 8266, `precis-i18n`'s
  NicknameCasePreserved): FreeformClass refuses control and format characters, default-ignorable
  code points (zero-width spaces and joiners, bidi controls, the Hangul fillers U+115F, U+1160,
  U+3164), unassigned code points and the empty name; spaces are mapped to U+0020, trimmed and
  collapsed, and the name is normalised to NFKC. The table keeps the profile's output, and every
  bound is checked on it (a name that grows under NFKC past LONGEST is refused at setup);
- two rules the profile leaves to applications: a name may not begin with a combining mark (it
  would draw on nothing; IDNA's rule for labels, RFC 5891 §5.4), and U+2800 BRAILLE PATTERN
  BLANK, a symbol that draws nothing and is neither a space nor default-ignorable, is refused;
- names at one table are compared as RFC 8266 §2.4 compares nicknames (case-mapped: "Ana" and
  "ana" are one nickname) and by their UTS #39 confusable skeletons (`Ana` and `\u0410na`, with a
  Cyrillic A, look alike), computed by ICU's SpoofChecker, Unicode's reference implementation.

Pure functions: no I/O; the profiles and the checker are built once, at import.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

import icu
from precis_i18n import get_profile

from .records import LONGEST_TEXT
from .text import Text, t

LONGEST = LONGEST_TEXT  # the contract's bound of a name, in code points, after the profile
_KEEP = get_profile("NicknameCasePreserved")  # RFC 8266 §2.3: what the table keeps
_COMPARE = get_profile("NicknameCaseMapped")  # RFC 8266 §2.4: how two nicknames compare
_SKELETONS = icu.SpoofChecker()  # UTS #39 §4; getSkeleton only reads the checker's data
_BLANK = "\u2800"  # BRAILLE PATTERN BLANK: category So, so no profile refuses it


def _char(c: str) -> str:
    return f"U+{ord(c):04X} ({unicodedata.name(c, 'unnamed')})"


@lru_cache(maxsize=4096)
def name_problem(name: str) -> Text | None:
    """Why `name`, as typed at setup, cannot be a player's name (None: it can, as `kept(name)`)."""
    try:
        out = _KEEP.enforce(name)
    except UnicodeEncodeError as e:
        if e.reason.endswith("/empty"):
            return t("the player name {name} is blank", name=repr(name))
        bad = e.object[e.start]
        if bad in name:
            return t("the player name {name} holds {char}, which the PRECIS Nickname profile (RFC 8266) "
                     "refuses: {reason}", name=repr(name), char=_char(bad), reason=e.reason)
        return t("the player name {name} holds {char} once normalised (NFKC), which the PRECIS Nickname "
                 "profile (RFC 8266) refuses: {reason}", name=repr(name), char=_char(bad), reason=e.reason)
    if unicodedata.category(out[0]).startswith("M"):
        return t("the player name {name} begins with the combining mark {char}", name=repr(name),
                 char=_char(out[0]))
    if _BLANK in out:
        return t("the player name {name} holds {char}, which draws nothing", name=repr(name),
                 char=_char(_BLANK))
    if len(out) > LONGEST:
        return t("the player name {name} becomes {n} characters under the Nickname profile's "
                 "normalisation (NFKC), past the {longest} a name may have", name=repr(name),
                 n=len(out), longest=LONGEST)
    return None


@lru_cache(maxsize=4096)
def kept(name: str) -> str:
    """The name as the table keeps it: the Nickname profile's output (`name_problem` is None)."""
    return str(_KEEP.enforce(name))


def stored_problem(name: str) -> Text | None:
    """Why a name in a state or a scoring position cannot occur: the referee keeps only names that
    pass the profile, as the profile's output."""
    problem = name_problem(name)
    if problem is None and kept(name) != name:
        return t("the player name {name} is not as the Nickname profile (RFC 8266) keeps names (NFKC, "
                 "spaces trimmed and collapsed): {kept}", name=repr(name), kept=repr(kept(name)))
    return problem


@lru_cache(maxsize=4096)
def _compared(name: str) -> str:
    try:
        return str(_COMPARE.enforce(name))
    except UnicodeEncodeError:
        return name  # refused on its own; compared as it is


@lru_cache(maxsize=4096)
def _skeleton(name: str) -> str:
    return str(_SKELETONS.getSkeleton(0, name))


def clash(first: str, second: str) -> Text | None:
    """Why `second` cannot sit at the table where `first` sits (None: it can)."""
    if _compared(first) == _compared(second):
        return t("player names must be unique: {second} is the same nickname as {first} (RFC 8266 "
                 "compares names case-mapped)", second=repr(second), first=repr(first))
    if _skeleton(first) == _skeleton(second):
        return t("player names must be unique: {second} looks like {first} (their UTS #39 confusable "
                 "skeletons are equal)", second=repr(second), first=repr(first))

    return None


def table_problems(names: Sequence[str]) -> list[Text]:
    """Each name that clashes with an earlier name at the table, naming the first it clashes with."""
    out = []
    for i, name in enumerate(names):
        problem = next(filter(None, (clash(first, name) for first in names[:i])), None)
        if problem:
            out.append(problem)
    return out
