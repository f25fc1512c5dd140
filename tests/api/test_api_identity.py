"""One person, one identity through the API: the suggestions of a peña's organizers, a merge and
its undo, who may, the one error body of each refusal, and a list whose queries do not grow."""

from __future__ import annotations

import pytest

from clubs.models import PlayerMerge
from tests.api.test_api_clubs import client_for, error, player_in, queries
from tests.clubs.identity_data import world
from tests.factories import ClubFactory, MembershipFactory, PairFactory, PlayerFactory

pytestmark = pytest.mark.django_db

API = "/api/v1"


def test_the_suggestions_name_the_probable_same_person_and_why_never_their_contact():
    w = world()
    w.ana_lizarra.clubs.remove(w.txoko)  # of Lizarra only
    w.ana.licence = "NA-0012"
    w.ana.save()
    # another peña's player of the same licence, one of the same e-mail, one of no peña
    licensed = player_in(ClubFactory(name="Peña Hiru"), "Anne", "Bat", licence=" na-0012")
    mailed = player_in(ClubFactory(name="Peña Lau"), "A.", "Uno", email="ANA@example.org")
    loose = PlayerFactory(first_name="Ana", last_name="uno", phone="699")
    # a namesake of Txoko's own is no suggestion for Ana (a name alone suggests another
    # peña's player), though the other peñas' namesakes are suggestions for both
    namesake = player_in(w.txoko, "Ana", "Uno")

    body = client_for(w.organizer_txoko).get(f"{API}/clubs/{w.txoko.pk}/players/duplicates")
    assert body.status_code == 200
    rows = body.json()
    found = {(r["player"]["id"], r["candidate"]["id"]): r for r in rows}
    assert set(found) == {
        (w.ana.pk, licensed.pk),
        (w.ana.pk, mailed.pk),
        (w.ana.pk, w.ana_lizarra.pk),
        (w.ana.pk, loose.pk),
        (namesake.pk, w.ana_lizarra.pk),
        (namesake.pk, loose.pk),
    }
    first = rows[0]
    assert first["candidate"] == {
        "id": licensed.pk,
        "first_name": "Anne",
        "last_name": "Bat",
        "full_name": "Anne Bat",
        "licence": " na-0012",
    }
    assert first["reasons"] == ["licence"] and first["may_merge"] is True
    assert first["candidate_clubs"] == [{"id": licensed.clubs.get().pk, "name": "Peña Hiru",
                                         "slug": licensed.clubs.get().slug}]  # fmt: skip
    assert found[(w.ana.pk, mailed.pk)]["reasons"] == ["email"]
    lizarra = found[(w.ana.pk, w.ana_lizarra.pk)]
    assert lizarra["reasons"] == ["name"] and lizarra["may_merge"] is False
    assert found[(w.ana.pk, loose.pk)]["may_merge"] is True  # a player of no peña
    assert "email" not in str(rows).replace("'email'", "") and "699" not in str(rows)
    # the organizer of both may merge the namesakes
    both = client_for(w.organizer_both).get(f"{API}/clubs/{w.txoko.pk}/players/duplicates")
    assert {r["candidate"]["id"]: r["may_merge"] for r in both.json()}[w.ana_lizarra.pk] is True
    # a merged row is never suggested again
    merged = client_for(w.organizer_txoko).post(
        f"{API}/clubs/{w.txoko.pk}/players/{w.ana.pk}/merge",
        {"other_id": licensed.pk},
        format="json",
    )
    assert merged.status_code == 201, merged.content
    after = client_for(w.organizer_txoko).get(f"{API}/clubs/{w.txoko.pk}/players/duplicates")
    assert licensed.pk not in {r["candidate"]["id"] for r in after.json()}


def test_the_suggestions_are_the_organizers_and_cost_the_same_queries_whatever_their_number():
    w = world()
    url = f"{API}/clubs/{w.txoko.pk}/players/duplicates"
    error(client_for().get(url), 403, "not_organizer")
    error(client_for(w.organizer_lizarra).get(url), 403, "not_organizer")
    client = client_for(w.organizer_txoko)
    few = queries(client, url)
    for n in range(6):
        player_in(w.txoko, f"Nombre{n}", "Igual")
        player_in(ClubFactory(), f"nombre{n}", "IGUAL")
        player_in(ClubFactory(), f"Otro{n}", "Igual", licence=f"L-{n}")
        player_in(w.txoko, f"Mas{n}", "Gente", licence=f"l-{n}")
    assert len(client.get(url).json()) == 12
    assert queries(client, url) == few


