"""The tournaments API through real URLs: status codes, the one error body, permissions across
peñas, the rule-set lock and query counts."""

from __future__ import annotations

import base64

import pytest
from django.test import Client
from django.utils import timezone

from clubs.models import Membership
from tests.factories import (
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture
def organizer():
    return MembershipFactory(role=Membership.Role.ORGANIZER)


def client_for(user=None) -> Client:
    # Messages follow Accept-Language; these tests read the English.
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def assert_error(response, status: int, code: str) -> dict:
    """The one error body shape: {"error": {"status", "code", "message", "params"}}."""
    assert response.status_code == status, response.content
    body = response.json()
    assert list(body) == ["error"]
    error = body["error"]
    assert error["status"] == status
    assert error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["params"], dict)
    return error


def create_body(club, **extra):
    return {"club": club.slug, "name": "Torneo de Sanfermines", "starts_on": "2026-07-07", **extra}


# --- Create ---------------------------------------------------------------------------------


def test_create_from_a_preset(organizer):
    response = client_for(organizer.user).post(
        f"{API}/tournaments/create",
        create_body(organizer.club, preset="4 reyes a 25", max_pairs=16, tables_available=8),
        content_type="application/json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["slug"] == "torneo-de-sanfermines"
    assert body["status"] == "draft"
    assert body["preset_name"] == "4 reyes a 25"
    assert body["rules"]["kings"] == 4 and body["rules"]["stones_per_game"] == 25
    assert body["max_pairs"] == 16
    assert body["tiebreaks"][0] == "matches_won" and body["tiebreaks"][-1] == "lots"
    assert body["rules_locked"] is False
    assert body["club"] == {"slug": organizer.club.slug, "name": organizer.club.name}


def test_create_with_explicit_rules(organizer):
    response = client_for(organizer.user).post(
        f"{API}/tournaments/create",
        create_body(
            organizer.club, rules={"kings": 4, "stones_per_game": 30, "real_31": "sota_777"}
        ),
        content_type="application/json",
    )

    assert response.status_code == 201, response.content
    assert response.json()["rules"]["real_31"] == "sota_777"
    assert response.json()["preset_name"] == ""


@pytest.mark.parametrize(
    ("extra", "code", "says"),
    [
        ({"rules": {"stones_per_game": 5}}, "stones_per_game", "from 10 to 100"),
        ({"rules": {"kings": 6}}, "kings", "Kings must be 8 or 4"),
        ({"rules": {"comodines": 2}}, "unknown_option", "Unknown rule set option 'comodines'"),
        ({"tiebreaks": ["matches_won", "matches_won"]}, "order_duplicate", "twice"),
        ({"preset": "9 reyes a 99"}, "preset_unknown", "8 reyes a 40"),
        ({"ends_on": "2026-07-01"}, "dates_order", "before it starts"),
        ({"starts_on": "mañana"}, "validation", "starts_on"),
    ],
)
def test_create_with_bad_values_is_a_400_with_the_message(organizer, extra, code, says):
    response = client_for(organizer.user).post(
        f"{API}/tournaments/create",
        create_body(organizer.club, **extra),
        content_type="application/json",
    )

    error = assert_error(response, 400, code)
    assert says in error["message"]
    assert not Tournament.objects.exists()


def test_create_needs_an_organizer_of_the_pena(organizer):
    url = f"{API}/tournaments/create"
    body = create_body(organizer.club)

    assert_error(
        client_for().post(url, body, content_type="application/json"), 403, "not_authenticated"
    )
    other = MembershipFactory().user
    assert_error(
        client_for(other).post(url, body, content_type="application/json"), 403, "not_organizer"
    )
    assert_error(
        client_for(organizer.user).post(
            url, {**body, "club": "no-such-pena"}, content_type="application/json"
        ),
        404,
        "club_slug_unknown",
    )


def test_a_taken_slug_is_a_409(organizer):
    TournamentFactory(club=organizer.club, slug="open")
    response = client_for(organizer.user).post(
        f"{API}/tournaments/create",
        create_body(organizer.club, slug="open"),
        content_type="application/json",
    )
    assert_error(response, 409, "tournament_slug_taken")


# --- Read -----------------------------------------------------------------------------------


def test_published_tournaments_are_public_and_drafts_only_for_their_organizers(organizer):
    published = TournamentFactory(status=Tournament.Status.REGISTRATION)
    draft = TournamentFactory(club=organizer.club, status=Tournament.Status.DRAFT)
    private = TournamentFactory(club=organizer.club, is_public=False)

    anonymous = client_for()
    assert [t["id"] for t in anonymous.get(f"{API}/tournaments").json()] == [published.pk]
    assert anonymous.get(f"{API}/tournaments/{published.pk}").status_code == 200
    for hidden in (draft, private):
        assert_error(anonymous.get(f"{API}/tournaments/{hidden.pk}"), 404, "tournament_not_found")
        assert_error(
            client_for(MembershipFactory().user).get(f"{API}/tournaments/{hidden.pk}"),
            404,
            "tournament_not_found",
        )

    own = client_for(organizer.user)
    ids = {t["id"] for t in own.get(f"{API}/tournaments").json()}
    assert ids == {published.pk, draft.pk, private.pk}
    assert own.get(f"{API}/tournaments/{draft.pk}").status_code == 200
    filtered = own.get(f"{API}/tournaments", {"club": organizer.club.slug, "status": "draft"})
    assert [t["id"] for t in filtered.json()] == [draft.pk]


def test_the_list_takes_a_fixed_number_of_queries(organizer, django_assert_max_num_queries):
    def add(n):
        for _ in range(n):
            tournament = TournamentFactory(club=organizer.club)
            EntryFactory.create_batch(2, tournament=tournament)

    client = client_for(organizer.user)
    add(1)
    with django_assert_max_num_queries(5):  # session, user, peñas organized, tournaments
        assert len(client.get(f"{API}/tournaments").json()) == 1
    add(20)
    with django_assert_max_num_queries(5):
        assert len(client.get(f"{API}/tournaments").json()) == 21


# --- Update ---------------------------------------------------------------------------------


def test_update_changes_only_what_is_sent(organizer):
    tournament = TournamentFactory(club=organizer.club, venue="Bar Txoko", max_pairs=10)

    response = client_for(organizer.user).post(
        f"{API}/tournaments/{tournament.pk}/update",
        {"name": "Nuevo", "max_pairs": None, "rules": {"stones_per_game": 30}},
        content_type="application/json",
    )

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["name"], body["venue"], body["max_pairs"]) == ("Nuevo", "Bar Txoko", None)
    assert body["rules"]["stones_per_game"] == 30


