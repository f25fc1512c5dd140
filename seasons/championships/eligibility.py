"""Who may be registered in a championship's tournament: a pure function.

Responsible for ``refusal``: the first rule a registration breaks, with the other registration
that breaks it, from plain values (the championship's tournaments, every registration of the
players concerned). The rules, in the order they are checked for each player:

- ``eliminated``: a player who took part in a pair in a finished tournament of a stage that
  qualifies (a qualifier, an intermediate final) and whose pair did not qualify cannot come
  back in another tournament of the championship, not as a pair's player, not as a substitute
  for one partida, not as a member changed on the day;
- ``one_centre``: a player represents one centre per championship: in a pair, as a substitute
  or as a member changed on the day, never for two centres (a registration whose centre is
  not known, such as a pair entered by hand in a final of no centre, binds nobody);
- ``member_changes``: a pair changes at most as many of its players on the day of each stage as
  the championship allows (0: none).

A registration's centre is its qualifier's; in a later stage, the centre of the qualification
that brought the pair (carried through the intermediate finals), else the peña the pair
represents when it is a centre of the championship.

Must not: import Django or anything of the project (import-linter's ``pure-cores``), or read
the clock.

Terms: centro (centre), clasificatoria (qualifier), suplente (substitute), eliminado
(eliminated), cambio de jugador (member change).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum


class Rule(StrEnum):
    ELIMINATED = "eliminated"
    ONE_CENTRE = "one_centre"
    MEMBER_CHANGES = "member_changes"


@dataclass(frozen=True)
class Stop:
    """A tournament of the championship."""

    id: int
    #: it is finished
    finished: bool
    #: its stage sends pairs on (a qualifier or an intermediate final; not the final)
    qualifies: bool
    centre: int | None = None


@dataclass(frozen=True)
class Registration:
    """A player already in a tournament of the championship."""

    player: int
    stop: int
    entry: int
    centre: int | None
    #: as a substitute for one partida (not a pair's player)
    substitute: bool = False
    #: the pair qualified from that tournament
    qualified: bool = False


@dataclass(frozen=True)
class Refusal:
    rule: Rule
    player: int | None = None
    other: Registration | None = None


def refusal(
    *,
    players: Iterable[int],
    stop: int,
    centre: int | None,
    stops: Mapping[int, Stop],
    registrations: Iterable[Registration],
    member_change: bool = False,
    changes_made: int = 0,
    changes_allowed: int = 0,
) -> Refusal | None:
    """The first rule broken by registering ``players`` in ``stop`` for ``centre``, or None.
    ``member_change``: one of them replaces a pair's player on the day (``changes_made`` of
    the pair's players already changed in this tournament, ``changes_allowed`` allowed)."""
    if member_change and changes_made >= changes_allowed:
        return Refusal(Rule.MEMBER_CHANGES)
    by_player: dict[int, list[Registration]] = {}
    for registration in registrations:
        by_player.setdefault(registration.player, []).append(registration)
    for player in players:
        mine = sorted(by_player.get(player, ()), key=lambda r: (r.stop, r.entry, r.substitute))
        for other in mine:
            where = stops.get(other.stop)
            if (
                where is not None
                and other.stop != stop
                and not other.substitute
                and where.finished
                and where.qualifies
                and not other.qualified
            ):
                return Refusal(Rule.ELIMINATED, player, other)
        for other in mine:
            if other.centre is not None and centre is not None and other.centre != centre:
                return Refusal(Rule.ONE_CENTRE, player, other)
    return None
