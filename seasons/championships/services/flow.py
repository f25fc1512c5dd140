"""The qualified pairs of a championship's tournament, and their flow into the next stage.

Responsible for ``stop_flow``: once a stage's tournament is finished, the pairs it qualifies
— the first of its final places (seasons.competitions.places, from its stored standings), as
many as its stage's quota gives it (seasons.championships.quotas) — are stored
(``Qualification``, with their place, the centre they represent and the pairs and players who
took part there) and registered in the next stage's tournament in one bulk operation
(tournaments.services.bulk.entries_register_pairs, trusted: nobody is signed in when a task
runs it). When a result of the tournament is corrected, or its quota changes, it runs again
and corrects the next stage: a pair that no longer qualifies is withdrawn from it, a pair that
now does is registered — until the next stage's tournament starts; from then on the qualified
pairs stay as they were, and the tournament's row says why (``flow_note``:
``next_started``). A pair already in the next tournament (registered by hand) is linked, not
registered twice. The flow is idempotent: run twice, it changes nothing the second time. Each
change of the qualified pairs records the webhook event ``championship.qualified`` for the
championship's peñas and the centre.

``stop_flow`` is queued by name: by tournaments (``championships.tournament_changed``, when a
tournament finishes and after each correction of a finished one), by the championship's own
services (``championships.stage_flow``, when a quota or a stage's tournaments change), and
beat's ``championships.reconcile`` flows every finished tournament whose last flow is older
than its last change (a lost task, a broker down).

With ``register=False`` (an archive's import) it stores the qualified pairs and links them to
the next tournament's entries that exist, and writes nothing in another tournament.

Must not: decide who qualifies (the pure cores do) or check eligibility (registration does,
through the registry).

Terms: clasificado (qualified), cupo (quota), fase (stage), centro (centre).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from clubs.models import Webhook
from clubs.webhooks.services import webhook_event_record, webhooks_hearing
from config.errors import DomainError
from seasons.championships.models import Qualification, Stage, StageTournament
from seasons.championships.quotas import qualified, quota
from seasons.championships.selectors import stage_next, stages_of
from seasons.competitions.places import places_in_order
from seasons.competitions.selectors import phase_tables
from tournaments.models import Entry, Substitution, Tournament
from tournaments.services.bulk import entries_register_pairs
from tournaments.services.registration import entry_withdraw

log = logging.getLogger(__name__)

VIA = "championship"
STARTED = (Tournament.Status.RUNNING, Tournament.Status.FINISHED)

#: why the last flow did not reach the next stage (the desk shows it)
NOTE_NEXT_STARTED = "next_started"
NOTE_NO_NEXT = "no_next_tournament"
NOTE_CHOOSE_NEXT = "choose_next_tournament"


@dataclass(frozen=True)
class Flow:
    stop: StageTournament
    qualified: int
    changed: bool
    registered: int = 0
    withdrawn: int = 0


def _target(stop: StageTournament, following: Stage | None) -> tuple[StageTournament | None, str]:
    if following is None:
        return None, ""
    if stop.feeds_id is not None:
        return stop.feeds, ""
    there = list(StageTournament.objects.filter(stage=following).select_related("tournament")[:2])
    if not there:
        return None, NOTE_NO_NEXT
    if len(there) > 1:
        return None, NOTE_CHOOSE_NEXT
    return there[0], ""


def stop_flow(*, stop: StageTournament, register: bool = True) -> Flow | None:
    """Store the tournament's qualified pairs and send them on (see the module); None when
    the row is gone or its tournament has not finished."""
    with transaction.atomic():
        stop = (
            StageTournament.objects.select_for_update(of=("self",))
            .select_related("tournament__club", "stage", "championship", "centre__club", "feeds")
            .filter(pk=stop.pk)
            .first()
        )
        if stop is None or stop.tournament.status != Tournament.Status.FINISHED:
            return None
        tournament = stop.tournament
        stage = stop.stage
        following = stage_next(stage, stages_of(championship=stop.championship))
        entries = {
            e.pk: e
            for e in Entry.objects.filter(tournament=tournament, drawn=False)
            .exclude(status=Entry.Status.WITHDRAWN)
            .select_related("pair__player_one", "pair__player_two")
        }
        order = [
            (entry, place)
            for entry, place in places_in_order(phase_tables([tournament.pk])[tournament.pk])
            if entry in entries
        ]
        players = {p for e, _ in order for p in _players(entries[e])}
        players |= set(
            Substitution.objects.filter(match__round__phase__tournament=tournament).values_list(
                "substitute_id", flat=True
            )
        )
        stop.pairs_played = len(order)
        stop.players_played = len(players)
        stop.flowed_at = timezone.now()
        if following is None:  # the final: nobody goes further
            stop.quota = None
            stop.flow_note = ""
            stop.save()
            return Flow(stop, 0, False)
        centre = stop.centre
        stop.quota = quota(
            stage.quota_rule,
            pairs=len(order),
            number=stage.quota_number,
            minimum=stage.quota_minimum,
            table=stage.quota_table,
            rank=centre.rank if centre is not None else None,
            own=centre.quota if centre is not None else None,
        )
        cut = qualified(order, stop.quota)
        target, note = _target(stop, following)
        existing = {q.entry_id: q for q in Qualification.objects.filter(stop=stop)}
        wanted = {entry: (place, n) for n, (entry, place) in enumerate(cut.qualified, start=1)}
        moved = [
            q for q in existing.values() if q.entry_id in wanted and q.target_id != _pk(target)
        ]
        removed = [q for q in existing.values() if q.entry_id not in wanted] + moved
        started = target is not None and target.tournament.status in STARTED
        if started and existing:
            # the next stage has started: its pairs stay as they are, corrections included
            changed = bool(removed) or set(wanted) != set(existing)
            stop.flow_note = NOTE_NEXT_STARTED if changed else ""
            stop.save()
            return Flow(stop, len(existing), False)
        if started:
            note = NOTE_NEXT_STARTED  # stored, and linked where they are there, not registered
            register_now = False
        else:
            register_now = register
        came_with = dict(
            Qualification.objects.filter(target=stop, target_entry__in=list(wanted)).values_list(
                "target_entry_id", "centre_id"
            )
        )
        withdrawn = 0
        for q in removed:
            if register_now and q.target_entry_id is not None and q.target is not None:
                withdrawn += _withdraw(q)
        Qualification.objects.filter(pk__in=[q.pk for q in removed]).delete()
        kept = {q.entry_id: q for q in existing.values() if q not in removed}
        for entry, (place, position) in wanted.items():
            q = kept.get(entry)
            if q is None:
                q = Qualification(
                    stop=stop,
                    entry_id=entry,
                    pair_id=entries[entry].pair_id,
                    centre_id=stop.centre_id or came_with.get(entry),
                    target=target,
                )
                kept[entry] = q
            q.place, q.position = place, position
        rows = sorted(kept.values(), key=lambda q: q.position)
        for q in rows:
            q.save()
        stop.flow_note = note
        registered = 0
        if target is not None:
            registered = _register(stop, target, rows, entries, register=register_now)
        changed = bool(removed) or any(entry not in existing for entry in wanted)
        if changed:
            stop.flow_version += 1
        stop.save()
        if changed and register:
            _webhook(stop, rows, entries, target)
    return Flow(stop, len(rows), changed, registered, withdrawn)


def _pk(row) -> int | None:
    return row.pk if row is not None else None


def _players(entry: Entry) -> tuple[int, ...]:
    ids = (entry.pair.player_one_id, entry.pair.player_two_id, entry.player_three_id)
    return tuple(p for p in ids if p is not None)


def _withdraw(q: Qualification) -> int:
    """Take a pair that no longer qualifies out of the next tournament (before it starts)."""
    entry = Entry.objects.filter(pk=q.target_entry_id).first()
    if entry is None or entry.status == Entry.Status.WITHDRAWN:
        return 0
    entry_withdraw(
        tournament=q.target.tournament, entry_id=entry.pk, actor=None, via=VIA, trusted=True
    )
    return 1


def _register(
    stop: StageTournament,
    target: StageTournament,
    rows: list[Qualification],
    entries: dict[int, Entry],
    *,
    register: bool,
) -> int:
    """Link each qualified pair to its entry in the next tournament, registering in one bulk
    operation those not there yet; returns how many were registered."""
    there = {
        e.pair_id: e
        for e in Entry.objects.filter(
            tournament=target.tournament, pair_id__in=[q.pair_id for q in rows]
        ).exclude(status=Entry.Status.WITHDRAWN)
    }
    missing = []
    for q in rows:
        found = there.get(q.pair_id)
        if found is not None:
            if q.target_entry_id != found.pk:
                q.target_entry = found
                q.save(update_fields=["target_entry"])
        elif register:
            missing.append(q)
        elif q.target_entry_id is not None:
            q.target_entry = None
            q.save(update_fields=["target_entry"])
    if not missing:
        return 0
    try:
        with transaction.atomic():
            registration = entries_register_pairs(
                tournament=target.tournament,
                pairs=[entries[q.entry_id].pair for q in missing],
                actor=None,
                trusted=True,
                via=VIA,
            )
    except DomainError as error:
        stop.flow_note = error.code[:40]
        log.warning("championship stop %s: its pairs could not flow: %s", stop.pk, error.code)
        return 0
    for q, entry in zip(missing, registration.entries, strict=True):
        q.target_entry = entry
        q.save(update_fields=["target_entry"])
    return len(missing)


def _webhook(
    stop: StageTournament,
    rows: list[Qualification],
    entries: dict[int, Entry],
    target: StageTournament | None,
) -> None:
    """Record ``championship.qualified`` for the championship's peñas and the centre."""
    event = Webhook.Event.CHAMPIONSHIP_QUALIFIED
    clubs = set(stop.championship.clubs.values_list("pk", flat=True))
    if stop.centre is not None:
        clubs.add(stop.centre.club_id)
    tournament = stop.tournament
    data = {
        "championship": {
            "id": stop.championship_id,
            "slug": stop.championship.slug,
            "name": stop.championship.name,
        },
        "stage": {"id": stop.stage_id, "name": stop.stage.name, "kind": stop.stage.kind},
        "tournament": {
            "id": tournament.pk,
            "slug": tournament.slug,
            "name": tournament.name,
            "club": tournament.club.slug,
        },
        "centre": stop.centre.club.slug if stop.centre is not None else None,
        "pairs_played": stop.pairs_played,
        "players_played": stop.players_played,
        "quota": stop.quota,
        "qualified": [
            {
                "position": q.position,
                "place": q.place,
                "entry_id": q.entry_id,
                "pair": str(entries[q.entry_id].pair),
                "next_entry_id": q.target_entry_id,
            }
            for q in rows
        ],
        "next_tournament": None
        if target is None
        else {"id": target.tournament_id, "name": target.tournament.name},
    }
    for club_id in sorted(clubs):
        hooks = webhooks_hearing(club_id=club_id, event=event)
        if hooks:
            webhook_event_record(
                club_id=club_id,
                event=event,
                event_id=f"championship.qualified:{stop.pk}:v{stop.flow_version}",
                data=data,
                hooks=hooks,
            )


