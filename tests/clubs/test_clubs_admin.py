"""The clubs admin: every list, search, change and add page renders for staff."""

from __future__ import annotations

import pytest

from tests.factories import MembershipFactory, PairFactory, PresetFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("model", "make", "shown"),
    [
        ("club", lambda: MembershipFactory().club, lambda row: row.name),
        ("membership", MembershipFactory, lambda row: row.user.username),
        ("player", lambda: PairFactory().player_one, lambda row: row.first_name),
        ("pair", PairFactory, lambda row: row.player_one.first_name),
        ("rulesetpreset", PresetFactory, lambda row: row.name),
    ],
)
def test_admin_pages_render(client, settings, model, make, shown):
    row = make()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    listing = client.get(f"/admin/clubs/{model}/")
    assert listing.status_code == 200
    assert shown(row) in listing.content.decode()
    assert client.get(f"/admin/clubs/{model}/", {"q": shown(row)}).status_code == 200
    assert client.get(f"/admin/clubs/{model}/{row.pk}/change/").status_code == 200
    assert client.get(f"/admin/clubs/{model}/add/").status_code == 200


def test_the_merges_are_read_only_in_the_admin(client):
    from clubs.identity.services import player_merge
    from tests.clubs.identity_data import world

    w = world()
    merge = player_merge(actor=w.organizer_both, keep=w.ana, other=w.ana_lizarra)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    listing = client.get("/admin/clubs/playermerge/")
    assert listing.status_code == 200 and "Ana Uno" in listing.content.decode()
    assert client.get(f"/admin/clubs/playermerge/{merge.pk}/change/").status_code == 200
    assert client.get("/admin/clubs/playermerge/add/").status_code == 403
    assert client.post(f"/admin/clubs/playermerge/{merge.pk}/delete/").status_code == 403
