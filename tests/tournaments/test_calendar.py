"""A tournament's calendar, end to end on the database: dates per round (or a pattern of
evenings), a match moved by agreement, a match postponed to a deadline and decided after it
(a walkover or a double loss: the one decision leagues take too), the late matches on the
desk; the services, the API and the pages (the desk, the calendar page, the match's page, the
public pages and the table's link)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config.errors import Conflict, Invalid
from scoring.messages import MessageError
from tests.factories import tournament_field
from tournaments.models import AuditEntry, Match, Tournament
from tournaments.selectors.calendar import calendar_of_tournament, late_matches, round_dates
from tournaments.services.calendar import (
    match_deadline_decide,
    match_postpone,
    match_schedule,
    round_schedule,
)
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 10, 20)


def at(day: dt.date, hour: int = 20) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, 0)))


def league_night(pairs: int = 4, fmt: str = "round_robin", **tournament):
    """A running tournament with its first round published (a liguilla by default)."""
    t, organizer, entries = tournament_field(pairs, status=Tournament.Status.RUNNING, **tournament)
    options = {"group_size": pairs} if fmt == "round_robin" else {}
    phase = phase_create(tournament=t, actor=organizer, name="Liga del bar", format=fmt, **options)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    match = rnd.matches.exclude(kind=Match.Kind.BYE).order_by("table_number").first()
    return t, organizer, rnd, match


# --- Dates ------------------------------------------------------------------------------------


def test_a_pattern_dates_every_round_without_its_own_and_a_round_may_move():
    t, organizer, rnd, match = league_night()
    tournament_update(
        tournament=t,
        actor=organizer,
        changes={"calendar": {"first": "2026-10-05", "weekdays": [1, 3], "time": "20:00"}},
    )
    t.refresh_from_db()
    assert round_dates(tournament=t)[rnd.pk] == at(dt.date(2026, 10, 6))

    round_schedule(round=rnd, actor=organizer, scheduled_at=at(dt.date(2026, 10, 7), 21))
    assert round_dates(tournament=t)[rnd.pk] == at(dt.date(2026, 10, 7), 21)
    calendar = calendar_of_tournament(user=organizer, tournament_id=t.pk, today=TODAY)
    assert calendar.rounds[0]["own"] is True
    # the next evenings of the pattern, after the round drawn
    assert calendar.upcoming[0] == at(dt.date(2026, 10, 8))
    assert AuditEntry.objects.filter(tournament=t, action="round_scheduled").exists()


def test_a_match_moved_by_agreement_keeps_its_own_date():
    t, organizer, rnd, match = league_night()
    round_schedule(round=rnd, actor=organizer, scheduled_at=at(dt.date(2026, 10, 6)))
    match_schedule(match=match, actor=organizer, scheduled_at=at(dt.date(2026, 10, 9), 19))

    on_the_night = dt.date(2026, 10, 6)
    calendar = calendar_of_tournament(user=organizer, tournament_id=t.pk, today=on_the_night)
    (moved,) = calendar.matches  # the others play on their round's night
    assert moved["match"].pk == match.pk
    assert moved["when"].at == at(dt.date(2026, 10, 9), 19) and moved["when"].own
    assert not moved["when"].late
    after = calendar_of_tournament(user=organizer, tournament_id=t.pk, today=dt.date(2026, 10, 10))
    assert {m["match"].pk: m["when"].late for m in after.matches}[match.pk]


def test_late_matches_are_those_not_decided_past_their_day():
    t, organizer, rnd, match = league_night()
    round_schedule(round=rnd, actor=organizer, scheduled_at=at(dt.date(2026, 10, 6)))
    others = list(rnd.matches.exclude(pk=match.pk).exclude(kind=Match.Kind.BYE))
    for other in others:
        other.status = Match.Status.CONFIRMED
        other.winner_id = other.entry_a_id
        other.save()

    late = late_matches(tournament=t, today=TODAY)
    assert [row["match"].pk for row in late] == [match.pk]
    assert late[0]["due"] == dt.date(2026, 10, 6) and not late[0]["postponed"]
    assert late_matches(tournament=t, today=dt.date(2026, 10, 6)) == []  # still its day


# --- Postponed, then decided ----------------------------------------------------------------


def postponed(**kwargs):
    t, organizer, rnd, match = league_night(**kwargs)
    round_schedule(round=rnd, actor=organizer, scheduled_at=at(dt.date(2026, 10, 6)))
    match_postpone(
        match=match,
        actor=organizer,
        deadline=dt.date(2026, 10, 15),
        reason="Viaje de una pareja",
        today=dt.date(2026, 10, 6),
    )
    match.refresh_from_db()
    return t, organizer, rnd, match


def test_a_postponed_match_is_late_only_after_its_deadline():
    t, organizer, rnd, match = postponed()
    assert (match.deadline, match.postponed_reason) == (
        dt.date(2026, 10, 15),
        "Viaje de una pareja",
    )
    assert match.pk not in [
        r["match"].pk for r in late_matches(tournament=t, today=dt.date(2026, 10, 14))
    ]
    late = {r["match"].pk: r for r in late_matches(tournament=t, today=TODAY)}
    assert late[match.pk]["postponed"] and late[match.pk]["due"] == dt.date(2026, 10, 15)
    # the other match of the round, not postponed, was late first: the longest late first
    assert list(late)[-1] == match.pk


def test_after_the_deadline_a_walkover_for_the_pair_that_came():
    t, organizer, rnd, match = postponed()
    decided = match_deadline_decide(
        match=match, actor=organizer, outcome="walkover", absent_side="b", today=TODAY
    )
    match.refresh_from_db()
    assert decided == "walkover"
    assert (match.status, match.kind, match.winner_id) == (
        Match.Status.CONFIRMED,
        Match.Kind.FORFEIT,
        match.entry_a_id,
    )
    with pytest.raises(Conflict) as caught:
        match_deadline_decide(match=match, actor=organizer, outcome="double_loss", today=TODAY)
    assert caught.value.code == "postponement_decided"


def test_after_the_deadline_a_double_loss_both_lose():
    t, organizer, rnd, match = postponed()
    assert (
        match_deadline_decide(match=match, actor=organizer, outcome="double_loss", today=TODAY)
        == "double_loss"
    )
    match.refresh_from_db()
    assert (match.kind, match.winner_id, match.status) == (
        Match.Kind.DOUBLE_LOSS,
        None,
        Match.Status.CONFIRMED,
    )


def test_before_the_deadline_nothing_is_decided_and_a_result_first_counts_as_played():
    t, organizer, rnd, match = postponed()
    with pytest.raises(Conflict) as caught:
        match_deadline_decide(
            match=match, actor=organizer, outcome="walkover", absent_side="a",
            today=dt.date(2026, 10, 15),
        )  # fmt: skip
    assert caught.value.code == "postponement_before_deadline"
    match.status = Match.Status.CONFIRMED
    match.winner_id = match.entry_b_id
    match.save()
    decided = match_deadline_decide(
        match=match, actor=organizer, outcome="walkover", absent_side="b", today=TODAY
    )
    assert decided == "played"
    match.refresh_from_db()
    assert match.kind == Match.Kind.PLAYED and match.winner_id == match.entry_b_id


def test_a_knockout_match_needs_a_winner():
    t, organizer, rnd, match = postponed(fmt="single_elimination")
    with pytest.raises(Conflict) as caught:
        match_deadline_decide(match=match, actor=organizer, outcome="double_loss", today=TODAY)
    assert caught.value.code == "double_loss_knockout"
    match.refresh_from_db()
    assert match.status != Match.Status.CONFIRMED


@pytest.mark.parametrize(
    ("deadline", "today", "code"),
    [
        (dt.date(2026, 10, 6), dt.date(2026, 10, 1), "match_deadline_before"),
        (dt.date(2026, 10, 10), dt.date(2026, 10, 12), "match_deadline_past"),
    ],
)
def test_a_deadline_before_the_match_or_already_over_is_refused(deadline, today, code):
    t, organizer, rnd, match = league_night()
    round_schedule(round=rnd, actor=organizer, scheduled_at=at(dt.date(2026, 10, 6)))
    with pytest.raises(Invalid) as caught:
        match_postpone(match=match, actor=organizer, deadline=deadline, today=today)
    assert caught.value.code == code


def test_what_cannot_be_postponed_or_decided():
    t, organizer, rnd, match = league_night()
    with pytest.raises(Conflict) as caught:
        match_deadline_decide(match=match, actor=organizer, outcome="walkover", absent_side="a")
    assert caught.value.code == "postponement_missing"
    with pytest.raises(MessageError) as caught:
        match_deadline_decide(match=match, actor=organizer, outcome="tablas")
    assert caught.value.code in ("postponement_missing", "postponement_outcome")
    match.status = Match.Status.CONFIRMED
    match.save()
    with pytest.raises(Conflict) as caught:
        match_postpone(match=match, actor=organizer, deadline=dt.date(2099, 1, 1))
    assert caught.value.code == "postpone_played"
    with pytest.raises(Conflict) as caught:
        match_schedule(match=match, actor=organizer, scheduled_at=None)
    assert caught.value.code == "match_schedule_played"


def test_a_tournament_a_league_runs_keeps_the_leagues_calendar():
    t, organizer, rnd, match = league_night()
    Tournament.objects.filter(pk=t.pk).update(managed_by="league", managed_label="Liga")
    match.round.phase.tournament.managed_by = "league"
    with pytest.raises(Conflict) as caught:
        match_postpone(match=match, actor=organizer, deadline=dt.date(2099, 1, 1))
    assert caught.value.code == "tournament_managed"


# --- API --------------------------------------------------------------------------------------


def api(user=None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def test_the_calendar_through_the_api():
    t, organizer, rnd, match = league_night(is_public=True)
    client = api(organizer)
    response = client.post(
        f"/api/v1/tournaments/{t.pk}/update",
        {"calendar": {"first": "2026-10-05", "weekdays": [1, 3], "time": "20:00"}},
        content_type="application/json",
    )
    assert response.status_code == 200 and response.json()["calendar"]["weekdays"] == [1, 3]

    response = client.post(
        f"/api/v1/rounds/{rnd.pk}/schedule",
        {"scheduled_at": "2026-10-07T21:00:00+02:00"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    body = client.post(
        f"/api/v1/matches/{match.pk}/postpone",
        {"deadline": "2099-10-15", "reason": "Acuerdo"},
        content_type="application/json",
    ).json()
    assert body["when"]["deadline"] == "2099-10-15" and body["when"]["reason"] == "Acuerdo"

    calendar = api().get(f"/api/v1/tournaments/{t.pk}/calendar").json()  # public
    assert calendar["pattern"] == {"first": "2026-10-05", "weekdays": [1, 3], "time": "20:00"}
    (first,) = calendar["rounds"]
    assert first["own"] and first["scheduled_at"].startswith("2026-10-07T21:00")
    postponed = [m for m in calendar["matches"] if m["when"]["deadline"]]
    assert [m["match_id"] for m in postponed] == [match.pk]
    assert len(calendar["upcoming"]) == 6

    response = client.post(
        f"/api/v1/matches/{match.pk}/deadline-decision",
        {"outcome": "walkover", "absent_side": "a"},
        content_type="application/json",
    )
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "postponement_before_deadline"
    assert error["params"]["deadline"] == "2099-10-15"


def test_the_calendar_api_errors_have_the_error_body():
    t, organizer, rnd, match = league_night()
    client = api(organizer)
    response = client.post(
        f"/api/v1/tournaments/{t.pk}/update",
        {"calendar": {"first": "2026-10-05", "weekdays": [9], "time": "20:00"}},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "calendar_weekdays"
    response = client.post(
        f"/api/v1/matches/{match.pk}/deadline-decision",
        {"outcome": "walkover"},
        content_type="application/json",
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "postponement_missing"
    response = client.post(
        f"/api/v1/matches/{match.pk}/postpone", {"deadline": "mañana"}, "application/json"
    )
    assert response.status_code == 400 and "deadline" in response.json()["error"]["fields"]
    stranger = tournament_field(0)[1]
    response = api(stranger).post(
        f"/api/v1/rounds/{rnd.pk}/schedule", {"scheduled_at": None}, "application/json"
    )
    assert response.status_code in (403, 404)


# --- Pages ------------------------------------------------------------------------------------


def organizer_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_desk_lists_the_late_matches_and_the_match_page_decides_them():
    t, organizer, rnd, match = league_night()
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    round_schedule(round=rnd, actor=organizer, scheduled_at=at(yesterday - dt.timedelta(days=7)))
    client = organizer_client(organizer)

    desk = client.get(reverse("web:organizer-tournament", args=[t.pk])).content.decode()
    assert "Partidas atrasadas" in desk
    assert reverse("web:organizer-match", args=[match.pk]) in desk

    page = reverse("web:organizer-match", args=[match.pk])
    today = timezone.localdate()
    response = client.post(
        reverse("web:organizer-match-postpone", args=[match.pk]),
        {"postpone-deadline": today.isoformat(), "postpone-reason": "Enfermedad"},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    match.refresh_from_db()
    assert match.deadline == today
    Match.objects.filter(pk=match.pk).update(deadline=yesterday)  # a day later
    # its deadline is over: the page offers the decision
    html = client.get(page).content.decode()
    assert "Pasada la fecha límite" in html and "Enfermedad" in html
    response = client.post(
        reverse("web:organizer-match-decide", args=[match.pk]), {"decide-outcome": "double_loss"}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.kind == Match.Kind.DOUBLE_LOSS


def test_a_wrong_deadline_on_the_page_is_shown_with_what_was_typed():
    t, organizer, rnd, match = league_night()
    round_schedule(round=rnd, actor=organizer, scheduled_at=at(timezone.localdate()))
    response = organizer_client(organizer).post(
        reverse("web:organizer-match-postpone", args=[match.pk]),
        {"postpone-deadline": timezone.localdate().isoformat(), "postpone-reason": "Lluvia"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "La fecha límite tiene que ser posterior" in html and 'value="Lluvia"' in html


def test_the_calendar_page_sets_the_evenings_and_a_rounds_date():
    t, organizer, rnd, match = league_night()
    client = organizer_client(organizer)
    url = reverse("web:organizer-calendar", args=[t.pk])
    response = client.post(url, {"first": "2026-10-05", "weekdays": ["1", "3"], "time": "20:00"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.calendar == {"first": "2026-10-05", "weekdays": [1, 3], "time": "20:00"}
    html = client.get(url).content.decode()
    assert "según el calendario" in html and "Próximas tardes" in html

    response = client.post(
        reverse("web:organizer-round-schedule", args=[rnd.pk]),
        {f"r{rnd.pk}-scheduled_at": "2026-10-07T21:30"},
    )
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert timezone.localtime(rnd.scheduled_at).strftime("%d %H:%M") == "07 21:30"
    response = client.post(url, {"first": "", "weekdays": ["1"], "time": "20:00"})
    assert response.status_code == 400


def test_the_public_pages_and_the_table_link_say_when_it_is_played():
    t, organizer, rnd, match = league_night(is_public=True)
    round_schedule(round=rnd, actor=organizer, scheduled_at=at(dt.date(2099, 10, 6)))
    other = rnd.matches.exclude(pk=match.pk).exclude(kind=Match.Kind.BYE).first()
    match_schedule(match=other, actor=organizer, scheduled_at=at(dt.date(2099, 10, 9), 19))
    match_postpone(match=match, actor=organizer, deadline=dt.date(2099, 10, 15))

    round_page = (
        Client()
        .get(reverse("web:public-round", args=[t.club.slug, t.slug, rnd.pk]))
        .content.decode()
    )
    assert "Se juega el martes 6 octubre, 20:00" in round_page
    assert "aplazada: hasta el 15 Oct" in round_page or "aplazada: hasta el 15 oct" in round_page
    assert "se juega el" in round_page
    table = Client().get(reverse("web:table", args=[match.token])).content.decode()
    assert "Aplazada: se puede jugar hasta el jueves 15 octubre." in table
    other_table = Client().get(reverse("web:table", args=[other.token])).content.decode()
    assert "Se juega el viernes 9 octubre, 19:00" in other_table
    english = (
        Client(HTTP_ACCEPT_LANGUAGE="en")
        .get(reverse("web:public-round", args=[t.club.slug, t.slug, rnd.pk]))
        .content.decode()
    )
    assert "Played on Tuesday 6 October, 20:00" in english
