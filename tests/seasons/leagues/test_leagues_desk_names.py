"""Every control of the league's desk has a name a screen reader reads: the select that decides
an overdue postponed match had none (no label, no aria-label)."""

from __future__ import annotations

import datetime as dt
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.utils import timezone

from seasons.leagues import services
from tests.seasons.leagues.conftest import pairs_league
from tests.seasons.leagues.test_leagues_services import play_jornada

pytestmark = pytest.mark.django_db


class Unnamed(HTMLParser):
    """The selects, inputs and textareas without a label around them, a label for them, an
    aria-label or aria-labelledby."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.labels = 0  # <label> elements open around the current position
        self.labelled: set[str] = set()
        self.controls: list[tuple[str, dict]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "label":
            self.labels += 1
            if a.get("for"):
                self.labelled.add(a["for"])
        elif tag in ("select", "textarea") or (
            tag == "input" and a.get("type") not in ("hidden", "submit", "button")
        ):
            named = self.labels or a.get("aria-label") or a.get("aria-labelledby")
            if not named:
                self.controls.append((tag, a))

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.labels -= 1

    def unnamed(self) -> list[dict]:
        return [a for _, a in self.controls if not a.get("id") or a["id"] not in self.labelled]


def test_every_control_of_the_league_desk_has_a_name(club, organizer):
    league = pairs_league(club, organizer)
    first, *_ = play_jornada(league, 1, organizer, skip=(0,))
    yesterday = timezone.localdate() - dt.timedelta(days=1)  # overdue: the desk asks what to decide
    services.match_postpone(league=league, actor=organizer, match_id=first.pk, deadline=yesterday)
    desk = Client()
    desk.force_login(organizer)
    page = desk.get(f"/organizador/ligas/{league.pk}/")
    html = page.content.decode()
    assert page.status_code == 200 and 'name="outcome"' in html  # the overdue match's decision
    found = Unnamed()
    found.feed(html)
    assert not found.unnamed(), found.unnamed()
