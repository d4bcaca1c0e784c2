"""The `referee` console script: serve the HTTP referee, or use the engine on JSON files.

    referee serve                      the HTTP referee (port 8000, in-process cache)
    referee healthcheck                exit 0 when the referee on HOST:PORT answers /healthz
    referee new --players Ana,Ben      a new game's state, as POST /v1/games answers
    referee validate|apply FILE        the answer of the endpoint of that name ('-': stdin)
    referee score FILE                 a scoring round as a table: a position (tiles or tallies,
                                       JSON or TOML), a score sheet, or {"state", "round"}
    referee play --players 4 --seed 1  a random game, with each scoring round and the ranking
    referee play ... --record game.json  the same, and the game's record written (issue 27)
    referee play --bots strong,basic   a game between bots, one level a seat (issue 28)
    referee replay game.json           a record replayed as POST /v1/replay does: each scoring
                                       round, the ranking, the record's result checked
    referee render FILE -o game.svg    a picture of a state, a player's view or a position
    referee keygen KID                 a new sealing key entry for SEAL_KEYS

What the commands print for a person (tables, rankings, refusals' messages, pictures) is worded
in the locale's language (LC_ALL, LC_MESSAGES or LANG: its first two letters among en, de, fr,
es, ca; else English), or the one `--lang` names (issue 29).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import msgspec

from .engine import (
    GameRequestError,
    Generator,
    IllegalAction,
    InconsistentState,
    apply,
    check_consistency,
    new_game,
    random_action,
)
from .engine.module import registered
from .engine.text import t, tn

if TYPE_CHECKING:
    from .bots import Level
    from .engine import GameState
    from .engine.actions import Action


def _modules(text: str) -> list[str]:
    return [m.strip() for m in text.split(",") if m.strip()]


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def locale_language(environ: Any = os.environ) -> str:
    """The language of the locale (POSIX: LC_ALL over LC_MESSAGES over LANG): the first two
    letters of the first one set, when they name one of i18n.LANGUAGES; else English."""
    from . import i18n

    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            code = value[:2].lower()
            return code if code in i18n.LANGUAGES else i18n.DEFAULT
    return i18n.DEFAULT


def _say(text: str) -> str:
    """A message (a Text) worded in the command's language (i18n.LANGUAGE, set by `main`)."""
    from . import i18n

    return i18n.render(text, i18n.LANGUAGE.get())


def _joined(violations: Sequence[Any], rules: bool = True) -> str:
    """Violations in one line, as the engine's exceptions say them, in the command's language."""
    return "; ".join(f"{v.rule}: {_say(v.message)}" if rules else _say(v.message) for v in violations)


def _print_json(obj: Any) -> None:
    from . import i18n  # every Text of the answer worded in the command's language

    sys.stdout.buffer.write(msgspec.json.format(i18n.encode(obj), indent=2) + b"\n")


def _fail(error: str, message: str, violations: Sequence[Any], code: int = 1) -> int:
    """A refusal on stdout in the HTTP referee's error shape (`error`, `message`, `violations`),
    so a script reads the reason where it reads the answer."""
    _print_json({"error": error, "message": message, "violations": list(violations)})
    return code


def _settings(args: argparse.Namespace) -> Any:
    """The environment's settings with the command line's --host/--port/--workers over them."""
    import dataclasses

    from .settings import Settings

    given = {k: v for k in ("host", "port", "workers") if (v := getattr(args, k, None)) is not None}
    return dataclasses.replace(Settings.from_env(), **given)


def _metrics_dir(workers: int) -> tuple[str | None, bool]:
    """With several workers, prometheus_client's multiprocess mode: the workers write their
    metrics to files in PROMETHEUS_MULTIPROC_DIR and /metrics adds them up. A directory given by
    the operator is emptied (old files would add a past run's counts); else a temporary one is
    made. Returns the directory and whether it is ours to remove."""
    import os
    import tempfile
    from pathlib import Path

    given = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if given:
        for old in Path(given).glob("*.db"):
            old.unlink()
        return given, False
    if workers == 1:
        return None, False
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = made = tempfile.mkdtemp(prefix="referee-metrics-")
    return made, True


