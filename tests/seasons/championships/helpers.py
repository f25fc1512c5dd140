"""What the championships' tests share: a championship of a federation's peña with three
centres, a qualifiers stage and a final, and qualifiers finished with stored standings."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from clubs.models import Club
from seasons.championships.models import Centre, Championship, Stage, StageTournament
from seasons.championships.services import (
    centre_add,
    championship_create,
    stage_add,
    stage_tournament_add,
)
from tests.factories import MembershipFactory, PairFactory, PhaseFactory, TournamentFactory
from tournaments.models import Entry, StandingsSnapshot, Tournament
from tournaments.services.registration import entry_register


@dataclass
class Season:
    championship: Championship
    organizer: object
    host: Club
    centres: list[Centre]
    centre_organizers: list[object]
    qualifiers: Stage
    final_stage: Stage
    final: Tournament

    def centre(self, n: int) -> Centre:
        return self.centres[n]


def season(*, quota_rule="proportional", quota_number=4, quota_minimum=1, member_changes=1):
    """A championship of a host peña, three centres (each with its organizer), qualifiers
    (one pair per 4 that play, at least one, by default) and a final open for registration."""
    membership = MembershipFactory()
    organizer, host = membership.user, membership.club
    championship = championship_create(
        actor=organizer,
        club=host,
        name="Campeonato de Euskal Herria",
        region="Euskal Herria",
        season="2026",
        member_changes=member_changes,
    )
    centres, centre_organizers = [], []
    for _ in range(3):
        m = MembershipFactory()
        centres.append(centre_add(actor=organizer, championship=championship, club_id=m.club.pk))
        centre_organizers.append(m.user)
    qualifiers = stage_add(
        actor=organizer,
        championship=championship,
        kind="qualifiers",
        name="Clasificatorias",
        quota_rule=quota_rule,
        quota_number=quota_number,
        quota_minimum=quota_minimum,
        deadline=dt.date(2026, 10, 31),
    )
    final_stage = stage_add(actor=organizer, championship=championship, kind="final", name="Final")
    final = TournamentFactory(club=host, is_public=True, name="Gran final")
    stage_tournament_add(
        actor=organizer, championship=championship, stage_id=final_stage.pk, tournament_id=final.pk
    )
    return Season(
        championship, organizer, host, centres, centre_organizers, qualifiers, final_stage, final
    )


def qualifier(s: Season, n: int, *, pairs: int, day: int = 1) -> tuple[Tournament, list[Entry]]:
    """Centre n's qualifier with ``pairs`` pairs of its peña, registered through the
    registration service (the eligibility rules apply), in registration."""
    centre = s.centre(n)
    tournament = TournamentFactory(
        club=centre.club,
        is_public=True,
        starts_on=dt.date(2026, 9, day),
        name=f"Clasificatoria {n}",
    )
    stage_tournament_add(
        actor=s.centre_organizers[n],
        championship=s.championship,
        stage_id=s.qualifiers.pk,
        tournament_id=tournament.pk,
    )
    entries = [
        entry_register(
            tournament=tournament,
            pair_id=PairFactory(club=centre.club).pk,
            actor=s.centre_organizers[n],
        )
        for _ in range(pairs)
    ]
    return tournament, entries


def finish(tournament: Tournament, ranked: list[Entry]) -> None:
    """The tournament finished, its one phase's stored standings ranking ``ranked`` in order
    (the first is first)."""
    phase = tournament.phases.first() or PhaseFactory(tournament=tournament, order=1)
    StandingsSnapshot.objects.update_or_create(
        phase=phase,
        group=None,
        defaults={"rows": [{"rank": i + 1, "entry_id": e.pk} for i, e in enumerate(ranked)]},
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tournament.refresh_from_db()


def stop_of(tournament: Tournament) -> StageTournament:
    return StageTournament.objects.get(tournament=tournament)


def final_pairs(s: Season) -> list[int]:
    return list(
        Entry.objects.filter(tournament=s.final)
        .exclude(status=Entry.Status.WITHDRAWN)
        .order_by("pk")
        .values_list("pair_id", flat=True)
    )


def play_to_the_end(tournament: Tournament, actor, *, seed: int = 7) -> None:
    """Play a tournament through the services, as its desk and the tables' phones would: check
    everybody in, a Swiss of two rounds, every partida submitted from both sides, and finish
    it (tournaments then queue the championship's flow by name, after the commit)."""
    import random

    from tournaments.demo import demo_games
    from tournaments.models import Match, Phase
    from tournaments.services.registration import entries_check_in_all
    from tournaments.services.results import match_result_submit
    from tournaments.services.rounds import (
        phase_create,
        phase_finish,
        round_close,
        round_draw_generate,
        round_publish,
    )
    from tournaments.services.standings import standings_refresh
    from tournaments.services.tournaments import tournament_status_change

    rng = random.Random(seed)
    tournament_status_change(tournament=tournament, actor=actor, status="running")
    entries_check_in_all(tournament=tournament, actor=actor)
    phase = phase_create(
        tournament=tournament,
        actor=actor,
        name="Suizo",
        format=Phase.Format.SWISS,
        rounds_planned=2,
    )
    for _ in range(2):
        rnd = round_publish(round=round_draw_generate(phase=phase, actor=actor), actor=actor)
        for match in Match.objects.filter(round=rnd).exclude(kind=Match.Kind.BYE):
            games = demo_games(rng, winner=rng.choice("ab"))
            first = match_result_submit(
                match=match,
                side="a",
                payload={"games": games},
                idempotency_key=f"t-{match.pk}-a",
                version=0,
                via="link",
            )
            match_result_submit(
                match=match,
                side="b",
                payload={"games": games},
                idempotency_key=f"t-{match.pk}-b",
                version=first.match.version,
                via="link",
            )
        round_close(round=rnd, actor=actor)
    phase_finish(phase=phase, actor=actor)
    standings_refresh(phase=phase)
    tournament.refresh_from_db()
    tournament_status_change(tournament=tournament, actor=actor, status="finished")
