"""The desk's form that adds a phase, sent as the page offers it.

After a first phase the form proposes a knockout. Its help says to leave the source phase
empty to draw the knockout among every pair, so nothing is chosen there (a source chosen
by default asked for the qualifiers of each group, and the form's own defaults were refused);
its name is not "Final", which named its rounds "Cuartos de final de Final".
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.factories import MembershipFactory, PhaseFactory, TournamentFactory
from tournaments.models import Phase

pytestmark = pytest.mark.django_db


class Submitted(HTMLParser):
    """What a browser sends when the form is submitted untouched: each field's value as the page
    sets it (a select's selected option, else its first; a box only when ticked)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.data: dict[str, str] = {}
        self.select: str | None = None
        self.first: str | None = None
        self.chosen: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "input" and a.get("name") and "disabled" not in a:
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.data[a["name"]] = a.get("value", "on" if a.get("type") == "checkbox" else "")
        elif tag == "select":
            self.select, self.first, self.chosen = a.get("name"), None, None
        elif tag == "option" and self.select:
            if self.first is None:
                self.first = a.get("value", "")
            if "selected" in a:
                self.chosen = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self.select:
            choice = self.chosen if self.chosen is not None else self.first
            self.data[self.select] = choice or ""
            self.select = None


def test_the_knockout_the_form_proposes_after_a_swiss_is_added_as_it_comes(client):
    tournament = TournamentFactory()
    client.force_login(MembershipFactory(club=tournament.club).user)
    swiss = PhaseFactory(tournament=tournament, order=1, name="Suizo", format="swiss")
    url = reverse("web:organizer-phase-create", args=[tournament.pk])

    page = Submitted()
    page.feed(client.get(url).content.decode())
    assert page.data["format"] == "single_elimination"
    assert page.data["source_id"] == ""  # "Déjalo vacío para sortearla entre todas las parejas"
    assert page.data["name"] != "Final"

    response = client.post(url, page.data)
    assert response.status_code == 302, response.content.decode()[:2000]
    knockout = tournament.phases.get(order=2)
    assert knockout.format == Phase.Format.SINGLE_ELIMINATION
    assert knockout.source_id is None and knockout.name == "Eliminatoria"
    assert swiss.pk != knockout.pk


def test_a_group_ladder_and_a_table_ladder_are_added_from_the_form(client):
    tournament = TournamentFactory()
    client.force_login(MembershipFactory(club=tournament.club).user)
    url = reverse("web:organizer-phase-create", args=[tournament.pk])
    page = Submitted()
    text = client.get(url).content.decode()
    assert "Escalera de grupos" in text and "Sube y baja" in text
    page.feed(text)
    data = {
        **page.data,
        "format": "group_ladder",
        "name": "Escalera",
        "ladder_groups": "3",
        "cycle_rounds": "3",
        "cycles": "2",
        "move_by": "place",
        "moves": "1",
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    ladder = tournament.phases.get(order=1)
    assert ladder.format == Phase.Format.GROUP_LADDER and ladder.rounds_planned == 6
    assert ladder.settings["ladder"] == {
        "groups": 3,
        "cycle_rounds": 3,
        "cycles": 2,
        "move_by": "place",
        "moves": 1,
    }
    # the swap is for players alone: a pairs tournament is told so, on the form
    data = {**page.data, "format": "table_ladder", "name": "Sube", "rounds_planned": "4"}
    data["swap"] = "on"
    response = client.post(url, data)
    assert response.status_code == 400
    assert "jugadores sueltos" in response.content.decode()
    del data["swap"]
    response = client.post(url, data)
    assert response.status_code == 302
    table = tournament.phases.get(order=2)
    assert table.format == Phase.Format.TABLE_LADDER and table.settings["ladder"] == {"swap": False}


def test_a_group_ladder_without_its_cycles_is_refused_naming_the_option(client):
    tournament = TournamentFactory()
    client.force_login(MembershipFactory(club=tournament.club).user)
    url = reverse("web:organizer-phase-create", args=[tournament.pk])
    response = client.post(
        url, {"format": "group_ladder", "name": "Escalera", "ladder_groups": "2", "cycles": "2"}
    )
    assert response.status_code == 400
    assert "cycle_rounds" in response.content.decode()
    assert not tournament.phases.exists()
