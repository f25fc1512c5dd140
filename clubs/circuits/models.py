"""Circuits, their tournaments and stored ranking; interpeñas and their boards.

Responsible for: the rows and the constraints that hold whatever code writes them (a
tournament once per circuit, a player once in a circuit's ranking, a board letter once per
interpeña, a tournament's match behind one board at most). The ranking is computed by the pure
core (clubs.circuits.ranking) and stored here by clubs.circuits.services; pages only read it.

Must not: hold a rule (services and the pure cores do).

Terms: circuito (circuit), puesto (a final place in a tournament), interpeñas (a match of
peña against peña), tablero (board: A, B, C…), capitán (captain: confirms the team result).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Pair, Player
from tournaments.models import Match, Round, Tournament


def default_points_table() -> list[int]:
    return [100, 80, 65, 55, 50, 45, 40, 36, 32, 29, 26, 24, 22, 20, 18, 16]


def default_tiebreaks() -> list[str]:
    return ["best_place", "counted_results", "played"]


class Circuit(models.Model):
    """Tournaments of one or several peñas ranked together (a region's summer circuit)."""

    name = models.CharField(_("nombre"), max_length=160)
    slug = models.SlugField(max_length=80, unique=True)
    region = models.CharField(_("región"), max_length=120, blank=True)
    season = models.CharField(_("temporada"), max_length=40, blank=True)
    #: points of the 1st, 2nd, … final place; a place beyond the table earns participation
    points_table = models.JSONField(default=default_points_table)
    participation_points = models.PositiveSmallIntegerField(default=5)
    #: how many of a player's results count (the best); None: all of them
    best_results = models.PositiveSmallIntegerField(null=True, blank=True)
    #: names of clubs.circuits.ranking.Tiebreak, in order
    tiebreaks = models.JSONField(default=default_tiebreaks)
    #: a private circuit exists only for the organizers and members of its peñas and the
    #: organizers it names (its pages and API answer 404 to everybody else; lists hide it)
    is_public = models.BooleanField(_("público"), default=True)
    clubs = models.ManyToManyField(Club, related_name="circuits")
    #: organizers named besides those of its peñas
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="circuits_organized", blank=True
    )
    ranking_computed_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: who created it as an archive named them (an imported row); blank otherwise
    created_by_name = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("circuito")
        verbose_name_plural = _("circuitos")
        ordering = ["-created_at", "name"]

    def __str__(self) -> str:
        return self.name


class CircuitTournament(models.Model):
    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="stops")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="circuit_stops"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["circuit", "tournament__starts_on", "tournament_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["circuit", "tournament"], name="circuit_tournament_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.circuit_id}: {self.tournament_id}"


class CircuitRankingRow(models.Model):
    """A player's line in a circuit's ranking, rebuilt whole by circuit_ranking_refresh."""

    circuit = models.ForeignKey(  # (circuit, player) is unique: that index serves the circuit
        Circuit, on_delete=models.CASCADE, related_name="ranking_rows", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()
    points = models.PositiveIntegerField()
    played = models.PositiveSmallIntegerField()
    #: [{"tournament": id, "place": n, "points": p, "counted": bool}] in the circuit's order
    results = models.JSONField(default=list)
    #: the tiebreak that put this row below the one above ("" when the points did, or none)
    separated_by = models.CharField(max_length=24, blank=True)

    class Meta:
        ordering = ["circuit", "position", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["circuit", "player"], name="circuit_row_once"),
        ]
        indexes = [models.Index(fields=["circuit", "position"], name="circuit_ranking_order")]

    def __str__(self) -> str:
        return f"{self.circuit_id}/{self.player_id}: {self.points}"


class Interpena(models.Model):
    """A match of peña against peña: each fields N pairs, pairs meet by board.

    Its boards are the matches of one round of a private tournament of the home peña (the
    ``tournament``), so that each board is played on the tournaments' result flow (the table's
    link and QR code, the phones, the confirmation by both pairs).
    """

    class Status(models.TextChoices):
        LINEUPS = "lineups", _("alineaciones")
        PLAYING = "playing", _("en juego")
        CONFIRMED = "confirmed", _("confirmado")

    home_club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    away_club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(_("nombre"), max_length=160)
    venue = models.CharField(_("lugar"), max_length=160, blank=True)
    played_on = models.DateField(_("fecha"))
    boards = models.PositiveSmallIntegerField(_("tableros"))
    is_public = models.BooleanField(_("público"), default=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LINEUPS)
    tournament = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, related_name="interpena"
    )
    round = models.OneToOneField(
        Round, null=True, blank=True, on_delete=models.PROTECT, related_name="interpena"
    )
    #: who confirms the team result for each peña; None: any organizer of that peña
    home_captain = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    away_captain = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: the result each captain confirmed (clubs.circuits.teams' signature of the boards);
    #: the team result stands once both equal the boards' current one
    home_confirmed = models.CharField(max_length=400, blank=True)
    away_confirmed = models.CharField(max_length=400, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    #: what owns this match when a league of peñas schedules it ("" otherwise): the league's
    #: own key for its fixture, so the league finds its match without a column here of its own
    league_key = models.CharField(max_length=80, blank=True, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: who created it as an archive named them (an imported row); blank otherwise
    created_by_name = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("interpeñas")
        verbose_name_plural = _("interpeñas")
        ordering = ["-played_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(home_club=F("away_club")), name="interpena_two_clubs"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class InterpenaBoard(models.Model):
    """One board: a pair of each peña, and the tournament match they play."""

    interpena = models.ForeignKey(Interpena, on_delete=models.CASCADE, related_name="board_rows")
    number = models.PositiveSmallIntegerField()
    home_pair = models.ForeignKey(
        Pair, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    away_pair = models.ForeignKey(
        Pair, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="interpena_board"
    )

    class Meta:
        ordering = ["interpena", "number"]
        constraints = [
            models.UniqueConstraint(fields=["interpena", "number"], name="board_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.interpena_id}: {self.letter}"

    @property
    def letter(self) -> str:
        return board_letter(self.number)


def board_letter(number: int) -> str:
    """1 → A, 2 → B, … 26 → Z, 27 → AA."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters
