"""The clubs API through its real URLs: status codes, the one error body, permissions across
peñas, and list endpoints whose query count does not grow with their length."""

from __future__ import annotations

import base64

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from clubs.models import Club, Membership, Pair, Player, RuleSetPreset
from tests.factories import ClubFactory, MembershipFactory, PairFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

API = "/api/v1"
OWNER, ORGANIZER, MEMBER = Membership.Role.OWNER, Membership.Role.ORGANIZER, Membership.Role.MEMBER


def client_for(user=None) -> APIClient:
    # Messages follow Accept-Language; these tests read the English.
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)  # a real session, as the browser has after logging in
    return client


def member(club: Club, role: str = ORGANIZER):
    return MembershipFactory(club=club, role=role).user


def player_in(club: Club, first: str = "Ana", last: str = "García", **extra) -> Player:
    player = PlayerFactory(first_name=first, last_name=last, **extra)
    player.clubs.add(club)
    return player


def error(response, status: int, code: str) -> dict:
    """The one error body of config/errors.py, with the expected status and code."""
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["status"] == status
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["params"], dict)
    return body["error"]


# --- Peñas ------------------------------------------------------------------------------------


def test_anyone_lists_and_reads_penas_with_their_public_contact():
    club = ClubFactory(
        name="Peña Txoko", town="Tolosa", region="Gipuzkoa", contact_email="t@example.org"
    )
    ClubFactory(name="Otra", town="Elizondo")
    anonymous = client_for()

    response = anonymous.get(f"{API}/clubs", {"q": "txoko"})
    assert response.status_code == 200
    assert response.json() == [
        {
            "id": club.pk,
            "name": "Peña Txoko",
            "slug": club.slug,
            "town": "Tolosa",
            "region": "Gipuzkoa",
            "contact_email": "t@example.org",
            "contact_phone": "",
            "language": "es",
            "default_preset_id": None,
            "created_at": response.json()[0]["created_at"],
        }
    ]
    assert anonymous.get(f"{API}/clubs/{club.pk}").json()["name"] == "Peña Txoko"
    error(anonymous.get(f"{API}/clubs/{club.pk + 999}"), 404, "club_not_found")


def test_creating_a_pena_makes_the_user_its_owner():
    user = UserFactory()
    client = client_for(user)
    response = client.post(
        f"{API}/clubs/create", {"name": "Peña Txoko", "town": "Tolosa"}, format="json"
    )
    assert response.status_code == 201
    created = response.json()
    assert created["slug"] == "pena-txoko"
    me = client.get(f"{API}/me").json()
    assert [(m["club"]["id"], m["role"]) for m in me["memberships"]] == [(created["id"], OWNER)]

    again = client.post(f"{API}/clubs/create", {"name": "X", "slug": "pena-txoko"}, format="json")
    assert error(again, 409, "slug_taken")["params"] == {"slug": "pena-txoko"}
    error(client.post(f"{API}/clubs/create", {"name": "X", "slug": "Mal Slug"}), 400, "slug")
    missing = error(client.post(f"{API}/clubs/create", {}, format="json"), 400, "validation")
    assert "name" in missing["fields"]
    error(client.post(f"{API}/clubs/create", {"name": "X", "contact_email": "nope"}), 400, "email")
    assert Club.objects.count() == 1


def test_anonymous_writes_are_refused():
    club = ClubFactory()
    anonymous = client_for()
    error(anonymous.post(f"{API}/clubs/create", {"name": "X"}), 403, "not_authenticated")
    error(anonymous.post(f"{API}/clubs/{club.pk}/update", {"name": "X"}), 403, "not_authenticated")
    error(anonymous.get(f"{API}/me"), 403, "not_authenticated")
    assert Club.objects.count() == 1


