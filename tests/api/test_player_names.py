"""Issue 23 item 6: player names by a standard. Each name is enforced by the PRECIS Nickname
profile (RFC 8266) and every bound is checked on the profile's output; names at one table are
compared as nicknames (case-mapped) and by their UTS #39 confusable skeletons; the table keeps
the profile's output, and a state or scoring position with a name the referee would not keep
cannot occur (422 `inconsistent-state`).

RULES.md `base.setup.players`: "2 to 6 players; with 2 players the virtual third player Dirk
joins (§9)." How names are written is README's decision ("Player names"); no seed sentence
speaks of names.
"""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from service.engine.names import LONGEST

FOUNTAIN = [{"x": 0, "y": 0, "tile": "fountain"}]
NOTE = "\U0001d160"  # MUSICAL SYMBOL EIGHTH NOTE: three code points under NFC and NFKC
CYRILLIC_ANA = "\u0410na"  # CYRILLIC CAPITAL LETTER A, then Latin "na"
BLANK = {
    "U+3164 HANGUL FILLER": "\u3164",
    "U+115F HANGUL CHOSEONG FILLER": "\u115f",
    "U+2800 BRAILLE PATTERN BLANK": "\u2800",
    "a lone combining mark (U+0301)": "\u0301",
    "a combining mark after a space (U+0020 U+0301)": " \u0301",
    "U+FFA0 HALFWIDTH HANGUL FILLER": "\uffa0",
}


def _with_names(state: Any, *names: str) -> Any:
    return {**state, "players": [{**p, "name": n} for p, n in zip(state["players"], names, strict=False)]
            + state["players"][len(names):]}


def _position(*names: str) -> Any:
    return {"round": 1, "players": [{"name": n, "alhambra": FOUNTAIN} for n in names]}


def _refused_everywhere(client: TestClient, state: Any, *names: str) -> list[str]:
    """The messages of a refused setup, after checking that a state and a scoring position
    with these names are refused too (they cannot occur)."""
    game = client.post("/v1/games", json={"players": [*names, "Ben", "Cyd"][:max(3, len(names))]})
    assert game.status_code == 422 and game.json()["error"] == "bad-game-request", game.text
    answer = client.post("/v1/legal-actions", json={"state": _with_names(state, *names)})
    assert answer.status_code == 422 and answer.json()["error"] == "inconsistent-state", answer.text
    for path in ("/v1/score", "/v1/render"):
        answer = client.post(path, json=_position(*names, "Ben") if len(names) < 2 else _position(*names))
        assert answer.status_code == 422 and answer.json()["error"] == "inconsistent-state", answer.text
    return [v["message"] for v in game.json()["violations"]]


@pytest.mark.rule("base.setup.players")
def test_a_name_that_grows_under_normalisation_past_the_limit_is_refused_at_setup(
        client: TestClient) -> None:
    """The probe: 22 x U+1D160 (22 code points) become 66 under NFC; the game was created (201)
    and then every state was refused: a game no one could play. Checked after normalising, the
    name is refused at setup naming the limit; 21 of them (63 once normalised) make a game that
    plays. RULES.md base.setup.players (no seed sentence: names are README's decision)."""
    refused = client.post("/v1/games", json={"players": [NOTE * 22, "Ben", "Cyd"]})
    assert refused.status_code == 422 and refused.json()["error"] == "bad-game-request", refused.text
    [violation] = refused.json()["violations"]
    assert violation["rule"] == "base.setup.players"
    assert "66 characters" in violation["message"] and f"the {LONGEST} a name" in violation["message"]
    game = client.post("/v1/games", json={"players": [NOTE * 21, "Ben", "Cyd"]})
    assert game.status_code == 201, game.text
    state = game.json()["state"]
    assert len(state["players"][0]["name"]) == 63
    assert client.post("/v1/legal-actions", json={"state": state}).status_code == 200


@pytest.mark.rule("base.setup.players")
@pytest.mark.parametrize("kind", sorted(BLANK))
def test_names_that_draw_nothing_are_refused(client: TestClient, state: Any, kind: str) -> None:
    """README promises names are visible; the probe found these accepted. The PRECIS profile
    refuses the Hangul fillers (default-ignorable); a leading combining mark and U+2800 are the
    two rules the referee adds. RULES.md base.setup.players (no seed sentence)."""
    [message] = _refused_everywhere(client, state, BLANK[kind])
    assert "U+" in message


@pytest.mark.rule("base.setup.players")
def test_two_names_that_both_look_blank_are_both_refused(client: TestClient, state: Any) -> None:
    """The probe sat two blank-looking names at one table. RULES.md base.setup.players."""
    messages = _refused_everywhere(client, state, "\u3164", "\u2800")
    assert len(messages) == 2 and "U+1160" in messages[0] and "U+2800" in messages[1]


