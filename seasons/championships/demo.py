"""The demo's championship: qualifiers in three peñas, quotas, eligibility and a final played
to its champion, loaded by ``manage.py demo`` (seasons/demo.py) through the same services the
pages and the API call.

Responsible for:

- a third peña, "Peña Erribera" (Tudela), owned by the demo's organizer, with 14 players;
- "Campeonato de Navarra de Mus 2026" of Peña Txoko, whose centres are Peña Txoko, Peña
  Lizarra (the circuit's second peña) and Peña Erribera, with two stages: the qualifiers (one
  pair per 4 that play, at least one) and the final; a pair may change one player on the day;
- a qualifier in each centre, a Swiss of two rounds played through the tables' links and
  finished: 8 pairs at Txoko (2 qualify), 4 at Lizarra (1), 6 at Erribera (1); their
  qualified pairs flow into the final as the task would;
- the eligibility at work: a player eliminated at Txoko is refused as a new player of a
  finalist pair, and a player of Erribera who played no qualifier takes the place of one of
  its finalists on the day (the one change the championship allows);
- the final, a knockout of the four qualified pairs, played to its champion;
- ``championship_demo_delete``: the rows above, for ``--reset`` (before the circuit's, which
  deletes Peña Lizarra).

Must not: write a row a service could write (the exceptions: the draw seeds, fixed so that the
demo is the same on every machine, and the deletion).

Terms: campeonato (championship), centro (centre), clasificatoria (qualifier), cupo (quota),
final, suplente (substitute), cuadro (bracket).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from clubs.demo import club_demo_delete
from clubs.models import Club, Pair
from clubs.services import club_create, pair_create, player_create
from config.errors import DomainError, error_message
from seasons.championships.models import Championship, StageTournament
from seasons.championships.services import (
    centre_add,
    championship_create,
    stage_add,
    stage_tournament_add,
    tournament_flow,
)
from tournaments.demo import demo_games, tournaments_demo_delete
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.services.bulk import entries_register_pairs
from tournaments.services.registration import (
    entries_check_in_all,
    entry_member_change,
)
from tournaments.services.results import match_result_submit
from tournaments.services.rounds import (
    bracket_advance,
    phase_create,
    phase_finish,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh
from tournaments.services.tournaments import tournament_create, tournament_status_change

SLUG = "campeonato-de-navarra-2026"
NAME = "Campeonato de Navarra de Mus 2026"
THIRD_SLUG = "pena-erribera"
THIRD_NAME = "Peña Erribera"
SEED = 20260912
THIRD_PLAYERS = (
    ("Fermín", "Arellano"),
    ("Pilar", "Sola"),
    ("Javier", "Ochoa"),
    ("Elena", "Pérez de Larraya"),
    ("Mikel", "Cabezón"),
    ("Sonia", "Arriazu"),
    ("Pedro", "Aguado"),
    ("Marta", "Lasheras"),
    ("Andrés", "Navascués"),
    ("Lucía", "Garbayo"),
    ("Diego", "Sanz"),
    ("Irene", "Moreno"),
    ("Ramón", "Chivite"),  # plays no qualifier: the finalists' change on the day
    ("Begoña", "Ayensa"),
)
LIZARRA_MORE = (("Koldo", "Azcona"), ("Amaia", "Zabalza"), ("Unai", "Urra"), ("Ane", "Goñi"))


@dataclass
class ChampionshipDemo:
    championship: Championship
    third: Club
    final: Tournament
    refusal: str


def championship_demo_load(
    *, user, club: Club, pairs: list[Pair], second: Club, second_pairs: list[Pair], log=print
) -> ChampionshipDemo:
    rng = random.Random(SEED)
    third = club_create(
        user=user, name=THIRD_NAME, slug=THIRD_SLUG, town="Tudela", region="Navarra"
    )
    people = [
        player_create(user=user, club=third, first_name=first, last_name=last)
        for first, last in THIRD_PLAYERS
    ]
    third_pairs = [
        pair_create(
            user=user, club=third, player_one_id=people[i].pk, player_two_id=people[i + 1].pk
        )
        for i in range(0, 12, 2)
    ]
    championship = championship_create(
        actor=user, club=club, name=NAME, slug=SLUG, region="Navarra", season="2026"
    )
    centres = {
        c.pk: centre_add(actor=user, championship=championship, club_id=c.pk)
        for c in (club, second, third)
    }
    qualifiers = stage_add(
        actor=user,
        championship=championship,
        kind="qualifiers",
        name="Clasificatorias",
        quota_rule="proportional",
        quota_number=4,
        quota_minimum=1,
        deadline=dt.date(2026, 9, 30),
    )
    final_stage = stage_add(actor=user, championship=championship, kind="final", name="Final")
    final = _tournament(user, club, "Final del Campeonato de Navarra", "final-navarra", 10, 17)
    stage_tournament_add(
        actor=user, championship=championship, stage_id=final_stage.pk, tournament_id=final.pk
    )
    fields = ((club, pairs[24:32], 5), (second, second_pairs, 12), (third, third_pairs, 19))
    for host, field, day in fields:
        qualifier = _tournament(
            user, host, f"Clasificatoria de {host.name}", "clasificatoria-navarra", 9, day
        )
        stage_tournament_add(
            actor=user,
            championship=championship,
            stage_id=qualifiers.pk,
            tournament_id=qualifier.pk,
            centre_id=centres[host.pk].pk,
        )
        _play_swiss(user, qualifier, field, rng)
        tournament_flow(tournament_id=qualifier.pk)  # as the task queued by its end would
    log(f"{NAME}: three qualifiers played; their qualified pairs are in the final.")
    refusal = _member_changes(user, final, pairs[24:32], people[12])
    log(f"{NAME}: {refusal}")
    _play_final(user, final, rng)
    log(f"{NAME}: the final played to its champion.")
    return ChampionshipDemo(championship, third, final, refusal)


def _tournament(user, club: Club, name: str, slug: str, month: int, day: int) -> Tournament:
    when = dt.date(2026, month, day)
    tournament = tournament_create(
        club_slug=club.slug,
        actor=user,
        name=name,
        slug=slug,
        starts_on=when,
        ends_on=when,
        tables_available=4,
        preset="8 reyes a 40",
        via="demo",
    )
    Tournament.objects.filter(pk=tournament.pk).update(draw_seed=SEED + month * 31 + day)
    tournament_status_change(tournament=tournament, actor=user, status="registration", via="demo")
    return tournament


def _play(user, rnd: Round, rng: random.Random) -> None:
    for match in Match.objects.filter(round=rnd).exclude(kind=Match.Kind.BYE):
        games = demo_games(rng, winner=rng.choice("ab"))
        first = match_result_submit(
            match=match,
            side="a",
            payload={"games": games},
            idempotency_key=f"demo-ch-{match.pk}-a",
            version=0,
            via="link",
        )
        match_result_submit(
            match=match,
            side="b",
            payload={"games": games},
            idempotency_key=f"demo-ch-{match.pk}-b",
            version=first.match.version,
            via="link",
        )


def _play_swiss(user, tournament: Tournament, field: list[Pair], rng: random.Random) -> None:
    entries_register_pairs(tournament=tournament, pairs=field, actor=user, via="demo")
    tournament_status_change(tournament=tournament, actor=user, status="running", via="demo")
    entries_check_in_all(tournament=tournament, actor=user, via="demo")
    phase = phase_create(
        tournament=tournament,
        actor=user,
        name="Suizo a dos rondas",
        format=Phase.Format.SWISS,
        rounds_planned=2,
    )
    for _ in range(2):
        rnd = round_publish(round=round_draw_generate(phase=phase, actor=user), actor=user)
        _play(user, rnd, rng)
        round_close(round=rnd, actor=user)
    phase_finish(phase=phase, actor=user)
    standings_refresh(phase=phase)  # as the task would, so that the flow reads them
    tournament.refresh_from_db()
    tournament_status_change(tournament=tournament, actor=user, status="finished", via="demo")


def _member_changes(user, final: Tournament, txoko_pairs: list[Pair], newcomer) -> str:
    """A finalist of Erribera changes a player on the day: first for a player eliminated at
    Txoko (refused: the message is returned), then for one of its own who played no
    qualifier."""
    stop = StageTournament.objects.get(tournament=final)
    erribera = (
        Entry.objects.filter(tournament=final, pair__club__slug=THIRD_SLUG)
        .select_related("pair")
        .first()
    )
    qualified = set(stop.incoming.values_list("pair_id", flat=True))
    eliminated = next(p for p in txoko_pairs if p.pk not in qualified)
    try:
        entry_member_change(
            tournament=final,
            entry_id=erribera.pk,
            replaced_player_id=erribera.pair.player_two_id,
            player_id=eliminated.player_one_id,
            actor=user,
            via="demo",
        )
        refusal = ""
    except DomainError as error:
        refusal = error_message(error)
    entry_member_change(
        tournament=final,
        entry_id=erribera.pk,
        replaced_player_id=erribera.pair.player_two_id,
        player_id=newcomer.pk,
        actor=user,
        via="demo",
    )
    return refusal


def _play_final(user, final: Tournament, rng: random.Random) -> None:
    tournament_status_change(tournament=final, actor=user, status="running", via="demo")
    entries_check_in_all(tournament=final, actor=user, via="demo")
    phase = phase_create(
        tournament=final, actor=user, name="Eliminatoria", format=Phase.Format.SINGLE_ELIMINATION
    )
    rnd = round_draw_generate(phase=phase, actor=user)
    while rnd is not None:
        round_publish(round=rnd, actor=user)
        _play(user, rnd, rng)
        bracket_advance(phase=phase)  # as the task after each result would
        round_close(round=rnd, actor=user)
        rnd = (
            Round.objects.filter(phase=phase, status=Round.Status.DRAFT).order_by("number").first()
        )
    phase_finish(phase=phase, actor=user)
    standings_refresh(phase=phase)
    final.refresh_from_db()
    tournament_status_change(tournament=final, actor=user, status="finished", via="demo")


def championship_demo_delete() -> None:
    """Delete the demo's championship, its tournaments and the third peña (before the
    circuit's deletion, which takes Peña Lizarra with its tournaments)."""
    third = Club.objects.filter(slug=THIRD_SLUG).first()
    championships = Championship.objects.filter(slug=SLUG)
    tournaments = [
        t for t in championships.values_list("stops__tournament_id", flat=True) if t is not None
    ]
    championships.delete()
    if third is not None:
        tournaments += list(Tournament.objects.filter(club=third).values_list("pk", flat=True))
    tournaments_demo_delete(tournaments)
    if third is not None:
        club_demo_delete(third)
