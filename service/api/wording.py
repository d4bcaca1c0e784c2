"""The words of the libraries under the edge, as Texts (issue 29): msgspec's decoding errors and
litestar's refusals are English strings; their known forms are matched here and made Texts
with the same details (a field's path, a bound, a type name), so that they are worded in the
request's language. A form not known here is said as the library said it (English).

    decoding(message) -> str     msgspec's DecodeError / ValidationError message
    litestar(detail) -> str      an HTTPException's detail

Type names (`int`, `object`...), field names and paths stay as msgspec writes them: they name
the contract, not the language.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from service.engine.text import Text, t

# msgspec appends the path of the offending value: "... - at `$.players[0]`" (or "- at `key` in
# `$...`" for a key of a map).
_AT = re.compile(r"^(?P<problem>.*?) - at (?P<path>`[^`]*`(?: in `[^`]*`)?)$", re.DOTALL)

Form = tuple[re.Pattern[str], Callable[[re.Match[str]], Text]]


def _f(pattern: str, make: Callable[[re.Match[str]], Text]) -> Form:
    return re.compile(pattern + r"$", re.DOTALL), make


# msgspec's validation errors (msgspec/_core.c, the forms this contract's types can raise).
_VALIDATION: tuple[Form, ...] = (
    _f(r"Expected `(?P<expected>[^`]+)`, got `(?P<got>[^`]+)`",
       lambda m: t("Expected `{expected}`, got `{got}`", expected=m["expected"], got=m["got"])),
    _f(r"Object missing required field `(?P<field>[^`]*)`",
       lambda m: t("Object missing required field `{field}`", field=m["field"])),
    _f(r"Object contains unknown field `(?P<field>[^`]*)`",
       lambda m: t("Object contains unknown field `{field}`", field=m["field"])),
    _f(r"Expected `(?P<kind>str|array|object|bytes)` of length >= (?P<bound>\d+)",
       lambda m: t("Expected `{kind}` of length >= {bound}", kind=m["kind"], bound=m["bound"])),
    _f(r"Expected `(?P<kind>str|array|object|bytes)` of length <= (?P<bound>\d+)",
       lambda m: t("Expected `{kind}` of length <= {bound}", kind=m["kind"], bound=m["bound"])),
    _f(r"Expected `array` of length (?P<length>\d+), got (?P<got>\d+)",
       lambda m: t("Expected `array` of length {length}, got {got}", length=m["length"], got=m["got"])),
    _f(r"Expected `array` of at least length (?P<length>\d+), got (?P<got>\d+)",
       lambda m: t("Expected `array` of at least length {length}, got {got}", length=m["length"],
                   got=m["got"])),
    _f(r"Expected `array` of at most length (?P<length>\d+), got (?P<got>\d+)",
       lambda m: t("Expected `array` of at most length {length}, got {got}", length=m["length"],
                   got=m["got"])),
    _f(r"Expected `array` of length (?P<low>\d+) to (?P<high>\d+), got (?P<got>\d+)",
       lambda m: t("Expected `array` of length {low} to {high}, got {got}", low=m["low"], high=m["high"],
                   got=m["got"])),
    _f(r"Expected `(?P<kind>int|float)` (?P<op>>=|<=|>|<) (?P<bound>-?[\d.e+-]+)",
       lambda m: t("Expected `{kind}` {op} {bound}", kind=m["kind"], op=m["op"], bound=m["bound"])),
    _f(r"Expected `int` that's a multiple of (?P<bound>\d+)",
       lambda m: t("Expected `int` that's a multiple of {bound}", bound=m["bound"])),
    _f(r"Expected `str` matching regex (?P<regex>.+)",
       lambda m: t("Expected `str` matching regex {regex}", regex=m["regex"])),
    _f(r"Invalid enum value (?P<value>.+)", lambda m: t("Invalid enum value {value}", value=m["value"])),
    _f(r"Invalid value (?P<value>.+)", lambda m: t("Invalid value {value}", value=m["value"])),
    _f(r"Integer value out of range", lambda m: t("Integer value out of range")),
    _f(r"Number out of range", lambda m: t("Number out of range")),
    _f(r"Expected a hashable value, got `(?P<got>[^`]+)`",
       lambda m: t("Expected a hashable value, got `{got}`", got=m["got"])),
    _f(r"Expected `(?P<expected>[^`]+)`", lambda m: t("Expected `{expected}`", expected=m["expected"])),
)

# msgspec's JSON syntax errors: "JSON is malformed: <reason> (byte <n>)", and a body cut short.
_REASONS: dict[str, Callable[[], Text]] = {
    "invalid character": lambda: t("invalid character"),
    "invalid character in unicode escape": lambda: t("invalid character in unicode escape"),
    "invalid escape character in string": lambda: t("invalid escape character in string"),
    "invalid escaped character": lambda: t("invalid escaped character"),
    "invalid number": lambda: t("invalid number"),
    "invalid utf-16 surrogate pair": lambda: t("invalid utf-16 surrogate pair"),
    "trailing characters": lambda: t("trailing characters"),
    "trailing comma in array": lambda: t("trailing comma in array"),
    "trailing comma in object": lambda: t("trailing comma in object"),
    "expected '\"'": lambda: t("expected '\"'"),
    "expected ',' or ']'": lambda: t("expected ',' or ']'"),
    "expected ',' or '}'": lambda: t("expected ',' or '}}'"),
    "expected ':'": lambda: t("expected ':'"),
}
_MALFORMED = re.compile(r"^JSON is malformed: (?P<reason>.*) \(byte (?P<byte>\d+)\)$", re.DOTALL)


@lru_cache(maxsize=1024)  # a refused body's message is made once per spelling
def decoding(message: str) -> str:
    """msgspec's error `message` as a Text of the same English words; unknown forms as they are."""
    if message == "Input data was truncated":
        return t("Input data was truncated")
    if message == "Invalid UTF-8 encoded string":
        return t("Invalid UTF-8 encoded string")
    malformed = _MALFORMED.match(message)
    if malformed:
        reason = _REASONS.get(malformed["reason"])
        return t("JSON is malformed: {reason} (byte {byte})", byte=int(malformed["byte"]),
                 reason=reason() if reason else malformed["reason"])
    at = _AT.match(message)
    problem, path = (at["problem"], at["path"]) if at else (message, None)
    for pattern, make in _VALIDATION:
        found = pattern.match(problem)
        if found:
            said = make(found)
            return said if path is None else t("{problem} - at {path}", problem=said, path=path)
    return message


