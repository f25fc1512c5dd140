"""``manage.py demo``: load a realistic peña and a tournament half-way through, for a first look.

Responsible for: one deterministic demo, loaded through the same services the site and the API
call (clubs.services, tournaments/services/*), so that what it shows is what a real organizer
and real tables would have produced:

- the peña "Peña Txoko" (Pamplona) owned by the user ``organizador`` (password ``amarrako``);
- 64 players with Navarrese and Basque names, 32 parejas (eight of them named and seeded);
- "Torneo de San Fermín" from the "8 reyes a 40" preset, every pair checked in;
- a Swiss phase of 5 rounds: rounds 1 and 2 played and confirmed (both pairs of each table
  enter the same games through the table's link, so the second entry confirms; two tables of
  round 1 are entered hand by hand in scoring's JSON form, cards and bets, ending each game
  with an órdago), round 3 published and half played (confirmed, submitted, one disputed, one
  table still entering hands, the rest to play);
- a knockout (single elimination of the Swiss' top 8, with a third-place match) defined, not
  drawn yet;
- the Swiss standings refreshed so that they show at once;
- "Liga de los jueves" (2026-27), the peña's league of fixed pairs: a Primera and a Segunda of
  four pairs each (one up, one down), jornadas 1 and 2 played through the tables' links and
  jornada 3 published and half played, one of its matches postponed to a deadline.

Running it again finds the demo (by the peña's slug) and says so; ``--reset`` deletes it and
loads it again. The whole load is one transaction: a failure leaves nothing half-loaded.

Must not: write rows a service could write. The exceptions, each because no service exists:
the login user (users sign up outside this app), the tournament's draw seed (fixed so that the
draws are the same on every machine) and ``--reset``'s deletion of the demo's own rows.

Terms: peña, pareja, mesa, ronda, suizo (Swiss), eliminatoria, juego (a game to 40 piedras),
vaca, mano, postre, grande, chica, pares, juego/punto, envite, órdago, anotador.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import NoReverseMatch, reverse

from clubs.circuits.demo import (
    CircuitDemo,
    circuit_demo_delete,
    circuit_demo_finish,
    circuit_demo_load,
)
from clubs.leagues import selectors as league_selectors
from clubs.leagues import services as league_services
from clubs.leagues.models import League
from clubs.leagues.teams_demo import team_demo_delete, team_demo_load
from clubs.models import Club, Pair, Player
from clubs.ratings_services import ratings_rebuild
from clubs.services import club_create, pair_create, pair_update, player_create
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
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh
from tournaments.services.tournaments import tournament_create, tournament_status_change

CLUB_SLUG = "pena-txoko"
CLUB_NAME = "Peña Txoko"
USERNAME = "organizador"
PASSWORD = "amarrako"
TOURNAMENT_NAME = "Torneo de San Fermín"
PRESET = "8 reyes a 40"
SEED = 20260707  # of every random choice of the demo
#: Tournament.draw_seed: the draws depend on it, and tournament_create draws a random one.
DRAW_SEED = 7071978
PLAYERS = 64
LEAGUE_NAME = "Liga de los jueves"
LEAGUE_START = dt.date(2026, 10, 1)
API = "api:tournaments:"
SWISS_ROUNDS = 5
TABLES = 16
HANDS_TABLES_ROUND_1 = (1, 2)  # entered hand by hand by the anotador

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
class Loaded:
    """What the demo loaded: enough to print the way in and to count in tests."""

    club: Club
    tournament: Tournament
    swiss: Phase
    knockout: Phase
    rounds: list[Round] = field(default_factory=list)
    open_table: Match | None = None
    league: League | None = None
    circuits: CircuitDemo | None = None


class Command(BaseCommand):
    help = (
        "Load the demo peña (Peña Txoko) and its Torneo de San Fermín half-way through "
        "(once; --reset to load it again)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--reset", action="store_true", help="delete the demo first, then load it again"
        )
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="where the site runs, for the links printed at the end",
        )

    def handle(self, *args, reset: bool = False, base_url: str = "", **options) -> None:
        started = time.perf_counter()
        base_url = base_url.rstrip("/")
        club = Club.objects.filter(slug=CLUB_SLUG).first()
        if club is not None and not reset:
            self.stdout.write(
                f"The demo is already loaded ({CLUB_NAME}); nothing was changed. "
                "Run `manage.py demo --reset` to delete it and load it again."
            )
            tournament = club.tournaments.filter(name=TOURNAMENT_NAME).first()
            if tournament is not None:
                self._print_way_in(base_url, tournament)
            return
        quiet = options.get("verbosity", 1) < 2
        with _tasks_quiet(quiet), transaction.atomic():
            if club is not None:
                demo_delete(club)
                self.stdout.write("Deleted the earlier demo.")
            loaded = DemoLoader(log=self.stdout.write).load()
        # After the commit, as the result_confirmed task does: the standings show at once even
        # when tasks go to a worker that is not running.
        rows = standings_refresh(phase=loaded.swiss)
        if loaded.circuits is not None:
            circuit_demo_finish(loaded.circuits)  # the stops' standings, the circuit's ranking
        ratings_rebuild()  # the players' ratings and the peña's ranking, as the tasks would
        elapsed = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo loaded in {elapsed:.1f} s: {CLUB_NAME} (Pamplona), {PLAYERS} players, "
                f"{PLAYERS // 2} pairs; {TOURNAMENT_NAME}: Swiss rounds 1–2 confirmed, round 3 "
                f"half played, knockout of the top 8 defined; standings of {rows} pairs."
            )
        )
        self._print_way_in(base_url, loaded.tournament)

    def _league_links(self, url, club: Club) -> list[tuple[str, str | None]]:
        league = League.objects.filter(club=club, name=LEAGUE_NAME).first()
        if league is None:
            return []
        public = {"club_slug": club.slug, "league_slug": league.slug}
        return [
            ("league standings", url("leagues:public-league", **public)),
            ("league desk", url("leagues:organizer-league", league_id=league.pk)),
        ]

    def _print_way_in(self, base_url: str, tournament: Tournament) -> None:
        swiss = tournament.phases.order_by("order").first()
        current = Round.objects.filter(phase=swiss, status=Round.Status.PUBLISHED).last()
        open_table = (
            Match.objects.filter(round=current, status=Match.Status.PENDING)
            .order_by("table_number")
            .last()
        )

        def url(name: str, **kwargs) -> str | None:
            # The site's pages are optional here: a page not written yet is left out.
            try:
                return base_url + reverse(name, kwargs=kwargs)
            except NoReverseMatch:
                return None

        public = {"club_slug": tournament.club.slug, "tournament_slug": tournament.slug}
        links = [
            ("site", url("home")),
            ("tournament", url("web:tournament", **public)),
            ("standings", url("web:public-standings", **public)),
            ("players' ranking", url("web:club-ranking", club_slug=tournament.club.slug)),
            *self._league_links(url, tournament.club),
            ("organizer's desk", url("web:organizer-tournament", tournament_id=tournament.id)),
            ("API: tournament", url(API + "tournament-detail", tournament_id=tournament.id)),
            ("API: phases", url(API + "rounds-phases", tournament_id=tournament.id)),
        ]
        if swiss is not None:
            links.append(("API: standings", url(API + "rounds-phase-standings", phase_id=swiss.id)))
        if current is not None:
            links += [
                (
                    f"round {current.number} board",
                    url("web:organizer-round-board", round_id=current.id),
                ),
                (f"API: round {current.number}", url(API + "rounds-round", round_id=current.id)),
            ]
        if open_table is not None:
            where = f"round {current.number}, mesa {open_table.table_number}, still to play"
            links += [
                (f"a table's page ({where})", url("web:table", token=open_table.token)),
                ("API: that table's link", url(API + "results-table", token=open_table.token)),
            ]
        links += [
            ("circuit", url("circuits:circuit", slug="circuito-de-navarra-2026")),
            ("interpeñas", url("circuits:interpena-list")),
            (
                "league of peñas",
                url(
                    "leagues:public-team-league",
                    club_slug="pena-txoko",
                    league_slug="liga-de-penas-de-navarra-2026-27",
                ),
            ),
        ]
        links.append(("API docs", url("swagger-ui")))
        lines = [f"Log in at {base_url}{reverse('login')} as {USERNAME} / {PASSWORD}"]
        lines += [f"  {label}: {link}" for label, link in links if link is not None]
        self.stdout.write("\n".join(lines))


@contextmanager
def _tasks_quiet(quiet: bool) -> Iterator[None]:
    """Without a worker every task runs here and logs a line or two; the demo runs about three
    hundred. Hidden unless -v 2."""
    loggers = [logging.getLogger(name) for name in ("celery", "tournaments.tasks")]
    saved = [logger.level for logger in loggers]
    if quiet:
        for logger in loggers:
            logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for logger, level in zip(loggers, saved, strict=True):
            logger.setLevel(level)


def demo_delete(club: Club) -> None:
    """Delete the demo's rows: no service deletes tournaments, pairs or peñas.

    In dependency order, because matches, entries, pairs and players are PROTECTed: the
    peña's leagues (their divisions protect the tournaments they are played as), matches
    (with their results, hands and audit), then phases from the last (a knockout protects its
    source), tournaments, pairs, the players of no other peña, the peña and the demo's user
    (unless it is an admin or a member of another peña).
    """
    League.objects.filter(club=club).delete()
    team_demo_delete()  # the league of peñas (clubs.leagues.teams_demo): it holds interpeñas
    circuit_demo_delete()  # the circuit, the interpeña and the second peña (clubs.circuits.demo)
    tournaments = Tournament.objects.filter(club=club)
    Match.objects.filter(round__phase__tournament__in=tournaments).delete()
    for phase in Phase.objects.filter(tournament__in=tournaments).order_by("-order"):
        phase.delete()
    tournaments.delete()
    players = list(Player.objects.filter(clubs=club).values_list("pk", flat=True))
    Pair.objects.filter(club=club).delete()
    club.delete()
    Player.objects.filter(pk__in=players, clubs=None, user=None).delete()
    # The demo's user, unless it is somebody's real account (an admin, a member elsewhere).
    get_user_model().objects.filter(
        username=USERNAME, is_superuser=False, memberships__isnull=True
    ).delete()


class DemoLoader:
    """Loads the demo through the services, one step after the other (see the module doc)."""

    def __init__(self, *, log=print) -> None:
        self.rng = random.Random(SEED)
        self.log = log
        self.user = None
        self.keys = 0

    # --- Steps ------------------------------------------------------------------------------

    def load(self) -> Loaded:
        self.user = self._organizer()
        club = club_create(
            user=self.user,
            name=CLUB_NAME,
            slug=CLUB_SLUG,
            town="Pamplona",
            region="Navarra",
            contact_email="txoko@example.org",
            contact_phone="948 22 71 07",
        )
        pairs = self._pairs(club)
        tournament = self._tournament(club, pairs)
        swiss = phase_create(
            tournament=tournament,
            actor=self.user,
            name="Suizo",
            format=Phase.Format.SWISS,
            rounds_planned=SWISS_ROUNDS,
        )
        rounds = []
        for number in (1, 2):
            rnd = self._draw_and_publish(swiss)
            hands = HANDS_TABLES_ROUND_1 if number == 1 else ()
            for match in self._tables(rnd):
                if match.table_number in hands:
                    self._play_hand_by_hand(match)
                else:
                    self._play_confirmed(match)
            round_close(round=rnd, actor=self.user)
            rounds.append(rnd)
            self.log(f"Round {number} of the Swiss played and closed.")
        rnd = self._draw_and_publish(swiss)
        open_table = self._half_play(rnd)
        rounds.append(rnd)
        self.log("Round 3 of the Swiss published and half played.")
        knockout = phase_create(
            tournament=tournament,
            actor=self.user,
            name="Eliminatoria",
            format=Phase.Format.SINGLE_ELIMINATION,
            source_id=swiss.id,
            qualifiers_per_group=8,
            third_place=True,
        )
        league = self._league(club, pairs)
        circuits = circuit_demo_load(user=self.user, club=club, pairs=pairs, log=self.log)
        second = circuits.interpena.away_club
        team_demo_load(
            user=self.user,
            club=club,
            second=second,
            pairs=pairs,
            second_pairs=list(Pair.objects.filter(club=second).order_by("pk")),
            log=self.log,
        )
        return Loaded(club, tournament, swiss, knockout, rounds, open_table, league, circuits)

    def _league(self, club: Club, pairs: list[Pair]) -> League:
        """The peña's Thursday league: two divisions of four pairs, two jornadas and a half
        played on the tables' result flow, one match postponed."""
        dates = [LEAGUE_START + dt.timedelta(weeks=k) for k in range(3)]
        league = league_services.league_create(
            club=club, actor=self.user, name=LEAGUE_NAME, season="2026-27", dates=dates
        )
        for k, name in enumerate(("Primera", "Segunda")):
            league_services.division_create(
                league=league,
                actor=self.user,
                name=name,
                pair_ids=[p.pk for p in pairs[4 * k : 4 * k + 4]],
                promote=1 if k else 0,
                relegate=0 if k else 1,
            )
        for number in (1, 2, 3):
            jornada = league_selectors.jornada_get(league=league, number=number)
            league_services.jornada_draw(jornada=jornada, actor=self.user)
            league_services.jornada_publish(jornada=jornada, actor=self.user)
            matches = list(
                Match.objects.filter(
                    round__phase__league_division__league=league, round__number=number
                ).order_by("table_number")
            )
            played = matches if number < 3 else matches[:3]
            for match in played:
                self._play_confirmed(match)
        league_services.match_postpone(
            league=league,
            actor=self.user,
            match_id=matches[-1].pk,
            deadline=dates[2] + dt.timedelta(days=5),
            reason="Una pareja de viaje",
        )
        self.log(f"{LEAGUE_NAME}: jornadas 1 and 2 played, jornada 3 half played.")
        return league

    def _organizer(self):
        users = get_user_model()
        user = users.objects.filter(username=USERNAME).first()
        if user is None:
            user = users.objects.create_user(
                username=USERNAME, password=PASSWORD, first_name="Fermín", last_name="Etxeberria"
            )
        else:
            self.log(f"The user {USERNAME} already exists: its password was left as it was.")
        return user

    def _pairs(self, club: Club) -> list[Pair]:
        names: list[tuple[str, str]] = []
        seen = set()
        while len(names) < PLAYERS:
            first = self.rng.choice(FIRST_NAMES)
            last = " ".join(self.rng.sample(SURNAMES, 2))
            if (first, last) not in seen:
                seen.add((first, last))
                names.append((first, last))
        players = [
            player_create(
                user=self.user,
                club=club,
                first_name=first,
                last_name=last,
                phone=f"6{self.rng.randrange(10**8):08d}",
            )
            for first, last in names
        ]
        pairs = [
            pair_create(
                user=self.user,
                club=club,
                player_one_id=players[i].pk,
                player_two_id=players[i + 1].pk,
            )
            for i in range(0, PLAYERS, 2)
        ]
        for pair, name in zip(self.rng.sample(pairs, len(PAIR_NAMES)), PAIR_NAMES, strict=True):
            pair_update(user=self.user, club=club, pair_id=pair.pk, name=name)
        self.log(f"{CLUB_NAME}: {len(players)} players, {len(pairs)} pairs.")
        return pairs

    def _tournament(self, club: Club, pairs: list[Pair]) -> Tournament:
        tournament = tournament_create(
            club_slug=club.slug,
            actor=self.user,
            name=TOURNAMENT_NAME,
            slug="san-fermin",
            starts_on=dt.date(2026, 7, 7),
            ends_on=dt.date(2026, 7, 7),
            venue="Sociedad Txoko, calle Estafeta 12, Pamplona",
            tables_available=TABLES,
            max_pairs=PLAYERS // 2,
            preset=PRESET,
            via="demo",
        )
        # No service sets the draw seed (a tournament draws its own); fixed here so that every
        # machine gets the same draws.
        Tournament.objects.filter(pk=tournament.pk).update(draw_seed=DRAW_SEED)
        tournament_status_change(
            tournament=tournament, actor=self.user, status="registration", via="demo"
        )
        seeded = {pair.pk: n for n, pair in enumerate(p for p in pairs if p.name)}
        entries = [
            entry_register(
                tournament=tournament,
                pair_id=pair.pk,
                seed=seeded[pair.pk] + 1 if pair.pk in seeded else None,
                actor=self.user,
                via="demo",
            )
            for pair in pairs
        ]
        tournament_status_change(
            tournament=tournament, actor=self.user, status="running", via="demo"
        )
        for entry in entries:
            entry_check_in(tournament=tournament, entry_id=entry.pk, actor=self.user, via="demo")
        self.log(f"{TOURNAMENT_NAME}: {len(entries)} pairs registered and checked in.")
        tournament.refresh_from_db()
        return tournament

    def _draw_and_publish(self, phase: Phase) -> Round:
        rnd = round_draw_generate(phase=phase, actor=self.user)
        return round_publish(round=rnd, actor=self.user)

    def _tables(self, rnd: Round) -> list[Match]:
        return list(
            Match.objects.filter(round=rnd)
            .exclude(kind=Match.Kind.BYE)
            .select_related("round__phase__tournament__club")
            .order_by("table_number")
        )

    def _half_play(self, rnd: Round) -> Match | None:
        """Tables 1–6 confirmed, 7–8 waiting for the other pair, 9 disputed, 10 entering hands,
        the rest still to play."""
        tables = self._tables(rnd)
        for match in tables[:6]:
            self._play_confirmed(match)
        for match in tables[6:8]:
            self._submit(match, "a", self._games(winner=self.rng.choice("ab")))
        if len(tables) > 8:
            disputed = tables[8]
            version = self._submit(disputed, "a", self._games(winner="a"))
            self._submit(disputed, "b", self._games(winner="b"), version=version)
        if len(tables) > 9:
            self._play_hand_by_hand(tables[9], stop_after=5)
        return tables[-1] if len(tables) > 10 else None

    # --- Results ----------------------------------------------------------------------------

    def _key(self, match: Match, what: str) -> str:
        self.keys += 1
        return f"demo-{match.pk}-{what}-{self.keys}"

    def _device(self, match: Match) -> str:
        return f"Demo phone at mesa {match.table_number}"

    def _games(self, *, winner: str) -> list[dict]:
        """A match as each game's final stones: the winner takes 3 juegos of 40 piedras."""
        games_per_match = 3
        lost = self.rng.randrange(games_per_match)  # games the loser takes
        order = ["w"] * (games_per_match - 1) + ["l"] * lost
        self.rng.shuffle(order)
        order.append("w")  # the last game decides the match
        games = []
        for game in order:
            other = self.rng.randrange(8, 40)
            stones = [40, other] if (game == "w") == (winner == "a") else [other, 40]
            games.append({"stones": stones})
        return games

    def _submit(self, match: Match, side: str, games: list[dict], *, version: int = 0) -> int:
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

    def _play_confirmed(self, match: Match) -> None:
        """Both pairs enter the same games through the link: the second entry confirms."""
        games = self._games(winner=self.rng.choice("ab"))
        version = self._submit(match, "a", games)
        self._submit(match, "b", games, version=version)

    def _play_hand_by_hand(self, match: Match, *, stop_after: int | None = None) -> None:
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