# --- Entry points of the tasks -----------------------------------------------------------------


def tournament_flow(*, tournament_id: int) -> Flow | None:
    """Flow the championship's tournament that is this one, if it is one (one query if not)."""
    stop = StageTournament.objects.filter(tournament_id=tournament_id).first()
    return stop_flow(stop=stop) if stop is not None else None


def stage_flow(*, stage_id: int) -> int:
    """Flow every finished tournament of the stage; returns how many flowed."""
    done = 0
    for stop in StageTournament.objects.filter(
        stage_id=stage_id, tournament__status=Tournament.Status.FINISHED
    ).order_by("pk"):
        done += stop_flow(stop=stop) is not None
    return done


def championships_reconcile() -> int:
    """Flow every finished tournament whose last flow is older than its last change (its
    status or standings, its stage's quota, its championship), or that never flowed.
    Returns how many. Nothing due: one query."""
    finished = (
        StageTournament.objects.filter(tournament__status=Tournament.Status.FINISHED)
        .annotate(
            computed=Max("tournament__phases__standings__computed_at"),
        )
        .select_related("tournament", "stage", "championship")
    )
    due = []
    for stop in finished:
        changes = [
            d
            for d in (
                stop.tournament.updated_at,
                stop.computed,
                stop.stage.updated_at,
                stop.championship.updated_at,
            )
            if d
        ]
        if stop.flowed_at is None or stop.flowed_at < max(changes):
            due.append(stop)
    for stop in due:
        stop_flow(stop=stop)
    return len(due)
