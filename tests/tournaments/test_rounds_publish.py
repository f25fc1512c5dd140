"""Publishing and closing rounds, the pairings e-mail, phases in sequence, and who may write."""

from __future__ import annotations

import functools

import pytest

from clubs.models import Membership
from config.errors import Conflict, Forbidden, NotFound
from tests.factories import (
    MembershipFactory,
    UserFactory,
    tournament_field,
)
from tournaments import tasks
from tournaments.models import AuditEntry, Match, Phase, Round, Tournament
from tournaments.services.rounds import (
    phase_advance,
    phase_create,
    phase_finish,
    round_close,
    round_draw_generate,
    round_pairings_email,
    round_publish,
)

pytestmark = pytest.mark.django_db


field = functools.partial(tournament_field, seeded=False)


def drawn(pairs: int = 4, **tournament):
    t, organizer, entries = field(pairs, **tournament)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=2
    )
    return t, organizer, entries, phase, round_draw_generate(phase=phase, actor=organizer)


def confirm_all(rnd: Round) -> None:
    for m in rnd.matches.exclude(kind=Match.Kind.BYE):
        m.status, m.winner_id, m.games_a = Match.Status.CONFIRMED, m.entry_a_id, 2
        m.save()


def test_publishing_makes_the_round_public_and_emails_every_player_with_an_address(
    mailoutbox, django_capture_on_commit_callbacks
):
    t, organizer, entries, phase, rnd = drawn(5, venue="Bar Txoko")
    for entry in entries[:4]:
        entry.pair.player_one.email = f"{entry.pair.player_one.first_name}@example.org"
        entry.pair.player_one.save()
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round=rnd, actor=organizer)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED and rnd.published_at is not None
    assert len(mailoutbox) == 4
    by_player = {m.to[0]: m for m in mailoutbox}
    for entry in entries[:4]:
        match = rnd.matches.filter(entry_a=entry).first() or rnd.matches.get(entry_b=entry)
        mail = by_player[entry.pair.player_one.email]
        assert "Ronda 1" in mail.subject  # the peña's language: Spanish by default
        if match.entry_b_id is None:
            assert "descansáis" in mail.subject
        else:
            other = match.entry_b if match.entry_a_id == entry.id else match.entry_a
            assert f"mesa {match.table_number}" in mail.body
            assert str(other.pair) in mail.body
            assert "Bar Txoko" in mail.body
    # Idempotent: the task running again (a retry) sends nothing new.
    assert round_pairings_email(round=rnd) == 0
    assert len(mailoutbox) == 4
    assert AuditEntry.objects.filter(action="round_pairings_emailed").count() == 1


def test_a_draft_round_is_not_emailed(mailoutbox):
    t, organizer, entries, phase, rnd = drawn()
    entries[0].pair.player_one.email = "x@example.org"
    entries[0].pair.player_one.save()
    assert round_pairings_email(round=rnd) == 0
    assert tasks.round_pairings_email(999_999) == 0  # a round deleted meanwhile
    assert mailoutbox == []


def test_publish_errors():
    t, organizer, entries, phase, rnd = drawn()
    match = rnd.matches.first()
    match.table_number = None
    match.save()
    with pytest.raises(Conflict) as error:
        round_publish(round=rnd, actor=organizer)
    assert error.value.code == "round_tables_missing"
    assert error.value.params["matches"] == [match.id]
    match.table_number = 7
    match.save()
    round_publish(round=rnd, actor=organizer)
    with pytest.raises(Conflict) as error:
        round_publish(round=rnd, actor=organizer)
    assert error.value.code == "round_not_draft"


