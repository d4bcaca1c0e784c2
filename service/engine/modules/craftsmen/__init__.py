"""Travelling Craftsmen (RULES.md §C, seed 000): each player has two face-up craftsmen; during
their turn they may use one craftsman's ability once, and at the end of the turn they pass a
craftsman (the used one, else either face-up one) face down to their left neighbour, then turn
up their own face-down one (craftsmen.flip). Dirk never gets craftsmen.

How the abilities are used:
- mosaic-artist: `rotation` on `place-building`, `place-from-reserve` or `swap-with-reserve`;
- carpenter: `discount` (1 or 2) on `buy-building`; coiner: `from_display` on `buy-building`;
- goldsmith: `goldsmith: true` on `take-money`;
- brickmaker: `displaced` on `place-building` (the building at (x, y) goes to the reserve,
  `{"to": "reserve"}`, or to a space, `{"to": "alhambra", "x": 0, "y": 1}`; the older
  `"reserve"` and `[0, 1]` are still read);
- blacksmith (`use-blacksmith`), mortar-mixer (`swap-market-tiles`), stonemason
  (`exchange-money`) and builder (`builder-redesign`) are actions of their own that do not use
  up the turn's action (kind "free").

Decisions where RULES.md is silent (gathered in docs/decisions.md, "Travelling Craftsmen"):
- A second use in the same turn (of any craftsman, also the same one) is refused citing
  craftsmen.use-one; an action naming two abilities too.
- The abilities work during the holder's whole turn while it is played (not while leftover
  tiles are placed at the end of the game): free actions before, between or after the turn's
  actions, also while held buildings are placed, and after the last action (a take-money, a
  purchase placed) until the craftsman is passed: `pass-craftsman` is awaited together with
  them (craftsmen.use-one). One used then asks for the pass again after any decision it
  brought about (a vendor's visit); a scoring card a blacksmith draws then, past the turn's
  scoring step, is resolved at once, before the pass (still at the end of the turn).
- The face-down card is turned up at end-of-turn position 71, right after the pass (70): the
  first player's third card at the end of their first turn, every received card at the end of
  its receiver's next turn.
- Passing is always asked (`pass-craftsman`), even when the used card leaves no choice.
- blacksmith: refused when the display already holds 6. mortar-mixer: both spaces must hold a
  tile (tokens and hidden tiles move with their tile). stonemason: any hand card for any
  display card of the same currency.
- builder: one of (a) reserve -> Alhambra (x, y), (b) Alhambra -> reserve (no position), (c)
  swap (`replaces`), (d) Alhambra -> another empty space (x, y); only the result counts: it must
  obey §4 as a whole (every tile reachable, no hole, sides matching). A moved tile keeps its
  rotation; the fountain never moves.
- brickmaker: the bought building takes the space when its sides match every neighbour there
  (so paths and holes stay as they were); the displaced building goes to the reserve or to an
  empty space where it obeys §4 in the Alhambra after the replacement, unrotated.
- Hidden: each face-down card (only its holder sees it) and the cards out of the game; a pass
  event does not name the card.
"""
