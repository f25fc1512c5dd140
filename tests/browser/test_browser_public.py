"""The public pages in a browser: a tournament, its standings, a pair and its bracket on a
phone (390×844: readable, nothing wider than the screen, under 60 KB each), and the venue's
big screen at 1920×1080 (fits or rotates, and refreshes itself when a result comes in).

Data is built with the services, as in tests/tournaments/test_web_public.py.
"""

from __future__ import annotations

import itertools
import re

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Pair, Player
from tests.factories import EntryFactory, MembershipFactory, TournamentFactory
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.services.results import match_result_submit
from tournaments.services.rounds import (
    bracket_advance,
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh

pytestmark = pytest.mark.django_db(transaction=True)

FIRST = ["Iñaki", "Mikel", "Ane", "Josu", "Maite", "Koldo", "Itziar", "Xabier", "Amaia", "Unai"]
FIRST += ["Patxi", "Nerea", "Jon", "Edurne", "Asier", "Garbiñe"]  # 128 players, none twice
LAST = ["Etxeberria", "Arrieta", "Goñi", "Zubiri", "Irigoyen", "Lasa", "Ezcurra", "Oroz"]
PAIR_NAMES = ["Los del Txoko", "Hermanos Goñi", "La Vaca Loca", "Órdago y Quiero"]
BUDGET = 60_000


def tournament(pairs: int, **fields):
    club = Club.objects.create(name="Peña Mus Txantrea", slug="txantrea", town="Pamplona")
    t = TournamentFactory(
        club=club,
        name="Torneo de San Fermín",
        slug="san-fermin",
        venue="Bar Txoko",
        status=Tournament.Status.RUNNING,
        tables_available=0,
        **fields,
    )
    names = itertools.cycle(itertools.product(FIRST, LAST))
    entries = []
    for i in range(pairs):
        one, two = (
            Player.objects.create(first_name=f, last_name=s) for f, s in (next(names), next(names))
        )
        name = PAIR_NAMES[i // 4] if i % 4 == 0 and i // 4 < len(PAIR_NAMES) else ""
        pair = Pair.objects.create(player_one=one, player_two=two, club=club, name=name)
        entries.append(
            EntryFactory(tournament=t, pair=pair, status=Entry.Status.CHECKED_IN, seed=i + 1)
        )
    return t, MembershipFactory(club=club).user, entries


def decide(match: Match, winner_id: int) -> None:
    a_wins = winner_id == match.entry_a_id
    loser = match.id % 2
    match.status, match.winner_id = Match.Status.CONFIRMED, winner_id
    match.games_a, match.games_b = (2, loser) if a_wins else (loser, 2)
    match.vacas_a, match.vacas_b = (1, 0) if a_wins else (0, 1)
    match.stones_a, match.stones_b = (80, 35 + 20 * loser) if a_wins else (35 + 20 * loser, 80)
    match.save()


def pick(entries):
    seed = {e.id: e.seed for e in entries}
    # mostly the better seed, sometimes not, so that the standings have ties to break
    return lambda m: sorted((m.entry_a_id, m.entry_b_id), key=seed.get)[m.id % 5 == 0]


def organizer_result(match: Match, organizer, stones: list[tuple[int, int]], key: str) -> None:
    match_result_submit(
        match=match,
        side="organizer",
        payload={"games": [{"stones": list(s)} for s in stones]},
        idempotency_key=key,
        version=match.version,
        via="account",
        actor=organizer,
    )


def swiss_in_play(pairs: int):
    """Two rounds played; round 3 published with a result in, a table playing, one entered."""
    t, organizer, entries = tournament(pairs)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=5
    )
    for _ in range(2):
        rnd = round_draw_generate(phase=phase, actor=organizer)
        round_publish(round=rnd, actor=organizer)
        for m in rnd.matches.exclude(kind=Match.Kind.BYE):
            decide(m, pick(entries)(m))
        round_close(round=rnd, actor=organizer)
    current = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=current, actor=organizer)
    tables = list(current.matches.order_by("table_number"))
    organizer_result(tables[0], organizer, [(40, 31), (22, 40), (40, 37)], "browser-public-1")
    Match.objects.filter(pk=tables[1].pk).update(status=Match.Status.IN_PROGRESS)
    Match.objects.filter(pk=tables[2].pk).update(status=Match.Status.SUBMITTED)
    standings_refresh(phase=phase)
    return t, phase, entries, current, organizer


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_tournament_standings_and_pair_pages_on_a_phone(
    phone, live_server, screenshot, transferred
):
    t, phase, entries, current, organizer = swiss_in_play(32)
    base = f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/"

    size = transferred(phone, base)
    assert size < BUDGET, f"tournament page: {size} bytes"
    assert phone.locator("h1").inner_text() == "Torneo de San Fermín"
    assert phone.locator(".rule-list li").first.inner_text() == "8 reyes"
    assert phone.locator(".tables > li").count() == 16
    assert "por jugar" in phone.locator(".tables").inner_text()
    assert phone.locator(".tp.won").count() == 1  # the one result confirmed in round 3
    assert no_sideways_scroll(phone)
    screenshot(phone, "public-tournament")

    phone.get_by_role("link", name="Clasificación", exact=True).click()
    phone.wait_for_url(re.compile(r"/clasificacion/$"))
    size = transferred(phone, base + "clasificacion/")
    assert size < BUDGET, f"standings page: {size} bytes"
    rows = phone.locator("table.standings tbody tr")
    assert rows.count() == 32
    assert phone.locator("table.standings em").count() > 0  # tiebreaks said in words
    assert no_sideways_scroll(phone)
    screenshot(phone, "public-standings")

    leader = rows.first.locator("a")
    name = leader.inner_text()
    leader.click()
    phone.wait_for_url(re.compile(r"/parejas/\d+/$"))
    assert phone.locator("h1").inner_text() == name
    assert phone.locator(".matches > li").count() == 3
    assert phone.locator(".pair-standing .big").inner_text() == "1.º"
    assert no_sideways_scroll(phone)
    screenshot(phone, "public-pair")

    phone.goto(live_server.url + "/")
    phone.wait_for_selector(".t-card")  # the list the home page loads
    assert "Torneo de San Fermín" in phone.locator(".t-card").first.inner_text()
    screenshot(phone, "public-home")