def _raise_open_files_limit() -> None:
    """The soft limit of open files up to the hard one: each connection holds a descriptor, and
    the usual soft 1024 is reached by a few hundred slow clients sooner than the deadlines."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
        if wanted > soft:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ImportError, ValueError, OSError):  # not POSIX, or not allowed: keep the limit
        pass


def cmd_serve(args: argparse.Namespace) -> int:
    """uvicorn with WORKERS processes; SIGTERM lets in-flight requests finish, then stops."""
    import shutil

    import uvicorn

    from .logs import uvicorn_config

    settings = _settings(args)
    metrics_dir, ours = _metrics_dir(settings.workers)
    _raise_open_files_limit()
    try:
        # service.server's protocol: uvicorn's httptools one with header and body deadlines.
        uvicorn.run("service.api.app:create_served_app", factory=True, host=settings.host, port=settings.port,
                    workers=settings.workers, log_level=settings.log_level, access_log=False,
                    log_config=uvicorn_config(settings.log_level), http="service.server:TimedProtocol",
                    timeout_keep_alive=settings.keep_alive_seconds,
                    timeout_graceful_shutdown=settings.shutdown_timeout_seconds)
    finally:
        if ours and metrics_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


def cmd_healthcheck(args: argparse.Namespace) -> int:
    """For a container's HEALTHCHECK: GET /healthz of the local server, 2 s at most."""
    import urllib.request

    settings = _settings(args)
    host = settings.connect_host
    url = f"http://{f'[{host}]' if ':' in host else host}:{settings.port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            ok = answer.status == 200
    except OSError as e:
        print(f"referee healthcheck: {url}: {e}", file=sys.stderr)
        return 1
    return 0 if ok else 1


def cmd_new(args: argparse.Namespace) -> int:
    players = [p.strip() for p in args.players.split(",")]
    try:
        outcome = new_game(players, _modules(args.modules), seed=args.seed)
    except GameRequestError as e:
        return _fail("bad-game-request", _joined(e.violations, rules=False), e.violations)
    _print_json({"state": outcome.state, "game_over": outcome.game_over})
    return 0


def cmd_engine(args: argparse.Namespace) -> int:
    """validate, apply and score: the same bodies and answers as the HTTP endpoints."""
    from .api.endpoints import handle
    from .api.refusals import RequestError
    from .seal import Sealing
    from .settings import Settings

    try:
        sealing = Sealing.from_settings(Settings.from_env())  # SEAL_KEYS: open and seal as served
        answer = handle(args.command, _read(args.file), sealing)
    except RequestError as e:
        return _fail(e.error, e.message, e.violations)
    _print_json(answer)
    return 0


def cmd_keygen(args: argparse.Namespace) -> int:
    """A fresh key entry; put it first in SEAL_KEYS to seal with it (keep the old ones after it)."""
    from .seal import SealingKeyError, new_key

    try:
        print(new_key(args.kid))
    except SealingKeyError as e:
        print(f"referee keygen: {e}", file=sys.stderr)
        return 2
    return 0


def _line_label(line: Any) -> str:
    """A scoring line's building type or kind (zoo, staff...), worded as the pictures word it."""
    from .render.scene import line_caption

    return line_caption(line)


def _line_cell(line: Any) -> str:
    """Points, and in brackets what earned them: a count (with the place), a wall length, or
    the fields of a module's line (animals, dice, unserved buildings, sets), their names worded
    as the pictures word them."""
    from .render.scene import line_detail

    if hasattr(line, "count"):
        place = f", {line.place}." if getattr(line, "place", None) else ""
        return f"{line.points} ({line.count}{place})"
    if hasattr(line, "length"):
        return f"{line.points} ({line.length})"
    details = []
    for k in line.__struct_fields__:
        v = getattr(line, k)
        if k == "points" or v is None or v is True or v == ():
            continue
        details.append(line_detail(k, v))
    return f"{line.points} ({', '.join(details)})" if details else str(line.points)


def _breakdown_table(breakdown: Any) -> Any:
    """One column per player, one row per scoring line: it fits a terminal with six players."""
    from rich.table import Table

    table = Table(title=_say(t("Scoring round {round}", round=breakdown.round)))
    table.add_column(_say(t("category")))
    for p in breakdown.players:
        table.add_column(p.name, justify="right")
    for i, line in enumerate(breakdown.players[0].lines):
        table.add_row(_line_label(line), *(_line_cell(p.lines[i]) for p in breakdown.players))
    table.add_row(_say(t("round total")), *(str(p.total) for p in breakdown.players), style="bold")
    running = {r.name: r.score for r in breakdown.ranking}
    table.add_row(_say(t("running score")), *(str(running[p.name]) for p in breakdown.players), style="bold")
    return table


