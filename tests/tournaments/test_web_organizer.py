"""The organizer's desk through Django's test client: every page and action of
tournaments/web/organizer/ — who may see it (login, 404 for a tournament one cannot see, 403
for a published one of another peña), POST then redirect then GET, and the errors shown on the
page in a box with what was typed kept."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from clubs.models import Club, Membership, Pair, Player
from config.errors import StaleVersion
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PairFactory,
    PhaseFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import AuditEntry, Entry, Match, Phase, Round, Tournament
from tournaments.services import results as result_services
from tournaments.services import rounds as round_services
from tournaments.services.registration import entry_check_in, entry_register_pasted
from tournaments.web.organizer.printing import qr_svg

pytestmark = pytest.mark.django_db

NAMES = [
    "Ana García / Luis Pérez",
    "Miren Etxeberria / Jon Agirre",
    "Carmen Ruiz / Pedro Sanz",
    "Itziar Goñi / Mikel Arana",
    "Rosa Martín / Juan López",
    "Elena Díaz / Andrés Gil",
    "Nerea Urquijo / Iñaki Otxoa",
    "Lucía Romero / Javier Navarro",
]
# A partida of the factories' tournament (2 juegos per vaca, 1 vaca) as final piedras.
A_WINS = [{"stones": [40, 22]}, {"stones": [40, 31]}]
A_WINS_LATER = [{"stones": [40, 22]}, {"stones": [28, 40]}, {"stones": [40, 35]}]


def url(name: str, *args) -> str:
    return reverse(f"web:{name}", args=args)


def error_box(response) -> str:
    """The text of the page's error box (empty if there is none)."""
    found = re.search(
        r'<div class="notice error" role="alert" id="error">(.*?)</div>',
        response.content.decode(),
        re.S,
    )
    return found[1].strip() if found else ""


# --- Fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def organizer():
    return UserFactory(username="organizadora")


