"""Two player rows of one person, each with a history in a peña of its own, for the identity's
tests: pairs, entries, a substitute's match, a player alone, peñas, and what points at them."""

from __future__ import annotations

import dataclasses

from clubs.identity.references import relations
from clubs.models import Club, Player
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MatchFactory,
    MembershipFactory,
    PairFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import IndividualEntry, Match, Substitution, Tournament


@dataclasses.dataclass
class World:
    txoko: Club
    lizarra: Club
    #: "Ana Uno" of Peña Txoko and "ana  UNO" (with an accent) of Peña Lizarra
    ana: Player
    ana_lizarra: Player
    organizer_txoko: object
    organizer_lizarra: object
    organizer_both: object
    tournament_txoko: Tournament
    tournament_lizarra: Tournament


def world() -> World:
    txoko = ClubFactory(name="Peña Txoko", slug="pena-txoko")
    lizarra = ClubFactory(name="Peña Lizarra", slug="pena-lizarra")
    organizer_txoko = MembershipFactory(club=txoko).user
    organizer_lizarra = MembershipFactory(club=lizarra).user
    organizer_both = UserFactory()
    MembershipFactory(club=txoko, user=organizer_both)
    MembershipFactory(club=lizarra, user=organizer_both)
    ana = PlayerFactory(first_name="Ana", last_name="Uno", email="ana@example.org")
    ana.clubs.add(txoko)
    ana_lizarra = PlayerFactory(first_name="ána", last_name=" UNO", phone="600 000 000")
    ana_lizarra.clubs.add(lizarra, txoko)  # she played a night for Txoko too

    # Txoko's tournament: Ana and a partner, against another pair
    t1 = TournamentFactory(club=txoko, status=Tournament.Status.RUNNING)
    partner = PlayerFactory(first_name="Luis", last_name="Dos")
    partner.clubs.add(txoko)
    e1 = EntryFactory(
        tournament=t1, pair=PairFactory(player_one=ana, player_two=partner, club=txoko)
    )
    e2 = EntryFactory(tournament=t1)
    rnd = RoundFactory(phase__tournament=t1, number=1)
    MatchFactory(round=rnd, entry_a=e1, entry_b=e2, status=Match.Status.CONFIRMED, winner=e1)

    # Lizarra's tournament: Ana of Lizarra in a pair and, one match, replaced by a substitute
    t2 = TournamentFactory(club=lizarra, status=Tournament.Status.RUNNING)
    other_partner = PlayerFactory(first_name="Eva", last_name="Tres")
    f1 = EntryFactory(
        tournament=t2,
        pair=PairFactory(player_one=other_partner, player_two=ana_lizarra, club=lizarra),
    )
    f2 = EntryFactory(tournament=t2)
    rnd2 = RoundFactory(phase__tournament=t2, number=1)
    match = MatchFactory(round=rnd2, entry_a=f1, entry_b=f2, status=Match.Status.CONFIRMED)
    Substitution.objects.create(
        match=match, entry=f1, replaced=ana_lizarra, substitute=PlayerFactory()
    )
    # and a tournament of players alone
    t3 = TournamentFactory(club=lizarra, entrant_kind=Tournament.EntrantKind.INDIVIDUALS)
    IndividualEntry.objects.create(tournament=t3, player=ana_lizarra)
    return World(
        txoko, lizarra, ana, ana_lizarra, organizer_txoko, organizer_lizarra, organizer_both, t1, t2
    )


def references(*players: Player) -> dict[str, list[tuple]]:
    """Every row that points at these players, by relation: its values (a link row's without
    its id, which an undo may give anew), sorted; the derived rows left out."""
    from clubs.identity.references import derived_labels

    ids = [p.pk for p in players]
    found = {}
    for relation in relations():
        if relation.label in derived_labels():
            continue
        rows = relation.model._default_manager.filter(**{f"{relation.field}__in": ids})
        values = [
            tuple(sorted((k, v) for k, v in row.items() if not (relation.link and k == "id")))
            for row in rows.values()
        ]
        found[f"{relation.label}.{relation.field}"] = sorted(values)
    return found