def _sheet_table(names: Sequence[str], rounds: Sequence[Any]) -> Any:
    """Every round of a score sheet: each player's points and, in brackets, running total."""
    from rich.table import Table

    table = Table(title=_say(t("Score sheet")))
    table.add_column(_say(t("round")))
    for name in names:
        table.add_column(name, justify="right")
    running = dict.fromkeys(names, 0)
    for r in rounds:
        for p in r.players:
            running[p.name] += p.total
        table.add_row(str(r.round), *(f"{p.total} ({running[p.name]})" for p in r.players))
    return table


def _score_body(path: str) -> bytes:
    """The /v1/score body of a file: JSON, or the same in TOML (a name ending in .toml), which is
    easier to write by hand at a table."""
    raw = _read(path)
    if not path.endswith(".toml"):
        return raw
    import tomllib

    return msgspec.json.encode(tomllib.loads(raw.decode("utf-8")))


def cmd_score(args: argparse.Namespace) -> int:
    """A scoring round as a table (the breakdown, and with `previous` the sheet and after round
    3 the final ranking); `--json`: what POST /v1/score answers."""
    import tomllib

    from rich.console import Console

    from .api import bodies
    from .api.handlers import Judge, score
    from .api.reading import decode
    from .api.refusals import RequestError
    from .seal import Sealing
    from .settings import Settings

    try:
        raw = _score_body(args.file)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        print(f"referee score: {args.file}: {e}", file=sys.stderr)
        return _fail("bad-request", f"{args.file}: {e}", [])
    try:
        sealing = Sealing.from_settings(Settings.from_env())
        body = decode(bodies.ScoreQuery, raw)
        answer = score(body, Judge(sealing))
    except RequestError as e:
        print(f"referee score: {_say(e.message)}", file=sys.stderr)
        return _fail(e.error, e.message, e.violations)
    if args.json:
        _print_json(answer)
        return 0
    console = Console(width=max(100, Console().width))
    console.print(_breakdown_table(answer))
    previous = getattr(body, "previous", ())
    if previous:
        console.print(_sheet_table([p.name for p in answer.players], [*previous, answer]))
    if answer.round == 3:
        console.print(_say(t("Final ranking:") if previous else t("Ranking after round 3:")))
        for entry in answer.ranking:
            console.print(f"  {entry.place}. {entry.name}: {entry.score}")
    return 0


NAMES = ("Ana", "Ben", "Cyd", "Dov", "Eli", "Fay")


def bot_levels(text: str) -> tuple[Level, ...]:
    """`--bots`: one level a seat, comma-separated, 2 to 6 of them (issue 28)."""
    from .bots import LEVELS

    levels = tuple(cast("Level", level.strip()) for level in text.split(","))
    wrong = [level for level in levels if level not in LEVELS]
    if wrong:
        raise argparse.ArgumentTypeError(
            f"unknown level {wrong[0]!r}: each seat's level is one of {', '.join(LEVELS)}")
    if not 2 <= len(levels) <= 6:
        raise argparse.ArgumentTypeError(
            f"{len(levels)} level(s) given: one a seat, 2 to 6 seats (e.g. strong,basic,random,random)")
    return levels


def budget_ms(text: str) -> int:
    """`--budget-ms`: the strong level's budget, within what POST /v1/suggest accepts."""
    from .bots.model import LEAST_BUDGET_MS, MOST_BUDGET_MS

    try:
        value = int(text)
    except ValueError:
        value = LEAST_BUDGET_MS - 1
    if not LEAST_BUDGET_MS <= value <= MOST_BUDGET_MS:
        raise argparse.ArgumentTypeError(
            f"{text!r} is no budget: a whole number of ms, {LEAST_BUDGET_MS} to {MOST_BUDGET_MS}")
    return value


def bot_move(state: GameState, levels: Sequence[Level], budget: int) -> Action | None:
    """The next action of a table of bots (`service.bots.table.next_move`: the seats an
    out-of-turn window lets act first, then the seat the game waits for). None when no seat has
    a move (a stuck game)."""
    from .bots import NotToAct
    from .bots.table import next_move

    try:
        return next_move(state, levels, budget)[0]
    except (NotToAct, ValueError):
        return None


