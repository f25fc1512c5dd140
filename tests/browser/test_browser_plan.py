"""A four-phase event on the organizer's phone (Chromium at 390×844): the plan pasted on the
plan page (a Swiss for everybody, groups by level from it, a final per group), a prize declared
on the prizes page, the earlier rounds played through the services (the pairs' table links,
as tournaments/demo.py plays them: it would take minutes by hand), each group's final entered
on the organizer's result page, and the public page showing the plan's picture, the final
standings and the prize."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.factories import tournament_field
from tournaments.demo import TablePlayer
from tournaments.models import Match, Phase, Round, Tournament
from tournaments.services.rounds import (
    bracket_advance,
    phase_finish,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.tournaments import tournament_status_change

pytestmark = pytest.mark.django_db(transaction=True)

PLAN = {
    "format": "amarrako.plan",
    "version": 1,
    "name": "Suizo, grupos por nivel y final por grupo",
    "phases": [
        {"name": "Suizo", "format": "swiss", "entrants": [], "rounds_planned": 2},
        {
            "name": "Grupos por nivel",
            "format": "round_robin",
            "entrants": [{"rule": "all", "phase": 1}],
            "group_size": 4,
            "seeding": "level",
            "rounds_planned": 1,
        },
        *(
            {
                "name": f"Final grupo {g}",
                "format": "single_elimination",
                "entrants": [{"rule": "group", "phase": 2, "group": g, "first": 1, "last": 2}],
            }
            for g in (1, 2)
        ),
    ],
}

GAMES = [{"stones": [40, 22]}, {"stones": [40, 31]}]


def log_in(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])


def play_phase(phase: Phase, organizer, player: TablePlayer) -> None:
    for _ in range(phase.rounds_planned):
        rnd = round_publish(
            round=round_draw_generate(phase=phase, actor=organizer), actor=organizer
        )
        for match in player.tables(rnd):
            # the factory's tournament: 2 games win the match; pair A enters, pair B confirms
            version = player.submit(match, "a", GAMES)
            player.submit(match, "b", GAMES, version=version)
        round_close(round=rnd, actor=organizer)
    phase.refresh_from_db()
    if phase.status != Phase.Status.FINISHED:
        phase_finish(phase=phase, actor=organizer)


def test_a_four_phase_event_from_its_plan_to_the_prize(phone, live_server, screenshot):
    t, organizer, _ = tournament_field(8, status=Tournament.Status.RUNNING)
    log_in(phone, live_server, organizer)
    desk = f"{live_server.url}/organizador/torneos/{t.pk}/"

    # The plan, pasted on the plan page.
    phone.goto(desk + "plan")
    phone.fill("#plan-json", json.dumps(PLAN))
    phone.get_by_role("button", name="Importar el plan").click()
    picture = phone.get_by_test_id("plan")
    expect(picture.locator(".plan-phase")).to_have_count(4)
    expect(picture).to_contain_text("Final grupo 2")
    expect(picture).to_contain_text("por nivel")
    screenshot(phone, "plan-organizer")
    assert list(t.phases.order_by("order").values_list("name", flat=True)) == [
        "Suizo",
        "Grupos por nivel",
        "Final grupo 1",
        "Final grupo 2",
    ]

    # A prize of the bases, in the organizer's words.
    phone.goto(desk + "premios")
    phone.fill("#id_name", "Premio a la regularidad")
    phone.select_option("#id_what", "most_won")
    phone.fill("#id_phases", "1-2")
    phone.get_by_role("button", name="Añadir premio").click()
    expect(phone.locator("main")).to_contain_text("Premio a la regularidad")
    t.refresh_from_db()
    assert t.prizes[0]["kind"] == "most" and t.prizes[0]["phases"] == [1, 2]

    # Phases 1 and 2 through the services (the pairs' links); the finals drawn and published.
    swiss, groups, *finals = t.phases.order_by("order")
    player = TablePlayer(random.Random(2206))
    play_phase(swiss, organizer, player)
    play_phase(groups, organizer, player)
    final_matches = []
    for final in finals:
        rnd = round_draw_generate(phase=final, actor=organizer)
        round_publish(round=rnd, actor=organizer)
        final_matches += list(rnd.matches.exclude(kind=Match.Kind.BYE))
    assert len(final_matches) == 2

    # The public page: the plan's picture says where the event is.
    public = f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/"
    phone.goto(public)
    current = phone.get_by_test_id("plan").locator('[aria-current="step"]')
    expect(current).to_have_count(2)  # both finals are played at once
    expect(current.first).to_contain_text("Final grupo 1")
    expect(current.last).to_contain_text("Final grupo 2")

    # Each group's final entered on the organizer's result page.
    for match in final_matches:
        phone.goto(f"{live_server.url}/organizador/partidas/{match.pk}/")
        phone.locator("summary", has_text="Apuntar el resultado").click()
        phone.fill("#id_result-games", "40-22, 40-31")
        phone.get_by_role("button", name="Guardar el resultado").click()
        expect(phone.locator(".messages")).to_be_visible()
        match.refresh_from_db()
        assert match.status == Match.Status.CONFIRMED and match.winner_id == match.entry_a_id

    for final in finals:
        bracket_advance(phase=final)
        for rnd in Round.objects.filter(phase=final, status=Round.Status.PUBLISHED):
            round_close(round=rnd, actor=organizer)
        final.refresh_from_db()
        if final.status != Phase.Status.FINISHED:
            phase_finish(phase=final, actor=organizer)
    tournament_status_change(tournament=t, actor=organizer, status=Tournament.Status.FINISHED)
    t.refresh_from_db()
    (award,) = t.prize_awards
    assert award["name"] == "Premio a la regularidad"

    phone.goto(public)
    main = phone.locator("main")
    expect(main).to_contain_text("Premio a la regularidad")
    expect(main).to_contain_text(award["winners"][0]["name"])  # the prize and its winner
    expect(phone.get_by_test_id("plan").locator(".plan-phase.plan-finished")).to_have_count(4)
    screenshot(phone, "plan-public-finished")