# litestar's details of the refusals it words itself.
_DETAILS: dict[str, Callable[[], Text]] = {
    "Not Found": lambda: t("Not Found"),
    "Method Not Allowed": lambda: t("Method Not Allowed"),
    "Bad Request": lambda: t("Bad Request"),
    "Unsupported Media Type": lambda: t("Unsupported Media Type"),
    "Request Entity Too Large": lambda: t("Request Entity Too Large"),
    "Missing Content-Type header": lambda: t("Missing Content-Type header"),
}
_CONTENT_LENGTH = re.compile(r"^Invalid content-length: (?P<value>.*)$", re.DOTALL)
_VALIDATION_FAILED = re.compile(r"^Validation failed for (?P<method>[A-Z]+) (?P<path>\S*)$", re.DOTALL)


def litestar(detail: str) -> str:
    """A litestar refusal's `detail` as a Text of the same English words; others as they are."""
    known = _DETAILS.get(detail)
    if known is not None:
        return known()
    length = _CONTENT_LENGTH.match(detail)
    if length:
        return invalid_content_length(length["value"])
    failed = _VALIDATION_FAILED.match(detail)
    if failed:
        return t("Validation failed for {method} {path}", method=failed["method"], path=failed["path"])
    return detail


def invalid_content_length(value: str) -> Text:
    """litestar's words for a `content-length` that is no number (`value` as repr'd)."""
    return t("Invalid content-length: {value}", value=value)
