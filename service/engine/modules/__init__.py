"""Modules beyond the base game: one package each, split by concern alike (README.md's
checklist), registered in a fixed order by the one line per module below, which imports its
`plugin.py`. A module's data (its state, views, tallies) lives in its `model.py`, which imports
nothing of the engine but `records`, so the game state can hold them.
"""

from __future__ import annotations


def register_all() -> None:
    """Import (and so register) every module, in the order their hooks run."""
    # The registry order, not the alphabet:
    # isort: off
    from .dirk import plugin as _dirk  # noqa: F401
    from .craftsmen import plugin as _craftsmen  # noqa: F401
    from .zoo import plugin as _zoo  # noqa: F401
    from .power import plugin as _power  # noqa: F401
    from .extensions import plugin as _extensions  # noqa: F401
    from .staff import plugin as _staff  # noqa: F401
    from .grounds import plugin as _grounds  # noqa: F401
    from .walls import plugin as _walls  # noqa: F401
    from .treasure import plugin as _treasure  # noqa: F401
    from .thieves import plugin as _thieves  # noqa: F401
    from .vendors import plugin as _vendors  # noqa: F401
    from .change import plugin as _change  # noqa: F401
