"""Who reaches a partida to write its result: the table's link, or an organizer of its peña.

Responsible for: ``match_for_token`` (the match behind a table's link; the Match.token is the
credential, and the link closes once the result is confirmed, except to replay a write made
with it), and the checks of the caller of a write: through the link a pair (a or b) or anybody
at the table for the hands, while the round is published; through an account or the API an
organizer of the tournament's peña (clubs.roles).

Must not: write anything, or check a role anywhere but clubs.roles.

Terms: mesa (table), enlace de mesa (the table's link, its QR code), pareja (pair A or B), peña.
"""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist

from clubs.roles import require_organizer
from config.errors import Conflict, Invalid, NotFound
from tournaments.models import HandEntry, Match, ResultSubmission, Round
from tournaments.selectors.results import MATCH_RELATIONS, match_by_token
from tournaments.services.results.common import (
    ACCOUNT,
    API,
    LINK,
    ORGANIZER,
    PAIR_SIDES,
    SIDE_A,
    SIDE_B,
    User,
    match_gone,
)


def match_for_token(
    *,
    token: str,
    idempotency_key: str = "",
    relations: tuple[str, ...] = MATCH_RELATIONS,
    lock: bool = False,
    table_read: bool = False,
) -> Match:
    """The match behind a table's link; NotFound for an unknown token.

    A link is useless once the result is confirmed (Conflict), except to replay a write made
    with it before: a phone that retries its confirmation after the match moved on gets its
    first answer, not an error. ``relations``: what to load with it (the table's read takes
    the pairs too, in the same query; a write through the link the round, phase and
    tournament). ``lock``: inside a write's transaction, read it under its row lock (only the
    match row), so that this is the write's one read of the match. ``table_read``: the
    table's read (selectors.match_by_token), which skips the queries of rows the match has
    none of.
    """
    # compiled once
    match = match_by_token(token, relations=relations, lock=lock, table_read=table_read)
    if match is None:
        raise table_link_unknown()
    if match.status == Match.Status.CONFIRMED and not (
        idempotency_key and _written_with_key(match, idempotency_key)
    ):
        raise link_closed()
    return match


def table_link_unknown() -> NotFound:
    """The error of a table link that leads to no match (the table's pages show it too)."""
    return NotFound(
        "This table link is not valid. Scan the QR code on the table again, or ask the "
        "organizers for the link.",
        code="table_link_unknown",
    )


def _written_with_key(match: Match, key: str) -> bool:
    return (
        ResultSubmission.objects.filter(match=match, idempotency_key=key).exists()
        or HandEntry.objects.filter(match=match, idempotency_key=key).exists()
    )


def link_closed() -> Conflict:
    return Conflict(
        "The result of this match is confirmed, so its table link is closed. If the result is "
        "wrong, ask the organizers to correct it.",
        code="link_closed",
    )


# --- The caller of a write -----------------------------------------------------------------


def check_via(via: str) -> None:
    if via not in (LINK, ACCOUNT, API):
        raise Invalid("'via' is link, account or api, not '{via}'.", code="via", via=str(via)[:40])


def check_caller(match: Match, *, side: str, via: str, actor: User) -> None:
    """Through the link the caller is a pair (a or b); otherwise an organizer of the peña."""
    check_via(via)
    if side not in (SIDE_A, SIDE_B, ORGANIZER):
        raise Invalid(
            "'side' is a, b or organizer, not '{side}'.", code="side", side=str(side)[:40]
        )
    if via == LINK:
        if side not in PAIR_SIDES:
            raise Invalid(
                "Through the table link, say which side you are: a or b.", code="side_required"
            )
        return
    require_organizer(actor, _club(match))
    if side != ORGANIZER:
        raise Invalid(
            "Organizers enter results as side 'organizer'; the players use their table link.",
            code="side_organizer",
        )


def check_writer(match: Match, *, via: str, actor: User) -> None:
    """Hands have no side: at the table anybody with the link, otherwise an organizer."""
    check_via(via)
    if via != LINK:
        require_organizer(actor, _club(match))


def _club(match: Match):
    """The match's peña, read through the caller's ``match`` before the write locks it: when
    its round, phase or tournament were not loaded with it, they may be gone by now (a league's
    division removed meanwhile, tests/seasons/leagues/test_leagues_races.py), which is the 404 that
    lock_match answers too, not a 500."""
    try:
        return match.round.phase.tournament.club
    except ObjectDoesNotExist:
        raise match_gone() from None


def check_link_open(match: Match, via: str) -> None:
    if via != LINK:
        return
    if match.status == Match.Status.CONFIRMED:
        raise link_closed()
    if match.round.status != Round.Status.PUBLISHED:
        raise Conflict(
            "Round {round} is not open: results are entered at the table only while the round "
            "is published. Ask the organizers.",
            code="round_not_open",
            round=match.round.number,
            status=match.round.status,
        )


def require_match_organizer(match: Match, actor: User) -> None:
    require_organizer(actor, match.round.phase.tournament.club)
