"""The venue's TV through the test client: the mesas in even pages, the bracket in a knockout."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import tournament_field
from tournaments.models import Tournament
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish
from tournaments.web.public.screen import SCREEN_PAGES_AT_ONCE, SCREEN_TABLES_PER_PAGE

pytestmark = pytest.mark.django_db


def _screen(client, pairs: int, fmt: str, **options) -> str:
    t, organizer, _ = tournament_field(pairs, tables=pairs // 2, status=Tournament.Status.RUNNING)
    phase = phase_create(tournament=t, actor=organizer, name="Torneo", format=fmt, **options)
    round_publish(round=round_draw_generate(phase=phase, actor=organizer), actor=organizer)
    url = reverse("web:public-screen-fragment", args=[t.club.slug, t.slug])
    return client.get(url).content.decode()


def test_one_mesa_over_a_page_splits_the_mesas_in_half(client):
    body = _screen(client, 2 * (SCREEN_TABLES_PER_PAGE + 1), "swiss", rounds_planned=3)
    counts = [int(n) for n in re.findall(r'class="sc-grid sc-page"[^>]*data-count="(\d+)"', body)]
    assert counts == [SCREEN_TABLES_PER_PAGE // 2 + 1, SCREEN_TABLES_PER_PAGE // 2]
    assert body.count('class="sc-card') == SCREEN_TABLES_PER_PAGE + 1
    assert "sc-bracket" not in body


def test_a_knockout_shows_its_bracket_by_the_bracket_names(client):
    body = _screen(client, 8, "single_elimination")
    assert 'class="slide sc-bracket"' in body
    titles = re.findall(r'<div class="br-title"[^>]*>([^<]+)</div>', body)
    assert titles == ["Cuartos de final", "Semifinales", "Final"]
    assert "Ronda 1" not in body


def test_a_large_round_comes_a_page_an_answer_each_naming_the_next(client):
    """Issue 24 §3: a TV shows a screenful; a federation's 500 mesas were 336 KB an answer.
    Up to SCREEN_PAGES_AT_ONCE pages come in one answer; past them, one page each, the next
    fetch asking for the next page and the last coming back to the first."""
    pairs = 2 * SCREEN_TABLES_PER_PAGE * SCREEN_PAGES_AT_ONCE + 2  # one mesa over: 4 pages
    first = _screen(client, pairs, "swiss", rounds_planned=3)
    assert first.count('class="sc-grid sc-page"') == 1
    assert "<span data-page-number>1</span>/4" in first
    url = re.search(r'data-next-src="([^"]+)"', first)[1]
    assert url.endswith("?page=2")
    last = client.get(url.replace("page=2", "page=4")).content.decode()
    tables = [int(n) for n in re.findall(r'<b class="sc-no">(\d+)</b>', last)]
    assert tables[-1] == pairs // 2 and "<span data-page-number>4</span>/4" in last
    assert re.search(r'data-next-src="([^"]+)"', last)[1].endswith("?page=1")
    # the standings show their top; the TV's answer stays a screenful
    assert len(last.encode()) < 60_000
