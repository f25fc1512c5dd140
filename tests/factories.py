"""factory_boy factories with small defaults; chains build what a row needs (SubFactory)."""

from __future__ import annotations

import datetime as dt

import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, Membership, Pair, Player, RuleSetPreset
from tournaments.models import Entry, Group, Match, Phase, Round, Tournament


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("amarrako-test")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Peña {n}")
    slug = factory.Sequence(lambda n: f"pena-{n}")
    town = "Pamplona"


class PresetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RuleSetPreset

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Reglas {n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.ORGANIZER


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Sequence(lambda n: f"Jugador{n}")
    last_name = "García"


class PairFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pair

    player_one = factory.SubFactory(PlayerFactory)
    player_two = factory.SubFactory(PlayerFactory)
    club = factory.SubFactory(ClubFactory)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Torneo {n}")
    slug = factory.Sequence(lambda n: f"torneo-{n}")
    starts_on = dt.date(2026, 11, 28)
    tables_available = 8
    status = Tournament.Status.REGISTRATION
    stones_per_game = 40
    games_per_vaca = 2


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    pair = factory.SubFactory(PairFactory, club=factory.SelfAttribute("..tournament.club"))


class PhaseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Phase

    tournament = factory.SubFactory(TournamentFactory)
    order = factory.Sequence(lambda n: n + 1)
    name = "Suizo"
    format = Phase.Format.SWISS
    rounds_planned = 5


class GroupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Group

    phase = factory.SubFactory(PhaseFactory, format=Phase.Format.ROUND_ROBIN)
    name = factory.Sequence(lambda n: chr(ord("A") + n % 26))


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    phase = factory.SubFactory(PhaseFactory)
    number = factory.Sequence(lambda n: n + 1)
    status = Round.Status.PUBLISHED


class MatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    table_number = factory.Sequence(lambda n: n + 1)
    entry_a = factory.SubFactory(
        EntryFactory, tournament=factory.SelfAttribute("..round.phase.tournament")
    )
    entry_b = factory.SubFactory(
        EntryFactory, tournament=factory.SelfAttribute("..round.phase.tournament")
    )


def tournament_field(
    pairs: int,
    *,
    tables: int = 0,
    seeded: bool = True,
    entry_status: str = Entry.Status.CHECKED_IN,
    **tournament,
) -> tuple[Tournament, object, list[Entry]]:
    """A tournament (``tournament`` are its fields) with an organizer and ``pairs`` entries
    (checked in and seeded 1..n unless told otherwise)."""
    t = TournamentFactory(tables_available=tables, **tournament)
    organizer = MembershipFactory(club=t.club).user
    entries = [
        EntryFactory(tournament=t, status=entry_status, seed=i + 1 if seeded else None)
        for i in range(pairs)
    ]
    return t, organizer, entries
