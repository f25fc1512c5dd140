"""The bases beyond the rule set on a phone (390×844): an organizer writes a prize on the
desk's prizes page, the points table and the field on the tournament's form, the evenings on
the calendar page, and postpones a late match and decides it after its deadline on the match's
page. Each page has thumb-sized targets, readable text and no serious axe violation.
Screenshots: test-results/screenshots/layout-bases-*.png."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.test_browser_a11y import violations
from tests.browser.test_browser_layout import check_page, log_in
from tests.factories import tournament_field
from tournaments.models import Match, Tournament
from tournaments.services.calendar import round_schedule
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish

pytestmark = pytest.mark.django_db(transaction=True)


def running(pairs: int = 4):
    t, organizer, entries = tournament_field(pairs, status=Tournament.Status.RUNNING)
    phase = phase_create(
        tournament=t, actor=organizer, name="Liga del bar", format="round_robin", group_size=4
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    return t, organizer, rnd


def test_prizes_points_and_the_field_are_written_on_a_phone(phone, live_server, screenshot):
    t, organizer, rnd = running()
    log_in(phone, live_server, organizer)
    desk = f"{live_server.url}/organizador/torneos/{t.pk}/"

    phone.goto(desk)
    phone.get_by_test_id("desk-prizes").get_by_role("link", name="Añadir premio").click()
    phone.fill("#id_name", "Premio a la peor pareja")
    phone.select_option("#id_what", "fewest_won")
    phone.fill("#id_phases", "1")
    phone.select_option("#id_tiebreak", "stone_difference")
    check_page(phone, screenshot, "bases-prizes")
    assert violations(phone) == []
    phone.get_by_role("button", name="Añadir premio").click()
    expect(phone.get_by_test_id("prize-list")).to_contain_text(
        "menos partidas ganadas en la fase 1; empate: diferencia de piedras"
    )

    phone.goto(desk + "editar")
    phone.get_by_text("Clasificación por puntos").click()
    phone.fill("#id_points_win", "2")
    phone.fill("#id_points_loss", "1")
    phone.get_by_text("Cuadro e inscritos").click()
    phone.fill("#id_field_sizes", "4, 8")
    check_page(phone, screenshot, "bases-tournament-form")
    assert violations(phone) == []
    phone.get_by_role("button", name="Guardar").click()
    expect(phone.locator("h1")).to_have_text(t.name)
    t.refresh_from_db()
    assert (t.points_win, t.points_loss, t.field_sizes) == (2, 1, [4, 8])
    assert t.prizes[0]["name"] == "Premio a la peor pareja"


def test_a_late_match_is_postponed_and_decided_on_a_phone(phone, live_server, screenshot):
    t, organizer, rnd = running()
    week_ago = timezone.localdate() - dt.timedelta(days=7)
    round_schedule(
        round=rnd,
        actor=organizer,
        scheduled_at=timezone.make_aware(dt.datetime.combine(week_ago, dt.time(20, 0))),
    )
    match = rnd.matches.exclude(kind=Match.Kind.BYE).order_by("table_number").first()
    log_in(phone, live_server, organizer)

    phone.goto(f"{live_server.url}/organizador/torneos/{t.pk}/calendario")
    phone.get_by_label("martes").check()
    phone.get_by_label("jueves").check()
    phone.fill("#id_first", week_ago.isoformat())
    phone.fill("#id_time", "20:00")
    check_page(phone, screenshot, "bases-calendar")
    assert violations(phone) == []
    phone.get_by_role("button", name="Guardar el calendario").click()
    expect(phone.get_by_test_id("calendar-rounds")).to_be_visible()

    phone.goto(f"{live_server.url}/organizador/torneos/{t.pk}/")
    late = phone.get_by_test_id("late-matches")
    expect(late).to_contain_text("Partidas atrasadas")
    late.get_by_role("link").first.click()
    expect(phone.get_by_test_id("late")).to_be_visible()
    phone.get_by_text("Aplazar hasta una fecha límite").click()
    phone.fill("#id_postpone-deadline", timezone.localdate().isoformat())
    phone.fill("#id_postpone-reason", "Viaje de una pareja")
    check_page(phone, screenshot, "bases-match-postpone")
    assert violations(phone) == []
    phone.get_by_role("button", name="Aplazar", exact=True).click()
    expect(phone.get_by_test_id("match-when")).to_contain_text("Viaje de una pareja")

    # a day later the deadline is over: the page offers the decision
    Match.objects.filter(pk=match.pk).update(deadline=timezone.localdate() - dt.timedelta(days=1))
    phone.reload()
    phone.get_by_label("no la jugaron: pierden las dos").check()
    phone.get_by_role("button", name="Decidir").click()
    match.refresh_from_db()
    assert match.kind == Match.Kind.DOUBLE_LOSS