@pytest.fixture
def club(organizer):
    club = ClubFactory(name="Peña Txoko", slug="txoko")
    MembershipFactory(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    return club


@pytest.fixture
def client_org(client, organizer, club):
    client.force_login(organizer)
    return client


@pytest.fixture
def stranger_client(client):
    """An organizer of another peña."""
    other = UserFactory(username="otra")
    MembershipFactory(user=other, role=Membership.Role.ORGANIZER)
    client.force_login(other)
    return client


@pytest.fixture
def tournament(club):
    return TournamentFactory(club=club, name="Open de Otoño", late_minutes_per_game=10)


@pytest.fixture
def registered(tournament, organizer):
    return entry_register_pasted(tournament=tournament, text="\n".join(NAMES), actor=organizer)


@pytest.fixture
def swiss(tournament):
    return PhaseFactory(tournament=tournament, order=1, rounds_planned=3)


@pytest.fixture
def drawn(registered, swiss, organizer):
    """Round 1 of the Swiss drawn (draft) for the eight pairs."""
    return round_services.round_draw_generate(phase=swiss, actor=organizer)


@pytest.fixture
def match(tournament):
    rnd = RoundFactory(phase=PhaseFactory(tournament=tournament), number=1)
    return MatchFactory(round=rnd, table_number=3)


def submit(match, side, games, key):
    match.refresh_from_db()
    return result_services.match_result_submit(
        match=match,
        side=side,
        payload={"games": games},
        idempotency_key=key,
        version=match.version,
        via=result_services.LINK,
    )


@pytest.fixture
def disputed(match):
    submit(match, "a", A_WINS, "k-a")
    submit(match, "b", A_WINS_LATER, "k-b")
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    return match


# --- Login and home ---------------------------------------------------------------------------


def test_login_page_and_login_lands_on_my_tournaments(client, organizer, club):
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert "Contraseña" in page.content.decode()
    response = client.post(
        reverse("login"), {"username": "organizadora", "password": "amarrako-test"}
    )
    assert response.status_code == 302
    assert response["Location"] == url("organizer-home")


def test_login_with_a_wrong_password_says_so_and_keeps_the_user(client, organizer):
    response = client.post(reverse("login"), {"username": "organizadora", "password": "nope"})
    assert response.status_code == 200
    body = response.content.decode()
    assert 'role="alert"' in body
    assert 'value="organizadora"' in body


@pytest.mark.parametrize(
    "name,args",
    [
        ("organizer-home", ()),
        ("organizer-tournament", (1,)),
        ("organizer-entries", (1,)),
        ("organizer-round", (1,)),
        ("organizer-round-board", (1,)),
        ("organizer-match", (1,)),
    ],
)
def test_pages_need_a_login(client, name, args):
    response = client.get(url(name, *args))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_home_lists_my_penas_and_their_tournaments_only(client_org, club, tournament):
    TournamentFactory(name="Torneo ajeno")  # another peña's, published
    response = client_org.get(url("organizer-home"))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Peña Txoko" in body and "Open de Otoño" in body
    assert "Torneo ajeno" not in body
    assert url("organizer-tournament-create", club.slug) in body


def test_home_leads_to_the_penas_season(client_org, club):
    body = client_org.get(url("organizer-home")).content.decode()
    for season_page in (
        reverse("leagues:organizer-leagues", args=[club.slug]),
        reverse("leagues:organizer-team-leagues", args=[club.slug]),
        reverse("circuits:circuit-new"),
        reverse("interpenas:interpena-new"),
    ):
        assert f'href="{season_page}"' in body
    team_leagues = reverse("leagues:organizer-team-leagues", args=[club.slug])
    assert client_org.get(team_leagues).status_code == 200


def test_home_without_a_pena_offers_to_create_one(client):
    client.force_login(UserFactory())
    response = client.get(url("organizer-home"))
    assert "No organizas ninguna peña" in response.content.decode()
    created = client.post(url("organizer-club-create"), {"name": "Peña Nueva", "town": "Tafalla"})
    assert created.status_code == 302
    assert "Peña Nueva" in client.get(created["Location"]).content.decode()


def test_creating_a_pena_without_a_name_shows_the_error(client_org):
    response = client_org.post(url("organizer-club-create"), {"name": "", "town": "Estella"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "errorlist" in body
    assert 'value="Estella"' in body


# --- Tournament: create, desk, edit, status ---------------------------------------------------


def test_create_a_tournament_from_a_preset(client_org, club, organizer):
    page = client_org.get(url("organizer-tournament-create", club.slug))
    body = page.content.decode()
    for preset in ("8 reyes a 40", "4 reyes a 30", "4 reyes a 25"):
        assert preset in body
    response = client_org.post(
        url("organizer-tournament-create", club.slug),
        {
            "preset": "4 reyes a 30",
            "name": "Campeonato de San Fermín",
            "starts_on": "2026-07-07",
            "venue": "Bar Txoko",
            "tables_available": "12",
            "is_public": "on",
        },
    )
    tournament = Tournament.objects.get(name="Campeonato de San Fermín")
    assert response.status_code == 302
    assert response["Location"] == url("organizer-tournament", tournament.pk)
    assert (tournament.kings, tournament.stones_per_game) == (4, 30)
    assert tournament.preset_name == "4 reyes a 30"
    assert tournament.tables_available == 12 and tournament.venue == "Bar Txoko"
    assert tournament.status == Tournament.Status.DRAFT
    desk = client_org.get(response["Location"]).content.decode()
    assert "Campeonato de San Fermín" in desk and "Torneo creado" in desk


def test_create_a_tournament_with_a_missing_field_keeps_the_input(client_org, club):
    response = client_org.post(
        url("organizer-tournament-create", club.slug),
        {
            "preset": "8 reyes a 40",
            "name": "",
            "starts_on": "2026-07-07",
            "venue": "Frontón",
            "tables_available": "4",
        },
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "errorlist" in body
    assert 'value="Frontón"' in body
    assert not Tournament.objects.exists()


def test_create_a_tournament_shows_a_service_error_with_the_input_kept(client_org, club):
    response = client_org.post(
        url("organizer-tournament-create", club.slug),
        {
            "preset": "8 reyes a 40",
            "name": "Gigante",
            "starts_on": "2026-07-07",
            "tables_available": "5000",
        },
    )
    assert response.status_code == 400
    assert "5000" in error_box(response)
    assert 'value="Gigante"' in response.content.decode()
    assert not Tournament.objects.exists()


def test_only_the_penas_organizers_create_its_tournaments(stranger_client, club):
    assert stranger_client.get(url("organizer-tournament-create", club.slug)).status_code == 403
    assert stranger_client.get(url("organizer-tournament-create", "nope")).status_code == 404


def test_desk_shows_status_counts_and_the_next_step(client_org, tournament, registered):
    response = client_org.get(url("organizer-tournament", tournament.pk))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Siguiente paso" in body
    assert "Añade la primera fase" in body  # eight pairs, no phase yet
    assert url("organizer-phase-create", tournament.pk) in body


def test_desk_of_another_penas_tournament_is_404_when_draft_and_403_when_published(
    stranger_client, tournament
):
    assert stranger_client.get(url("organizer-tournament", tournament.pk)).status_code == 403
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    assert stranger_client.get(url("organizer-tournament", tournament.pk)).status_code == 404
    assert stranger_client.get(url("organizer-entries", tournament.pk)).status_code == 404


def test_status_moves_one_step_and_a_wrong_move_is_explained(client_org, tournament):
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    response = client_org.post(
        url("organizer-tournament-status", tournament.pk), {"status": "registration"}
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    wrong = client_org.post(
        url("organizer-tournament-status", tournament.pk), {"status": "finished"}
    )
    assert wrong.status_code == 409
    assert error_box(wrong)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION


def test_status_change_by_another_penas_organizer_is_403(stranger_client, tournament):
    response = stranger_client.post(
        url("organizer-tournament-status", tournament.pk), {"status": "running"}
    )
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION


def test_edit_the_tournament(client_org, tournament):
    page = client_org.get(url("organizer-tournament-edit", tournament.pk))
    assert 'value="Open de Otoño"' in page.content.decode()
    response = client_org.post(
        url("organizer-tournament-edit", tournament.pk),
        {
            "preset": "",
            "name": "Open de Invierno",
            "starts_on": "2026-12-12",
            "venue": "Sociedad",
            "tables_available": "6",
            "late_minutes_per_game": "15",
        },
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.tables_available) == ("Open de Invierno", 6)
    assert tournament.late_minutes_per_game == 15
    assert tournament.is_public is False  # the box was not ticked


def test_edit_shows_a_conflict_with_the_input_kept(client_org, tournament, registered):
    response = client_org.post(
        url("organizer-tournament-edit", tournament.pk),
        {
            "name": "Open",
            "starts_on": "2026-12-12",
            "venue": "Casa",
            "tables_available": "6",
            "max_pairs": "4",
        },
    )
    assert response.status_code == 409
    assert "4" in error_box(response)
    assert 'value="Casa"' in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.max_pairs is None


# --- Registration -----------------------------------------------------------------------------


def test_paste_eight_pairs(client_org, tournament):
    response = client_org.post(
        url("organizer-entries-paste", tournament.pk), {"text": "\n".join(NAMES)}
    )
    assert response.status_code == 302
    assert tournament.entries.count() == 8
    page = client_org.get(response["Location"]).content.decode()
    assert "8 parejas inscritas." in page
    assert "Ana García / Luis Pérez" in page


def test_a_bad_pasted_line_registers_nothing_and_names_the_line(client_org, tournament):
    text = "Ana García / Luis Pérez\nCarmen Ruiz y Pedro Sanz\nRosa Martín / Juan López"
    response = client_org.post(url("organizer-entries-paste", tournament.pk), {"text": text})
    assert response.status_code == 400
    assert "Carmen Ruiz y Pedro Sanz" in error_box(response)
    assert "Carmen Ruiz y Pedro Sanz</textarea>" in response.content.decode().replace(
        "\nRosa Martín / Juan López", ""
    )
    assert tournament.entries.count() == 0
    assert not Player.objects.filter(first_name="Ana").exists()


def test_add_one_pair_by_typing_the_names(client_org, tournament):
    response = client_org.post(
        url("organizer-entry-add", tournament.pk), {"names": "Ana García / Luis Pérez"}
    )
    assert response.status_code == 302
    assert [str(e.pair) for e in tournament.entries.all()] == ["Ana García / Luis Pérez"]


def test_add_one_pair_by_choosing_two_players_reuses_their_pair(client_org, tournament, club):
    one, two = PlayerFactory(first_name="Ane"), PlayerFactory(first_name="Unai")
    one.clubs.add(club)
    two.clubs.add(club)
    existing = PairFactory(player_one=one, player_two=two, club=club)
    page = client_org.get(url("organizer-entries", tournament.pk)).content.decode()
    assert f'<option value="{one.pk}">Ane García</option>' in page
    response = client_org.post(
        url("organizer-entry-add", tournament.pk),
        {"player_one": str(two.pk), "player_two": str(one.pk)},
    )
    assert response.status_code == 302
    assert list(tournament.entries.values_list("pair_id", flat=True)) == [existing.pk]
    assert Pair.objects.filter(club=club).count() == 1


def test_add_one_pair_creates_the_pair_of_two_players(client_org, tournament, club):
    one, two = PlayerFactory(first_name="Ane"), PlayerFactory(first_name="Unai")
    one.clubs.add(club)
    two.clubs.add(club)
    response = client_org.post(
        url("organizer-entry-add", tournament.pk),
        {"player_one": str(one.pk), "player_two": str(two.pk)},
    )
    assert response.status_code == 302
    pair = tournament.entries.get().pair
    assert {pair.player_one_id, pair.player_two_id} == {one.pk, two.pk}


def test_add_one_pair_errors_keep_the_input(client_org, tournament, club):
    empty = client_org.post(url("organizer-entry-add", tournament.pk), {"names": ""})
    assert empty.status_code == 400
    assert "Elige los dos jugadores" in empty.content.decode()
    same = client_org.post(
        url("organizer-entry-add", tournament.pk), {"names": "Ana García / Ana García"}
    )
    assert same.status_code == 400
    assert error_box(same)
    assert 'value="Ana García / Ana García"' in same.content.decode()
    assert tournament.entries.count() == 0


def test_registering_a_pair_twice_is_explained(client_org, tournament, registered):
    response = client_org.post(
        url("organizer-entry-add", tournament.pk), {"names": "Ana García / Luis Pérez"}
    )
    assert response.status_code == 409
    assert "Ana García / Luis Pérez" in error_box(response)
    assert tournament.entries.count() == 8


def test_check_in_is_one_tap_and_comes_back_to_the_row(client_org, tournament, registered):
    entry = registered[0]
    response = client_org.post(url("organizer-entry-check-in", tournament.pk, entry.pk))
    assert response.status_code == 302
    assert response["Location"] == url("organizer-entries", tournament.pk) + f"#e{entry.pk}"
    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN
    page = client_org.get(url("organizer-entries", tournament.pk)).content.decode()
    assert url("organizer-entry-check-in-undo", tournament.pk, entry.pk) in page
    undo = client_org.post(url("organizer-entry-check-in-undo", tournament.pk, entry.pk))
    assert undo.status_code == 302
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_withdraw_a_pair(client_org, tournament, registered):
    entry = registered[1]
    response = client_org.post(url("organizer-entry-withdraw", tournament.pk, entry.pk))
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    page = client_org.get(response["Location"]).content.decode()
    assert "se ha retirado" in page
    again = client_org.post(url("organizer-entry-withdraw", tournament.pk, entry.pk))
    assert again.status_code == 409
    assert error_box(again)


def test_check_in_of_a_pair_of_another_tournament_is_not_found(client_org, tournament):
    elsewhere = EntryFactory()
    response = client_org.post(url("organizer-entry-check-in", tournament.pk, elsewhere.pk))
    assert response.status_code == 404
    assert error_box(response)


def test_seeds_are_set_and_a_taken_seed_is_explained(client_org, tournament, registered):
    first, second = registered[0], registered[1]
    ok = client_org.post(
        url("organizer-entry-seed", tournament.pk, first.pk), {f"seed{first.pk}-seed": "1"}
    )
    assert ok.status_code == 302
    first.refresh_from_db()
    assert first.seed == 1
    taken = client_org.post(
        url("organizer-entry-seed", tournament.pk, second.pk), {f"seed{second.pk}-seed": "1"}
    )
    assert taken.status_code == 409
    assert str(first.pair) in error_box(taken)
    assert f'name="seed{second.pk}-seed" value="1"' in taken.content.decode()
    second.refresh_from_db()
    assert second.seed is None


def test_pin_a_pair_to_a_table(client_org, tournament, registered):
    entry = registered[2]
    response = client_org.post(
        url("organizer-entry-pin", tournament.pk, entry.pk), {f"pin{entry.pk}-table": "2"}
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.pinned_table == 2
    beyond = client_org.post(
        url("organizer-entry-pin", tournament.pk, entry.pk), {f"pin{entry.pk}-table": "99"}
    )
    assert beyond.status_code == 400
    assert "99" in error_box(beyond)


def test_registration_writes_of_another_pena_are_403(stranger_client, tournament, registered):
    entry = registered[0]
    assert (
        stranger_client.post(url("organizer-entry-check-in", tournament.pk, entry.pk)).status_code
        == 403
    )
    assert (
        stranger_client.post(
            url("organizer-entries-paste", tournament.pk), {"text": "A B / C D"}
        ).status_code
        == 403
    )
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_entries_page_queries_do_not_grow_with_the_pairs(
    client_org, tournament, organizer, django_assert_max_num_queries
):
    entry_register_pasted(tournament=tournament, text=NAMES[0], actor=organizer)
    with django_assert_max_num_queries(20) as few:
        client_org.get(url("organizer-entries", tournament.pk))
    entry_register_pasted(tournament=tournament, text="\n".join(NAMES[1:]), actor=organizer)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client_org.get(url("organizer-entries", tournament.pk))


# --- Phases and rounds ------------------------------------------------------------------------


def test_add_a_swiss_phase(client_org, tournament):
    page = client_org.get(url("organizer-phase-create", tournament.pk))
    assert "A tres ceros" in page.content.decode()
    response = client_org.post(
        url("organizer-phase-create", tournament.pk),
        {"name": "Suizo", "format": "swiss", "rounds_planned": "4", "third_place": "on"},
    )
    assert response.status_code == 302
    phase = tournament.phases.get()
    assert (phase.format, phase.rounds_planned, phase.third_place) == ("swiss", 4, False)


def test_a_phase_without_what_its_format_needs_is_explained(client_org, tournament):
    response = client_org.post(
        url("organizer-phase-create", tournament.pk),
        {"name": "Liga de grupos", "format": "round_robin"},
    )
    assert response.status_code == 400
    assert error_box(response)
    assert 'value="Liga de grupos"' in response.content.decode()
    assert not tournament.phases.exists()


def test_groups_then_knockout(client_org, tournament):
    client_org.post(
        url("organizer-phase-create", tournament.pk),
        {"name": "Grupos", "format": "round_robin", "group_size": "4"},
    )
    groups = tournament.phases.get()
    response = client_org.post(
        url("organizer-phase-create", tournament.pk),
        {
            "name": "Final",
            "format": "single_elimination",
            "source_id": str(groups.pk),
            "qualifiers_per_group": "2",
            "third_place": "on",
        },
    )
    assert response.status_code == 302
    knockout = tournament.phases.get(order=2)
    assert (knockout.source_id, knockout.qualifiers_per_group) == (groups.pk, 2)
    assert knockout.third_place is True


def test_generate_round_one_then_adjust_page(client_org, registered, swiss):
    response = client_org.post(url("organizer-round-generate", swiss.pk))
    rnd = swiss.rounds.get()
    assert response.status_code == 302
    assert response["Location"] == url("organizer-round", rnd.pk)
    page = client_org.get(response["Location"]).content.decode()
    assert rnd.status == Round.Status.DRAFT
    assert "Publicar la ronda" in page
    for match in rnd.matches.all():
        assert str(match.entry_a.pair) in page and str(match.entry_b.pair) in page


def test_generating_while_the_round_is_open_is_explained_on_the_desk(client_org, drawn):
    response = client_org.post(url("organizer-round-generate", drawn.phase_id))
    assert response.status_code == 409
    assert "1" in error_box(response)
    assert "Siguiente paso" in response.content.decode()
    assert drawn.phase.rounds.count() == 1


def test_swap_two_pairs(client_org, drawn):
    first, second = drawn.matches.order_by("table_number")[:2]
    moving, other = first.entry_a_id, second.entry_a_id
    response = client_org.post(
        url("organizer-round-swap-entries", drawn.pk),
        {"entry_id": str(moving), "other_entry_id": str(other)},
    )
    assert response.status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.entry_a_id == other and second.entry_a_id == moving


def test_swap_two_pairs_of_the_same_match_is_explained(client_org, drawn):
    match = drawn.matches.order_by("table_number").first()
    response = client_org.post(
        url("organizer-round-swap-entries", drawn.pk),
        {"entry_id": str(match.entry_a_id), "other_entry_id": str(match.entry_b_id)},
    )
    assert response.status_code == 400
    assert error_box(response)
    body = response.content.decode()
    assert f'<option value="{match.entry_b_id}" selected>' in body


def test_swap_tables_and_move_to_a_free_table(client_org, drawn):
    first, second = drawn.matches.order_by("table_number")[:2]
    response = client_org.post(
        url("organizer-round-swap-tables", drawn.pk),
        {"match_id": str(first.pk), "other_match_id": str(second.pk)},
    )
    assert response.status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.table_number, second.table_number) == (2, 1)
    moved = client_org.post(
        url("organizer-round-move-table", drawn.pk),
        {"match_id": str(first.pk), "table_number": "7"},
    )
    assert moved.status_code == 302
    first.refresh_from_db()
    assert first.table_number == 7


def test_moving_to_a_taken_table_is_explained_with_the_input_kept(client_org, drawn):
    first, second = drawn.matches.order_by("table_number")[:2]
    response = client_org.post(
        url("organizer-round-move-table", drawn.pk),
        {"match_id": str(first.pk), "table_number": str(second.table_number)},
    )
    assert response.status_code == 409
    assert error_box(response)
    assert f'value="{second.table_number}"' in response.content.decode()
    first.refresh_from_db()
    assert first.table_number == 1


def test_publish_then_print_pairings_and_table_sheets(client_org, drawn):
    response = client_org.post(url("organizer-round-publish", drawn.pk))
    assert response.status_code == 302
    drawn.refresh_from_db()
    assert drawn.status == Round.Status.PUBLISHED
    round_page = client_org.get(response["Location"]).content.decode()
    assert url("organizer-round-sheets", drawn.pk) in round_page
    pairings = client_org.get(url("organizer-round-print", drawn.pk)).content.decode()
    assert pairings.count("<tr><td") == 4
    sheets = client_org.get(url("organizer-round-sheets", drawn.pk)).content.decode()
    assert sheets.count("<svg") == 4
    for match in drawn.matches.all():
        assert f"http://testserver{url('table', match.token)}" in sheets
    assert "Sale de mano" in sheets
    again = client_org.post(url("organizer-round-publish", drawn.pk))
    assert again.status_code == 409 and error_box(again)


def test_qr_code_holds_the_link():
    svg = qr_svg("https://mus.example.org/mesa/abc/")
    assert svg.startswith("<svg") and "viewBox" in svg and "width=" not in svg.split(">")[0]


def test_round_pages_of_another_pena_are_refused(stranger_client, drawn):
    # The factories' tournament is published: 403; a draft one: 404.
    assert stranger_client.get(url("organizer-round", drawn.pk)).status_code == 403
    assert stranger_client.post(url("organizer-round-publish", drawn.pk)).status_code == 403
    tournament = drawn.phase.tournament
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    for name in ("organizer-round", "organizer-round-sheets", "organizer-round-board"):
        assert stranger_client.get(url(name, drawn.pk)).status_code == 404
    drawn.refresh_from_db()
    assert drawn.status == Round.Status.DRAFT


def test_board_shows_each_table_and_refreshes(client_org, drawn, organizer):
    round_services.round_publish(round=drawn, actor=organizer)
    match = drawn.matches.order_by("table_number").first()
    submit(match, "a", A_WINS, "k1")
    response = client_org.get(url("organizer-round-board", drawn.pk))
    body = response.content.decode()
    assert response.status_code == 200
    assert '<meta http-equiv="refresh" content="15">' in body
    assert "badge-submitted" in body and body.count("badge-pending") >= 3
    assert url("organizer-match", match.pk) in body
    assert "en disputa" not in body  # no "0 en disputa" pill


def test_board_queries_do_not_grow_with_the_tables(
    client_org, tournament, organizer, django_assert_max_num_queries
):
    small = RoundFactory(phase=PhaseFactory(tournament=tournament), number=1)
    MatchFactory(round=small)
    with django_assert_max_num_queries(20) as few:
        client_org.get(url("organizer-round-board", small.pk))
    big = RoundFactory(phase=PhaseFactory(tournament=tournament), number=1)
    MatchFactory.create_batch(10, round=big)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client_org.get(url("organizer-round-board", big.pk))
    assert response.content.decode().count('class="board-row') == 10


def test_close_a_round_only_once_every_table_has_its_result(client_org, drawn, organizer):
    round_services.round_publish(round=drawn, actor=organizer)
    early = client_org.post(url("organizer-round-close", drawn.pk))
    assert early.status_code == 409
    assert error_box(early)
    assert "Tablero" in early.content.decode()
    for n, match in enumerate(drawn.matches.all()):
        submit(match, "a", A_WINS, f"a{n}")
        submit(match, "b", A_WINS, f"b{n}")
    response = client_org.post(url("organizer-round-close", drawn.pk))
    assert response.status_code == 302
    drawn.refresh_from_db()
    assert drawn.status == Round.Status.CLOSED
    desk = client_org.get(response["Location"]).content.decode()
    assert "Sortear la ronda 2" in desk


def test_finish_and_advance_a_phase(client_org, tournament, organizer):
    pairs = "\n".join(NAMES[:4])
    entry_register_pasted(tournament=tournament, text=pairs, actor=organizer)
    swiss = PhaseFactory(tournament=tournament, order=1, rounds_planned=1)
    PhaseFactory(tournament=tournament, order=2, name="Final", rounds_planned=1)
    rnd = round_services.round_draw_generate(phase=swiss, actor=organizer)
    early = client_org.post(url("organizer-phase-finish", swiss.pk))
    assert early.status_code == 409 and error_box(early)
    round_services.round_publish(round=rnd, actor=organizer)
    for n, match in enumerate(rnd.matches.all()):
        submit(match, "a", A_WINS, f"a{n}")
        submit(match, "b", A_WINS, f"b{n}")
    round_services.round_close(round=rnd, actor=organizer)
    response = client_org.post(url("organizer-phase-advance", swiss.pk))
    assert response.status_code == 302
    swiss.refresh_from_db()
    assert swiss.status == Phase.Status.FINISHED
    final_round = Round.objects.get(phase__name="Final")
    assert response["Location"] == url("organizer-round", final_round.pk)


# --- One partida ------------------------------------------------------------------------------


def test_dispute_shows_both_versions_side_by_side_and_one_is_chosen(client_org, disputed):
    page = client_org.get(url("organizer-match", disputed.pk))
    body = page.content.decode()
    assert "Según la pareja A" in body and "Según la pareja B" in body
    assert body.count('class="version"') == 2
    assert 'class="differs"' in body  # the second juego differs
    chosen = disputed.submissions.get(side="b")
    response = client_org.post(
        url("organizer-match-choose", disputed.pk),
        {
            "choose-version": str(disputed.version),
            "choose-idempotency_key": "pick-b",
            "choose-submission": str(chosen.pk),
        },
    )
    assert response.status_code == 302
    disputed.refresh_from_db()
    assert disputed.status == Match.Status.CONFIRMED
    assert (disputed.games_a, disputed.games_b) == (2, 1)
    after = client_org.get(response["Location"]).content.decode()
    assert "Disputa resuelta" in after


def test_dispute_resolved_with_the_official_result(client_org, disputed):
    response = client_org.post(
        url("organizer-match-resolve", disputed.pk),
        {
            "official-version": str(disputed.version),
            "official-idempotency_key": "off-1",
            "official-games": "22-40, 31-40",
        },
    )
    assert response.status_code == 302
    disputed.refresh_from_db()
    assert disputed.status == Match.Status.CONFIRMED
    assert disputed.winner_id == disputed.entry_b_id


def test_an_unreadable_result_keeps_the_input(client_org, disputed):
    response = client_org.post(
        url("organizer-match-resolve", disputed.pk),
        {"official-version": str(disputed.version), "official-games": "40 a 22, 40-31"},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "No entiendo el juego 1" in body
    assert 'value="40 a 22, 40-31"' in body
    disputed.refresh_from_db()
    assert disputed.status == Match.Status.DISPUTED


def test_a_result_the_engine_refuses_is_explained(client_org, disputed):
    response = client_org.post(
        url("organizer-match-resolve", disputed.pk),
        {"official-version": str(disputed.version), "official-games": "40-22"},
    )
    assert response.status_code == 400
    assert error_box(response)
    assert 'value="40-22"' in response.content.decode()


def test_an_impossible_stone_count_is_refused_naming_the_limit(client_org, disputed):
    response = client_org.post(
        url("organizer-match-resolve", disputed.pk),
        {"official-version": str(disputed.version), "official-games": "14000-10, 40-31"},
    )
    assert response.status_code == 400
    assert "como mucho con 10038" in error_box(response)
    disputed.refresh_from_db()
    assert disputed.status == Match.Status.DISPUTED


def test_a_game_won_far_past_the_target_is_typed_and_confirmed(client_org, disputed):
    # a big deje at the end of a game (a bet has no ceiling, 004 «Note»): four digits too
    response = client_org.post(
        url("organizer-match-resolve", disputed.pk),
        {
            "official-version": str(disputed.version),
            "official-idempotency_key": "off-big",
            "official-games": "1039-22, 31-40, 140-10",
        },
    )
    assert response.status_code == 302, error_box(response)
    disputed.refresh_from_db()
    assert disputed.status == Match.Status.CONFIRMED
    assert disputed.winner_id == disputed.entry_a_id


def test_a_stale_version_is_explained_and_the_form_gets_the_current_one(client_org, disputed):
    stale = disputed.version - 1
    response = client_org.post(
        url("organizer-match-resolve", disputed.pk),
        {"official-version": str(stale), "official-games": "22-40, 31-40"},
    )
    assert response.status_code == StaleVersion.status
    assert error_box(response)
    body = response.content.decode()
    assert f'name="official-version" value="{disputed.version}"' in body
    assert 'value="22-40, 31-40"' in body


def test_correct_a_result_with_its_audit_trail(client_org, match, organizer):
    submit(match, "a", A_WINS, "a")
    submit(match, "b", A_WINS, "b")
    match.refresh_from_db()
    page = client_org.get(url("organizer-match", match.pk)).content.decode()
    assert "Corregir el resultado" in page
    response = client_org.post(
        url("organizer-match-correct", match.pk),
        {
            "correct-version": str(match.version),
            "correct-idempotency_key": "fix-1",
            "correct-games": "40-22, 28-40, 40-35",
        },
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.games_a, match.games_b) == (2, 1)
    history = client_org.get(response["Location"]).content.decode()
    assert "Resultado corregido" in history
    assert "organizadora" in history  # who
    assert "cuenta" in history and "enlace de mesa" in history  # via
    assert "juegos 2–0" in history and "juegos 2–1" in history  # old and new
    audit = AuditEntry.objects.filter(match=match, action="result_corrected").get()
    assert audit.actor == organizer and audit.via == "account"


def test_record_a_no_show(client_org, match):
    response = client_org.post(
        url("organizer-match-forfeit", match.pk),
        {"forfeit-version": str(match.version), "forfeit-absent_side": "b"},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.kind == Match.Kind.FORFEIT and match.winner_id == match.entry_a_id
    again = client_org.post(
        url("organizer-match-forfeit", match.pk),
        {"forfeit-version": str(match.version), "forfeit-absent_side": "b"},
    )
    assert again.status_code == 409 and error_box(again)


def test_record_lateness(client_org, match):
    response = client_org.post(
        url("organizer-match-late", match.pk),
        {"late-version": str(match.version), "late-side": "a", "late-minutes_late": "25"},
    )
    assert response.status_code == 302
    penalty = match.late_penalties.get()
    assert (penalty.minutes_late, penalty.games_lost) == (25, 2)
    page = client_org.get(url("organizer-match", match.pk)).content.decode()
    assert "llegó 25 min tarde y pierde 2 juegos." in page  # ngettext: 1 juego, 2 juegos


def test_lateness_without_a_rule_is_explained(client_org, match):
    tournament = match.round.phase.tournament
    tournament.late_minutes_per_game = None
    tournament.save()
    response = client_org.post(
        url("organizer-match-late", match.pk),
        {"late-version": str(match.version), "late-side": "a", "late-minutes_late": "25"},
    )
    assert response.status_code == 400
    assert error_box(response)
    assert 'value="25"' in response.content.decode()
    assert not match.late_penalties.exists()


def test_organizer_enters_and_confirms_results(client_org, match, tournament):
    response = client_org.post(
        url("organizer-match-result", match.pk),
        {
            "result-version": str(match.version),
            "result-idempotency_key": "r1",
            "result-games": "40-22, 40-31",
        },
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    other = MatchFactory(round=match.round, table_number=4)
    submit(other, "a", A_WINS, "x")
    other.refresh_from_db()
    confirmed = client_org.post(
        url("organizer-match-confirm", other.pk),
        {"confirm-version": str(other.version), "confirm-idempotency_key": "c1"},
    )
    assert confirmed.status_code == 302
    other.refresh_from_db()
    assert other.status == Match.Status.CONFIRMED


def test_match_page_of_another_pena_is_refused(stranger_client, disputed):
    assert stranger_client.get(url("organizer-match", disputed.pk)).status_code == 403
    response = stranger_client.post(
        url("organizer-match-forfeit", disputed.pk),
        {"forfeit-version": str(disputed.version), "forfeit-absent_side": "b"},
    )
    assert response.status_code == 403
    disputed.refresh_from_db()
    assert disputed.status == Match.Status.DISPUTED


def test_a_member_who_is_not_an_organizer_is_refused(client, tournament, registered):
    member = UserFactory()
    MembershipFactory(club=tournament.club, user=member, role=Membership.Role.MEMBER)
    client.force_login(member)
    assert client.get(url("organizer-tournament", tournament.pk)).status_code == 403
    assert (
        client.post(url("organizer-entry-check-in", tournament.pk, registered[0].pk)).status_code
        == 403
    )


def test_next_step_follows_the_tournament(client_org, tournament, organizer):
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    desk = client_org.get(url("organizer-tournament", tournament.pk)).content.decode()
    assert "Abrir la inscripción" in desk
    tournament.status = Tournament.Status.REGISTRATION
    tournament.save()
    desk = client_org.get(url("organizer-tournament", tournament.pk)).content.decode()
    assert "Inscribir parejas" in desk
    entry_register_pasted(tournament=tournament, text="\n".join(NAMES), actor=organizer)
    PhaseFactory(tournament=tournament, order=1, rounds_planned=2)
    desk = client_org.get(url("organizer-tournament", tournament.pk)).content.decode()
    assert "Empezar el torneo" in desk and "Pasa lista a las parejas" in desk
    for entry in tournament.entries.all():
        entry_check_in(tournament=tournament, entry_id=entry.pk, actor=organizer)
    # everybody present: no "pasa lista" left, just start
    desk = client_org.get(url("organizer-tournament", tournament.pk)).content.decode()
    assert "Todas las parejas están presentes" in desk and "Pasa lista" not in desk
    assert "Empezar el torneo" in desk
    tournament.status = Tournament.Status.RUNNING
    tournament.save()
    desk = client_org.get(url("organizer-tournament", tournament.pk)).content.decode()
    assert "Sortear la ronda 1" in desk


def test_desk_queries_do_not_grow_with_phases_and_rounds(
    client_org, tournament, registered, django_assert_max_num_queries
):
    first = PhaseFactory(tournament=tournament, order=1)
    MatchFactory(round=RoundFactory(phase=first, number=1))
    with django_assert_max_num_queries(30) as few:
        client_org.get(url("organizer-tournament", tournament.pk))
    for order in (2, 3):
        phase = PhaseFactory(tournament=tournament, order=order)
        for number in (1, 2, 3):
            MatchFactory.create_batch(3, round=RoundFactory(phase=phase, number=number))
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client_org.get(url("organizer-tournament", tournament.pk))
    assert response.content.decode().count(">Tablero<") == 7


def test_next_step_closes_a_round_whose_tables_all_have_results(client_org, drawn, organizer):
    round_services.round_publish(round=drawn, actor=organizer)
    desk = client_org.get(url("organizer-tournament", drawn.phase.tournament_id)).content.decode()
    assert "Ver el tablero" in desk
    for n, match in enumerate(drawn.matches.all()):
        submit(match, "a", A_WINS, f"a{n}")
        submit(match, "b", A_WINS, f"b{n}")
    desk = client_org.get(url("organizer-tournament", drawn.phase.tournament_id)).content.decode()
    assert url("organizer-round-close", drawn.pk) in desk
    assert "Cerrar la ronda 1" in desk


def test_no_show_choices_name_the_pairs(client_org, match):
    page = client_org.get(url("organizer-match", match.pk)).content.decode()
    assert f"Pareja B · {match.entry_b.pair}" in page


def test_a_pena_is_created_with_the_language_of_its_emails(client):
    client.force_login(UserFactory())
    page = client.get(url("organizer-home"), HTTP_ACCEPT_LANGUAGE="eu").content.decode()
    assert 'name="language"' in page and 'value="eu" selected' in page  # the organizer's own
    client.post(url("organizer-club-create"), {"name": "Peña Bat", "language": "fr"})
    client.post(url("organizer-club-create"), {"name": "Peña Bi"})  # left out: Spanish
    assert Club.objects.get(name="Peña Bat").language == "fr"
    assert Club.objects.get(name="Peña Bi").language == "es"


def test_finishing_the_tournament_with_a_round_in_play_is_refused_naming_it(
    client_org, tournament, drawn
):
    """Issue 23 #3: a tournament finished with a round in play was stuck for good."""
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    response = client_org.post(
        url("organizer-tournament-status", tournament.pk), {"status": "finished"}
    )
    assert response.status_code == 409
    box = error_box(response)
    phase = drawn.phase.name
    assert f"Open de Otoño no puede terminar mientras la fase {phase} siga abierta" in box
    assert "hay que cerrar antes la ronda 1" in box
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


# A partida the phones entered with two juegos won by an órdago (issue 23 #2).
WITH_ORDAGOS = [
    {"stones": [24, 18], "winner": "A", "ordago": True},
    {"stones": [12, 32], "winner": "B", "ordago": True},
    {"stones": [40, 38]},
]


def _field_value(html: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', html) or re.search(
        rf'value="([^"]*)"[^>]*name="{name}"', html
    )
    return found[1] if found else ""


def test_the_correction_starts_from_the_stored_result_with_its_ordagos(client_org, match):
    submit(match, "a", WITH_ORDAGOS, "a")
    submit(match, "b", WITH_ORDAGOS, "b")
    page = client_org.get(url("organizer-match", match.pk)).content.decode()
    assert _field_value(page, "correct-games") == "24-18 órdago A, 12-32 órdago B, 40-38"
    assert "24-18 órdago B" in page  # the help says how to mark one


def test_a_correction_keeps_a_juego_won_by_an_ordago(client_org, match):
    """The organizer's correction could not say "won by an órdago": only 40-18, 40-32, 40-38
    passed, and the stones went from 76–88 to 120–88."""
    submit(match, "a", A_WINS, "a")
    submit(match, "b", A_WINS, "b")
    match.refresh_from_db()
    response = client_org.post(
        url("organizer-match-correct", match.pk),
        {
            "correct-version": str(match.version),
            "correct-idempotency_key": "fix-ordago",
            "correct-games": "24-18 Órdago A, 12-32 ordago b, 40-38",
        },
    )
    assert response.status_code == 302, error_box(response)
    match.refresh_from_db()
    assert (match.games_a, match.games_b) == (2, 1)
    assert (match.stones_a, match.stones_b) == (76, 88)
    assert [(g["winner"], g["ordago"]) for g in match.result["games"]] == [
        ("A", True),
        ("B", True),
        ("A", False),
    ]
    page = client_org.get(url("organizer-match", match.pk)).content.decode()
    assert _field_value(page, "correct-games") == "24-18 órdago A, 12-32 órdago B, 40-38"


def test_an_ordago_without_its_winner_is_explained(client_org, match):
    submit(match, "a", A_WINS, "a")
    submit(match, "b", A_WINS, "b")
    match.refresh_from_db()
    response = client_org.post(
        url("organizer-match-correct", match.pk),
        {"correct-version": str(match.version), "correct-games": "24-18 órdago, 40-32"},
    )
    assert response.status_code == 400
    assert "se ganó con un órdago: di quién lo ganó, A o B" in response.content.decode()
    match.refresh_from_db()
    assert (match.stones_a, match.stones_b) == (80, 53)  # 40-22, 40-31: unchanged


def test_the_correction_leaves_out_the_juegos_lost_by_lateness(client_org, match, organizer):
    result_services.match_late_penalty(
        match=match, side="b", minutes_late=12, version=match.version, actor=organizer
    )
    submit(match, "a", [{"stones": [40, 22]}], "a")
    submit(match, "b", [{"stones": [40, 22]}], "b")
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.games_a == 2
    page = client_org.get(url("organizer-match", match.pk)).content.decode()
    assert _field_value(page, "correct-games") == "40-22"


def test_a_juego_entered_by_its_winner_only_starts_the_correction_as_such(client_org, match):
    """A table may send a juego by its winner only: the correction's field says "gana A", which
    it reads back, rather than "0-0", which it would refuse."""
    games = [{"winner": "A"}, {"stones": [40, 31]}]
    submit(match, "a", games, "a")
    submit(match, "b", games, "b")
    match.refresh_from_db()
    page = client_org.get(url("organizer-match", match.pk)).content.decode()
    assert _field_value(page, "correct-games") == "gana A, 40-31"
    response = client_org.post(
        url("organizer-match-correct", match.pk),
        {"correct-version": str(match.version), "correct-games": "gana A, 40-31"},
    )
    assert response.status_code == 302, error_box(response)
    match.refresh_from_db()
    assert (match.games_a, match.stones_a, match.stones_b) == (2, 40, 31)