def test_a_bracket_on_a_phone_scrolls_sideways_with_matches_between_their_feeders(
    phone, live_server, screenshot, transferred
):
    t, organizer, entries = tournament(16)
    phase = phase_create(
        tournament=t, actor=organizer, name="Cuadro", format="single_elimination", third_place=True
    )
    first = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=first, actor=organizer)
    for m in first.matches.all():
        decide(m, pick(entries)(m))
    bracket_advance(phase=phase)
    round_close(round=first, actor=organizer)
    second = Round.objects.get(phase=phase, number=2)
    round_publish(round=second, actor=organizer)
    quarter = second.matches.order_by("table_number").first()
    organizer_result(quarter, organizer, [(40, 12), (40, 38)], "browser-public-2")
    Match.objects.filter(round=second, table_number=2).update(status=Match.Status.IN_PROGRESS)

    size = transferred(phone, f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/cuadro/")
    assert size < BUDGET
    assert phone.locator(".br-title").all_inner_texts() == [
        "OCTAVOS DE FINAL",
        "CUARTOS DE FINAL",
        "SEMIFINALES",
        "FINAL",
    ]
    assert no_sideways_scroll(phone)  # the page stays put; the bracket scrolls inside it
    scroller = phone.locator(".bracket-scroll")
    assert scroller.evaluate("e => e.scrollWidth > e.clientWidth")

    def centre(index: int) -> float:
        box = phone.locator(".bm").nth(index).bounding_box()
        return box["y"] + box["height"] / 2

    # 8 matches of the first round, then the quarter-finals: each between its two feeders
    assert abs(centre(8) - (centre(0) + centre(1)) / 2) < 2
    assert abs(centre(11) - (centre(6) + centre(7)) / 2) < 2
    assert phone.locator(".box.live").count() == 1
    screenshot(phone, "public-bracket")
    scroller.evaluate("e => e.scrollLeft = e.scrollWidth")
    screenshot(phone, "public-bracket-final")


def open_screen(browser, live_server, t):
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="es-ES")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.clock.install()  # the refresh and the rotation run on timers: fast-forward them
    page.goto(f"{live_server.url}/torneos/{t.club.slug}/{t.slug}/pantalla/")
    return context, page


def test_the_big_screen_at_1920_shows_tables_and_standings_and_refreshes_itself(
    browser, live_server, screenshot
):
    t, phase, entries, current, organizer = swiss_in_play(24)
    context, page = open_screen(browser, live_server, t)
    try:
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080
        assert page.locator("#screen.rotating").count() == 0  # 12 tables and 24 pairs fit
        assert page.locator(".slide:visible").count() == 2
        assert page.locator(".sc-card").count() == 12
        assert page.locator(".sc-rows > li").count() == 24 + 1
        assert page.evaluate(
            "[...document.querySelectorAll('.slide')].every(s => s.scrollHeight <= s.clientHeight)"
        )
        screenshot(page, "public-screen")

        # A result comes in; the screen shows it within one refresh, without a reload.
        match = current.matches.filter(status=Match.Status.IN_PROGRESS).get()
        organizer_result(match, organizer, [(40, 10), (40, 20)], "browser-public-3")
        standings_refresh(phase=phase)
        card = page.locator(".sc-card").nth(match.table_number - 1)
        assert card.locator(".won").count() == 0
        page.clock.run_for(21_000)
        card.locator(".won").wait_for()
        assert card.locator(".won b").inner_text() == "2"
        assert page.locator("#screen.offline").count() == 0
        page.wait_for_load_state("networkidle")
    finally:
        context.close()


def test_a_big_field_on_the_big_screen_rotates_and_pages_through_tables_and_standings(
    browser, live_server, screenshot
):
    t, phase, entries, current, organizer = swiss_in_play(64)
    context, page = open_screen(browser, live_server, t)
    # expect() retries: the refresh at 20 s may be replacing the content as we look.
    try:
        assert page.locator("#screen.rotating").count() == 1
        visible = page.locator(".slide:visible")
        cards = page.locator(".sc-card")
        assert visible.count() == 1 and "sc-tables" in visible.get_attribute("class")
        expect(cards.first).to_be_in_viewport()
        expect(cards.last).not_to_be_in_viewport()  # 32 tables: two screenfuls
        screenshot(page, "public-screen-rotating-tables")
        page.clock.run_for(12_500)
        expect(cards.last).to_be_in_viewport()
        expect(cards.first).not_to_be_in_viewport(ratio=0.5)
        page.clock.run_for(12_000)
        expect(visible).to_have_class(re.compile("sc-standings"))
        rows = page.locator(".sc-rows > li")
        expect(rows.nth(1)).to_be_in_viewport()
        expect(rows.last).not_to_be_in_viewport()
        screenshot(page, "public-screen-rotating-standings")
        page.clock.run_for(12_000)  # 64 rows do not fit in two columns: the next ones
        expect(visible).to_have_class(re.compile("sc-standings"))
        expect(rows.last).to_be_in_viewport()
        page.clock.run_for(12_000)
        expect(visible).to_have_class(re.compile("sc-tables"))
        expect(cards.first).to_be_in_viewport()
        page.wait_for_load_state("networkidle")
    finally:
        context.close()
