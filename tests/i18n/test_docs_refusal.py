"""Issue 29, "the docs show one refusal in each language": docs/i18n.md shows the answer of
POST /v1/validate to one illegal purchase in each of the five languages; this test asks the
referee the same question and expects every answer, byte for byte, in the page (a changed
wording fails here until the page is updated from the message this test prints)."""

from __future__ import annotations

from pathlib import Path

import msgspec

from service.i18n import LANGUAGES
from tests.support.fixtures import referee

PAGE = Path(__file__).resolve().parents[2] / "docs" / "i18n.md"


def the_refusal() -> dict[str, tuple[str, bytes]]:
    """Each language's Content-Language and answer to paying garden-6-ESW (on the yellow space)
    with Ana's first card, orange, in a new 2-player game of seed 1."""
    out = {}
    with referee() as client:
        state = client.post("/v1/games", json={"players": ["Ana", "Ben"], "seed": 1}).json()["state"]
        ana = state["players"][state["turn"]["player"]]
        action = {"type": "buy-building", "player": ana["name"], "tile": state["market"][0]["tile"],
                  "payment": [ana["hand"][0]]}
        body = msgspec.json.encode({"state": state, "action": action})
        for language in LANGUAGES:
            answer = client.post("/v1/validate", content=body, headers={
                "content-type": "application/json", "accept-language": language})
            assert answer.status_code == 200
            out[language] = (answer.headers["content-language"], answer.content)
    return out


def test_the_docs_show_one_refusal_in_each_language() -> None:
    page = PAGE.read_text()
    for language, (said, answer) in the_refusal().items():
        assert said == language
        line = f"Accept-Language: {language}  →  {answer.decode()}"
        assert line in page, f"docs/i18n.md lacks the {language} answer; it is:\n{line}"