def test_only_organizers_of_the_pena_update_it():
    club = ClubFactory(name="Vieja")
    url = f"{API}/clubs/{club.pk}/update"
    outsider = member(ClubFactory(), OWNER)
    error(client_for(outsider).post(url, {"name": "Robada"}), 403, "not_organizer")
    error(client_for(member(club, MEMBER)).post(url, {"name": "Socia"}), 403, "not_organizer")
    response = client_for(member(club, ORGANIZER)).post(url, {"town": "Lekeitio"}, format="json")
    assert response.status_code == 200
    assert (response.json()["name"], response.json()["town"]) == ("Vieja", "Lekeitio")


def test_basic_auth_works_for_scripts():
    user = UserFactory(username="ane", password="sekretu-luzea")
    token = base64.b64encode(b"ane:sekretu-luzea").decode()
    response = APIClient().get(f"{API}/me", HTTP_AUTHORIZATION=f"Basic {token}", secure=True)
    assert response.status_code == 200
    assert response.json()["username"] == user.username
    wrong = base64.b64encode(b"ane:wrong").decode()
    bad = APIClient().get(f"{API}/me", HTTP_AUTHORIZATION=f"Basic {wrong}", secure=True)
    error(bad, 403, "authentication_failed")


def test_default_preset_is_a_builtin_or_own_preset():
    club = ClubFactory()
    client = client_for(member(club))
    builtin = RuleSetPreset.objects.get(club=None, name="4 reyes a 25")
    url = f"{API}/clubs/{club.pk}/default-preset"
    response = client.post(url, {"preset_id": builtin.pk}, format="json")
    assert response.status_code == 200
    assert response.json()["default_preset_id"] == builtin.pk
    foreign = RuleSetPreset.objects.create(club=ClubFactory(), name="Ajena")
    error(client.post(url, {"preset_id": foreign.pk}, format="json"), 400, "preset_not_available")
    assert client.post(url, {"preset_id": None}, format="json").json()["default_preset_id"] is None


# --- Members ----------------------------------------------------------------------------------


def test_members_manage_flow_and_last_owner_protection():
    club = ClubFactory(name="Peña Txoko")
    owner = member(club, OWNER)
    UserFactory(username="maite")
    client = client_for(owner)

    added = client.post(f"{API}/clubs/{club.pk}/members/add", {"username": "maite"}, format="json")
    assert added.status_code == 201
    assert (added.json()["username"], added.json()["role"]) == ("maite", MEMBER)
    maite_id = added.json()["user_id"]
    error(
        client.post(f"{API}/clubs/{club.pk}/members/add", {"username": "maite"}), 409,
        "already_member",
    )  # fmt: skip
    error(client.post(f"{API}/clubs/{club.pk}/members/add", {"username": "x"}), 400, "unknown_user")

    promoted = client.post(f"{API}/clubs/{club.pk}/members/{maite_id}/role", {"role": ORGANIZER})
    assert promoted.status_code == 200
    assert promoted.json()["role"] == ORGANIZER
    error(
        client.post(f"{API}/clubs/{club.pk}/members/{maite_id}/role", {"role": "boss"}), 400, "role"
    )

    last = client.post(f"{API}/clubs/{club.pk}/members/{owner.pk}/role", {"role": MEMBER})
    message = error(last, 409, "last_owner")["message"]
    assert "last owner" in message and "Peña Txoko" in message
    error(client.post(f"{API}/clubs/{club.pk}/members/{owner.pk}/remove"), 409, "last_owner")

    listing = client.get(f"{API}/clubs/{club.pk}/members")
    assert [(m["username"], m["role"]) for m in listing.json()] == [
        (owner.username, OWNER),
        ("maite", ORGANIZER),
    ]
    assert client.post(f"{API}/clubs/{club.pk}/members/{maite_id}/remove").status_code == 204
    error(client.post(f"{API}/clubs/{club.pk}/members/{maite_id}/remove"), 404, "member_not_found")
    assert list(Membership.objects.filter(club=club).values_list("user", "role")) == [
        (owner.pk, OWNER)
    ]


