"""The demo's tournament: "Torneo de San Fermín", half-way through, and the table's hands.

Responsible for: the tournament of the demo peña from the "8 reyes a 40" preset, every pair
checked in; a Swiss phase of 5 rounds: rounds 1 and 2 played and confirmed (both pairs of
each table enter the same games through the table's link, so the second entry confirms; two
tables of round 1 are entered hand by hand in scoring's JSON form, cards and bets, ending each
game with an órdago), round 3 published and half played (confirmed, submitted, one disputed,
one table still entering hands, the rest to play); a knockout of the Swiss' top 8 with a
third-place match, defined, not drawn yet. ``TablePlayer`` plays a match through the tables'
result flow as the phones would; the floors above (a league's jornadas) use it too.
``tournaments_demo_delete`` deletes tournaments and what they hold, for ``--reset``.

Must not: write a row a service could write (the exceptions: the tournament's draw seed, fixed
so that the draws are the same on every machine, and the deletion).

Terms: pareja, mesa, ronda, suizo (Swiss), eliminatoria, juego (a game to 40 piedras), mano,
grande, chica, pares, envite, órdago, anotador.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from clubs.models import Club, Pair
from scoring import MatchState, RuleSet, ScoringError, apply_hand, hand_from_json
from tournaments.models import Match, Phase, Round, Tournament
from tournaments.services.registration import entry_check_in, entry_register
from tournaments.services.results import (
    match_hand_add,
    match_result_confirm,
    match_result_submit,
)
from tournaments.services.rounds import (
    phase_create,
    phase_finish,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh
from tournaments.services.tournaments import tournament_create, tournament_status_change

TOURNAMENT_NAME = "Torneo de San Fermín"
PRESET = "8 reyes a 40"
#: Tournament.draw_seed: the draws depend on it, and tournament_create draws a random one.
DRAW_SEED = 7071978
SWISS_ROUNDS = 5
TABLES = 16
HANDS_TABLES_ROUND_1 = (1, 2)  # entered hand by hand by the anotador

# Cards and bets of the hands entered at the table (scoring's JSON form, docs/scoring-json.md).
DECK = tuple(f"{rank}{suit}" for suit in "oceb" for rank in "1234567SCR")
GRANDE_BETS = (
    [],
    ["envido", "quiero"],
    ["envido", "no quiero"],
    ["paso", "envido", "quiero"],
    ["envido", "2 más", "quiero"],
    ["paso", "envido", "no quiero"],
)
CHICA_BETS = ([], ["envido", "no quiero"], ["paso", "envido", "quiero"], ["envido", "quiero"])
PARES_BETS = ([], [], ["envido", "quiero"], ["envido", "no quiero"])
ORDAGO = ["órdago", "quiero"]


@dataclass
class TournamentDemo:
    """What the demo's tournament holds: enough to print the way in and to count in tests."""

    tournament: Tournament
    swiss: Phase
    knockout: Phase
    rounds: list[Round] = field(default_factory=list)
    open_table: Match | None = None


def demo_games(rng: random.Random, *, winner: str) -> list[dict]:
    """A match as each game's final stones: the winner (side ``a`` or ``b``) takes 3 juegos of
    40 piedras, the loser up to two. Every floor's demo plays its matches with it."""
    games_per_match = 3
    lost = rng.randrange(games_per_match)  # games the loser takes
    order = ["w"] * (games_per_match - 1) + ["l"] * lost
    rng.shuffle(order)
    order.append("w")  # the last game decides the match
    games = []
    for game in order:
        other = rng.randrange(8, 40)
        stones = [40, other] if (game == "w") == (winner == "a") else [other, 40]
        games.append({"stones": stones})
    return games


