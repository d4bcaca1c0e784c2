"""Scoring, in one package (RULES.md §7, API.md's scoring position and score sheet):

- `round`: a scoring round of a position (majorities, the wall, each module's categories, the
  ranking), its lines and breakdown; a game state is scored as the position it makes.
- `tally`: a position's player given by counts instead of tiles.
- `tally_checks`: tallies that cannot occur, the base game's checks and the modules' helpers.
- `positions`: every other reason a scoring position could not occur.
- `sheet`: a round scored after the earlier rounds of the same table.

The package's own names are those of `round` that scorers outside it use.
"""

from .round import (
    Breakdown,
    Line,
    MajorityLine,
    Position,
    PositionPlayer,
    Round,
    WallLine,
    building_type,
    counted_buildings,
    majority_lines,
    position_of,
    rank,
    score_position,
    shared_places,
    tallies_of,
    tally_majority_lines,
    tally_of,
)

__all__ = ["Breakdown", "Line", "MajorityLine", "Position", "PositionPlayer", "Round", "WallLine",
           "building_type", "counted_buildings", "majority_lines", "position_of", "rank",
           "score_position", "shared_places", "tallies_of", "tally_majority_lines", "tally_of"]
