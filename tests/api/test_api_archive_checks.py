"""An archive whose records contradict each other is refused (issue 23 #6): its checksum is
public, so an archive edited and sealed again opens, and the import derives every figure
again (tournaments/services/archive_checks.py). Each test takes a peña's archive exported by
this code, edits one thing as somebody with a text editor would, seals it again and imports
it into an emptied database: 400 ``archive_inconsistent``, naming what contradicts what and
where, and nothing stored."""

from __future__ import annotations

import copy

import pytest
from rest_framework.test import APIClient

from clubs.models import Club, Player
from tests.api import test_api_full_tournament as full
from tests.api.test_api_archive import _resealed, played_tournament, wipe
from tests.api.test_api_full_tournament import Api, add_phase, open_tournament, play_round
from tests.factories import UserFactory
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

LIGUILLA, KNOCKOUT = 0, 1


@pytest.fixture
def desk(django_capture_on_commit_callbacks) -> Api:
    client = APIClient()
    client.force_login(UserFactory(username="organizadora"))
    return Api(client, django_capture_on_commit_callbacks)


@pytest.fixture
def table(django_capture_on_commit_callbacks) -> Api:
    return Api(APIClient(), django_capture_on_commit_callbacks)


@pytest.fixture
def exported(desk, table) -> dict:
    """Liguilla groups of four, then the crossing knockout played to its champion."""
    played_tournament(desk, table)
    archive = desk.get(f"clubs/{Club.objects.get().id}/archive")
    wipe(Club.objects.get())
    return archive


def rounds(archive: dict, phase: int) -> list[dict]:
    return archive["tournaments"][0]["phases"][phase]["rounds"]


