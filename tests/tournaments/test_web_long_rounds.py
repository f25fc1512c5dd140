"""A federation's round at the organizer's desk (issue 24 §3): the round's page and its board
come 50 tables a page (the tables needing attention named on the board's first page and a
filter by state), every table is reachable (pages, ``?partida=<id>``), the forms of a large
round take a table's number (and A or B for a pair) typed instead of lists of every pair and
table, refused with a clear error, and the queries do not grow with the tables. A club's round
stays one page with its lists (the other tests read those pages whole).

Figures for 1,000 pairs: benchmarks/pages.py.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.test_web_long_lists import field, queries
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.web.organizer.rounds import TABLES_PAGE_SIZE

pytestmark = pytest.mark.django_db

SMALL, LARGE = 10, 130  # 5 and 65 tables


@pytest.fixture
def organizer():
    from tests.factories import UserFactory

    return UserFactory(username="federacion")


def drawn(organizer, size: int, status=Round.Status.DRAFT) -> Round:
    """A round of ``size`` pairs at ``size / 2`` tables, none started."""
    tournament = field(organizer, size, status=Tournament.Status.RUNNING)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    phase = Phase.objects.create(
        tournament=tournament, order=1, name="Suizo", format=Phase.Format.SWISS, rounds_planned=3
    )
    rnd = Round.objects.create(phase=phase, number=1, status=status)
    Match.objects.bulk_create(
        Match(round=rnd, table_number=n + 1, entry_a=a, entry_b=b)
        for n, (a, b) in enumerate(zip(entries[::2], entries[1::2], strict=True))
    )
    return rnd


def url(name: str, rnd: Round) -> str:
    return reverse(f"web:organizer-{name}", args=[rnd.pk])


def tables_on(page: str) -> list[int]:
    return [int(n) for n in re.findall(r"<small>Mesa</small>(\d+)</span>", page)]


def test_the_round_and_its_board_cost_the_same_queries_for_5_and_65_tables(client, organizer):
    client.force_login(organizer)
    small, large = drawn(organizer, SMALL), drawn(organizer, LARGE)
    for name in ("round", "round-board"):
        client.get(url(name, small))
        counted = [queries(client, url(name, rnd))[0] for rnd in (small, large)]
        assert counted[0] == counted[1], (name, counted)


def test_a_club_round_is_one_page_with_its_lists(client, organizer):
    client.force_login(organizer)
    rnd = drawn(organizer, SMALL)
    page = client.get(url("round", rnd)).content.decode()
    assert tables_on(page) == [1, 2, 3, 4, 5] and 'class="pages"' not in page
    assert '<select name="entry_id"' in page and '<select name="match_id"' in page
    board = client.get(url("round-board", rnd)).content.decode()
    assert tables_on(board) == [1, 2, 3, 4, 5] and 'class="pages"' not in board
    assert "?estado=" not in board


def test_a_large_round_comes_50_tables_a_page_and_its_forms_take_numbers(client, organizer):
    client.force_login(organizer)
    rnd = drawn(organizer, LARGE)
    first = client.get(url("round", rnd)).content.decode()
    assert tables_on(first) == list(range(1, TABLES_PAGE_SIZE + 1))
    assert 'href="?page=2"' in first and "Página 1 de 2" in first
    assert first.count("<option") < 10  # no list of 130 pairs nor of 65 tables
    assert 'name="entry_id"' in first and "como 12A" in first
    last = Match.objects.get(round=rnd, table_number=65)
    second = client.get(url("round", rnd), {"partida": last.pk}).content.decode()
    assert tables_on(second) == list(range(51, 66)) and f'id="partida-{last.pk}"' in second


def test_a_large_round_swaps_pairs_and_tables_typed_and_refuses_what_is_not_there(
    client, organizer
):
    client.force_login(organizer)
    rnd = drawn(organizer, LARGE)
    first, last = (Match.objects.get(round=rnd, table_number=n) for n in (1, 65))
    a, b = first.entry_a_id, last.entry_b_id
    done = client.post(url("round-swap-entries", rnd), {"entry_id": "65 b", "other_entry_id": "1A"})
    assert done.status_code == 302
    first.refresh_from_db()
    last.refresh_from_db()
    assert (first.entry_a_id, last.entry_b_id) == (b, a)
    # a pair named as the lists write it
    name = str(Entry.objects.get(pk=a).pair)
    assert (
        client.post(
            url("round-swap-entries", rnd), {"entry_id": name, "other_entry_id": "1A"}
        ).status_code
        == 302
    )
    refused = client.post(
        url("round-swap-entries", rnd), {"entry_id": "99A", "other_entry_id": "1A"}
    )
    assert refused.status_code == 400
    assert "No hay ninguna pareja «99A» en esta ronda" in refused.content.decode()
    swapped = client.post(url("round-swap-tables", rnd), {"match_id": "65", "other_match_id": "1"})
    assert swapped.status_code == 302
    first.refresh_from_db()
    assert first.table_number == 65
    refused = client.post(url("round-swap-tables", rnd), {"match_id": "700", "other_match_id": "1"})
    assert refused.status_code == 400
    assert "No se juega ninguna partida en la mesa 700 en esta ronda." in refused.content.decode()
    moved = client.post(url("round-move-table", rnd), {"match_id": "2", "table_number": "80"})
    assert moved.status_code == 302
    assert (
        Match.objects.get(
            round=rnd,
            entry_a=Entry.objects.filter(tournament=rnd.phase.tournament).order_by("pk")[2],
        ).table_number
        == 80
    )


def test_a_large_board_names_what_needs_attention_and_filters_by_state(client, organizer):
    client.force_login(organizer)
    rnd = drawn(organizer, LARGE, status=Round.Status.PUBLISHED)
    disputed = Match.objects.get(round=rnd, table_number=60)
    Match.objects.filter(pk=disputed.pk).update(status=Match.Status.DISPUTED)
    first = client.get(url("round-board", rnd)).content.decode()
    assert 60 not in tables_on(first)
    attention = re.search(r'data-testid="attention-disputed">(.*?)</p>', first, re.S)[1]
    assert reverse("web:organizer-match", args=[disputed.pk]) in attention
    only = client.get(url("round-board", rnd), {"estado": "disputed"}).content.decode()
    assert tables_on(only) == [60] and 'class="pages"' not in only
    second = client.get(url("round-board", rnd), {"page": 2}).content.decode()
    assert tables_on(second) == list(range(51, 66))


def test_the_500th_table_is_reachable(client, organizer):
    client.force_login(organizer)
    rnd = drawn(organizer, 1000, status=Round.Status.PUBLISHED)
    last = Match.objects.get(round=rnd, table_number=500)
    for name in ("round", "round-board"):
        page = client.get(url(name, rnd), {"partida": last.pk}).content.decode()
        assert tables_on(page)[-1] == 500 and f'id="partida-{last.pk}"' in page, name
        assert "Página 10 de 10" in page
