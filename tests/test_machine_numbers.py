"""Numbers written for a machine stay machine numbers in every language.

A page in Spanish, Basque or French writes a decimal comma where a person reads a number
(Django localizes every float a template prints). Where a browser reads it instead — an SVG's
coordinates, a style's value, a data attribute a script reads, a number field's value or
bounds, JSON in the page — a comma breaks it: the player's rating chart lost its gridlines and
its dot in es, eu and fr (``y1="16,0"``). The templates write such numbers without localizing
them (``{% localize off %}`` or ``|unlocalize``, Django's ``l10n`` library).

The test loads the demo (a tournament half played with its bracket to come, ratings, a
circuit, an interpeña, a league of peñas), walks the site from its pages with numbers — the
public pages, the players' pages and their charts, the TV screen, a table's pages, the
organizer's desk — following its links (a few pages of each kind, by URL name), in each of the
four languages, and reads every such number.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import Resolver404, resolve

from seasons.leagues.models import League, TeamLeague
from seasons.ratings.models import RankingRow
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

#: a number as a browser reads it: no decimal comma, no thousands separator
MACHINE = re.compile(r"-?\d+(\.\d+)?(e-?\d+)?")
SVG_NUMBERS = {"x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry", "width", "height"}
#: a decimal comma: "16,0" (a list a script splits, "A,B", has no digit on both sides)
COMMA_NUMBER = re.compile(r"\d,\d")
#: the pages of each kind (URL name) visited, at most
PER_KIND = 2
SKIP = ("/admin/", "/api/", "/accounts/logout", "/i18n/", "/static/")


class Numbers(HTMLParser):
    """Every machine number of a page that is not one: (where, what) pairs."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.wrong: list[tuple[str, str]] = []
        self.links: list[str] = []
        self.svg = 0
        self.json = False
        self.counted = 0
        self.drawn = 0  # the numbers of the SVGs

    def bad(self, where: str, value: str) -> None:
        self.wrong.append((where, value))

    def number(self, where: str, value: str) -> None:
        self.counted += 1
        self.drawn += bool(self.svg)
        if not MACHINE.fullmatch(value.strip()):
            self.bad(where, value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "a" and values.get("href", "").startswith("/"):
            self.links.append(values["href"])
        if tag == "svg":
            self.svg += 1
            box = values.get("viewbox", "").split()
            for part in box:
                self.number("svg viewBox", part)
        if self.svg:
            for name in SVG_NUMBERS & values.keys():
                if values[name] and not values[name].endswith("%"):
                    self.number(f"<{tag} {name}>", values[name])
            for point in values.get("points", "").split():
                for part in point.split(","):
                    self.number(f"<{tag} points>", part)
        for name, value in values.items():
            # a style's values and a data attribute a script reads
            if name == "style" or name.startswith("data-"):
                self.counted += len(re.findall(r"\d+", value))
                if COMMA_NUMBER.search(value):
                    self.bad(f"<{tag} {name}>", value)
        if tag == "input" and values.get("type") == "number":
            for name in ("value", "min", "max", "step"):
                if values.get(name):
                    self.number(f"<input type=number {name}> ({values.get('name')})", values[name])
        if tag == "script" and values.get("type") == "application/json":
            self.json = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self.svg -= 1
        if tag == "script":
            self.json = False

    def handle_data(self, data: str) -> None:
        if self.json:
            try:
                json.loads(data)
            except ValueError:
                self.bad("<script type=application/json>", data[:80])


def kind(path: str) -> str | None:
    """The URL name of a page of the site, or None for what the walk leaves out."""
    if any(path.startswith(prefix) for prefix in SKIP):
        return None
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    return match.view_name


@pytest.fixture
def demo(shared_demo):
    return shared_demo


def walk(client: Client, start: list[str], language: str) -> tuple[dict, int, int]:
    """Visit the site from ``start``: {url: wrong numbers}, the pages seen, the numbers read."""
    seen: dict[str, int] = {}
    queue = list(start)
    visited: set[str] = set()
    wrong: dict[str, list] = {}
    pages = numbers = 0
    while queue:
        url = queue.pop(0)
        name = kind(url)
        if url in visited or name is None or seen.get(name, 0) >= PER_KIND:
            continue
        visited.add(url)
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        seen[name] = seen.get(name, 0) + 1
        pages += 1
        parser = Numbers()
        parser.feed(response.content.decode())
        numbers += parser.counted
        if parser.wrong:
            wrong[url] = parser.wrong
        queue.extend(link.split("#")[0] for link in parser.links)
    return wrong, pages, numbers


def test_every_number_a_browser_reads_is_a_machine_number_in_every_language(client, demo):
    tournament = Tournament.objects.get(slug="san-fermin", club__slug="pena-txoko")
    club = tournament.club
    player = RankingRow.objects.filter(club=club).order_by("-matches").first().player_id
    table = Match.objects.filter(round__phase__tournament=tournament).first()
    public = [
        "/",
        f"/jugadores/{player}/",
        f"/penas/{club.slug}/ranking/",
        f"/torneos/{club.slug}/{tournament.slug}/",
        f"/torneos/{club.slug}/{tournament.slug}/cuadro/",
        f"/torneos/{club.slug}/{tournament.slug}/pantalla/",
        f"/mesa/{table.token}/",
        f"/mesa/{table.token}/anotador/",
        "/circuitos/",
        "/interpenas/",
        *(f"/ligas/{lg.club.slug}/{lg.slug}/" for lg in League.objects.all()),
        *(f"/ligas-penas/{lg.club.slug}/{lg.slug}/" for lg in TeamLeague.objects.all()),
    ]
    desk = [
        "/organizador/",
        *(f"/organizador/ligas/{lg.pk}/" for lg in League.objects.all()),
        *(f"/organizador/ligas-penas/{lg.pk}/" for lg in TeamLeague.objects.all()),
    ]
    organizer = Client()
    organizer.force_login(get_user_model().objects.get(username="organizador"))
    wrong: dict[str, dict] = {}
    for language, _ in settings.LANGUAGES:
        chart = Numbers()
        chart.feed(client.get(public[1], HTTP_ACCEPT_LANGUAGE=language).content.decode())
        # the chart: its gridlines, labels, line and dot
        assert chart.drawn > 20, (language, chart.drawn)
        found, pages, numbers = walk(client, public, language)
        desk_found, desk_pages, desk_numbers = walk(organizer, desk, language)
        assert pages + desk_pages > 40 and numbers + desk_numbers > 200, (pages, numbers)
        if found or desk_found:
            wrong[language] = {**found, **desk_found}
    assert not wrong, wrong
