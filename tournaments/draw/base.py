"""The values every draw works on: entrants, past results, pairings, and the draw's error.

Responsible for: the plain frozen dataclasses shared by all formats (`Entrant`, `Result`,
`Pairing`), `DrawError`, turning a seed into a `random.Random`, validating a field of entrants,
and the initial ranking used when no standings are given (seed, then rating, then lot).

Must not: import Django, touch a database, read the clock or use any randomness that is not the
``rng`` handed in. Everything here is a value in, a value out.

Terms: an *entrant* is whatever takes a place in the draw — in Mus a pareja (two players who play
every hand together); *seed* 1 is the strongest; a *bye* is a round without an opponent; the
*draw of lots* is the seeded random order that breaks ties nobody else breaks.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from scoring.messages import MessageError
from tournaments.draw.reasons import Reason

__all__ = [
    "DrawError",
    "Entrant",
    "Lot",
    "Pairing",
    "Result",
    "initial_order",
    "make_rng",
    "validate_entrants",
]


class DrawError(MessageError):
    """Input an organizer can act on: the message says what is wrong and how to fix it.

    ``code`` is stable and ``params`` holds every value the message shows, so any layer can
    render it in the reader's language (scoring.messages). A bug is any other exception.
    """


@dataclass(frozen=True)
class Entrant:
    """One entrant of the draw (in Mus, a pareja).

    ``seed``: 1 is the strongest, unique within a draw, ``None`` for unseeded. ``club``: the
    peña the entrant belongs to, for keeping club-mates apart. ``rating``: higher is stronger;
    it only orders entrants that the seed leaves level.
    """

    id: int
    seed: int | None = None
    club: str | None = None
    rating: float | None = None


@dataclass(frozen=True)
class Result:
    """A match (or bye) of an earlier round of the same phase.

    ``b_id`` is ``None`` for a bye to ``a_id`` (a bye counts as a win). ``winner_id`` is ``None``
    while undecided or once voided: then the two count as having met (a pairing once drawn is
    not drawn again) but nobody won or lost.
    """

    round: int
    a_id: int
    b_id: int | None = None
    winner_id: int | None = None


@dataclass(frozen=True)
class Pairing:
    """One line of a draw: ``a_id`` meets ``b_id`` (``None``: ``a_id`` has a bye).

    ``table_order`` is 1 for the best match of the round (the one shown first). ``match_id``
    names the bracket match for bracket formats. ``table`` is set by `assign_tables`.
    """

    table_order: int
    a_id: int
    b_id: int | None
    reasons: tuple[Reason, ...] = ()
    match_id: str | None = None
    table: int | None = None

    @property
    def is_bye(self) -> bool:
        return self.b_id is None

    @property
    def entrant_ids(self) -> tuple[int, ...]:
        return (self.a_id,) if self.b_id is None else (self.a_id, self.b_id)

    def describe(self) -> str:
        """The reasons in English, e.g. ``same record 3–1, not met before``."""
        return ", ".join(reason.describe() for reason in self.reasons)

    def with_table(self, table: int | None) -> Pairing:
        return replace(self, table=table)


Lot = random.Random | int


def make_rng(lot: Lot) -> random.Random:
    """A `random.Random` for ``lot``: an int seeds a fresh one; a Random is used as it is."""
    if isinstance(lot, random.Random):
        return lot
    if isinstance(lot, bool) or not isinstance(lot, int):
        raise TypeError(f"rng must be a random.Random or an int seed, got {lot!r}")
    return random.Random(lot)


def validate_entrants(entrants: Iterable[Entrant], *, minimum: int = 2) -> tuple[Entrant, ...]:
    """Check ids and seeds are unique and seeds are whole numbers from 1; return a tuple."""
    entrants = tuple(entrants)
    ids: set[int] = set()
    seeds: dict[int, int] = {}
    for entrant in entrants:
        if not isinstance(entrant, Entrant):
            raise TypeError(f"expected Entrant values, got {entrant!r}")
        if entrant.id in ids:
            raise DrawError(
                "Entrant {entrant} is listed twice; list each entrant once.",
                code="entrant_duplicate",
                entrant=entrant.id,
            )
        ids.add(entrant.id)
        seed = entrant.seed
        if seed is None:
            continue
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 1:
            raise DrawError(
                "Entrant {entrant} has seed '{seed}'; a seed is a whole number from 1 "
                "(the strongest) upwards, or empty.",
                code="entrant_seed",
                entrant=entrant.id,
                seed=str(seed)[:40],
            )
        if seed in seeds:
            raise DrawError(
                "Entrants {other} and {entrant} both have seed {seed}; give each seeded entrant "
                "a different seed.",
                code="seed_duplicate",
                other=seeds[seed],
                entrant=entrant.id,
                seed=seed,
            )
        seeds[seed] = entrant.id
    if len(entrants) < minimum:
        raise DrawError(
            "The draw needs at least {minimum} entrants; it has {entrants}.",
            code="too_few_entrants",
            minimum=minimum,
            entrants=len(entrants),
        )
    return entrants


def initial_order(entrants: Sequence[Entrant], rng: random.Random) -> list[Entrant]:
    """Strongest first: by seed (unseeded last), then rating (higher first), then by lot.

    The lot is drawn once over the entrants sorted by id, so it depends only on the ids and the
    seed of ``rng``, not on the order the caller listed them in.
    """
    by_id = sorted(entrants, key=lambda e: e.id)
    lots = list(range(len(by_id)))
    rng.shuffle(lots)
    lot = {e.id: lots[i] for i, e in enumerate(by_id)}

    def key(e: Entrant) -> tuple[float, float, int]:
        seed = math.inf if e.seed is None else e.seed
        rating = math.inf if e.rating is None else -e.rating
        return seed, rating, lot[e.id]

    return sorted(entrants, key=key)
