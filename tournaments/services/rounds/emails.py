"""E-mailing players their table (`round_pairings_email`): opponents, table and round, in the
peña's language (tournaments.services.mail); each player once per round (the audit trail
remembers who was e-mailed).
"""

from __future__ import annotations

from django.conf import settings
from django.core.mail import get_connection, send_mail

from clubs.models import Player
from tournaments.models import (
    AuditEntry,
    Entry,
    Match,
    Round,
)
from tournaments.selectors.rounds import (
    round_matches,
)
from tournaments.services.mail import email_render, site_link

EMAIL_ACTION = "round_pairings_emailed"


# --- E-mail -----------------------------------------------------------------------------------


def round_pairings_email(*, round: Round) -> int:
    """E-mail each player with an address their table, opponents and round; returns how many
    players were e-mailed by this call.

    The message is written in the peña's language (``Club.language``), from
    templates/emails/pairing*.txt; a trio's third player gets it too. Only published rounds
    are e-mailed. Idempotent enough: each message is keyed by player,
    match, both pairs and table, and the keys sent are kept in an AuditEntry
    (``round_pairings_emailed``), so running it again sends nothing, and after a swap or a
    table change only the players whose pairing changed get a new message. A crash between
    sending and recording can repeat a message, never lose one.
    """
    rnd = Round.objects.select_related("phase__tournament__club").filter(pk=round.pk).first()
    if rnd is None or rnd.status != Round.Status.PUBLISHED:
        return 0
    tournament = rnd.phase.tournament
    sent: set[str] = set()
    for new in AuditEntry.objects.filter(tournament=tournament, action=EMAIL_ACTION).values_list(
        "new", flat=True
    ):
        if isinstance(new, dict) and new.get("round") == rnd.id:
            sent.update(new.get("sent", []))
    outbox = []
    for match in round_matches(rnd=rnd):
        for own, other in ((match.entry_a, match.entry_b), (match.entry_b, match.entry_a)):
            if own is None:
                continue
            context = None
            for player in (own.pair.player_one, own.pair.player_two, own.player_three):
                if player is None or not player.email:
                    continue
                key = f"{player.id}:{match.id}:{own.id}:{other.id if other else 0}:"
                key += str(match.table_number or 0)
                if key not in sent:
                    context = context or _pairing_context(rnd, match, own, other)
                    outbox.append((key, player, _pairing_message(context, player, own)))
    done: list[str] = []
    players: set[int] = set()
    try:
        connection = get_connection()
        for key, player, (subject, body) in outbox:
            send_mail(
                subject, body, settings.DEFAULT_FROM_EMAIL, [player.email], connection=connection
            )
            done.append(key)
            players.add(player.id)
    finally:
        if done:
            AuditEntry.objects.create(
                tournament=tournament,
                action=EMAIL_ACTION,
                via="email",
                new={"round": rnd.id, "sent": done},
            )
    return len(players)


def _pairing_context(rnd: Round, match: Match, own: Entry, other: Entry | None) -> dict:
    """What the pairing e-mail of ``own``'s players shows (templates/emails/pairing*.txt)."""
    tournament, phase = rnd.phase.tournament, rnd.phase
    context = {
        "tournament": tournament,
        "phase": phase,
        "round": rnd,
        "player": None,  # set per player by round_pairings_email
        "own": str(own.pair),
        "trio": own.player_three_id is not None,
        "bye": other is None,
        "table": match.table_number,
        "table_url": site_link("web:table", match.token) if other is not None else "",
        "round_url": (
            site_link("web:public-round", tournament.club.slug, tournament.slug, rnd.id)
            if tournament.is_public
            else ""
        ),
    }
    if other is not None:
        context["other"] = str(other.pair)
        named = bool(other.pair.name)
        opponents = [other.pair.player_one, other.pair.player_two, other.player_three]
        context["opponent_names"] = (
            ", ".join(str(p) for p in opponents if p is not None) if named else ""
        )
    return context


def _pairing_message(context: dict, player: Player, own: Entry) -> tuple[str, str]:
    """One player's pairing e-mail, in the peña's language (tournaments.services.mail)."""
    partners = [p for p in (own.pair.player_one, own.pair.player_two, own.player_three) if p]
    context = {
        **context,
        "player": player,
        # an individual tournament's partner is drawn each round: say who it is
        "partner": ", ".join(str(p) for p in partners if p.pk != player.pk) if own.drawn else "",
    }
    text = email_render(
        name="pairing", context=context, language=context["tournament"].club.language
    )
    return text.subject, text.body