def cmd_play(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn

    from .bots import BUDGET_MS

    console = Console()
    levels: tuple[Level, ...] | None = args.bots
    if levels is not None and args.players is not None and args.players != len(levels):
        print(f"referee play: --players {args.players} but {len(levels)} levels in --bots "
              "(one a seat): give one of them, or as many levels as players", file=sys.stderr)
        return 2
    if levels is None and args.budget_ms is not None:
        print("referee play: --budget-ms is the strong bots' budget: it needs --bots", file=sys.stderr)
        return 2
    names = list(NAMES[: len(levels) if levels else args.players or 4])
    try:
        outcome = new_game(names, _modules(args.modules), seed=args.seed)
    except GameRequestError as e:
        return _fail("bad-game-request", _joined(e.violations, rules=False), e.violations)
    state = outcome.state
    rng = Generator(args.seed)
    budget = args.budget_ms or BUDGET_MS
    level_of: dict[str, str] = dict(zip(names, levels, strict=True)) if levels else {}
    if levels:
        bots = tuple(f"{name} {level}" for name, level in level_of.items())
        console.print(_say(t("Bots: {bots} (strong's budget {budget} ms)", bots=bots, budget=budget)
                           if "strong" in levels else t("Bots: {bots}", bots=bots)), markup=False)
    tiles_total = len(state.bag)
    steps = 0
    actions = []
    with Progress(TextColumn("[bold]" + _say(t("playing"))), BarColumn(), TextColumn("{task.description}"),
                  console=console, transient=True, disable=args.quiet) as progress:
        task = progress.add_task("", total=tiles_total)
        while not outcome.game_over:
            action = bot_move(state, levels, budget) if levels else random_action(state, rng)
            if action is None:
                console.print("[red]" + _say(t("no legal action: the game is stuck")))
                return 2
            outcome = apply(state, action)
            state = outcome.state
            steps += 1
            actions.append(action)
            if args.check and check_consistency(state):
                console.print("[red]" + _say(t("inconsistent state after {action}", action=str(action))),
                              markup=False)
                return 2
            for breakdown in outcome.scoring:
                progress.console.print(_breakdown_table(breakdown))
            progress.update(task, completed=tiles_total - len(state.bag),
                            description=_say(t("{actions} actions, {tiles} tiles in the bag",
                                                               actions=steps, tiles=len(state.bag))))
    console.print(_say(tn("Game over after {n} action. Final ranking:",
                          "Game over after {n} actions. Final ranking:", steps)))
    _print_ranking(console, state.ranking, level_of)
    if args.record:
        from .api.bodies import RECORD_FORMAT, GameRecord, NewGame
        from .client import write_record

        # The record as the client keeps one (service.client.recorded): the setup as POST
        # /v1/games takes it, every action in order, the final ranking as the result. Unsealed
        # (the game was played in-process), so no seal.
        setup = NewGame(players=tuple(names), modules=tuple(_modules(args.modules)), seed=args.seed)
        record = GameRecord(format=RECORD_FORMAT, edition=state.edition,  # type: ignore[arg-type]
                            setup=setup, actions=tuple(actions), result=state.ranking)
        write_record(record, args.record)
        console.print(_say(tn("Record written to {file} ({n} action)",
                              "Record written to {file} ({n} actions)", steps, file=args.record)),
                      markup=False)
    return 0


def _print_ranking(console: Any, ranking: Sequence[Any], level_of: dict[str, str] | None = None) -> None:
    """The ranking, one line a player; with `level_of`, each bot's level beside its name."""
    for entry in ranking:
        level = (level_of or {}).get(entry.name)
        console.print(f"  {entry.place}. {entry.name}{f' ({level})' if level else ''}: {entry.score}")


def render_body(raw: bytes, player: str | None) -> bytes:
    """The /v1/render body of a file: the body itself, or the state of an answer of /v1/games
    or /v1/apply (their other fields dropped), with `player` when given."""
    try:
        fields = msgspec.json.decode(raw, type=dict[str, msgspec.Raw])
    except msgspec.DecodeError:
        return raw  # the endpoint's decoder names the fault
    if "state" not in fields:
        return raw
    name = player if player is not None else msgspec.json.decode(fields.get("player", b"null"))
    body = {"state": fields["state"]} | ({} if name is None else {"player": name})
    return msgspec.json.encode(body)


def png_of(svg: bytes) -> bytes | None:
    """The SVG converted to PNG by resvg (the `resvg-py` package, a dependency: a wheel with no
    system library, so PNG works wherever pip does); None if it cannot be imported."""
    try:
        import resvg_py  # type: ignore[import-untyped]
    except ImportError:
        return None
    return bytes(resvg_py.svg_to_bytes(svg_string=svg.decode("utf-8"), background="#ffffff"))


NO_PNG = ("referee render: PNG needs resvg-py, which is not installed (pip install resvg-py). "
          "Write SVG instead with -o FILE.svg.")


def cmd_render(args: argparse.Namespace) -> int:
    """An SVG (or PNG) of a state, of what one player sees of it, or of a scoring position."""
    from .api import render
    from .api.refusals import RequestError

    try:
        body = render.decode(render_body(_read(args.file), args.player))
        if args.player is not None and not isinstance(body, render.RenderState):
            raise RequestError(400, "bad-request", t("--player needs a game state: a scoring "
                                                     "position has nothing hidden"))
        picture = render.render(body).encode()
    except RequestError as e:
        print(f"referee render: {_say(e.message)}", file=sys.stderr)
        return _fail(e.error, e.message, e.violations)
    if args.png or args.output.endswith(".png"):
        png = png_of(picture)
        if png is None:
            print(NO_PNG, file=sys.stderr)
            return 2
        picture = png
    if args.output == "-":
        sys.stdout.buffer.write(picture)
    else:
        with open(args.output, "wb") as f:
            f.write(picture)
    return 0


# `referee replay`'s exit status when the record's result disagrees with its replay (issue 27):
# 0 is a replay that agrees (or has no result to check, or stopped before it), 1 a refused record
# (an illegal action, a bad file), 2 a command that cannot run (a setting, a missing package).
RESULT_DISAGREES = 3


def _replay_fields(raw: bytes, upto: int | None, player: str | None) -> dict[str, msgspec.Raw] | None:
    """The /v1/replay body of a file, by field (each still JSON): a ReplayQuery's own, or a
    record's wrapped as `{"record": ...}`; `upto` and `player`, when given, over the file's. None
    when the file is no JSON object (the endpoint's decoder then names the fault)."""
    try:
        fields = msgspec.json.decode(raw, type=dict[str, msgspec.Raw])
    except msgspec.DecodeError:
        return None
    body = fields if "record" in fields else {"record": msgspec.Raw(raw)}
    if upto is not None:
        body["upto"] = msgspec.Raw(msgspec.json.encode(upto))
    if player is not None:
        body["player"] = msgspec.Raw(msgspec.json.encode(player))
    return body


def _replay_picture(fields: dict[str, msgspec.Raw], answer: Any, sealing: Any) -> bytes:
    """The SVG of where the replay stopped, drawn as `referee render` draws an answer's state
    (with `player`, that player's view). A player's replay answers no state, so the state is
    replayed once more without `player`. With SEAL_KEYS set the state is sealed and drawn as a
    sealing referee draws one (without `player`, a spectator's picture)."""
    from .api import render
    from .api.endpoints import handle
    from .api.handlers import Judge

    player = msgspec.json.decode(fields["player"]) if "player" in fields else None
    if answer.state is None:
        whole = {k: v for k, v in fields.items() if k != "player"}
        answer = handle("replay", msgspec.json.encode(whole), sealing)
    body = render.decode(render_body(msgspec.json.encode({"state": answer.state}), player))
    return render.render(body, Judge(sealing)).encode()


def _replay_refused(e: Any, whole: bool) -> int:
    """The first illegal action of a record, in POST /v1/replay's 422 shape: the error, the
    message, the violations (rule ids), the action's index and the action; `whole` (--json):
    the endpoint's body itself, the state before the action included."""
    print(f"referee replay: {_say(e.message)}", file=sys.stderr)
    if whole:
        _print_json(e.body())
    else:
        _print_json({"error": e.error, "message": e.message, "violations": list(e.violations),
                     "index": e.index, "action": e.action})
    return 1


def cmd_replay(args: argparse.Namespace) -> int:
    """A record replayed by the /v1/replay endpoint's own handler (issue 27): each scoring round
    as a table, the final ranking (or who must act where `--upto` stopped), the record's result
    checked; `--json`: what POST /v1/replay answers; `--render`: a picture of where it stopped.
    Exits 0, 1 (a refused record: its first illegal action, a bad file) or RESULT_DISAGREES."""
    from .api.endpoints import handle
    from .api.refusals import RecordRefused, RequestError
    from .seal import Sealing
    from .settings import Settings

    if not args.json:
        from rich.console import Console  # before any work: a missing rich says so at once

        console = Console(width=max(100, Console().width))
    try:
        raw = _read(args.file)
    except OSError as e:
        print(f"referee replay: {args.file}: {e.strerror or e}", file=sys.stderr)
        return _fail("bad-request", f"{args.file}: {e.strerror or e}", [])
    fields = _replay_fields(raw, args.upto, args.player)
    try:
        sealing = Sealing.from_settings(Settings.from_env())  # SEAL_KEYS: states sealed as served
        answer = handle("replay", raw if fields is None else msgspec.json.encode(fields), sealing)
        picture = None if args.render is None else _replay_picture(fields or {}, answer, sealing)
    except RecordRefused as e:
        return _replay_refused(e, args.json)
    except RequestError as e:
        print(f"referee replay: {_say(e.message)}", file=sys.stderr)
        return _fail(e.error, e.message, e.violations)
    if picture is not None:
        if args.render.endswith(".png"):
            png = png_of(picture)
            if png is None:
                print(NO_PNG, file=sys.stderr)
                return 2
            picture = png
        with open(args.render, "wb") as f:
            f.write(picture)
    code = RESULT_DISAGREES if answer.result.verdict == "disagrees" else 0
    if args.json:
        _print_json(answer)
        return code
    for breakdown in answer.scoring:
        console.print(_breakdown_table(breakdown))
    if answer.game_over:
        console.print(_say(tn("Game over after {n} action. Final ranking:",
                              "Game over after {n} actions. Final ranking:", answer.actions)))
        _print_ranking(console, answer.ranking)
    else:
        waiting = tuple(answer.to_act.players)
        console.print(_say(tn("Stopped after {n} action; to act: {players}",
                              "Stopped after {n} actions; to act: {players}", answer.actions,
                              players=waiting) if waiting else
                           tn("Stopped after {n} action; to act: nobody",
                              "Stopped after {n} actions; to act: nobody", answer.actions)), markup=False)
    result = answer.result
    console.print(_say({
        "agrees": t("The record's result agrees with the replay."),
        "disagrees": t("The record's result disagrees with the replay:"),
        "absent": t("The record has no result to check."),
        "not-reached": t("The record's result is not checked: the replay stopped before its last action."),
    }[result.verdict]), markup=False)
    for line in result.differences:
        console.print(f"  {_say(line)}", markup=False)
    if args.render is not None:
        console.print(_say(tn("Picture of the state after {n} action written to {file}",
                              "Picture of the state after {n} actions written to {file}", answer.actions,
                              file=args.render)), markup=False)
    return code


def cmd_modules(args: argparse.Namespace) -> int:
    for m in registered():
        print(f"{m.id:<12} {m.name}  " + _say(tn("({n} rule)", "({n} rules)", len(m.rule_ids))))
    return 0


LANG_CHOICES = ("en", "de", "fr", "es", "ca")  # i18n.LANGUAGES, without importing Babel to parse


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="referee", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the HTTP referee")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--workers", type=int)
    serve.set_defaults(fn=cmd_serve)

    health = sub.add_parser("healthcheck", help="exit 0 when the local referee answers /healthz")
    health.add_argument("--port", type=int)
    health.set_defaults(fn=cmd_healthcheck)

    new = sub.add_parser("new", help="print a new game's state")
    new.add_argument("--players", required=True, help="comma-separated names, 2 to 6")
    new.add_argument("--modules", default="", help="comma-separated module ids")
    new.add_argument("--seed", type=int, default=0)
    new.set_defaults(fn=cmd_new)

    engine = []
    for name, what in (("validate", '{"state", "action"}'), ("apply", '{"state", "action"}')):
        cmd = sub.add_parser(name, help=f"{name} a JSON body {what} from FILE or stdin")
        cmd.add_argument("file", nargs="?", default="-")
        cmd.set_defaults(fn=cmd_engine)
        engine.append(cmd)

    score = sub.add_parser("score", help="score a round and print its breakdown as a table: a "
                           "scoring position (players by tiles or by tally; with `previous`, a "
                           "score sheet) or {\"state\", \"round\"}")
    score.add_argument("file", nargs="?", default="-",
                       help="the POST /v1/score body, JSON or TOML (a name ending in .toml); '-': stdin")
    score.add_argument("--json", action="store_true", help="print what POST /v1/score answers")
    score.set_defaults(fn=cmd_score)

    play = sub.add_parser("play", help="play a random game, or a game between bots, and print its scoring")
    play.add_argument("--players", type=int, choices=range(2, 7), help="2 to 6 (default 4)")
    play.add_argument("--bots", type=bot_levels, metavar="LEVELS",
                      help="a game between bots: one level a seat (random, basic or strong), "
                      "comma-separated, e.g. strong,basic,random,random")
    play.add_argument("--budget-ms", type=budget_ms, metavar="MS",
                      help="the strong bots' budget a move, 10 to 2000 ms (default 200)")
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--modules", default="")
    play.add_argument("--check", action="store_true", help="check consistency after each step")
    play.add_argument("--quiet", action="store_true", help="no progress bar")
    play.add_argument("--record", metavar="FILE",
                      help="write the game's record (alhambra-record/1 JSON) to FILE, for `referee replay`")
    play.set_defaults(fn=cmd_play)

    replay = sub.add_parser("replay", help="replay a game's record as POST /v1/replay does: each "
                            "scoring round, the final ranking and the record's result checked")
    replay.add_argument("file", nargs="?", default="-",
                        help="a record (alhambra-record/1 JSON) or a POST /v1/replay body ('-': stdin)")
    replay.add_argument("--upto", type=int, metavar="K", help="stop after the record's first K actions")
    replay.add_argument("--player", help="answer this player's view, not the state (RULES.md §8)")
    replay.add_argument("--render", metavar="OUT.svg",
                        help="draw the state where the replay stopped (with --player, that player's "
                        "view), as `referee render` does; a name ending in .png writes PNG")
    replay.add_argument("--json", action="store_true", help="print what POST /v1/replay answers")
    replay.set_defaults(fn=cmd_replay)

    render = sub.add_parser("render", help="draw a state, a player's view or a scoring position "
                            "as SVG (PNG with a converter)")
    render.add_argument("file", nargs="?", default="-",
                        help="a POST /v1/render body, or an answer of /v1/games or /v1/apply ('-': stdin)")
    render.add_argument("--player", help="draw only what this player may see (RULES.md §8)")
    render.add_argument("-o", "--output", default="-",
                        help="the file to write ('-': stdout); a name ending in .png writes PNG")
    render.add_argument("--png", action="store_true",
                        help="write PNG (drawn by resvg-py)")
    render.set_defaults(fn=cmd_render)

    modules = sub.add_parser("modules", help="list the modules")
    modules.set_defaults(fn=cmd_modules)

    for command in (new, *engine, score, play, replay, render, modules):
        command.add_argument("--lang", choices=LANG_CHOICES, metavar="LANG",
                             help="the language of what is printed: en, de, fr, es or ca "
                             "(default: the locale's, LC_ALL / LC_MESSAGES / LANG)")

    keygen = sub.add_parser("keygen", help="print a new sealing key entry KID:KEY for SEAL_KEYS")
    keygen.add_argument("kid", help="the key's id: 1 to 32 letters, digits, '-' or '_'")
    keygen.set_defaults(fn=cmd_keygen)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from . import i18n

    args = parser().parse_args(argv)
    told = i18n.LANGUAGE.set(getattr(args, "lang", None) or locale_language())  # this run's language
    try:
        return _run(args)
    finally:
        i18n.LANGUAGE.reset(told)


def _run(args: argparse.Namespace) -> int:
    from .settings import SettingsError  # the standard library only

    try:
        return int(args.fn(args))
    except (IllegalAction, InconsistentState) as e:
        return _fail("refused", _joined(e.violations), e.violations)
    except SettingsError as e:  # a wrong setting stops the command with one line naming it
        print(f"referee: {e}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as e:
        # `pip install alhambra-referee` brings the engine and the client only (issue 26): a
        # command that needs the server's packages says which install brings them.
        top = (e.name or __package__).split(".")[0]
        if top == __package__:
            raise
        print(f"referee {args.command}: needs the package {top!r}, which the server's install "
              "brings: pip install 'alhambra-referee[server]'", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
