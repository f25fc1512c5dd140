"""The demo's ground floor: the peña, its organizer, its players and pairs.

Responsible for: the user ``organizador`` (password ``amarrako``), "Peña Txoko" (Pamplona) and
its 64 players with Navarrese and Basque names in 32 parejas (eight of them named), created
through clubs' services; ``club_demo_delete`` and ``demo_organizer_delete`` for ``--reset``.
``manage.py demo`` (seasons/demo.py) calls it first, then each floor above loads its part with
the same random generator, so that the demo is the same on every machine.

Must not: write a row a service could write (the exceptions: the login user, since users sign
up outside this app, and the deletion).

Terms: peña, pareja, organizador.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model

from clubs.models import Club, Pair, Player, PlayerMerge
from clubs.services import club_create, pair_create, pair_update, player_create

CLUB_SLUG = "pena-txoko"
CLUB_NAME = "Peña Txoko"
USERNAME = "organizador"
PASSWORD = "amarrako"
PLAYERS = 64

FIRST_NAMES = (
    "Iñaki", "Mikel", "Josu", "Aitor", "Xabier", "Koldo", "Patxi", "Txema", "Fermín", "Javier",
    "Jesús", "Ángel", "Carlos", "Luis", "Unai", "Gorka", "Iker", "Asier", "Julen", "Joseba",
    "Ane", "Maite", "Miren", "Itziar", "Amaia", "Nerea", "Edurne", "Arantxa", "Begoña",
    "Pilar", "Carmen", "Rosa", "Ainhoa", "Leire", "Idoia", "Blanca", "Elena", "Teresa",
    "Sagrario", "Puri",
)  # fmt: skip
SURNAMES = (
    "Etxeberria", "Goñi", "Arrieta", "Urdiain", "Zabaleta", "Irujo", "Lizarraga", "Arbizu",
    "Echávarri", "Oroz", "Larraona", "Iribarren", "Mendive", "Aldaz", "Sola", "Ezcurra",
    "Aranguren", "Elizalde", "Azpilicueta", "Induráin", "Erro", "Lacarra", "Sarasa", "Otano",
    "Apesteguía", "Gorráiz", "Úriz", "Jiménez", "Martínez", "García", "Pérez", "Navarro",
)  # fmt: skip
PAIR_NAMES = (
    "Los de la Txantrea",
    "Txikiteros de San Juan",
    "Órdago y Quiero",
    "Los del Burgo",
    "Amarrako Taldea",
    "Las de la Rotxapea",
    "Duples de Reyes",
    "Mus y Pacharán",
)


def demo_organizer(*, log=print):
    """The demo's organizer (its password is left alone when the user exists)."""
    users = get_user_model()
    user = users.objects.filter(username=USERNAME).first()
    if user is None:
        user = users.objects.create_user(
            username=USERNAME, password=PASSWORD, first_name="Fermín", last_name="Etxeberria"
        )
    else:
        log(f"The user {USERNAME} already exists: its password was left as it was.")
    return user


def club_demo_load(*, user, rng: random.Random, log=print) -> tuple[Club, list[Pair]]:
    """The demo peña with its players and pairs (eight of them named)."""
    club = club_create(
        user=user,
        name=CLUB_NAME,
        slug=CLUB_SLUG,
        town="Pamplona",
        region="Navarra",
        contact_email="txoko@example.org",
        contact_phone="948 22 71 07",
    )
    names: list[tuple[str, str]] = []
    seen = set()
    while len(names) < PLAYERS:
        first = rng.choice(FIRST_NAMES)
        last = " ".join(rng.sample(SURNAMES, 2))
        if (first, last) not in seen:
            seen.add((first, last))
            names.append((first, last))
    players = [
        player_create(
            user=user,
            club=club,
            first_name=first,
            last_name=last,
            phone=f"6{rng.randrange(10**8):08d}",
        )
        for first, last in names
    ]
    pairs = [
        pair_create(
            user=user,
            club=club,
            player_one_id=players[i].pk,
            player_two_id=players[i + 1].pk,
        )
        for i in range(0, PLAYERS, 2)
    ]
    for pair, name in zip(rng.sample(pairs, len(PAIR_NAMES)), PAIR_NAMES, strict=True):
        pair_update(user=user, club=club, pair_id=pair.pk, name=name)
    log(f"{CLUB_NAME}: {len(players)} players, {len(pairs)} pairs.")
    return club, pairs


def club_demo_delete(club: Club) -> None:
    """A demo peña's pairs, the peña and its players who belong to no other peña. The floors
    above delete their rows first (their tournaments' entries protect the pairs). A player a
    merge names (clubs.identity: its audit row, or a row merged into it) is kept."""
    players = list(Player.objects.filter(clubs=club).values_list("pk", flat=True))
    Pair.objects.filter(club=club).delete()
    club.delete()
    merged = set(PlayerMerge.objects.values_list("keep_id", flat=True)) | set(
        PlayerMerge.objects.values_list("other_id", flat=True)
    )
    Player.objects.filter(pk__in=players, clubs=None, user=None).exclude(pk__in=merged).delete()


def demo_organizer_delete() -> None:
    """The demo's user, unless it is somebody's real account (an admin, a member elsewhere)."""
    get_user_model().objects.filter(
        username=USERNAME, is_superuser=False, memberships__isnull=True
    ).delete()