def test_members_are_private_to_the_pena_and_managed_by_owners_only():
    club = ClubFactory()
    owner = member(club, OWNER)
    organizer = member(club, ORGANIZER)
    outsider = member(ClubFactory(), OWNER)
    UserFactory(username="koldo")

    error(client_for(outsider).get(f"{API}/clubs/{club.pk}/members"), 403, "not_member")
    error(client_for().get(f"{API}/clubs/{club.pk}/members"), 403, "not_member")
    assert client_for(member(club, MEMBER)).get(f"{API}/clubs/{club.pk}/members").status_code == 200
    for user in (organizer, outsider):
        add = client_for(user).post(f"{API}/clubs/{club.pk}/members/add", {"username": "koldo"})
        error(add, 403, "not_owner")
        role = client_for(user).post(
            f"{API}/clubs/{club.pk}/members/{owner.pk}/role", {"role": MEMBER}
        )
        error(role, 403, "not_owner")
    assert not Membership.objects.filter(user__username="koldo").exists()
    assert Membership.objects.get(user=owner).role == OWNER


def test_me_lists_the_users_penas():
    user = UserFactory(username="ane")
    b, a = ClubFactory(name="B"), ClubFactory(name="A")
    MembershipFactory(club=b, user=user, role=MEMBER)
    MembershipFactory(club=a, user=user, role=ORGANIZER)
    body = client_for(user).get(f"{API}/me").json()
    assert body["username"] == "ane"
    assert [(m["club"]["name"], m["role"]) for m in body["memberships"]] == [
        ("A", ORGANIZER),
        ("B", MEMBER),
    ]
    mine = client_for(user).get(f"{API}/clubs", {"mine": "true"}).json()
    assert [c["name"] for c in mine] == ["A", "B"]


# --- Players ----------------------------------------------------------------------------------


def test_organizers_create_search_update_and_remove_players():
    club = ClubFactory()
    client = client_for(member(club))
    created = client.post(
        f"{API}/clubs/{club.pk}/players/create",
        {"first_name": "Ana", "last_name": "García", "email": "ana@example.org"},
        format="json",
    )
    assert created.status_code == 201
    ana_id = created.json()["id"]
    assert created.json()["full_name"] == "Ana García"
    player_in(club, "Luis", "Pérez")

    found = client.get(f"{API}/clubs/{club.pk}/players", {"q": "garc"}).json()
    assert [p["id"] for p in found] == [ana_id]
    assert len(client.get(f"{API}/clubs/{club.pk}/players").json()) == 2

    updated = client.post(f"{API}/clubs/{club.pk}/players/{ana_id}/update", {"phone": "600"})
    assert (updated.status_code, updated.json()["phone"], updated.json()["email"]) == (
        200,
        "600",
        "ana@example.org",
    )
    error(
        client.post(f"{API}/clubs/{club.pk}/players/create", {"first_name": " "}), 400, "required"
    )
    assert client.post(f"{API}/clubs/{club.pk}/players/{ana_id}/remove").status_code == 204
    error(client.get(f"{API}/clubs/{club.pk}/players/{ana_id}"), 404, "player_not_found")
    assert Player.objects.filter(pk=ana_id).exists()


def test_players_of_another_pena_are_private():
    theirs = ClubFactory()
    secret = player_in(theirs, email="secret@example.org")
    mine = ClubFactory()
    intruder = client_for(member(mine, OWNER))

    for response in (
        intruder.get(f"{API}/clubs/{theirs.pk}/players"),
        intruder.get(f"{API}/clubs/{theirs.pk}/players/{secret.pk}"),
        intruder.post(f"{API}/clubs/{theirs.pk}/players/create", {"first_name": "X"}),
        intruder.post(f"{API}/clubs/{theirs.pk}/players/{secret.pk}/update", {"first_name": "X"}),
        client_for().get(f"{API}/clubs/{theirs.pk}/players"),
        client_for(member(theirs, MEMBER)).get(f"{API}/clubs/{theirs.pk}/players"),
    ):
        error(response, 403, "not_organizer")
        assert "secret@example.org" not in response.content.decode()
    # Through the intruder's own peña the player is not there, and cannot be pulled in.
    error(intruder.get(f"{API}/clubs/{mine.pk}/players/{secret.pk}"), 404, "player_not_found")
    pulled = intruder.post(f"{API}/clubs/{mine.pk}/players/add", {"player_id": secret.pk})
    error(pulled, 403, "player_not_visible")
    assert "secret@example.org" not in pulled.content.decode()
    secret.refresh_from_db()
    assert list(secret.clubs.all()) == [theirs]
    assert Player.objects.count() == 1


