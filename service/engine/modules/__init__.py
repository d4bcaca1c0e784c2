"""Modules beyond the base game; importing this package registers them in a fixed order."""

from . import dirk  # noqa: F401
