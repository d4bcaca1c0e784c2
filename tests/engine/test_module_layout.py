"""Every module is shaped alike (issue 25): the checklist of `service/engine/modules/README.md`
holds, for every registered module and for the toy module of the tests, so that a newcomer
knows where each concern of a module lives and what adding one touches."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import msgspec
import pytest

import service.engine  # noqa: F401  (registers every module)
from service.engine.module import module, registered
from service.engine.scoring.tally import Tally
from service.engine.state import MODULE_PARTS, GameState, PlacedTile

ROOT = Path(__file__).resolve().parents[2]
MODULES = ROOT / "service" / "engine" / "modules"
TOY = ROOT / "tests" / "support" / "toy"
README = (MODULES / "README.md").read_text()
IDS = [m.id for m in registered() if m.id != "base"]


def checklist_files() -> set[str]:
    """The files the checklist names for a module's folder."""
    folder = README.split("The files of its folder", 1)[1].split("Outside its folder", 1)[0]
    return set(re.findall(r"^- \[ \] `([a-z_]+\.py)`", folder, flags=re.M))


def imports_of(path: Path) -> list[str]:
    """The modules `path` imports from, relative ones with their dots."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            out.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return out


def test_the_checklist_names_the_folder_of_every_module() -> None:
    assert checklist_files() == {"__init__.py", "model.py", "data.py", "actions.py", "play.py",
                                 "scoring.py", "census.py", "plugin.py", "words.py"}


@pytest.mark.parametrize("folder", [*(MODULES / i for i in IDS), TOY], ids=[*IDS, "toy"])
def test_a_module_folder_holds_only_the_files_of_the_checklist(folder: Path) -> None:
    files = {p.name for p in folder.glob("*.py")}
    assert {"__init__.py", "plugin.py"} <= files, folder
    unnamed = sorted(files - checklist_files())
    assert not unnamed, f"{folder.name}: {unnamed} not in the checklist"
    assert imports_of(folder / "__init__.py") == [], f"{folder.name}/__init__.py imports"
    if (folder / "model.py").exists():  # the state imports it: nothing of the engine but records
        engine = [i for i in imports_of(folder / "model.py") if i.startswith(".")]
        assert set(engine) <= {"...records", "...census", "..."}, (folder.name, engine)


@pytest.mark.parametrize("module_id", IDS)
def test_a_module_is_registered_by_its_plugin_and_one_line(module_id: str) -> None:
    registration = (MODULES / "__init__.py").read_text()
    assert registration.count(f"from .{module_id} import plugin as _{module_id}") == 1
    plugin = __import__(f"service.engine.modules.{module_id}.plugin", fromlist=["MODULE"])
    assert plugin.MODULE is module(module_id)
    others = [p for p in (MODULES / module_id).glob("*.py") if p.name != "plugin.py"]
    assert not [p.name for p in others if any(i.endswith("plugin") for i in imports_of(p))]


@pytest.mark.parametrize("module_id", IDS)
def test_what_a_module_touches_outside_its_folder_is_what_the_checklist_says(module_id: str) -> None:
    m = module(module_id)
    model = MODULES / module_id / "model.py"
    states = re.findall(r"^class (\w+State)\(", model.read_text(), flags=re.M) if model.exists() else []
    fields = {f.name: f.type for f in msgspec.structs.fields(GameState)}
    if states:  # the field of GameState, MODULE_PARTS
        assert module_id in MODULE_PARTS and module_id in fields, module_id
    else:
        assert module_id not in MODULE_PARTS
    tally = {f.name for f in msgspec.structs.fields(Tally)}
    assert (m.tally is not None and m.tally.type is not None) == (module_id in tally), module_id
    assert set(m.tokens) <= set(PlacedTile.__struct_fields__), module_id
