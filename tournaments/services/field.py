"""Closing registration as the bases say: the minimum, the allowed field sizes, the entries
that drop out (told by e-mail and refunded), and the match format the number of entries chooses.

Responsible for: ``registration_close``, which tournament_status_change calls when the
tournament starts (registration → running), inside its transaction with the tournament locked:

- fewer registered entrants than the bases' minimum, or than their smallest allowed field
  size: Conflict, naming how many it needs and has (the tournament stays in registration);
- more than an allowed size but fewer than the next one ("12 o 16 parejas" with 14): the
  entrants beyond the largest size that fits drop out (tournaments.draw.entries says who: the
  last registered, those not present first once the roll was called). Each is withdrawn, marked
  dropped and refunded (``dropped_at``, ``refunded_at``), written to the audit, and its players
  with an address are e-mailed once the start commits (the task
  ``tournaments.entries_dropped_email``: ``entries_dropped_email`` here, idempotent);
- the match format for that many entries (``rules_by_entries``), which the caller applies to
  the tournament's rules.

The entrants are the tournament's: its pairs or trios (Entry, not the partnerships a draw made)
or its players alone (IndividualEntry). Pairs on the waiting list are not in the field.

Must not: change the tournament's status or rules (services/tournaments.py does, with these
answers), or decide who drops out (tournaments.draw.entries does).

Terms: inscripción (registration), cuadro (the field), pareja, presente (checked in),
devolución (refund), juego, vaca, piedras.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.mail import get_connection, send_mail
from django.utils import timezone

from config.errors import Conflict
from config.queue import enqueue_on_commit
from tournaments.draw.entries import Registered, entrants_dropped, field_cut, format_for_entries
from tournaments.models import AuditEntry, Entry, IndividualEntry, Tournament
from tournaments.selectors.tournaments import ACTIVE_ENTRY_STATUSES
from tournaments.services.base import ALONE, User, audit_write
from tournaments.services.mail import email_render, site_link

#: the audit action that keeps the keys of the e-mails sent to dropped entries
EMAIL_ACTION = "entries_dropped_emailed"


@dataclass
class Closing:
    """What closing registration did: the entrants that play and those that dropped out, and
    the match format the number of entries chose (None: the tournament's own)."""

    kept: int
    dropped: list[Entry | IndividualEntry] = field(default_factory=list)
    rules: dict[str, Any] | None = None


def registration_close(
    *, tournament: Tournament, actor: User, via: str, device: str = ""
) -> Closing:
    """Apply the bases' field to the registered entrants (see the module docstring). The
    caller holds the tournament's lock."""
    alone = tournament.entrant_kind in ALONE
    model = IndividualEntry if alone else Entry
    entrants = model.objects.select_for_update(of=("self",)).filter(
        tournament=tournament, status__in=ACTIVE_ENTRY_STATUSES
    )
    if not alone:
        entrants = entrants.filter(drawn=False)
    rows = list(entrants.order_by("registered_at", "id"))
    cut = field_cut(len(rows), minimum=tournament.min_entries, sizes=tournament.field_sizes)
    if cut.short and cut.reason == "minimum":
        raise Conflict(
            "{tournament_name} needs at least {minimum} entries to start, as its bases say; "
            "it has {registered}. Register more, or lower the minimum.",
            code="too_few_entries",
            tournament_name=tournament.name,
            minimum=cut.needed,
            registered=len(rows),
        )
    if cut.short:
        raise Conflict(
            "{tournament_name} plays with {sizes} entries, as its bases say; it has "
            "{registered}, fewer than {needed}. Register more, or change the allowed sizes.",
            code="field_size_unreached",
            tournament_name=tournament.name,
            sizes=list(tournament.field_sizes),
            needed=cut.needed,
            registered=len(rows),
        )
    gone = set(
        entrants_dropped(
            [
                Registered(id=row.id, order=n, present=row.status == Entry.Status.CHECKED_IN)
                for n, row in enumerate(rows)
            ],
            cut.kept,
        )
    )
    dropped = [row for row in rows if row.id in gone]
    if dropped:
        now = timezone.now()
        for row in dropped:
            row.status = Entry.Status.WITHDRAWN
            row.withdrawn_at = row.dropped_at = row.refunded_at = now
        model.objects.bulk_update(dropped, ["status", "withdrawn_at", "dropped_at", "refunded_at"])
        audit_write(
            tournament=tournament,
            action="entries_dropped",
            actor=actor,
            via=via,
            device=device,
            new={
                "field": cut.kept,
                "dropped": [{"entry": row.id, "name": str(_named(row))} for row in dropped],
                "alone": alone,
            },
        )
        enqueue_on_commit("tournaments.entries_dropped_email", tournament_id=tournament.pk)
    return Closing(
        kept=cut.kept,
        dropped=dropped,
        rules=format_for_entries(tournament.rules_by_entries or [], cut.kept),
    )


def _named(row: Entry | IndividualEntry) -> Any:
    return row.player if isinstance(row, IndividualEntry) else row.pair


# --- E-mail -------------------------------------------------------------------------------------


def entries_dropped_email(*, tournament: Tournament) -> int:
    """E-mail the players of each entry dropped at the close that it is out and its fee
    refunded, in the peña's language (templates/emails/entry_dropped*.txt); returns how many
    players this call e-mailed. Each message is keyed by player and entry, and the keys sent
    are kept in an AuditEntry (``entries_dropped_emailed``): running it again sends nothing."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament.pk).first()
    if tournament is None:
        return 0
    sent: set[str] = set()
    for new in AuditEntry.objects.filter(tournament=tournament, action=EMAIL_ACTION).values_list(
        "new", flat=True
    ):
        if isinstance(new, dict):
            sent.update(new.get("sent", []))
    outbox = []
    entries = Entry.objects.filter(tournament=tournament, dropped_at__isnull=False).select_related(
        "pair__player_one", "pair__player_two", "player_three"
    )
    for entry in entries:
        for player in (entry.pair.player_one, entry.pair.player_two, entry.player_three):
            if player is not None and player.email and f"{player.id}:{entry.id}" not in sent:
                outbox.append((f"{player.id}:{entry.id}", player, str(entry.pair)))
    alone = IndividualEntry.objects.filter(
        tournament=tournament, dropped_at__isnull=False
    ).select_related("player")
    for individual in alone:
        player = individual.player
        key = f"{player.id}:i{individual.id}"
        if player.email and key not in sent:
            outbox.append((key, player, str(player)))
    done: list[str] = []
    players: set[int] = set()
    page = (
        site_link("web:tournament", tournament.club.slug, tournament.slug)
        if tournament.is_public
        else ""
    )
    try:
        connection = get_connection()
        for key, player, own in outbox:
            text = email_render(
                name="entry_dropped",
                context={"tournament": tournament, "player": player, "own": own, "page": page},
                language=tournament.club.language,
            )
            send_mail(
                text.subject,
                text.body,
                settings.DEFAULT_FROM_EMAIL,
                [player.email],
                connection=connection,
            )
            done.append(key)
            players.add(player.id)
    finally:
        if done:
            AuditEntry.objects.create(
                tournament=tournament, action=EMAIL_ACTION, via="email", new={"sent": done}
            )
    return len(players)
