"""A championship on a phone (390×844), from its creation to the final's bracket: the
organizer creates it, adds three centres, the qualifiers (one pair per 4 that play, at least
one) and the final on the desk; a centre's organizer adds the centre's qualifier on its page;
the qualifiers are played and finished, their qualified pairs flow into the final by
themselves; the desk shows each qualifier's progress; the final is drawn and the public page
shows the qualified pairs and the final's bracket."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from seasons.championships.models import Championship, Qualification
from tests.factories import MembershipFactory, PairFactory, TournamentFactory
from tests.seasons.championships.helpers import play_to_the_end
from tournaments.models import Entry, Phase, Tournament
from tournaments.services.registration import entries_check_in_all, entry_register
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish
from tournaments.services.tournaments import tournament_status_change

pytestmark = pytest.mark.django_db(transaction=True)

BUDGET = 60_000


def log_in(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_championship_from_its_creation_to_the_final_bracket(
    new_phone, live_server, screenshot, transferred
):
    host = MembershipFactory(club__name="Federación Navarra de Mus")
    centres = [
        MembershipFactory(club__name=name) for name in ("Bar Iruña", "Peña Txoko", "Casa Vasca")
    ]
    qualifiers = []
    for n, centre in enumerate(centres):
        tournament = TournamentFactory(
            club=centre.club,
            is_public=True,
            name=f"Clasificatoria {centre.club.name}",
            games_per_vaca=3,  # a partida to three juegos, as the demo plays them
            vacas_per_match=1,
        )
        for _ in (8, 4, 4)[n] * [None]:
            entry_register(
                tournament=tournament, pair_id=PairFactory(club=centre.club).pk, actor=centre.user
            )
        qualifiers.append(tournament)
    final = TournamentFactory(club=host.club, is_public=True, name="Gran Final de Navarra")

    desk = new_phone()
    log_in(desk, live_server, host.user)
    desk.goto(f"{live_server.url}/organizador/campeonatos/nuevo/")
    desk.get_by_label("Nombre").fill("Campeonato de Navarra")
    desk.get_by_role("button", name="Crear").click()
    expect(desk.locator("h1")).to_have_text("Campeonato de Navarra")
    championship = Championship.objects.get()

    for centre in centres:
        desk.locator("#centres select[name=club_id]").select_option(label=centre.club.name)
        desk.get_by_role("button", name="Añadir el centro").click()
        expect(desk.locator("#centres .ch-centres")).to_contain_text(centre.club.name)
    stages = desk.locator("#stages")
    stages.locator("select[name=kind]").select_option("qualifiers")
    stages.get_by_label("Nombre").fill("Clasificatorias")
    stages.locator("select[name=quota_rule]").select_option("proportional")
    stages.locator("input[name=quota_number]").fill("4")
    stages.locator("input[name=quota_minimum]").fill("1")
    stages.get_by_role("button", name="Añadir la fase").click()
    expect(desk.locator("#progress")).to_contain_text(
        "Pasa una pareja por cada 4 que juegan, al menos 1."
    )
    stages = desk.locator("#stages")
    stages.locator("select[name=kind]").select_option("final")
    stages.get_by_label("Nombre").fill("Final")
    stages.get_by_role("button", name="Añadir la fase").click()
    expect(desk.locator("#progress h3")).to_have_count(2)

    adding = desk.locator("#tournaments")
    for stage, tournament in (
        ("Final", final),
        ("Clasificatorias", qualifiers[0]),
        ("Clasificatorias", qualifiers[1]),
    ):
        adding = desk.locator("#tournaments")
        adding.locator("select[name=stage_id]").select_option(label=stage)
        adding.locator("select[name=tournament_id]").select_option(
            label=f"{tournament.name} ({tournament.club.name})"
        )
        adding.get_by_role("button", name="Añadir el torneo").click()
        expect(desk.locator("#progress")).to_contain_text(tournament.name)

    # the third centre's organizer adds its own qualifier on the centre's page
    runner = new_phone()
    log_in(runner, live_server, centres[2].user)
    runner.goto(
        f"{live_server.url}/campeonatos/{championship.slug}/centros/{centres[2].club.slug}/"
    )
    runner.get_by_role("button", name="Añadir").click()
    expect(runner.locator(".ch-stops")).to_contain_text(qualifiers[2].name)
    assert no_sideways_scroll(runner)

    # the qualifiers are played and finished: their pairs flow into the final by themselves
    for tournament, centre in zip(qualifiers, centres, strict=True):
        play_to_the_end(tournament, centre.user)
    qualified = list(
        Qualification.objects.order_by("stop__tournament__starts_on", "stop_id", "position")
    )
    assert len(qualified) == 4  # 8 pairs send 2, 4 pairs 1, 4 pairs 1
    assert Entry.objects.filter(tournament=final).count() == 4

    desk.reload()
    progress = desk.locator("#progress")
    expect(progress).to_contain_text("Jugaron 8 parejas (16 jugadores).")
    expect(progress).to_contain_text("rondas 2/2")
    assert no_sideways_scroll(desk)
    screenshot(desk, "championship-desk")

    # the final: drawn as a knockout of its four pairs
    tournament_status_change(tournament=final, actor=host.user, status="running")
    entries_check_in_all(tournament=final, actor=host.user)
    phase = phase_create(
        tournament=final,
        actor=host.user,
        name="Eliminatoria",
        format=Phase.Format.SINGLE_ELIMINATION,
    )
    round_publish(round=round_draw_generate(phase=phase, actor=host.user), actor=host.user)

    public = new_phone()
    size = transferred(public, f"{live_server.url}/campeonatos/{championship.slug}/")
    assert size < BUDGET, f"championship page: {size} bytes"
    expect(public.locator("h1")).to_have_text("Campeonato de Navarra")
    bracket = public.locator("#final-bracket")
    expect(bracket).to_contain_text("Cuadro de la final")
    for q in qualified:
        expect(bracket).to_contain_text(str(q.pair))
        expect(public.locator(".ch-qualified").first).to_be_visible()
    assert bracket.locator(".ch-match").count() == 3  # two semi-finals and the final
    assert no_sideways_scroll(public)
    screenshot(public, "championship-public")
    assert Tournament.objects.get(pk=final.pk).status == Tournament.Status.RUNNING