@pytest.mark.rule("base.setup.players")
def test_a_name_that_looks_like_an_earlier_one_is_refused_naming_it(client: TestClient,
                                                                   state: Any) -> None:
    """`Ana` beside `\u0410na` (a Cyrillic A): equal UTS #39 skeletons. The second name is refused, naming
    the first; `Ana`, `Ben`, `Cyd` sit together. RULES.md base.setup.players (no seed sentence)."""
    [message] = _refused_everywhere(client, state, "Ana", CYRILLIC_ANA)
    assert f"{CYRILLIC_ANA!r} looks like 'Ana'" in message and "UTS #39" in message
    assert client.post("/v1/games", json={"players": ["Ana", "Ben", "Cyd"]}).status_code == 201
    assert client.post("/v1/games", json={"players": ["Ana", "Anna", "Cyd"]}).status_code == 201


@pytest.mark.rule("base.setup.players")
def test_names_that_differ_only_in_case_are_one_nickname(client: TestClient, state: Any) -> None:
    """RFC 8266 §2.4 compares nicknames case-mapped: `Ana` and `ana` are one name at a table.
    RULES.md base.setup.players (no seed sentence)."""
    [message] = _refused_everywhere(client, state, "Ana", "ana")
    assert "'ana' is the same nickname as 'Ana'" in message


@pytest.mark.rule("dirk.setup")
def test_with_two_players_a_name_like_dirks_is_refused(client: TestClient) -> None:
    """RULES.md dirk.setup: "Dirk, a virtual third player" sits at a two-player table, so his name
    counts among the table's: `dirk` and `D\u0456rk` (a Cyrillic i) are refused, `Dora` is not.
    (No seed sentence: names are README's decision.)"""
    for name in ("dirk", "D\u0456rk"):
        answer = client.post("/v1/games", json={"players": [name, "Ben"]})
        assert answer.status_code == 422, answer.text
        assert [v["rule"] for v in answer.json()["violations"]] == ["dirk.setup"]
    game = client.post("/v1/games", json={"players": ["Dora", "Ben"]})
    assert game.status_code == 201
    state = game.json()["state"]
    assert client.post("/v1/legal-actions", json={"state": state}).status_code == 200
    for name in ("dirk", "D\u0456rk"):  # beside Dirk in a state or a position: cannot occur
        answer = client.post("/v1/legal-actions", json={"state": _with_names(state, name)})
        assert answer.status_code == 422 and answer.json()["error"] == "inconsistent-state", answer.text
        position = {"round": 1, "players": [{"name": name, "alhambra": FOUNTAIN},
                                            {"name": "Ben", "alhambra": FOUNTAIN},
                                            {"name": "Dirk", "dirk": True}]}
        answer = client.post("/v1/score", json=position)
        assert answer.status_code == 422 and answer.json()["error"] == "inconsistent-state", answer.text


def test_each_clash_names_the_first_name_it_clashes_with() -> None:
    """The later of two clashing names is refused, naming the earlier; names that clash with
    none are not named. RULES.md base.setup.players (no seed sentence)."""
    from service.engine.names import table_problems

    problems = table_problems(["Ana", "Ben", "ana", "Cyd", CYRILLIC_ANA, "rn", "m"])
    assert len(problems) == 3
    assert "'ana' is the same nickname as 'Ana'" in problems[0]
    assert f"{CYRILLIC_ANA!r} looks like 'Ana'" in problems[1]
    assert "'m' looks like 'rn'" in problems[2]
    assert table_problems(["Ana", "Ben", "Cyd", "Dov", "Eli", "Fay"]) == []


@pytest.mark.rule("base.setup.players")
def test_the_table_keeps_the_profiles_output(client: TestClient, state: Any) -> None:
    """The stored name is the Nickname profile's output: spaces trimmed and collapsed, NFKC
    (full-width letters, ligatures); a state or position with a name the profile would change
    cannot occur. RULES.md base.setup.players (no seed sentence)."""
    game = client.post("/v1/games", json={"players": ["  Ana   Lee ", "\uff22\uff45\uff4e", "\ufb01ona"]})
    assert game.status_code == 201, game.text
    assert [p["name"] for p in game.json()["state"]["players"]] == ["Ana Lee", "Ben", "fiona"]
    for name in ("Ana ", "Ana  Lee", "\uff22\uff45\uff4e"):
        answer = client.post("/v1/legal-actions", json={"state": _with_names(state, name)})
        assert answer.status_code == 422 and "NFKC" in answer.text, answer.text
        answer = client.post("/v1/score", json=_position(name, "Ben"))
        assert answer.status_code == 422 and answer.json()["error"] == "inconsistent-state"


@pytest.mark.rule("base.setup.players")
def test_names_people_use_still_sit_at_a_table(client: TestClient) -> None:
    """The names the suite and the playground use, accents, other scripts and an emoji are kept as
    typed (already in the profile's form). RULES.md base.setup.players (no seed sentence)."""
    names = ["Ana", "José", "Zoë", "李小龍", "عمر", "\U0001f98a"]
    game = client.post("/v1/games", json={"players": names})
    assert game.status_code == 201, game.text
    state = game.json()["state"]
    assert [p["name"] for p in state["players"]] == names
    assert client.post("/v1/legal-actions", json={"state": state}).status_code == 200