class TablePlayer:
    """Plays matches through the tables' result flow, as the pairs' phones would, drawing
    every choice from the demo's one random generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.keys = 0

    def tables(self, rnd: Round) -> list[Match]:
        return list(
            Match.objects.filter(round=rnd)
            .exclude(kind=Match.Kind.BYE)
            .select_related("round__phase__tournament__club")
            .order_by("table_number")
        )

    def _key(self, match: Match, what: str) -> str:
        self.keys += 1
        return f"demo-{match.pk}-{what}-{self.keys}"

    def _device(self, match: Match) -> str:
        return f"Demo phone at mesa {match.table_number}"

    def games(self, *, winner: str) -> list[dict]:
        return demo_games(self.rng, winner=winner)

    def submit(self, match: Match, side: str, games: list[dict], *, version: int = 0) -> int:
        answer = match_result_submit(
            match=match,
            side=side,
            payload={"games": games},
            idempotency_key=self._key(match, side),
            version=version,
            via="link",
            device=self._device(match),
        )
        return answer.match.version

    def play_confirmed(self, match: Match) -> None:
        """Both pairs enter the same games through the link: the second entry confirms."""
        games = self.games(winner=self.rng.choice("ab"))
        version = self.submit(match, "a", games)
        self.submit(match, "b", games, version=version)

    def play_hand_by_hand(self, match: Match, *, stop_after: int | None = None) -> None:
        """The anotador enters every hand (cards and bets); each game ends with an órdago
        after a few hands. Then pareja A sends the hands recorded and pareja B confirms."""
        rules = RuleSet.from_dict(match.round.phase.tournament.rule_values())
        state = MatchState.start(rules)
        version, number = match.version, 0
        while not state.finished and (stop_after is None or number < stop_after):
            hand = self._hand(rules, state, closing=self.rng.random() < 0.45)
            state, _ = apply_hand(state, hand_from_json(hand, rules))
            number += 1
            answer = match_hand_add(
                match=match,
                hand=hand,
                idempotency_key=self._key(match, f"hand{number}"),
                version=version,
                via="link",
                device=self._device(match),
            )
            version = answer.match.version
        if not state.finished:
            return
        answer = match_result_submit(
            match=match,
            side="a",
            payload={"hands": "recorded"},
            idempotency_key=self._key(match, "a"),
            version=version,
            via="link",
            device=self._device(match),
        )
        match_result_confirm(
            match=match,
            side="b",
            idempotency_key=self._key(match, "b"),
            version=answer.match.version,
            via="link",
            device=self._device(match),
        )

    def _hand(self, rules: RuleSet, state: MatchState, *, closing: bool) -> dict:
        """A dealt hand with plausible bets; ``closing``: an órdago in grande, accepted.

        A bet the engine refuses for these cards (e.g. an envite in pares nobody can see) is
        left out, so every hand is legal.
        """
        deck = list(DECK)
        self.rng.shuffle(deck)
        cards = [" ".join(deck[i * 4 : i * 4 + 4]) for i in range(4)]
        bets = {
            "grande": ORDAGO if closing else self.rng.choice(GRANDE_BETS),
            "chica": [] if closing else self.rng.choice(CHICA_BETS),
            "pares": [] if closing else self.rng.choice(PARES_BETS),
        }
        for lance in ("pares", "chica", "grande"):
            hand = {"cards": cards, "bets": {k: v for k, v in bets.items() if v}}
            try:
                apply_hand(state, hand_from_json(hand, rules))
                return hand
            except ScoringError:
                bets[lance] = []
        return {"cards": cards}  # everybody passed: always legal


def tournament_demo_load(
    *, user, club: Club, pairs: list[Pair], player: TablePlayer, log=print
) -> TournamentDemo:
    """The demo's tournament, half-way through (the module's docstring)."""
    tournament = _tournament(user, club, pairs, log)
    swiss = phase_create(
        tournament=tournament,
        actor=user,
        name="Suizo",
        format=Phase.Format.SWISS,
        rounds_planned=SWISS_ROUNDS,
    )
    rounds = []
    for number in (1, 2):
        rnd = _draw_and_publish(user, swiss)
        hands = HANDS_TABLES_ROUND_1 if number == 1 else ()
        for match in player.tables(rnd):
            if match.table_number in hands:
                player.play_hand_by_hand(match)
            else:
                player.play_confirmed(match)
        round_close(round=rnd, actor=user)
        rounds.append(rnd)
        log(f"Round {number} of the Swiss played and closed.")
    rnd = _draw_and_publish(user, swiss)
    open_table = _half_play(player, rnd)
    rounds.append(rnd)
    log("Round 3 of the Swiss published and half played.")
    knockout = phase_create(
        tournament=tournament,
        actor=user,
        name="Eliminatoria",
        format=Phase.Format.SINGLE_ELIMINATION,
        source_id=swiss.id,
        qualifiers_per_group=8,
        third_place=True,
    )
    return TournamentDemo(tournament, swiss, knockout, rounds, open_table)


# "Torneo de San Juan": a four-stage plan (docs/plans.md), its own generator so that adding it
# leaves every other part of the demo as it was.
PLAN_NAME = "Torneo de San Juan"
PLAN_SLUG = "san-juan"
PLAN_PAIRS = 16
PLAN_SEED = 24061978  # its draw seed and its results' generator
PLAN_SWISS_ROUNDS = 3
PLAN_GROUP_ROUNDS = 3
PLAN_PRIZES = [
    {"name": "Premio a la regularidad", "kind": "most", "measure": "won", "phases": [1, 2]},
    {"name": "Premio a la peor pareja", "kind": "fewest", "measure": "won", "phases": [1, 2]},
]


def plan_demo_load(*, user, club: Club, pairs: list[Pair], log=print) -> Tournament:
    """ "Torneo de San Juan", 16 pairs: a Swiss of 3 rounds for everybody, two groups of 8 by
    level from it playing three matches each, then a final of the top 4 of each group and a
    Cuadro B of the rest, with two prizes over phases 1–2. The Swiss and the groups are played
    and confirmed through the tables' links; the three last phases have their first round
    published, the Final grupo 1's semi-finals played: the plan's picture shows the position."""
    player = TablePlayer(random.Random(PLAN_SEED))
    tournament = _plan_tournament(user, club, pairs[:PLAN_PAIRS], log)
    swiss = phase_create(
        tournament=tournament,
        actor=user,
        name="Suizo para todos",
        format=Phase.Format.SWISS,
        rounds_planned=PLAN_SWISS_ROUNDS,
    )
    groups = phase_create(
        tournament=tournament,
        actor=user,
        name="Grupos por nivel",
        format=Phase.Format.ROUND_ROBIN,
        entrants=[{"rule": "all", "phase": 1}],
        group_size=8,
        seeding="level",
        rounds_planned=PLAN_GROUP_ROUNDS,
    )
    finals = [
        phase_create(
            tournament=tournament,
            actor=user,
            name=f"Final grupo {group}",
            format=Phase.Format.SINGLE_ELIMINATION,
            entrants=[{"rule": "group", "phase": 2, "group": group, "first": 1, "last": 4}],
        )
        for group in (1, 2)
    ]
    cuadro_b = phase_create(
        tournament=tournament,
        actor=user,
        name="Cuadro B",
        format=Phase.Format.SINGLE_ELIMINATION,
        entrants=[{"rule": "not_qualified", "phase": 2}],
    )
    for phase, rounds in ((swiss, PLAN_SWISS_ROUNDS), (groups, PLAN_GROUP_ROUNDS)):
        for _ in range(rounds):
            rnd = _draw_and_publish(user, phase)
            for match in player.tables(rnd):
                player.play_confirmed(match)
            round_close(round=rnd, actor=user)
        phase.refresh_from_db()
        if phase.status != Phase.Status.FINISHED:
            phase_finish(phase=phase, actor=user)
        log(f"{PLAN_NAME}: {phase.name} played.")
    first_rounds = [_draw_and_publish(user, phase) for phase in (*finals, cuadro_b)]
    for match in player.tables(first_rounds[0]):
        player.play_confirmed(match)
    log(f"{PLAN_NAME}: the finals and the Cuadro B drawn, the semi-finals of group 1 played.")
    return tournament


def _plan_tournament(user, club: Club, pairs: list[Pair], log) -> Tournament:
    tournament = tournament_create(
        club_slug=club.slug,
        actor=user,
        name=PLAN_NAME,
        slug=PLAN_SLUG,
        starts_on=dt.date(2026, 6, 24),
        ends_on=dt.date(2026, 6, 24),
        venue="Sociedad Txoko, calle Estafeta 12, Pamplona",
        tables_available=TABLES,
        max_pairs=len(pairs),
        preset=PRESET,
        prizes=PLAN_PRIZES,
        via="demo",
    )
    Tournament.objects.filter(pk=tournament.pk).update(draw_seed=PLAN_SEED)
    tournament_status_change(tournament=tournament, actor=user, status="registration", via="demo")
    entries = [
        entry_register(tournament=tournament, pair_id=pair.pk, actor=user, via="demo")
        for pair in pairs
    ]
    tournament_status_change(tournament=tournament, actor=user, status="running", via="demo")
    for entry in entries:
        entry_check_in(tournament=tournament, entry_id=entry.pk, actor=user, via="demo")
    log(f"{PLAN_NAME}: {len(entries)} pairs registered and checked in.")
    tournament.refresh_from_db()
    return tournament


def tournament_demo_finish(demo: TournamentDemo) -> int:
    """After the commit, as the result_confirmed task does: the Swiss' standings show at once
    even when tasks go to a worker that is not running. Returns the standings' rows."""
    return standings_refresh(phase=demo.swiss)