def test_close_errors_list_the_unfinished_tables():
    t, organizer, entries, phase, rnd = drawn(6)
    with pytest.raises(Conflict) as error:
        round_close(round=rnd, actor=organizer)
    assert error.value.code == "round_not_published"
    round_publish(round=rnd, actor=organizer)
    one = rnd.matches.get(table_number=1)
    one.status, one.winner_id = Match.Status.CONFIRMED, one.entry_a_id
    one.save()
    two = rnd.matches.get(table_number=2)
    two.status = Match.Status.DISPUTED
    two.save()
    with pytest.raises(Conflict) as error:
        round_close(round=rnd, actor=organizer)
    assert error.value.code == "round_unfinished"
    assert error.value.params["tables"] == [2, 3]
    assert error.value.params["count"] == 2
    assert "tables 2, 3 have no confirmed result" in error.value.message
    confirm_all(rnd)
    round_close(round=rnd, actor=organizer)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED and rnd.closed_at is not None
    with pytest.raises(Conflict) as error:
        round_close(round=rnd, actor=organizer)
    assert error.value.code == "round_closed"


def test_advance_finishes_the_phase_and_draws_the_next_one():
    t, organizer, entries, swiss, rnd = drawn(4)
    final = phase_create(tournament=t, actor=organizer, name="Final", format="single_elimination")
    for _ in range(2):
        round_publish(round=rnd, actor=organizer)
        confirm_all(rnd)
        round_close(round=rnd, actor=organizer)
        if rnd.number == 1:
            rnd = round_draw_generate(phase=swiss, actor=organizer)
    first = phase_advance(phase=swiss, actor=organizer)
    swiss.refresh_from_db()
    assert swiss.status == Phase.Status.FINISHED
    assert first.phase_id == final.id and first.status == Round.Status.DRAFT
    with pytest.raises(Conflict) as error:
        phase_advance(phase=swiss, actor=organizer)
    assert error.value.code == "phase_next_started"
    with pytest.raises(Conflict) as error:
        phase_finish(phase=swiss, actor=organizer)
    assert error.value.code == "phase_finished"
    with pytest.raises(Conflict) as error:
        round_draw_generate(phase=swiss, actor=organizer)
    assert error.value.code == "phase_finished"


def test_advance_from_the_last_phase_is_refused():
    t, organizer, entries, phase, rnd = drawn(2)
    round_publish(round=rnd, actor=organizer)
    confirm_all(rnd)
    round_close(round=rnd, actor=organizer)
    round_draw_generate(phase=phase, actor=organizer)  # round 2 of 2, left open
    with pytest.raises(Conflict) as error:
        phase_advance(phase=phase, actor=organizer)
    assert error.value.code == "phase_rounds_open"
    phase.refresh_from_db()
    assert phase.status == Phase.Status.RUNNING  # nothing half-done


@pytest.mark.parametrize(
    ("public", "status", "expected"),
    [
        (True, Tournament.Status.RUNNING, Forbidden),
        (False, Tournament.Status.RUNNING, NotFound),
        (True, Tournament.Status.DRAFT, NotFound),
    ],
)
def test_only_the_pena_organizers_may_write(public, status, expected):
    t, organizer, entries, phase, rnd = drawn(4, is_public=public, status=status)
    member = MembershipFactory(club=t.club, role=Membership.Role.MEMBER).user
    stranger = MembershipFactory(role=Membership.Role.OWNER).user  # owner of another peña
    for user in (member, stranger, None):
        for write in (
            lambda u: round_publish(round=rnd, actor=u),
            lambda u: round_draw_generate(phase=phase, actor=u),
            lambda u: phase_create(tournament=t, actor=u, name="X", format="lives"),
        ):
            with pytest.raises(expected):
                write(user)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAFT
    assert Phase.objects.filter(tournament=t).count() == 1


def test_owners_and_superusers_may_write_too():
    t, organizer, entries, phase, rnd = drawn(4)
    owner = MembershipFactory(club=t.club, role=Membership.Role.OWNER).user
    round_publish(round=rnd, actor=owner)
    admin = UserFactory(is_superuser=True)
    phase_create(tournament=t, actor=admin, name="Final", format="single_elimination")
    assert AuditEntry.objects.filter(actor=admin, action="phase_created").exists()
