"""Modules beyond the base game: one package (or file) each, registered in a fixed order.

A module's data structs (its state, actions, events) live in its `model.py`, which imports
nothing of the engine but `records`, so the game state can hold them; its rules live beside.
"""

from __future__ import annotations


def register_all() -> None:
    """Import (and so register) every module, in the order their hooks run."""
    # The registry order, not the alphabet:
    # isort: off
    from . import dirk  # noqa: F401
    from .craftsmen import plugin as _craftsmen  # noqa: F401
    from .zoo import rules as _zoo  # noqa: F401
    from .power import rules as _power  # noqa: F401
    from .extensions import rules as _extensions  # noqa: F401
    from .staff import plugin as _staff  # noqa: F401
    from .grounds import rules as _grounds  # noqa: F401
    from .walls import rules as _walls  # noqa: F401
    from .treasure import rules as _treasure  # noqa: F401
    from .thieves import rules as _thieves  # noqa: F401
    from .vendors import rules as _vendors  # noqa: F401
    from .change import rules as _change  # noqa: F401