def test_an_organizer_of_two_penas_adds_a_player_to_the_second():
    one, two = ClubFactory(), ClubFactory()
    organizer = member(one)
    MembershipFactory(club=two, user=organizer)
    ana = player_in(one)
    client = client_for(organizer)
    response = client.post(f"{API}/clubs/{two.pk}/players/add", {"player_id": ana.pk})
    assert response.status_code == 200
    assert [p["id"] for p in client.get(f"{API}/clubs/{two.pk}/players").json()] == [ana.pk]
    error(
        client.post(f"{API}/clubs/{two.pk}/players/add", {"player_id": 99999}),
        404,
        "player_unknown",
    )


# --- Pairs ------------------------------------------------------------------------------------


def test_pairs_create_list_rename_and_from_names():
    club = ClubFactory()
    client = client_for(member(club))
    ana, luis = player_in(club, "Ana", "García"), player_in(club, "Luis", "Pérez")
    url = f"{API}/clubs/{club.pk}/pairs"

    created = client.post(
        f"{url}/create", {"player_one_id": ana.pk, "player_two_id": luis.pk}, format="json"
    )
    assert created.status_code == 201
    pair = created.json()
    assert pair["display_name"] == "Ana García / Luis Pérez"
    assert pair["player_one"] == {"id": ana.pk, "first_name": "Ana", "last_name": "García"}

    again = client.post(f"{url}/create", {"player_one_id": luis.pk, "player_two_id": ana.pk})
    assert error(again, 409, "pair_exists")["params"]["pair_id"] == pair["id"]
    twice = client.post(f"{url}/create", {"player_one_id": ana.pk, "player_two_id": ana.pk})
    error(twice, 400, "same_player")

    found = client.post(f"{url}/from-names", {"text": " luis perez /  ANA garcia "})
    assert (found.status_code, found.json()["id"]) == (200, pair["id"])
    fresh = client.post(f"{url}/from-names", {"text": "Koldo Arregi / Ane Lasa"})
    assert fresh.status_code == 200
    assert fresh.json()["player_two"]["first_name"] == "Ane"
    bad = client.post(f"{url}/from-names", {"text": "Koldo Arregi, Ane Lasa"})
    assert "Koldo Arregi, Ane Lasa" in error(bad, 400, "pair_line")["message"]

    renamed = client.post(f"{url}/{pair['id']}/update", {"name": "Los Txikis"})
    assert (renamed.status_code, renamed.json()["display_name"]) == (200, "Los Txikis")
    listed = client.get(url).json()
    assert {p["id"] for p in listed} == {pair["id"], fresh.json()["id"]}
    assert client.get(f"{url}/{pair['id']}").json()["name"] == "Los Txikis"
    error(client.get(f"{url}/{pair['id'] + 999}"), 404, "pair_not_found")


def test_pairs_of_another_pena_are_neither_seen_nor_touched():
    theirs = ClubFactory()
    pair = PairFactory(club=theirs)
    intruder = client_for(member(ClubFactory(), OWNER))
    url = f"{API}/clubs/{theirs.pk}/pairs"
    for response in (
        intruder.get(url),
        intruder.get(f"{url}/{pair.pk}"),
        intruder.post(f"{url}/{pair.pk}/update", {"name": "Robada"}),
        intruder.post(f"{url}/from-names", {"text": "Ana García / Luis Pérez"}),
        intruder.post(
            f"{url}/create",
            {"player_one_id": pair.player_one_id, "player_two_id": pair.player_two_id},
        ),
    ):
        error(response, 403, "not_organizer")
    pair.refresh_from_db()
    assert pair.name == ""
    assert Pair.objects.count() == 1