def test_a_merge_and_its_undo_through_the_api():
    w = world()
    client = client_for(w.organizer_both)
    url = f"{API}/clubs/{w.txoko.pk}/players/{w.ana.pk}/merge"
    response = client.post(url, {"other_id": w.ana_lizarra.pk}, format="json")
    assert response.status_code == 201, response.content
    merge = response.json()
    assert merge["keep"]["id"] == w.ana.pk and merge["other"]["id"] == w.ana_lizarra.pk
    assert (merge["reason"], merge["actor"], merge["undone_at"]) == (
        "name",
        w.organizer_both.username,
        None,
    )
    moved = {(m["model"], m["field"]): m["count"] for m in merge["moved"]}
    assert moved[("clubs.pair", "player_two")] == 1
    assert moved[("tournaments.individualentry", "player")] == 1
    # the merged row is no player of the peña any more; the API says which row to use
    gone = client.get(f"{API}/clubs/{w.lizarra.pk}/players/{w.ana_lizarra.pk}")
    error(gone, 404, "player_not_found")
    again = client.post(url, {"other_id": w.ana_lizarra.pk}, format="json")
    assert error(again, 409, "player_merged_already")["params"]["into_id"] == w.ana.pk

    listed = client.get(f"{API}/clubs/{w.lizarra.pk}/player-merges").json()
    assert [m["id"] for m in listed] == [merge["id"]]
    detail = client.get(f"{API}/clubs/{w.txoko.pk}/player-merges/{merge['id']}").json()
    assert detail["id"] == merge["id"]

    undone = client_for(w.organizer_lizarra).post(
        f"{API}/clubs/{w.lizarra.pk}/player-merges/{merge['id']}/undo"
    )
    assert undone.status_code == 200, undone.content
    assert undone.json()["undone_by"] == w.organizer_lizarra.username
    again = client.post(f"{API}/clubs/{w.lizarra.pk}/player-merges/{merge['id']}/undo")
    error(again, 409, "player_merge_undone_already")


def test_who_may_merge_through_the_api():
    w = world()
    w.ana_lizarra.clubs.remove(w.txoko)
    url = f"{API}/clubs/{w.txoko.pk}/players/{w.ana.pk}/merge"
    body = {"other_id": w.ana_lizarra.pk}
    error(client_for().post(url, body, format="json"), 403, "not_authenticated")
    # an organizer of Lizarra reaches Txoko's player through Txoko's path: not theirs
    error(client_for(w.organizer_lizarra).post(url, body, format="json"), 403, "not_organizer")
    refused = error(
        client_for(w.organizer_txoko).post(url, body, format="json"), 403, "player_merge_forbidden"
    )
    assert refused["params"] == {"keep_id": w.ana.pk, "other_id": w.ana_lizarra.pk}
    # the other row is named only by its id: its name is not said to whom may not see it
    assert "Uno" not in refused["message"] and "UNO" not in refused["message"]
    error(
        client_for(w.organizer_txoko).post(url, {"other_id": 10**9}, format="json"),
        404,
        "player_unknown",
    )
    error(client_for(w.organizer_txoko).post(url, {}, format="json"), 400, "validation")
    stranger = MembershipFactory().user
    assert not PlayerMerge.objects.exists()
    error(client_for(stranger).get(f"{API}/clubs/{w.txoko.pk}/player-merges"), 403, "not_organizer")


def test_a_refusal_names_both_rows_and_why_in_the_readers_language():
    w = world()
    PairFactory(player_one=w.ana, player_two=w.ana_lizarra, club=w.txoko)
    client = client_for(w.organizer_both)
    url = f"{API}/clubs/{w.txoko.pk}/players/{w.ana.pk}/merge"
    body = error(client.post(url, {"other_id": w.ana_lizarra.pk}, format="json"), 409,
                 "player_merge_partners")  # fmt: skip
    assert body["message"].startswith(
        f"'Ana Uno' (player {w.ana.pk}) and '{w.ana_lizarra}' (player {w.ana_lizarra.pk}) "
        "cannot be one person: they are partners in the pair"
    )
    spanish = client.post(
        url, {"other_id": w.ana_lizarra.pk}, format="json", HTTP_ACCEPT_LANGUAGE="es"
    ).json()["error"]
    assert spanish["message"].startswith(
        f"«Ana Uno» (jugador {w.ana.pk}) y «{w.ana_lizarra}» (jugador {w.ana_lizarra.pk}) no "
        "pueden ser la misma persona: son compañeros en la pareja"
    )
    merged_nothing = client.get(f"{API}/clubs/{w.txoko.pk}/player-merges").json()
    assert merged_nothing == []


def test_a_merge_of_another_peña_is_not_found_there():
    w = world()
    client = client_for(w.organizer_both)
    merge = client.post(
        f"{API}/clubs/{w.txoko.pk}/players/{w.ana.pk}/merge",
        {"other_id": w.ana_lizarra.pk},
        format="json",
    ).json()
    elsewhere = MembershipFactory(user=w.organizer_both).club
    missing = client.get(f"{API}/clubs/{elsewhere.pk}/player-merges/{merge['id']}")
    error(missing, 404, "player_merge_not_in_club")
