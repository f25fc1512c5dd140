"""The errors an organizer really meets, as the pages show them in Spanish: raised by the real
services, rendered from the errors catalog (config.errors.error_message) with their figures,
names, tables and lines. tests/test_error_catalog.py proves every raise has a Spanish text with
the same blanks; here the sentences are read whole.

The table's errors (scoring and results at the table) are tested in test_web_table.py.
"""

from __future__ import annotations

import datetime as dt

import pytest

from clubs import services as clubs_services
from clubs.models import Membership
from clubs.roles import require_organizer, require_owner
from config.errors import Conflict, DomainError, Invalid, error_message
from tests.factories import (
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tests.test_error_catalog import text_of
from tournaments.draw import DrawError, Pairing, assign_tables
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.services import registration, rounds
from tournaments.services import tournaments as tournament_services


def test_no_message_is_ever_half_filled_even_without_its_params():
    """A text whose params are missing shows as its template rather than crash."""
    exc = Invalid("Round {round} cannot be closed.", code="round_unfinished")

    text = error_message(exc)

    assert isinstance(text, str) and text


# --- Raised by the real services --------------------------------------------------------------


def _raised(call) -> Exception:
    try:
        call()
    except (DomainError, DrawError) as exc:
        return exc
    raise AssertionError("nothing was raised")


@pytest.fixture
def organizer(db):
    return UserFactory()


@pytest.fixture
def tournament(organizer):
    tournament = TournamentFactory(name="Torneo de San Fermín", status=Tournament.Status.DRAFT)
    MembershipFactory(club=tournament.club, user=organizer)
    return tournament


@pytest.mark.django_db
def test_the_tournament_status_and_its_settings(organizer, tournament):
    def change(status):
        return lambda: tournament_services.tournament_status_change(
            tournament=tournament, actor=organizer, status=status
        )

    jump = _raised(change(Tournament.Status.RUNNING))
    assert jump.code == "status_transition"
    assert error_message(jump) == (
        "Un torneo en estado «borrador» solo puede pasar a «inscripción», no a «en juego». "
        "El orden es borrador, inscripción, en juego y terminado."
    )
    change(Tournament.Status.REGISTRATION)()
    EntryFactory(tournament=tournament)
    too_few = _raised(change(Tournament.Status.RUNNING))
    assert error_message(too_few) == (
        "Un torneo necesita al menos dos parejas inscritas para empezar; tiene 1. Inscribe "
        "parejas primero."
    )

    def update(**changes):
        return lambda: tournament_services.tournament_update(
            tournament=tournament, actor=organizer, changes=changes
        )

    tables = _raised(update(tables_available=-3))
    assert error_message(tables).startswith("Las mesas disponibles van de 0 a ")
    assert error_message(tables).endswith(", no -3. Con 0 no hay límite.")
    EntryFactory(tournament=tournament)
    EntryFactory(tournament=tournament)
    below = _raised(update(max_pairs=2))
    assert error_message(below) == (
        "Ya hay 3 parejas inscritas, más que un máximo de 2: retira parejas antes o pon un "
        "máximo de al menos 3."
    )
    dates = _raised(update(starts_on=dt.date(2026, 12, 12), ends_on=dt.date(2026, 12, 1)))
    assert error_message(dates) == (
        "El torneo acaba (2026-12-01) antes de empezar (2026-12-12): corrige una de las dos fechas."
    )


@pytest.mark.django_db
def test_a_short_name_taken_names_the_pena(organizer, tournament):
    taken = _raised(
        lambda: tournament_services.tournament_create(
            club_slug=tournament.club.slug,
            actor=organizer,
            name="Otro",
            starts_on=dt.date(2026, 12, 1),
            slug=tournament.slug,
        )
    )
    assert error_message(taken) == (
        f"{tournament.club.name} ya tiene un torneo con el nombre corto «{tournament.slug}»: "
        "elige otro."
    )


@pytest.mark.django_db
def test_a_pasted_list_names_the_line_and_says_nothing_was_registered(organizer, tournament):
    def paste(text):
        return lambda: registration.entry_register_pasted(
            tournament=tournament, text=text, actor=organizer
        )

    bad = _raised(paste("Ana García / Luis Pérez\nCarmen Ruiz y Pedro Sanz"))
    assert bad.code == "pair_line"
    assert error_message(bad) == (
        "Línea 2: «Carmen Ruiz y Pedro Sanz» no tiene una «/» entre los dos jugadores: "
        "escríbela así: «Ana García / Luis Pérez». No se ha inscrito ninguna pareja: corrige "
        "la línea y vuelve a pegar la lista."
    )
    twice = _raised(paste("Ana García / Luis Pérez\nRosa Martín / Juan López\nana garcia/LUIS"
                          " PEREZ"))  # fmt: skip
    assert error_message(twice).startswith(
        "Línea 3: Repite la pareja de la línea 1 (Ana García / Luis Pérez): quita una de las dos "
        "líneas."
    )
    paste("Ana García / Luis Pérez")()
    again = _raised(paste("Rosa Martín / Juan López\nAna García / Luis Pérez"))
    assert error_message(again).startswith(
        "Línea 2: Ana García / Luis Pérez ya está inscrita en este torneo."
    )
    one_line = _raised(
        lambda: clubs_services.pair_from_names(
            user=organizer, club=tournament.club, text="Ana García / Ana García"
        )
    )
    assert error_message(one_line) == (
        "«Ana García / Ana García» nombra dos veces al mismo jugador: una pareja son dos "
        "jugadores distintos."
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    closed = _raised(paste("Rosa Martín / Juan López"))
    assert error_message(closed) == (
        "La inscripción de Torneo de San Fermín está cerrada (el torneo está «en juego»): las "
        "parejas se inscriben antes de que empiece."
    )


@pytest.mark.django_db
def test_seeds_tables_and_withdrawals(organizer, tournament):
    first = EntryFactory(tournament=tournament, seed=1, pinned_table=2)
    second = EntryFactory(tournament=tournament)
    ids = {"tournament": tournament, "actor": organizer}

    seed = _raised(lambda: registration.entry_seed_set(entry_id=second.pk, seed=1, **ids))
    assert error_message(seed) == (
        f"El cabeza de serie 1 ya lo tiene {first.pair}: cambia o quita antes el de esa pareja, "
        "o elige otro número."
    )
    beyond = _raised(lambda: registration.entry_table_pin(entry_id=second.pk, table=99, **ids))
    assert error_message(beyond) == "La mesa 99 no existe: las mesas van de la 1 a la 8."
    pinned = _raised(lambda: registration.entry_table_pin(entry_id=second.pk, table=2, **ids))
    assert error_message(pinned) == (
        f"La mesa 2 ya está fijada para {first.pair}: quítasela antes o elige otra mesa."
    )
    registration.entry_withdraw(entry_id=second.pk, **ids)
    withdrawn = _raised(lambda: registration.entry_withdraw(entry_id=second.pk, **ids))
    assert error_message(withdrawn) == f"{second.pair} ya se había retirado del torneo."
    unknown = _raised(lambda: registration.entry_withdraw(entry_id=987654, **ids))
    assert error_message(unknown) == (
        "La pareja inscrita n.º 987654 no está en Torneo de San Fermín: quizá la han quitado. "
        "Recarga la página."
    )
    assert Entry.objects.get(pk=second.pk).status == Entry.Status.WITHDRAWN


@pytest.mark.django_db
def test_rounds_list_the_tables_that_block_them(organizer, tournament):
    rnd = RoundFactory(phase__tournament=tournament, number=2, status=Round.Status.PUBLISHED)
    for table in (5, 3):
        MatchFactory(round=rnd, table_number=table)
    unfinished = _raised(lambda: rounds.round_close(round=rnd, actor=organizer))
    assert error_message(unfinished) == (
        "La ronda 2 no se puede cerrar: falta el resultado confirmado de las mesas 3, 5. "
        "Confírmalos (o apunta que una pareja no se presentó) antes."
    )
    Match.objects.filter(round=rnd, table_number=3).update(status=Match.Status.CONFIRMED)
    one = _raised(lambda: rounds.round_close(round=rnd, actor=organizer))
    assert "falta el resultado confirmado de la mesa 5." in error_message(one)

    published = _raised(lambda: rounds.round_publish(round=rnd, actor=organizer))
    assert error_message(published) == "La ronda 2 ya está publicada."
    a, b = Match.objects.filter(round=rnd).order_by("table_number")
    same = _raised(
        lambda: rounds.round_entries_swap(
            round=rnd, actor=organizer, entry_id=b.entry_a_id, other_entry_id=b.entry_b_id
        )
    )
    assert error_message(same).startswith("La ronda 2 ya ha empezado en la mesa 3:")
    Match.objects.filter(round=rnd).update(status=Match.Status.PENDING, started_at=None)
    same = _raised(
        lambda: rounds.round_entries_swap(
            round=rnd, actor=organizer, entry_id=b.entry_a_id, other_entry_id=b.entry_b_id
        )
    )
    assert error_message(same) == (
        "Las dos parejas juegan la misma partida: elige parejas de dos partidas distintas."
    )
    taken = _raised(
        lambda: rounds.match_table_move(round=rnd, actor=organizer, match_id=a.pk, table_number=5)
    )
    assert error_message(taken) == (
        "La mesa 5 ya la ocupa otra partida de la ronda 2: intercambia las dos mesas."
    )


@pytest.mark.django_db
def test_who_may_do_what_in_a_pena(organizer, tournament):
    club = tournament.club
    stranger = UserFactory()
    assert error_message(_raised(lambda: require_organizer(stranger, club))) == (
        f"Solo la organización de {club.name} puede hacer esto."
    )
    assert error_message(_raised(lambda: require_owner(organizer, club))) == (
        f"Solo los propietarios de {club.name} pueden hacer esto."
    )
    owner = MembershipFactory(club=club, role=Membership.Role.OWNER).user
    last = _raised(
        lambda: clubs_services.membership_remove(user=owner, club=club, member_id=owner.pk)
    )
    assert error_message(last) == (
        f"{owner} es el último propietario de {club.name} y no se le puede quitar de la peña: "
        "haz antes propietario a otro miembro."
    )
    long_name = _raised(
        lambda: clubs_services.club_update(user=owner, club=club, data={"town": "x" * 500})
    )
    assert error_message(long_name) == (
        "En la localidad caben como mucho 120 caracteres, y has escrito 500."
    )


def test_the_draw_errors_read_in_spanish():
    pairings = [Pairing(table_order=n, a_id=2 * n, b_id=2 * n + 1) for n in (1, 2, 3)]
    few = _raised(lambda: assign_tables(pairings, tables=2))
    assert error_message(few) == (
        "Partidas de esta ronda: 3; mesas: 2. Añade mesas o divide la ronda en turnos."
    )
    clash = _raised(lambda: assign_tables(pairings, pins={2: 1, 3: 2}))
    assert error_message(clash) == (
        "Las parejas inscritas n.º 2 y n.º 3 se enfrentan en esta ronda, pero tienen fijadas "
        "las mesas 1 y 2: quita la mesa fija a una de las dos para esta ronda."
    )


def test_lists_in_params_read_as_spanish_lists():
    rounds_open = Conflict(
        text_of("phase_rounds_open"),
        code="phase_rounds_open",
        rounds=[2, 3],
        phase="Suizo",
        count=2,
    )
    assert error_message(rounds_open) == (
        "Para terminar la fase Suizo hay que cerrar antes las rondas 2, 3."
    )
    one = Conflict(
        text_of("phase_rounds_open"), code="phase_rounds_open", rounds=[4], phase="Suizo", count=1
    )
    assert error_message(one) == "Para terminar la fase Suizo hay que cerrar antes la ronda 4."


def test_the_same_error_reads_in_english_for_a_page_in_english():
    locked = Conflict(
        text_of("rules_locked"), code="rules_locked", table=4, phase_name="Suizo", round=2
    )

    assert error_message(locked, "en").startswith(
        "The rule set can no longer change: the partida at table 4 of Suizo, round 2"
    )
    assert error_message(locked, "es").startswith("Las reglas ya no se pueden cambiar")
    assert "{" not in error_message(locked, "es")


def test_an_unknown_wording_or_code_shows_the_english_message():
    changed = Invalid("Tables must be fewer than 5000.", code="tables_available")
    assert error_message(changed) == "Tables must be fewer than 5000."
    assert error_message(Invalid("Brand new.", code="brand_new_code")) == "Brand new."
    no_table = Conflict(
        "This result cannot be corrected: …", code="result_has_dependents", table=None, round=2
    )
    assert error_message(no_table) == "This result cannot be corrected: …"