# --- Presets ----------------------------------------------------------------------------------


def test_builtin_and_club_presets_are_public():
    club = ClubFactory()
    RuleSetPreset.objects.create(club=club, name="De casa", kings=4, stones_per_game=30)
    RuleSetPreset.objects.create(club=ClubFactory(), name="De otros")
    anonymous = client_for()
    builtin = anonymous.get(f"{API}/presets").json()
    assert sorted(p["name"] for p in builtin) == ["4 reyes a 25", "4 reyes a 30", "8 reyes a 40"]
    assert all(p["builtin"] for p in builtin)
    listed = anonymous.get(f"{API}/clubs/{club.pk}/presets").json()
    assert [(p["name"], p["builtin"]) for p in listed][-1] == ("De casa", False)
    assert len(listed) == 4


def test_organizers_manage_their_presets_validated_by_the_rules_engine():
    club = ClubFactory()
    client = client_for(member(club))
    url = f"{API}/clubs/{club.pk}/presets"

    created = client.post(
        f"{url}/create",
        {"name": "Fiestas", "kings": 4, "stones_per_game": 30, "dejes": False},
        format="json",
    )
    assert created.status_code == 201
    body = created.json()
    assert (body["kings"], body["stones_per_game"], body["dejes"], body["games_per_vaca"]) == (
        4,
        30,
        False,
        3,
    )
    bad = client.post(f"{url}/create", {"name": "Mala", "kings": 6}, format="json")
    assert "Kings must be 8 or 4" in error(bad, 400, "kings")["message"]
    out_of_range = client.post(f"{url}/create", {"name": "Mala", "stones_per_game": 5})
    error(out_of_range, 400, "stones_per_game")
    error(client.post(f"{url}/create", {"name": "fiestas"}), 409, "preset_name_taken")
    assert not RuleSetPreset.objects.filter(name="Mala").exists()

    preset_id = body["id"]
    updated = client.post(f"{url}/{preset_id}/update", {"real_31": "figure_777"}, format="json")
    assert (updated.status_code, updated.json()["real_31"]) == (200, "figure_777")
    error(client.post(f"{url}/{preset_id}/update", {"real_31": "maybe"}), 400, "real_31")

    builtin = RuleSetPreset.objects.get(club=None, name="8 reyes a 40")
    error(client.post(f"{url}/{builtin.pk}/update", {"kings": 4}), 403, "builtin_preset")
    error(client.post(f"{url}/{builtin.pk}/delete"), 403, "builtin_preset")
    assert client.get(f"{url}/{builtin.pk}").json()["builtin"] is True

    assert client.post(f"{url}/{preset_id}/delete").status_code == 204
    error(client.get(f"{url}/{preset_id}"), 404, "preset_not_found")
    builtin.refresh_from_db()
    assert builtin.kings == 8


def test_presets_of_another_pena_cannot_be_written():
    theirs = ClubFactory()
    preset = RuleSetPreset.objects.create(club=theirs, name="Suya")
    intruder = client_for(member(ClubFactory(), OWNER))
    url = f"{API}/clubs/{theirs.pk}/presets"
    error(intruder.post(f"{url}/create", {"name": "Mía"}), 403, "not_organizer")
    error(intruder.post(f"{url}/{preset.pk}/update", {"kings": 4}), 403, "not_organizer")
    error(intruder.post(f"{url}/{preset.pk}/delete"), 403, "not_organizer")
    preset.refresh_from_db()
    assert preset.kings == 8
    assert RuleSetPreset.objects.filter(club=theirs).count() == 1


# --- Query counts -----------------------------------------------------------------------------


