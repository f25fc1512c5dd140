"""The plan on the organizer's pages and the public page: a phase whose pairs come from an
earlier phase by a rule, added through the form; a rule that cannot work shown by name; the
plan page (a usual plan in one click, the peña's plan saved, the plan downloaded and pasted);
a pair moved between groups from the round's page; the picture with where the tournament is."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.factories import tournament_field
from tournaments.models import Group, PlanPreset, Tournament
from tournaments.services.rounds import phase_create, round_draw_generate

pytestmark = pytest.mark.django_db


def swiss(t, organizer):
    return phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )


def test_a_cuadro_b_is_added_with_the_form(client):
    t, organizer, _ = tournament_field(12)
    client.force_login(organizer)
    swiss(t, organizer)
    url = reverse("web:organizer-phase-create", args=[t.pk])
    page = client.get(url).content.decode()
    assert "De dónde vienen las parejas" in page and "Las no clasificadas (cuadro B)" in page
    response = client.post(
        url,
        {
            "format": "single_elimination",
            "name": "Cuadro B",
            "entrants_rule": "not_qualified",
            "entrants_phase": "1",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    phase = t.phases.get(order=2)
    assert phase.entrants == [{"rule": "not_qualified", "phase": 1}]


def test_groups_by_level_with_unequal_sizes_through_the_form(client):
    t, organizer, _ = tournament_field(12)
    client.force_login(organizer)
    swiss(t, organizer)
    response = client.post(
        reverse("web:organizer-phase-create", args=[t.pk]),
        {
            "format": "round_robin",
            "name": "Grupos",
            "rounds_planned": "2",
            "seeding": "level",
            "group_sizes": "4, 6",
            "entrants_rule": "top",
            "entrants_phase": "1",
            "entrants_count": "10",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    phase = t.phases.get(order=2)
    assert (phase.seeding, phase.group_sizes, phase.rounds_planned) == ("level", [4, 6], 2)
    assert phase.entrants == [{"rule": "top", "phase": 1, "count": 10}]


def test_a_rule_that_cannot_work_is_shown_by_name(client):
    t, organizer, _ = tournament_field(6)
    client.force_login(organizer)
    swiss(t, organizer)
    response = client.post(
        reverse("web:organizer-phase-create", args=[t.pk]),
        {
            "format": "single_elimination",
            "name": "Final",
            "entrants_rule": "top",
            "entrants_phase": "1",
            "entrants_count": "8",
        },
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert response.status_code == 400
    assert "Final, regla de entrada 1: Suizo tiene 6 participantes; no tiene puesto 8." in (
        response.content.decode()
    )


def test_the_plan_page_applies_saves_downloads_and_imports(client):
    t, organizer, _ = tournament_field(16)
    client.force_login(organizer)
    url = reverse("web:organizer-plan", args=[t.pk])
    assert "Planes de siempre" in client.get(url).content.decode()
    response = client.post(url, {"action": "apply", "choice": "builtin:groups_cuadro_b"})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert 'data-testid="plan"' in page and "Cuadro B" in page
    assert "las no clasificadas de Liguillas" in page
    assert 'data-testid="plan-ok"' in page
    client.post(url, {"action": "save", "name": "Lo de siempre"})
    assert PlanPreset.objects.get(club=t.club).name == "Lo de siempre"
    downloaded = json.loads(client.get(url, {"download": "1"}).content)
    assert [p["name"] for p in downloaded["phases"]] == ["Liguillas", "Cuadro A", "Cuadro B"]
    downloaded["phases"] = downloaded["phases"][:2]
    response = client.post(url, {"action": "import", "plan": json.dumps(downloaded)})
    assert response.status_code == 302
    assert list(t.phases.values_list("name", flat=True)) == ["Liguillas", "Cuadro A"]
    bad = client.post(url, {"action": "import", "plan": "{"}, HTTP_ACCEPT_LANGUAGE="es")
    assert bad.status_code == 400
    assert "Este no es un plan que Amarrako pueda leer" in bad.content.decode()


def test_the_public_page_shows_the_plan_and_where_the_tournament_is(client):
    t, organizer, _ = tournament_field(8, status=Tournament.Status.RUNNING, is_public=True)
    first = swiss(t, organizer)
    phase_create(
        tournament=t,
        actor=organizer,
        name="Final",
        format="single_elimination",
        entrants=[{"rule": "top", "phase": 1, "count": 4}],
    )
    round_draw_generate(phase=first, actor=organizer)
    page = client.get(
        reverse("web:tournament", args=[t.club.slug, t.slug]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert 'data-testid="plan"' in page
    assert "las 4 primeras de Suizo" in page
    assert 'aria-current="step"' in page and "aquí estamos" in page


def test_a_pair_moves_to_another_group_from_the_round_page(client):
    t, organizer, _ = tournament_field(8, status=Tournament.Status.RUNNING)
    client.force_login(organizer)
    phase = phase_create(
        tournament=t, actor=organizer, name="Liguilla", format="round_robin", group_size=4
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    page = client.get(reverse("web:organizer-round", args=[rnd.pk])).content.decode()
    assert 'data-testid="group-move"' in page
    moved = Group.objects.get(phase=phase, name="A").entries.first()
    response = client.post(
        reverse("web:organizer-phase-group-move", args=[phase.pk]),
        {"entry_id": moved.pk, "group": "B"},
    )
    assert response.status_code == 302
    assert Group.objects.get(phase=phase, name="B").entries.filter(pk=moved.pk).exists()