def refused(desk, archive: dict, language: str = "en") -> dict:
    response = desk.client.post(
        "/api/v1/archive/import",
        _resealed(archive),
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["code"] == "archive_inconsistent", error
    assert (Tournament.objects.count(), Club.objects.count(), Player.objects.count()) == (0, 0, 0)
    return error


def swapped(summary: dict) -> dict:
    """A result with pareja A and pareja B the other way round (a forgery that holds
    together)."""
    flip = {"A": "B", "B": "A"}
    out = copy.deepcopy(summary)
    for game in out["games"]:
        game["winner"] = flip[game["winner"]]
        game["stones"] = {"A": game["stones"]["B"], "B": game["stones"]["A"]}
    for key in ("vacas", "stones", "vaca_games"):
        if isinstance(out.get(key), dict):
            out[key] = {"A": out[key]["B"], "B": out[key]["A"]}
    out["winner"] = flip[out["winner"]]
    return out


def _swap_columns(match: dict) -> None:
    for a, b in (("games_a", "games_b"), ("vacas_a", "vacas_b"), ("stones_a", "stones_b")):
        match[a], match[b] = match[b], match[a]
    match["winner"] = match["entry_b"] if match["winner"] == match["entry_a"] else match["entry_a"]


def test_an_archive_exported_by_this_code_imports(desk, exported):
    answer = desk.post("archive/import", exported, status=201)
    assert answer["tournaments"][0]["slug"] == exported["tournaments"][0]["slug"]


def test_a_matchs_juegos_that_its_result_does_not_give_are_refused(desk, exported):
    """The first case of the check: a match set to 0–9 juegos although its hands say 2–0."""
    match = rounds(exported, LIGUILLA)[0]["matches"][0]
    said = (match["games_a"], match["games_b"])
    match["games_a"], match["games_b"] = 0, 9
    error = refused(desk, exported)
    where = "tournaments[0].phases[0].rounds[0].matches[0]"
    assert error["params"]["where"] == where
    problem = error["params"]["problem"]
    assert problem["code"] == "archive_match_figures"
    assert problem["params"]["games"] == "0–9"
    assert problem["params"]["derived_games"] == "{}–{}".format(*said)
    assert f"at {where}, the match says juegos 0–9" in error["message"]
    assert "but its result gives juegos" in error["message"]
    assert error["message"].startswith("Nothing was imported, because the archive's records")


def test_the_refusal_reads_in_spanish(desk, exported):
    rounds(exported, LIGUILLA)[0]["matches"][0]["games_b"] = 9
    error = refused(desk, exported, language="es")
    assert error["message"].startswith(
        "No se ha importado nada, porque los registros del archivo se contradicen: en tournaments["
    )
    assert "la partida dice juegos" in error["message"]


def test_a_result_none_of_the_submissions_gives_is_refused(desk, exported):
    """Result and juegos turned round together: the submissions still say the other."""
    match = rounds(exported, LIGUILLA)[1]["matches"][0]
    match["result"] = swapped(match["result"])
    _swap_columns(match)
    problem = refused(desk, exported)["params"]["problem"]
    assert problem["code"] == "archive_result_unsubmitted"


def test_a_submission_whose_result_its_own_games_do_not_give_is_refused(desk, exported):
    """Result, juegos and the submissions' results turned round: their games still say the
    other."""
    match = rounds(exported, LIGUILLA)[1]["matches"][0]
    match["result"] = swapped(match["result"])
    _swap_columns(match)
    for submission in match["submissions"]:
        submission["summary"] = swapped(submission["summary"])
    problem = refused(desk, exported)["params"]["problem"]
    assert problem["code"] == "archive_submission_figures"
    assert problem["params"]["basis"] == "its games"


def _drop(archive: dict, phase: int, number: int, index: int) -> dict:
    """Delete a match and its audit rows, as the check did."""
    match = rounds(archive, phase)[number]["matches"].pop(index)
    tournament = archive["tournaments"][0]
    tournament["audit"] = [a for a in tournament["audit"] if a["match"] != match["id"]]
    return match


def test_a_liguilla_match_deleted_from_a_closed_round_is_refused(desk, exported):
    """The second case of the check: a closed round with two pairs unpaired."""
    _drop(exported, LIGUILLA, 2, 0)
    error = refused(desk, exported)
    assert error["params"]["problem"]["code"] == "archive_schedule_missing"
    assert error["params"]["where"] == "tournaments[0].phases[0].rounds[2]"
    assert "the groups' schedule pairs" in error["message"]


def test_an_older_archive_without_the_drawn_pairs_is_still_checked(desk, exported):
    for row in exported["tournaments"][0]["audit"]:
        if row["action"] == "round_drawn":
            row["new"].pop("entries", None)
    _drop(exported, LIGUILLA, 0, 1)
    assert refused(desk, exported)["params"]["problem"]["code"] == "archive_schedule_missing"


def test_a_knockout_match_deleted_is_refused(desk, exported):
    """The semi-final's pair still plays the final: the bracket no longer gives it."""
    semis = rounds(exported, KNOCKOUT)[0]["matches"]
    _drop(exported, KNOCKOUT, 0, next(i for i, m in enumerate(semis) if m["kind"] != "bye"))
    error = refused(desk, exported)
    assert error["params"]["problem"]["code"] == "archive_bracket_results"
    assert error["params"]["where"] == "tournaments[0].phases[1]"
    assert "contradict each other: the results of Cruces contradict its bracket" in error["message"]


def test_a_pair_playing_twice_in_a_round_is_refused(desk, exported):
    matches = rounds(exported, LIGUILLA)[0]["matches"]
    loser = "entry_b" if matches[1]["winner"] == matches[1]["entry_a"] else "entry_a"
    matches[1][loser] = matches[0]["entry_a"]
    problem = refused(desk, exported)["params"]["problem"]
    assert problem["code"] == "archive_entry_twice"


def test_a_finished_phase_with_a_round_open_is_refused(desk, exported):
    rounds(exported, LIGUILLA)[2]["status"] = "published"
    problem = refused(desk, exported)["params"]["problem"]
    assert problem["code"] == "archive_phase_round_open"


def test_a_closed_round_with_a_match_unconfirmed_is_refused(desk, exported):
    match = rounds(exported, LIGUILLA)[1]["matches"][2]
    match.update(status="submitted", winner=None, result=None)
    match.update(dict.fromkeys(("games_a", "games_b", "vacas_a", "vacas_b"), 0))
    match.update(stones_a=0, stones_b=0)
    problem = refused(desk, exported)["params"]["problem"]
    assert problem["code"] == "archive_round_unconfirmed"


def test_a_swiss_round_missing_a_pair_it_was_drawn_with_is_refused(desk, table):
    tournament = open_tournament(desk)
    swiss = add_phase(desk, tournament, name="Suizo", format="swiss", rounds_planned=2)
    for _ in (1, 2):
        play_round(desk, table, desk.post(f"phases/{swiss['id']}/rounds/generate", status=201))
    archive = desk.get(f"clubs/{Club.objects.get().id}/archive")
    wipe(Club.objects.get())
    dropped = _drop(archive, 0, 1, 3)  # the last round: no later round shows it
    error = refused(desk, archive)
    problem = error["params"]["problem"]
    assert problem["code"] == "archive_round_missing"
    assert error["params"]["where"] == "tournaments[0].phases[0].rounds[1]"
    assert Match.objects.count() == 0 and dropped["status"] == "confirmed"


@pytest.mark.parametrize(
    "scenario",
    [
        full.test_swiss_then_top_four_knockout_with_a_correction,
        full.test_liguilla_groups_then_crossing_knockout_with_a_forfeit,
        full.test_double_elimination_with_a_dispute_and_the_grand_final_reset,
        full.test_tres_ceros_to_the_last_pair_standing_with_hands_entered_at_the_table,
    ],
    ids=["swiss-knockout-correction", "liguilla-forfeit", "double-dispute-reset", "tres-ceros"],
)
def test_every_whole_tournament_this_code_plays_still_imports(desk, table, scenario):
    """Whatever the API lets a tournament go through (hands with órdagos, a forfeit, a dispute
    resolved, a correction that re-points the next knockout match, a grand final replayed) is
    consistent: its archive imports."""
    scenario(desk, table)
    club = Club.objects.get()
    archive = desk.get(f"clubs/{club.id}/archive")
    wipe(club)
    answer = desk.post("archive/import", archive, status=201)
    assert [t["slug"] for t in answer["tournaments"]] == [t["slug"] for t in archive["tournaments"]]


def test_a_swiss_with_a_bye_and_a_pair_withdrawn_still_imports(desk, table):
    """Seven pairs: a bye each round, and the eighth withdrawn before the draw."""
    tournament = open_tournament(desk)
    last = tournament["entries"][-1]
    desk.post(f"tournaments/{tournament['id']}/entries/{last}/withdraw")
    swiss = add_phase(desk, tournament, name="Suizo", format="swiss", rounds_planned=2)
    for _ in (1, 2):
        rnd = desk.post(f"phases/{swiss['id']}/rounds/generate", status=201)
        assert [m["kind"] for m in rnd["matches"]].count("bye") == 1
        play_round(desk, table, rnd)
    archive = desk.get(f"clubs/{Club.objects.get().id}/archive")
    wipe(Club.objects.get())
    desk.post("archive/import", archive, status=201)
    # and a bye given more juegos than the format's is refused
    wipe(Club.objects.get())
    bye = next(m for m in rounds(archive, 0)[0]["matches"] if m["kind"] == "bye")
    bye["games_a"] += 1
    problem = refused(desk, archive)["params"]["problem"]
    assert problem["code"] == "archive_match_figures" and problem["params"]["basis"] == "a bye"
