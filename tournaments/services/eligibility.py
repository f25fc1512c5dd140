"""Registration's checks by the floors above: who may enter a tournament beyond its own rules.

Responsible for: ``ELIGIBILITY_CHECKS``, a registry the floor above fills when Django starts
(seasons.championships registers its rules in ``ChampionshipsConfig.ready``: a player
represents one centre per championship, a player eliminated in a qualifier does not come back
in another, a pair changes its players on the day only as the championship allows), and
``eligibility_refusals``, which every registration path calls once, inside its transaction
and after its own checks, with everybody it is about to register: a pair one by one
(services/registration.py), a trio (services/entrants.py), a pasted list or a file of 1,000
lines (services/bulk.py), a substitute for one partida, a player who replaces another in a
pair on the day (services/registration.py). It answers each refused candidate's error (a
``config.errors`` error naming the rule and the other registration); the caller raises it, or,
for a list, reports it with its line like any other line's error.

A check is called once per registration whatever its length, so it reads in a fixed number of
queries; for a tournament it does not care about (one of no championship) it costs one query.
Tournaments never import the floor above: it registers itself here, as the archive's sections
do (tournaments.archive.section_register).

Must not: import a floor above, decide a rule, or write.

Terms: inscripción (registration), suplente (substitute), pareja (pair).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from config.errors import DomainError
from tournaments.models import Tournament

#: what a candidate is registered as
ENTRY = "entry"  # a pair (or a trio) entering the tournament
SUBSTITUTE = "substitute"  # a player who plays one partida for a pair's player
MEMBER = "member"  # a player who replaces one of a pair's players, on the day


@dataclass(frozen=True)
class Candidate:
    """Who is about to be registered, as a check reads it (ids only)."""

    #: the players this registration brings in: a pair's two, a trio's three, the substitute,
    #: the new member
    players: tuple[int, ...]
    role: str = ENTRY
    #: the peña the pair represents (Pair.club), if any
    club_id: int | None = None
    #: the entry the substitute plays for, or whose player changes (None for a new entry)
    entry_id: int | None = None
    #: the players the pair has now (the pair a substitute or a new member joins)
    pair_players: tuple[int, ...] = ()
    #: the player who is replaced (a substitute's or a member change's)
    replaced: int | None = None


#: name → check(tournament, candidates) → {index of a refused candidate: its error}
Check = Callable[[Tournament, Sequence[Candidate]], dict[int, DomainError]]
ELIGIBILITY_CHECKS: dict[str, Check] = {}


def eligibility_register(name: str, check: Check) -> None:
    """Add (or replace: registering again is harmless) the check called ``name``."""
    ELIGIBILITY_CHECKS[name] = check


def eligibility_refusals(
    *, tournament: Tournament, candidates: Sequence[Candidate]
) -> dict[int, DomainError]:
    """Each refused candidate's first error, by its index in ``candidates``."""
    refusals: dict[int, DomainError] = {}
    if not candidates:
        return refusals
    for check in ELIGIBILITY_CHECKS.values():
        for index, error in check(tournament, candidates).items():
            refusals.setdefault(index, error)
    return refusals


def eligibility_require(*, tournament: Tournament, candidate: Candidate) -> None:
    """Raise the error of ``candidate`` if a check refuses it."""
    refusal = eligibility_refusals(tournament=tournament, candidates=[candidate]).get(0)
    if refusal is not None:
        raise refusal