def tournaments_demo_delete(tournament_ids: Iterable[int]) -> None:
    """Delete these tournaments and what they hold: no service deletes a tournament. Matches
    first (with their results, hands and audit), then phases from the last (a knockout
    protects its source), then the tournaments."""
    ids = list(tournament_ids)
    Match.objects.filter(round__phase__tournament__in=ids).delete()
    for phase in Phase.objects.filter(tournament__in=ids).order_by("-order"):
        phase.delete()
    Tournament.objects.filter(pk__in=ids).delete()


def _tournament(user, club: Club, pairs: list[Pair], log) -> Tournament:
    tournament = tournament_create(
        club_slug=club.slug,
        actor=user,
        name=TOURNAMENT_NAME,
        slug="san-fermin",
        starts_on=dt.date(2026, 7, 7),
        ends_on=dt.date(2026, 7, 7),
        venue="Sociedad Txoko, calle Estafeta 12, Pamplona",
        tables_available=TABLES,
        max_pairs=len(pairs),
        preset=PRESET,
        via="demo",
    )
    # No service sets the draw seed (a tournament draws its own); fixed here so that every
    # machine gets the same draws.
    Tournament.objects.filter(pk=tournament.pk).update(draw_seed=DRAW_SEED)
    tournament_status_change(tournament=tournament, actor=user, status="registration", via="demo")
    seeded = {pair.pk: n for n, pair in enumerate(p for p in pairs if p.name)}
    entries = [
        entry_register(
            tournament=tournament,
            pair_id=pair.pk,
            seed=seeded[pair.pk] + 1 if pair.pk in seeded else None,
            actor=user,
            via="demo",
        )
        for pair in pairs
    ]
    tournament_status_change(tournament=tournament, actor=user, status="running", via="demo")
    for entry in entries:
        entry_check_in(tournament=tournament, entry_id=entry.pk, actor=user, via="demo")
    log(f"{TOURNAMENT_NAME}: {len(entries)} pairs registered and checked in.")
    tournament.refresh_from_db()
    return tournament


def _draw_and_publish(user, phase: Phase) -> Round:
    rnd = round_draw_generate(phase=phase, actor=user)
    return round_publish(round=rnd, actor=user)


def _half_play(player: TablePlayer, rnd: Round) -> Match | None:
    """Tables 1–6 confirmed, 7–8 waiting for the other pair, 9 disputed, 10 entering hands,
    the rest still to play."""
    tables = player.tables(rnd)
    for match in tables[:6]:
        player.play_confirmed(match)
    for match in tables[6:8]:
        player.submit(match, "a", player.games(winner=player.rng.choice("ab")))
    if len(tables) > 8:
        disputed = tables[8]
        version = player.submit(disputed, "a", player.games(winner="a"))
        player.submit(disputed, "b", player.games(winner="b"), version=version)
    if len(tables) > 9:
        player.play_hand_by_hand(tables[9], stop_after=5)
    return tables[-1] if len(tables) > 10 else None
