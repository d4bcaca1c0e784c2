"""Player names: text people read, so one spelling per name and nothing invisible in it.

A name is normalised to Unicode NFC when a game is set up ("Å" typed composed or decomposed is
one name, so two players cannot take it twice), and a state or position whose names are not in
NFC cannot occur. Control characters (they make a picture that is not XML), format characters
(zero-width spaces and joiners, bidi overrides and isolates that reorder what is shown), line
and paragraph separators, and spaces at either end are refused.
"""

from __future__ import annotations

import unicodedata

# Cc: control; Cf: format (zero-width, bidi controls, soft hyphen); Cs: surrogates;
# Zl, Zp: line and paragraph separators.
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def normalised(name: str) -> str:
    return unicodedata.normalize("NFC", name)


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name (None: it can)."""
    if not name.strip():
        return "a player name may not be blank"
    for char in name:
        if unicodedata.category(char) in _REFUSED:
            return (f"the player name {name!r} holds the invisible or control character "
                    f"U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')})")
    if name != name.strip():
        return f"the player name {name!r} begins or ends with a space"
    if not unicodedata.is_normalized("NFC", name):
        return f"the player name {name!r} is not in Unicode normal form C (NFC)"
    return None
