"""A federation's field on the organizer's pairs page and the public standings (issue 24 §3):
the lists come a page at a time, every pair is reachable (pages, search, the row an action
comes back to), the page says how many there are, and the number of queries does not grow with
the pairs. A club's tournament stays one page (the other tests read those pages whole).

Figures for 1,000 pairs: benchmarks/pages.py.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Membership
from tests.factories import ClubFactory, MembershipFactory, TournamentFactory, UserFactory
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.services.bulk import entrants_register_text
from tournaments.services.standings import standings_refresh
from tournaments.web.organizer.entries import PAGE_SIZE
from tournaments.web.public.display import STANDINGS_PAGE_SIZE

pytestmark = pytest.mark.django_db

SMALL, LARGE = 10, 130


@pytest.fixture
def organizer():
    return UserFactory(username="federacion")


def field(organizer, size: int, status=Tournament.Status.REGISTRATION) -> Tournament:
    club = ClubFactory(name=f"Federación {size}", slug=f"federacion-{size}")
    MembershipFactory(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    tournament = TournamentFactory(
        club=club, slug=f"campeonato-{size}", tables_available=size, is_public=True
    )
    text = "\n".join(f"Ana{n} Uno / Bea{n} Dos" for n in range(1, size + 1))
    entrants_register_text(tournament=tournament, text=text, actor=organizer)
    Tournament.objects.filter(pk=tournament.pk).update(status=status)
    tournament.refresh_from_db()
    return tournament


def queries(client, path: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return len(captured), response.content.decode()


def entries_url(tournament: Tournament) -> str:
    return reverse("web:organizer-entries", args=[tournament.pk])


def test_the_pairs_page_costs_the_same_queries_for_10_and_130_pairs(client, organizer):
    client.force_login(organizer)
    small, large = field(organizer, SMALL), field(organizer, LARGE)
    client.get(entries_url(small))  # the session and the language, read once
    counted = {
        size: queries(client, entries_url(t))[0] for size, t in ((SMALL, small), (LARGE, large))
    }
    assert counted[SMALL] == counted[LARGE], counted


def test_a_small_field_is_one_page_with_every_pair(client, organizer):
    client.force_login(organizer)
    tournament = field(organizer, SMALL)
    page = client.get(entries_url(tournament)).content.decode()
    assert all(f"Ana{n} Uno" in page for n in range(1, SMALL + 1))
    assert 'class="pages"' not in page
    assert 'name="player_one"' in page  # a peña of 20 players: chosen from a list


def test_the_130th_pair_is_on_the_last_page_and_found_by_name(client, organizer):
    client.force_login(organizer)
    tournament = field(organizer, LARGE)
    first = client.get(entries_url(tournament)).content.decode()
    assert first.count('class="entry ') == PAGE_SIZE
    assert f"1–{PAGE_SIZE} de {LARGE}" in first and "Página 1 de 3" in first
    assert f"Ana{LARGE} Uno" not in first
    assert 'href="?page=3"' in first
    last = client.get(entries_url(tournament) + "?page=3").content.decode()
    assert f"Ana{LARGE} Uno" in last and f"101–{LARGE} de {LARGE}" in last
    found = client.get(entries_url(tournament), {"q": f"ana{LARGE}"}).content.decode()
    assert found.count('class="entry ') == 1 and f"Ana{LARGE} Uno" in found
    assert f"1 de {LARGE} coincide con la búsqueda" in found
    # a peña of 260 players is too large to choose two of them from lists: the names are typed
    assert 'name="player_one"' not in first and 'name="names"' in first


def test_an_action_comes_back_to_the_page_of_its_row(client, organizer):
    client.force_login(organizer)
    tournament = field(organizer, LARGE)
    last = Entry.objects.filter(tournament=tournament).order_by("-registered_at", "-pk").first()
    assert str(last.pair) == f"Ana{LARGE} Uno / Bea{LARGE} Dos"
    path = reverse("web:organizer-entry-check-in", args=[tournament.pk, last.pk])
    response = client.post(path)
    assert response["Location"] == entries_url(tournament) + f"?page=3#e{last.pk}"
    # the row's options (seed, pinned table, withdraw) are written out for the row asked for
    page = client.get(entries_url(tournament), {"page": 3, "opciones": last.pk}).content.decode()
    assert f'name="seed{last.pk}-seed"' in page
    assert page.count('name="csrfmiddlewaretoken"') < PAGE_SIZE  # not for every row
    # a seed refused shows the row's form again, on its page
    bad = client.post(
        reverse("web:organizer-entry-seed", args=[tournament.pk, last.pk]),
        {f"seed{last.pk}-seed": "-1"},
    )
    assert bad.status_code == 400 and f'name="seed{last.pk}-seed"' in bad.content.decode()


def played(organizer, size: int) -> Tournament:
    """A running public Swiss of ``size`` pairs with one closed round, its standings stored."""
    tournament = field(organizer, size, status=Tournament.Status.RUNNING)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    phase = Phase.objects.create(
        tournament=tournament, order=1, name="Suizo", format=Phase.Format.SWISS, rounds_planned=3
    )
    rnd = Round.objects.create(phase=phase, number=1, status=Round.Status.CLOSED)
    Match.objects.bulk_create(
        Match(
            round=rnd,
            table_number=n + 1,
            entry_a=a,
            entry_b=b,
            status=Match.Status.CONFIRMED,
            winner=a,
            games_a=2,
            games_b=n % 2,
            vacas_a=1,
            stones_a=80,
            stones_b=40,
        )
        for n, (a, b) in enumerate(zip(entries[::2], entries[1::2], strict=True))
    )
    standings_refresh(phase=phase)
    return tournament


def public(name: str, tournament: Tournament) -> str:
    return reverse(f"web:{name}", args=[tournament.club.slug, tournament.slug])


def test_the_public_standings_cost_the_same_queries_for_10_and_130_pairs(client, organizer):
    small, large = played(organizer, SMALL), played(organizer, LARGE)
    for name in ("public-standings", "tournament"):
        for t in (small, large):  # the standings' HTML is built once, then kept
            client.get(public(name, t))
        counted = [queries(client, public(name, t))[0] for t in (small, large)]
        assert counted[0] == counted[1], (name, counted)


def test_the_public_standings_come_a_page_at_a_time(client, organizer):
    small, large = played(organizer, SMALL), played(organizer, LARGE)
    whole = client.get(public("public-standings", small)).content.decode()
    assert 'class="pages"' not in whole and whole.count('<td class="num rk">') == SMALL
    first = client.get(public("public-standings", large)).content.decode()
    assert first.count('<td class="num rk">') == STANDINGS_PAGE_SIZE
    assert f"1–{STANDINGS_PAGE_SIZE} de {LARGE}" in first and 'href="?page=2"' in first
    second = client.get(public("public-standings", large), {"page": 2}).content.decode()
    ranks = re.findall(r'<td class="num rk">(\d+)</td>', second)
    assert len(ranks) == LARGE - STANDINGS_PAGE_SIZE
    assert f"{STANDINGS_PAGE_SIZE + 1}–{LARGE} de {LARGE}" in second
    # a page beyond the last, or not a number, is the nearest page
    assert client.get(public("public-standings", large), {"page": "x"}).status_code == 200
    beyond = client.get(public("public-standings", large), {"page": 99}).content.decode()
    assert re.findall(r'<td class="num rk">(\d+)</td>', beyond) == ranks
    # the tournament's page shows the first page and says how many there are in all
    page = client.get(public("tournament", large)).content.decode()
    assert f"Ver la clasificación completa ({LARGE})" in page
    assert (
        "Ver la clasificación completa"
        not in client.get(public("tournament", small)).content.decode()
    )


def test_the_public_pairs_come_a_page_at_a_time(client, organizer):
    large = played(organizer, LARGE)
    first = client.get(public("public-pairs", large)).content.decode()
    assert f"({LARGE})" in first and f"Ana{LARGE} Uno" not in first
    assert f"1–100 de {LARGE}" in first
    second = client.get(public("public-pairs", large), {"page": 2}).content.decode()
    assert f"Ana{LARGE} Uno" in second