def test_the_rule_set_is_locked_once_the_first_partida_starts(organizer):
    tournament = TournamentFactory(club=organizer.club, status=Tournament.Status.RUNNING)
    client = client_for(organizer.user)
    url = f"{API}/tournaments/{tournament.pk}/update"
    match = MatchFactory(round__phase__tournament=tournament)

    # drawn but not started: still editable
    ok = client.post(url, {"rules": {"stones_per_game": 30}}, content_type="application/json")
    assert ok.status_code == 200, ok.content

    match.started_at = timezone.now()
    match.save()
    response = client.post(url, {"rules": {"stones_per_game": 40}}, content_type="application/json")

    error = assert_error(response, 409, "rules_locked")
    assert "already started" in error["message"]
    assert error["params"]["match"] == match.pk
    detail = client.get(f"{API}/tournaments/{tournament.pk}").json()
    assert detail["rules"]["stones_per_game"] == 30
    assert detail["rules_locked"] is True
    renamed = client.post(url, {"name": "Sigue"}, content_type="application/json")
    assert renamed.status_code == 200


def test_writes_on_another_penas_tournament_are_403_if_public_and_404_if_not(organizer):
    public = TournamentFactory(status=Tournament.Status.REGISTRATION)
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    private = TournamentFactory(is_public=False, status=Tournament.Status.REGISTRATION)
    client = client_for(organizer.user)

    for path, body in (("update", {"name": "Mío"}), ("status", {"status": "running"})):
        assert_error(
            client.post(
                f"{API}/tournaments/{public.pk}/{path}", body, content_type="application/json"
            ),
            403,
            "not_organizer",
        )
        for hidden in (draft, private):
            assert_error(
                client.post(
                    f"{API}/tournaments/{hidden.pk}/{path}", body, content_type="application/json"
                ),
                404,
                "tournament_not_found",
            )
    # access is checked before the input: no 400 that would reveal the tournament exists
    assert_error(
        client.post(
            f"{API}/tournaments/{draft.pk}/update",
            {"max_pairs": "x"},
            content_type="application/json",
        ),
        404,
        "tournament_not_found",
    )
    public.refresh_from_db()
    assert public.name != "Mío"


def test_update_with_bad_input_is_a_400(organizer):
    tournament = TournamentFactory(club=organizer.club)
    client = client_for(organizer.user)
    url = f"{API}/tournaments/{tournament.pk}/update"

    assert_error(
        client.post(url, {"max_pairs": "muchos"}, content_type="application/json"),
        400,
        "validation",
    )
    assert_error(
        client.post(url, {"tiebreaks": ["suerte"]}, content_type="application/json"),
        400,
        "order_unknown",
    )
    assert_error(
        client.post(url, {"max_pairs": 0}, content_type="application/json"), 400, "max_pairs"
    )


# --- Status ---------------------------------------------------------------------------------


def test_status_moves_forward_and_an_invalid_move_is_a_409(organizer):
    tournament = TournamentFactory(club=organizer.club, status=Tournament.Status.DRAFT)
    client = client_for(organizer.user)
    url = f"{API}/tournaments/{tournament.pk}/status"

    error = assert_error(
        client.post(url, {"status": "running"}, content_type="application/json"),
        409,
        "status_transition",
    )
    assert "can only move to registration" in error["message"]

    response = client.post(url, {"status": "registration"}, content_type="application/json")
    assert response.status_code == 200 and response.json()["status"] == "registration"

    error = assert_error(
        client.post(url, {"status": "running"}, content_type="application/json"),
        409,
        "too_few_pairs",
    )
    assert_error(
        client.post(url, {"status": "paused"}, content_type="application/json"),
        400,
        "status_unknown",
    )


def test_anonymous_writes_are_refused():
    tournament = TournamentFactory()
    response = client_for().post(
        f"{API}/tournaments/{tournament.pk}/status",
        {"status": "running"},
        content_type="application/json",
    )
    assert_error(response, 403, "not_authenticated")


def test_basic_auth_works_for_scripts(organizer):
    user = UserFactory(username="script")
    MembershipFactory(club=organizer.club, user=user)
    tournament = TournamentFactory(club=organizer.club)
    token = base64.b64encode(b"script:amarrako-test").decode()
    response = Client().post(
        f"{API}/tournaments/{tournament.pk}/update",
        {"venue": "Frontón"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Basic {token}",
        secure=True,
    )
    assert response.status_code == 200, response.content
    assert response.json()["venue"] == "Frontón"
