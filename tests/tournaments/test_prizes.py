"""Prizes across phases, end to end on the database: declared with the tournament, awarded when
it finishes from every phase's standings, awarded again when a result changes after the end,
shown on the public pages and the desk, and managed on the organizer's prizes page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring.messages import MessageError
from tests.factories import tournament_field
from tournaments.models import Match, Tournament
from tournaments.services import results
from tournaments.services.prizes import prizes_refresh
from tournaments.services.rounds import (
    phase_create,
    phase_finish,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh
from tournaments.services.tournaments import tournament_status_change, tournament_update

pytestmark = pytest.mark.django_db

MOST = {"name": "Regularidad", "kind": "most", "phases": [1, 2]}
WORST = {"name": "Premio a la peor pareja", "kind": "fewest", "tiebreaks": ["stone_difference"]}
GROUP = {"name": "Mejor del suizo", "kind": "group_best", "phases": [2]}


def _games(match: Match, winner_id: int) -> dict:
    """Two games to the winner (the factory's tournaments play 2 juegos a vaca, to 40)."""
    won = [40, 20] if winner_id == match.entry_a_id else [20, 40]
    return {"games": [{"stones": won}, {"stones": won}]}


def confirm(match: Match, winner_id: int, organizer=None) -> None:
    """The organizer enters the official result: ``winner_id`` wins 2-0 (80 stones to 40); on a
    confirmed match, a correction."""
    match.refresh_from_db()
    organizer = organizer or match.round.phase.tournament.club.memberships.first().user
    if match.status == Match.Status.CONFIRMED:
        results.match_result_correct(
            match=match, payload=_games(match, winner_id), version=match.version, actor=organizer
        )
        return
    results.match_result_submit(
        match=match,
        side=results.ORGANIZER,
        payload=_games(match, winner_id),
        idempotency_key=f"test-{match.pk}-{match.version}",
        version=match.version,
        via=results.ACCOUNT,
        actor=organizer,
    )


def play_phase(t, organizer, name: str, rounds: int, winner=lambda m: m.entry_a_id):
    """A Swiss phase of ``rounds`` rounds, each drawn, published, played and closed."""
    phase = phase_create(
        tournament=t, actor=organizer, name=name, format="swiss", rounds_planned=rounds
    )
    for _ in range(rounds):
        rnd = round_draw_generate(phase=phase, actor=organizer)
        round_publish(round=rnd, actor=organizer)
        for match in rnd.matches.exclude(kind=Match.Kind.BYE):
            confirm(match, winner(match))
        round_close(round=rnd, actor=organizer)
    standings_refresh(phase=phase)
    return phase


def running(pairs: int = 4, prizes=(MOST, WORST, GROUP), **tournament):
    t, organizer, entries = tournament_field(pairs, **tournament)
    tournament_update(tournament=t, actor=organizer, changes={"prizes": list(prizes)})
    tournament_status_change(tournament=t, actor=organizer, status="running")
    return Tournament.objects.get(pk=t.pk), organizer, entries


def finished(pairs: int = 4, **kwargs):
    t, organizer, entries = running(pairs, **kwargs)
    first = play_phase(t, organizer, "Suizo", 2)
    phase_finish(phase=first, actor=organizer)
    second = play_phase(t, organizer, "Segundo suizo", 1)
    tournament_status_change(tournament=t, actor=organizer, status="finished")
    return Tournament.objects.get(pk=t.pk), organizer, entries, (first, second)


# --- Declared with the tournament ---------------------------------------------------------------


def test_the_prizes_are_stored_in_full_as_declared():
    t, organizer, _ = running(prizes=[WORST])
    assert t.prizes == [
        {
            "name": "Premio a la peor pareja",
            "kind": "fewest",
            "measure": "won",
            "phases": [],
            "tiebreaks": ["stone_difference"],
            "ties": "shared",
        }
    ]
    assert t.prize_awards == []  # nothing is awarded before the end


def test_a_wrong_prize_is_refused_naming_it_and_nothing_changes():
    t, organizer, _ = running(prizes=[MOST])
    with pytest.raises(MessageError) as caught:
        tournament_update(
            tournament=t,
            actor=organizer,
            changes={"prizes": [MOST, {"name": "Peor", "kind": "worst"}]},
        )
    assert caught.value.code == "prize_kind"
    assert caught.value.params["prize"] == 2
    t.refresh_from_db()
    assert [p["name"] for p in t.prizes] == ["Regularidad"]


# --- Awarded with the final standings -----------------------------------------------------------


def test_finishing_the_tournament_awards_every_prize_from_the_phases_it_names():
    t, organizer, entries, (first, second) = finished(4)

    awards = {a["name"]: a for a in t.prize_awards}
    assert set(awards) == {"Regularidad", "Premio a la peor pareja", "Mejor del suizo"}
    most = awards["Regularidad"]
    # over three rounds in all (phases 1 and 2) somebody won every match; nobody else did
    assert most["value"] == 3 and len(most["winners"]) == 1 and not most["shared"]
    winner = most["winners"][0]
    assert winner["name"] and winner["players"]
    worst = awards["Premio a la peor pareja"]
    assert worst["value"] == 0 and worst["kind"] == "fewest"
    group = awards["Mejor del suizo"]
    assert (group["phase"], group["phase_name"], group["group"]) == (2, "Segundo suizo", None)
    assert t.prizes_awarded_at is not None


def test_a_result_corrected_after_the_end_moves_the_prizes():
    t, organizer, entries, (first, second) = finished(4)
    before = {a["name"]: a for a in t.prize_awards}["Mejor del suizo"]["winners"][0]["entry_id"]
    # the only match the winner of the second phase won is given to its opponent
    match = second.rounds.get().matches.get(winner_id=before)
    loser = match.entry_b_id if match.entry_a_id == before else match.entry_a_id
    confirm(match, loser)

    standings_refresh(phase=second)  # what the correction's follow-up runs

    t.refresh_from_db()
    after = {a["name"]: a for a in t.prize_awards}["Mejor del suizo"]["winners"]
    assert before not in [w["entry_id"] for w in after]


def test_changing_the_prizes_of_a_finished_tournament_awards_them_again():
    t, organizer, _, _ = finished(4)
    tournament_update(
        tournament=t,
        actor=organizer,
        changes={"prizes": [{"name": "Más piedras", "kind": "most", "measure": "stones_won"}]},
    )
    t.refresh_from_db()
    assert [a["name"] for a in t.prize_awards] == ["Más piedras"]
    assert prizes_refresh(tournament_id=t.pk) is True


def test_a_tie_is_shared_unless_the_bases_say_lots():
    t, organizer, entries = running(
        4,
        prizes=[
            {"name": "Compartido", "kind": "most", "phases": [1]},
            {"name": "Sorteado", "kind": "most", "phases": [1], "ties": "lots"},
        ],
    )
    play_phase(t, organizer, "Suizo", 1)  # two winners of one match each
    tournament_status_change(tournament=t, actor=organizer, status="finished")
    t.refresh_from_db()
    shared, drawn = t.prize_awards
    assert len(shared["winners"]) == 2 and shared["shared"]
    assert len(drawn["winners"]) == 1 and drawn["decided_by"] == "lots"
    assert drawn["winners"][0] in shared["winners"]


# --- Pages ----------------------------------------------------------------------------------------


def test_the_public_pages_publish_the_prizes_with_the_final_standings():
    t, organizer, _, _ = finished(4, is_public=True)
    page = Client().get(reverse("web:tournament", args=[t.club.slug, t.slug])).content.decode()
    assert "Premios" in page and "Premio a la peor pareja" in page
    winner = {a["name"]: a for a in t.prize_awards}["Regularidad"]["winners"][0]["name"]
    standings = Client().get(reverse("web:public-standings", args=[t.club.slug, t.slug]))
    assert winner in standings.content.decode().split("Premios", 1)[1]
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(
        reverse("web:tournament", args=[t.club.slug, t.slug])
    )
    assert "Prizes" in english.content.decode()


def test_before_the_end_the_public_page_shows_the_prizes_declared_in_words():
    t, organizer, _ = running(4, is_public=True)
    page = Client().get(reverse("web:tournament", args=[t.club.slug, t.slug])).content.decode()
    assert "más partidas ganadas en las fases 1 y 2" in page
    assert "menos partidas ganadas" in page


def test_the_organizer_adds_and_removes_a_prize_on_the_prizes_page():
    t, organizer, _ = running(4, prizes=[])
    client = Client()
    client.force_login(organizer)
    url = reverse("web:organizer-prizes", args=[t.pk])
    assert "Añadir premio" in client.get(url).content.decode()

    response = client.post(
        url,
        {
            "name": "Premio a la peor pareja",
            "what": "fewest_won",
            "phases": "1-2",
            "tiebreak": "stone_difference",
            "ties": "shared",
        },
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.prizes == [
        {
            "name": "Premio a la peor pareja",
            "kind": "fewest",
            "measure": "won",
            "phases": [1, 2],
            "tiebreaks": ["stone_difference"],
            "ties": "shared",
        }
    ]
    desk = client.get(reverse("web:organizer-tournament", args=[t.pk])).content.decode()
    assert "Premio a la peor pareja" in desk

    response = client.post(reverse("web:organizer-prize-delete", args=[t.pk, 0]))
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.prizes == []


def test_a_wrong_prize_on_the_page_says_why_and_keeps_what_was_typed():
    t, organizer, _ = running(4, prizes=[])
    client = Client()
    client.force_login(organizer)
    response = client.post(
        reverse("web:organizer-prizes", args=[t.pk]),
        {"name": "Peor", "what": "fewest_won", "phases": "uno", "ties": "shared"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "1-2" in page and 'value="uno"' in page


def test_players_alone_win_prizes_by_their_own_rows():
    from tests.tournaments.test_entrant_kinds import confirm_all, individual_field, swiss

    t, organizer, people = individual_field(8)
    tournament_status_change(tournament=t, actor=organizer, status="running")
    tournament_update(
        tournament=t,
        actor=organizer,
        changes={"prizes": [{"name": "Más juegos", "kind": "most", "measure": "games_won"}]},
    )
    phase = swiss(t, organizer, rounds=1)
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    confirm_all(rnd, organizer)
    round_close(round=rnd, actor=organizer)
    tournament_status_change(tournament=t, actor=organizer, status="finished")

    t.refresh_from_db()
    (award,) = t.prize_awards
    # the four players whose drawn partnership won took 2 juegos each: the prize is shared
    assert award["value"] == 2 and award["shared"] and len(award["winners"]) == 4
    assert {w["entry_id"] for w in award["winners"]} <= {p.pk for p in people}
    assert all(w["players"] == [w["name"]] for w in award["winners"])
