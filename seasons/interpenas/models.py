"""Interpeñas and their boards.

Responsible for: the rows of a match of peña against peña and the constraints that hold
whatever code writes them (a board letter once per interpeña, a tournament's match behind one
board at most). The team result is computed by the pure core (seasons/interpenas/result.py).

Must not: hold a rule (services and the pure core do).

Terms: interpeñas (a match of peña against peña), tablero (board: A, B, C…), alineación
(line-up), capitán (captain: confirms the team result).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Pair
from tournaments.models import Match, Round, Tournament


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
    #: the result each captain confirmed (seasons.interpenas.result' signature of the boards);
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
