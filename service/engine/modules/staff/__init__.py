"""Palace Staff (RULES.md §S, seed 002): a player who takes money totalling less than 6 may walk
their court marshal through the Alhambra, one step per unit short of 6; each tile entered that
has no servant takes a servant of its colour from the face-up display. The tile under the
marshal may not go to the reserve. In every scoring round, right after the building types, each
building without a servant costs a point, never taking the running score below 0; in round 3
the deduction comes before the leftover tiles and any point of the round, so the floor is the
score before it.

Hidden information: the order of the face-down servant pile (`StaffState.pile`).
"""