def queries(client: APIClient, url: str, **params) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params)
    assert response.status_code == 200, response.content
    return len(captured)


def grow(club: Club, user, n: int) -> None:
    """n more rows of every list a peña (and its owner) has."""
    for i in range(n):
        one = player_in(club, f"Uno{i}", "García")
        two = player_in(club, f"Dos{i}", "Pérez")
        PairFactory(player_one=one, player_two=two, club=club)
        MembershipFactory(club=club, role=MEMBER)
        RuleSetPreset.objects.create(club=club, name=f"Reglas {club.presets.count()}")
        MembershipFactory(club=ClubFactory(), user=user, role=MEMBER)


@pytest.mark.parametrize(
    "path",
    ["clubs", "clubs/{club}/members", "clubs/{club}/players", "clubs/{club}/pairs",
     "clubs/{club}/presets", "presets", "me"],
)  # fmt: skip
def test_list_endpoints_cost_the_same_queries_however_long(path, django_assert_max_num_queries):
    club = ClubFactory()
    user = member(club, OWNER)
    client = client_for(user)
    url = f"{API}/{path.format(club=club.pk)}"
    grow(club, user, 2)
    few = queries(client, url)
    grow(club, user, 25)
    with django_assert_max_num_queries(few):
        response = client.get(url)
    rows = response.json()["memberships"] if path == "me" else response.json()
    assert len(rows) == 3 if path == "presets" else len(rows) >= 27  # the list did grow
    assert few <= 6  # session, user, role check, the list and its joins


def test_ids_beyond_any_row_are_not_found_never_a_server_error():
    club = ClubFactory()
    client = client_for(member(club, OWNER))
    huge = 10**20  # wider than a bigint column: SQLite overflows on some lookups
    url = f"{API}/clubs/{club.pk}"
    error(client.get(f"{API}/clubs/{huge}"), 404, "club_not_found")
    error(client.post(f"{url}/members/{huge}/role", {"role": MEMBER}), 404, "member_not_found")
    error(client.post(f"{url}/players/{huge}/update", {"phone": "1"}), 404, "player_not_found")
    error(client.post(f"{url}/players/add", {"player_id": huge}), 404, "player_unknown")
    pair = client.post(f"{url}/pairs/create", {"player_one_id": huge, "player_two_id": 1})
    error(pair, 400, "player_not_in_club")
    error(client.post(f"{url}/presets/{huge}/delete"), 404, "preset_not_found")


def test_a_penas_email_language_is_set_at_creation_and_changed_by_its_organizers():
    owner = UserFactory()
    created = client_for(owner).post(f"{API}/clubs/create", {"name": "Peña Txoko"}, format="json")
    assert created.status_code == 201 and created.json()["language"] == "es"  # the default
    club_id = created.json()["id"]
    changed = client_for(owner).post(
        f"{API}/clubs/{club_id}/update", {"language": "eu"}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["language"] == "eu"
    assert Club.objects.get(pk=club_id).language == "eu"
    wrong = client_for(owner).post(
        f"{API}/clubs/{club_id}/update", {"language": "klingon"}, format="json"
    )
    body = error(wrong, 400, "club_language")
    assert body["params"]["languages"] == ["es", "en", "eu", "fr"]
    assert "klingon" in body["message"]
    assert Club.objects.get(pk=club_id).language == "eu"  # nothing changed
    spanish = client_for(owner)
    spanish.credentials(HTTP_ACCEPT_LANGUAGE="es")
    body = spanish.post(f"{API}/clubs/create", {"name": "Otra", "language": "xx"}, format="json")
    assert "El idioma de los correos" in body.json()["error"]["message"]
    assert not Club.objects.filter(name="Otra").exists()
    stranger = client_for(member(Club.objects.get(pk=club_id), role=MEMBER))
    refused = stranger.post(f"{API}/clubs/{club_id}/update", {"language": "fr"}, format="json")
    assert refused.status_code == 403
