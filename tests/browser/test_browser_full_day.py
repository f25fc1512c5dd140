"""A whole tournament day on phones (390×844), through the real pages only.

The organizer logs in, creates a tournament from a preset, pastes eight pairs, checks them in,
adds a Swiss phase, draws and publishes round 1 and prints the table sheets; the table links are
read from those sheets, as the players' phones would get them from the QR codes. At one table
the first phone enters a hand with the anotador and the rest quickly, the other phone confirms;
at another the two phones send different versions and the organizer resolves the dispute from
the board; the other two tables are entered quickly and confirmed. An anonymous phone reads the
public clasificación (order and tiebreak wording checked against the standings the app
computes), and the organizer closes round 1 and draws round 2 (four tables, no rematch).

Only the organizer's account and peña membership are made with factories. Screenshots go to
test-results/screenshots/full-day-*.png.

Rules: the preset "4 reyes a 30" — juegos a 30 piedras, 3 juegos win the vaca, 1 vaca the
partida (up to five juegos).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, RuleSetPreset
from tests.browser.test_browser_organizer import NAMES, log_in, no_horizontal_overflow
from tests.browser.test_browser_table import shot, tap, winner
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.selectors.standings import standings_compute, tiebreak_order
from tournaments.web.public import TIEBREAK_WHY

TIED = "empatada con la anterior"

# Quick-entry versions (piedras of A, piedras of B per juego), chosen so that the standings
# need each tiebreak: the table 2 and 4 winners tie on partidas, Buchholz and juegos (3-1) and
# are separated by piedras; the table 3 winner (3-2) is below them by juegos.
TABLE_2_A = [(30, 10), (22, 30), (30, 20), (30, 25)]  # A 3-1, +27 piedras
TABLE_2_B = [(30, 10), (30, 22), (28, 30), (25, 30), (20, 30)]  # B 3-2: the other version
TABLE_3 = [(30, 20), (10, 30), (30, 5), (25, 30), (29, 30)]  # B 3-2
TABLE_4 = [(30, 28), (30, 29), (15, 30), (30, 27)]  # A 3-1, -9 piedras


@pytest.fixture
def organizer():
    # Transactional tests empty the tables between tests, the data migration's presets too.
    RuleSetPreset.objects.update_or_create(
        club=None, name="4 reyes a 30", defaults={"kings": 4, "stones_per_game": 30}
    )
    user = UserFactory(username="maite")
    club = ClubFactory(name="Peña Txoko", slug="txoko")
    MembershipFactory(club=club, user=user, role=Membership.Role.OWNER)
    return user


def quick(page, side: str | None, games: list[tuple[int, int]], button: str) -> None:
    """Fill the quick entry (juego a juego) from its first empty row and send it."""
    if side:
        # a trio's table says "Trío A" where a pair's says "Pareja A"
        page.locator(".t-who label", has_text=re.compile(rf"(Pareja|Trío) {side}\b")).click()
    form = page.locator("form#t-quick")
    for n, (a, b) in enumerate(games, start=1):
        form.locator(f'input[name="g{n}_a"]').fill(str(a))
        form.locator(f'input[name="g{n}_b"]').fill(str(b))
    form.get_by_role("button", name=button).click()


def submit_and_confirm(
    new_phone, url: str, games: list[tuple[int, int]], side: str = "pareja"
) -> None:
    """Pareja (or trío: ``side="trío"``) A sends the games, B confirms them."""
    first, second = new_phone(), new_phone()
    first.goto(url)
    quick(first, "A", games, "Enviar resultado")
    article = "el" if side == "trío" else "la"
    expect(first.locator("#t-receipt")).to_contain_text(f"Enviado por {article} {side} A")
    second.goto(url)
    second.get_by_role("button", name=f"Confirmar ({side} B)").click()
    expect(second.locator("#t-confirmed")).to_contain_text("Este resultado ya está confirmado")


@pytest.mark.django_db(transaction=True)
def test_a_full_day_on_phones(new_phone, live_server, organizer, screenshot):
    base = live_server.url
    desk = new_phone()

    # 1. The organizer's desk: tournament, pairs, check-in, Swiss phase, round 1, sheets.
    log_in(desk, base)
    expect(desk.locator("h1")).to_have_text("Mis torneos")
    desk.get_by_role("link", name="Nuevo torneo").click()
    desk.select_option("#id_preset", "4 reyes a 30")
    desk.fill("#id_name", "Torneo de las Fiestas")
    desk.fill("#id_starts_on", "2026-08-15")
    desk.fill("#id_venue", "Sociedad Gure Txoko")
    desk.fill("#id_tables_available", "4")
    desk.get_by_role("button", name="Crear torneo").click()
    expect(desk.locator("h1")).to_have_text("Torneo de las Fiestas")
    desk.get_by_role("button", name="Abrir la inscripción").click()
    expect(desk.locator(".messages")).to_contain_text("Inscripción abierta")
    desk.get_by_role("link", name="Inscribir parejas").last.click()
    desk.fill("#id_text", "\n".join(NAMES))
    desk.get_by_role("button", name="Inscribir la lista").click()
    expect(desk.locator(".messages")).to_contain_text("8 parejas inscritas.")
    for n in range(8):
        desk.get_by_role("button", name=re.compile("^Marcar presente")).first.click()
        expect(desk.get_by_test_id("checked-in-count")).to_have_text(str(n + 1))
    screenshot(desk, "full-day-checked-in")
    desk.get_by_role("link", name="Volver al torneo").click()
    desk.locator(".actionbar").get_by_role("link", name="Añadir una fase").click()
    desk.fill("#id_rounds_planned", "3")
    desk.get_by_role("button", name="Añadir fase").click()
    expect(desk.locator(".messages")).to_contain_text("Suizo")
    desk.get_by_role("button", name="Empezar el torneo").click()
    expect(desk.locator(".messages")).to_contain_text("El torneo ha empezado")
    desk.get_by_role("button", name="Sortear la ronda 1").click()
    expect(desk.locator("h1")).to_contain_text("Ronda 1")
    expect(desk.locator(".table-row")).to_have_count(4)
    desk.get_by_role("button", name="Publicar la ronda").click()
    expect(desk.locator(".messages")).to_contain_text("Publicada: Ronda 1")
    round_page = desk.url
    desk.get_by_role("link", name="Hojas de mesa con QR").click()
    sheets = desk.locator("article.sheet")
    expect(sheets).to_have_count(4)
    expect(desk.locator("article.sheet figure.qr svg")).to_have_count(4)
    links = {}
    for n in range(4):
        sheet = sheets.nth(n)
        number = int(sheet.get_attribute("aria-label").removeprefix("Mesa "))
        links[number] = sheet.locator("figcaption code").inner_text().strip()
    assert sorted(links) == [1, 2, 3, 4]
    assert all(re.fullmatch(rf"{re.escape(base)}/mesa/[^/]+/", url) for url in links.values())
    assert len(set(links.values())) == 4
    no_horizontal_overflow(desk)
    screenshot(desk, "full-day-sheets")

    tournament = Tournament.objects.get(name="Torneo de las Fiestas")
    assert (tournament.kings, tournament.stones_per_game) == (4, 30)
    phase = Phase.objects.get(tournament=tournament)
    round_1 = Round.objects.get(phase=phase, number=1)

    def table(number: int) -> Match:
        return round_1.matches.get(table_number=number)

    # 2. Table 1: a hand with the anotador, the rest juego a juego; the other phone confirms.
    first, second = new_phone(), new_phone()
    first.goto(links[1])
    expect(first.locator("h1")).to_have_text("Mesa 1")
    first.get_by_role("link", name="Mano a mano").click()
    tap(first, "grande", "A", "envido")
    tap(first, "grande", "B", "quiero")
    winner(first, "grande", "Pareja A")
    winner(first, "chica", "Pareja B")  # en paso: the pad needs no word for it
    winner(first, "juego", "Pareja A")  # punto: nobody has juego
    first.get_by_role("button", name="Anotar mano").click()
    first.wait_for_selector("#t-last")
    assert first.locator(".t-big").all_inner_texts() == ["3", "1"]
    tap(first, "grande", "B", "órdago")
    tap(first, "grande", "A", "quiero")
    winner(first, "grande", "Pareja A")
    first.get_by_role("button", name="Anotar mano").click()
    expect(first.locator(".t-banner")).to_contain_text("¡Juego para la pareja A!")
    shot(screenshot, first, "full-day-anotador")
    first.get_by_role("link", name="Juego a juego").click()
    assert first.locator('input[name="g1_o"]').is_checked()  # juego 1 came from the hands
    first.locator(".t-who label", has_text="Pareja A").click()
    for name, value in (("g2_a", "30"), ("g2_b", "25"), ("g3_a", "30"), ("g3_b", "12")):
        first.locator(f'input[name="{name}"]').fill(value)
    expect(first.locator("#t-tally")).to_contain_text("Partida decidida: gana la pareja A")
    first.get_by_role("button", name="Enviar resultado").click()
    expect(first.locator("#t-receipt")).to_contain_text("Enviado por la pareja A")
    second.goto(links[1])
    expect(second.locator("#t-submitted")).to_contain_text("La pareja A ha enviado este resultado")
    shot(screenshot, second, "full-day-confirm")
    second.get_by_role("button", name="Confirmar (pareja B)").click()
    expect(second.locator("#t-confirmed")).to_contain_text("Este resultado ya está confirmado")
    match = table(1)
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.entry_a_id
    assert (match.games_a, match.games_b) == (3, 0)

    # 3. Table 2: the two phones disagree; the organizer decides from the board.
    first, second = new_phone(), new_phone()
    first.goto(links[2])
    quick(first, "A", TABLE_2_A, "Enviar resultado")
    expect(first.locator("#t-receipt")).to_be_visible()
    second.goto(links[2])
    second.locator("summary", has_text="¿No coincide? Enviad vuestra versión").click()
    quick(second, None, TABLE_2_B, "Enviar nuestra versión")
    expect(second.locator("#t-receipt")).to_contain_text("Enviado por la pareja B")
    second.goto(links[2])
    expect(second.locator("#t-disputed")).to_contain_text(
        "Las dos parejas enviaron resultados distintos"
    )
    shot(screenshot, second, "full-day-table-disputed")
    assert table(2).status == Match.Status.DISPUTED

    desk.goto(round_page)
    desk.get_by_role("link", name="Ver el tablero").click()
    expect(desk.locator(".board-row")).to_have_count(4)
    expect(desk.locator(".board-row.status-disputed")).to_have_count(1)
    expect(desk.locator(".board-row.status-confirmed")).to_have_count(1)
    screenshot(desk, "full-day-board-dispute")
    desk.locator(".board-row.status-disputed a").click()
    expect(desk.locator(".version")).to_have_count(2)
    desk.get_by_role("button", name="Vale el de A").click()
    expect(desk.locator(".messages")).to_contain_text("Disputa resuelta")
    match = table(2)
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.entry_a_id
    assert (match.games_a, match.games_b) == (3, 1)

    # 4. Tables 3 and 4, juego a juego on both phones.
    submit_and_confirm(new_phone, links[3], TABLE_3)
    submit_and_confirm(new_phone, links[4], TABLE_4)
    desk.get_by_role("link", name="Volver al tablero").click()
    expect(desk.locator(".board-row.status-confirmed")).to_have_count(4)
    screenshot(desk, "full-day-board-complete")
    assert round_1.matches.filter(status=Match.Status.CONFIRMED).count() == 4

    # 5. The public clasificación, as the app computes it from the confirmed results.
    (computed,) = standings_compute(phase=phase)
    expected = [computed.entries[row.pair].name for row in computed.rows]
    primary = tiebreak_order(phase)[0]
    whys = []
    for before, row in zip((None, *computed.rows), computed.rows, strict=False):
        if before is not None and before.rank == row.rank:
            whys.append(TIED)
        elif row.separated_by and row.separated_by != primary:
            whys.append(str(TIEBREAK_WHY[str(row.separated_by)]))
        else:
            whys.append("")
    winners = {m.winner_id for m in round_1.matches.all()}
    assert {row.pair for row in computed.rows[:4]} == winners  # the data's own sanity
    # The tiebreaks this day needs: juegos between 3-0, 3-1 and 3-2; piedras between the 3-1s.
    by_games, by_stones = "por diferencia de juegos", "por diferencia de piedras"
    assert whys == ["", by_games, by_stones, by_games, "", by_games, by_stones, by_games]

    public = new_phone()
    public.goto(f"{base}/torneos/{tournament.club.slug}/{tournament.slug}/clasificacion/")
    rows = public.locator("table.standings tbody tr")
    expect(rows).to_have_count(8)
    assert rows.locator("td.nm a").all_inner_texts() == expected
    assert rows.locator("td.rk").all_inner_texts() == [str(r.rank) for r in computed.rows]
    shown = [r.locator("em").inner_text() if r.locator("em").count() else "" for r in rows.all()]
    assert shown == whys  # the tiebreak that separates each row from the one above, in words
    leader = computed.rows[0].pair
    assert leader == table(1).winner_id  # the 3-0 at table 1 leads
    assert public.locator("p.order").inner_text().startswith("Orden de desempate:")
    no_horizontal_overflow(public)
    screenshot(public, "full-day-standings")

    # 6. Round 1 closed, round 2 drawn: four new tables, nobody meets the same pair again.
    desk.reload()  # still on the board
    desk.get_by_role("button", name="Cerrar: Ronda 1").click()
    expect(desk.locator(".messages")).to_contain_text("Cerrada: Ronda 1")
    desk.get_by_role("button", name="Sortear la ronda 2").click()
    expect(desk.locator("h1")).to_contain_text("Ronda 2")
    expect(desk.locator(".table-row")).to_have_count(4)
    no_horizontal_overflow(desk)
    screenshot(desk, "full-day-round-2")
    round_1.refresh_from_db()
    assert round_1.status == Round.Status.CLOSED
    round_2 = Round.objects.get(phase=phase, number=2)
    met = {frozenset((m.entry_a_id, m.entry_b_id)) for m in round_1.matches.all()}
    new = [frozenset((m.entry_a_id, m.entry_b_id)) for m in round_2.matches.all()]
    assert len(new) == 4 and not met & set(new)
    assert all(len(pair & winners) in (0, 2) for pair in new)  # winners meet winners
    assert set().union(*new) == set(
        Entry.objects.filter(tournament=tournament).values_list("id", flat=True)
    )
