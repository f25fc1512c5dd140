"""Circuits, their tournaments and stored ranking.

Responsible for: the rows (a circuit is a competition of several peñas, seasons.competitions)
and the constraints that hold whatever code writes them (a
tournament once per circuit, a player once in a circuit's ranking). The ranking is computed by
the pure core (seasons.circuits.ranking) and stored here by seasons.circuits.services; pages only
read it.

Must not: hold a rule (services and the pure cores do).

Terms: circuito (circuit), puesto (a final place in a tournament), puntos (what a place
earns), desempate (tiebreak).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from seasons.competitions.models import Competition
from tournaments.models import Tournament


def default_points_table() -> list[int]:
    return [100, 80, 65, 55, 50, 45, 40, 36, 32, 29, 26, 24, 22, 20, 18, 16]


def default_tiebreaks() -> list[str]:
    return ["best_place", "counted_results", "played"]


class Circuit(Competition):
    """Tournaments of one or several peñas ranked together (a region's summer circuit). Its
    name, peñas, organizers and visibility are every competition's (seasons.competitions)."""

    #: points of the 1st, 2nd, … final place; a place beyond the table earns participation
    points_table = models.JSONField(default=default_points_table)
    participation_points = models.PositiveSmallIntegerField(default=5)
    #: how many of a player's results count (the best); None: all of them
    best_results = models.PositiveSmallIntegerField(null=True, blank=True)
    #: names of seasons.circuits.ranking.Tiebreak, in order
    tiebreaks = models.JSONField(default=default_tiebreaks)
    ranking_computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("circuito")
        verbose_name_plural = _("circuitos")
        ordering = ["-created_at", "name"]


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
