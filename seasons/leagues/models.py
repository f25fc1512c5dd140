"""The league's rows: leagues, divisions, the calendar of jornadas, postponements.

Responsible for: what a league adds to the tournaments it is played as, and the constraints
that hold whatever code writes them (one league per peña and short name, one division per
level, one jornada per number, one postponement per match). A Division is played as one
tournament of the peña (``Division.tournament``, one phase: ``Division.phase``); jornada N of
the league is round N of that phase, so its matches, results, substitutes and ratings are
tournaments' rows.

A league of peñas has rows of its own (seasons/leagues/teams/models.py), imported at the end of
this module so that Django finds them in this app (label ``leagues``).

Must not: hold a rule (seasons/leagues/table.py and services.py do).

Terms: liga (league), temporada (season), división, jornada, aplazada (postponed), no
presentada (walkover), doble derrota (double loss), ascenso / descenso.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from tournaments.models import Match, Phase, Tournament


class League(models.Model):
    class Kind(models.TextChoices):
        PAIRS = "pairs", _("parejas fijas")
        INDIVIDUAL = "individual", _("individual")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="leagues")
    name = models.CharField(_("nombre"), max_length=120)
    slug = models.SlugField(max_length=80)
    season = models.CharField(_("temporada"), max_length=20)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.PAIRS)
    #: 1: every pair meets every other once; 2: twice (ida y vuelta)
    legs = models.PositiveSmallIntegerField(_("vueltas"), default=1)
    is_public = models.BooleanField(_("pública"), default=True)
    #: the rule set's preset every division's tournament starts from ("" : the peña's default)
    preset_name = models.CharField(max_length=80, blank=True)
    points_win = models.PositiveSmallIntegerField(_("puntos por victoria"), default=2)
    points_loss = models.PositiveSmallIntegerField(_("puntos por derrota"), default=1)
    points_walkover_loss = models.PositiveSmallIntegerField(
        _("puntos por no presentada"), default=0
    )
    #: names of seasons.leagues.table.TIEBREAKS, in order
    tiebreaks = models.JSONField(default=list)
    #: the season this one follows (its divisions came from that one's standings)
    previous = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="following"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: who created it as an archive named them (an imported row); blank otherwise
    created_by_name = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("liga")
        verbose_name_plural = _("ligas")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="league_slug_per_club"),
            models.CheckConstraint(condition=Q(legs__in=(1, 2)), name="league_one_or_two_legs"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"


class Division(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(_("nombre"), max_length=60)
    #: 1 is the top division (Primera), 2 the next (Segunda)…
    level = models.PositiveSmallIntegerField()
    #: how many go up to the division above / down to the one below at the season's end
    promote = models.PositiveSmallIntegerField(_("ascienden"), default=0)
    relegate = models.PositiveSmallIntegerField(_("descienden"), default=0)
    tournament = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, related_name="league_division"
    )
    phase = models.OneToOneField(Phase, on_delete=models.PROTECT, related_name="league_division")
    #: fixed pairs: the entry ids in the order the round robin's schedule is built from
    schedule = models.JSONField(default=list, blank=True)
    #: who rested (descanso) each jornada: {"3": [ids]} (entry ids; player ids if individual)
    resting = models.JSONField(default=dict, blank=True)
    #: individual leagues: the division's players (anybody present may still be drawn)
    players = models.ManyToManyField(Player, related_name="league_divisions", blank=True)

    class Meta:
        verbose_name = _("división")
        verbose_name_plural = _("divisiones")
        ordering = ["league", "level"]
        constraints = [
            models.UniqueConstraint(fields=["league", "level"], name="division_level_once"),
        ]

    def __str__(self) -> str:
        return self.name


class Jornada(models.Model):
    """A date of the league's calendar: round ``number`` of every division is played on it."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("prevista")
        DRAWN = "drawn", _("sorteada")
        PUBLISHED = "published", _("publicada")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="jornadas")
    number = models.PositiveSmallIntegerField()
    date = models.DateField(_("fecha"))
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLANNED)

    class Meta:
        verbose_name = _("jornada")
        verbose_name_plural = _("jornadas")
        ordering = ["league", "number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="jornada_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.league} J{self.number}"


class Postponement(models.Model):
    """A league match not played on its night: its deadline, and what the organizer decided
    once the deadline passed (a walkover is the tournaments' forfeit; a double loss is kept
    here and the standings read it)."""

    class Outcome(models.TextChoices):
        PENDING = "", _("pendiente")
        PLAYED = "played", _("jugada")
        WALKOVER = "walkover", _("no presentada")
        DOUBLE_LOSS = "double_loss", _("doble derrota")

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="postponement")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="postponements")
    deadline = models.DateField(_("fecha límite"))
    reason = models.CharField(_("motivo"), max_length=200, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True, default="")
    decided_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: who created it as an archive named them (an imported row); blank otherwise
    created_by_name = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("partida aplazada")
        verbose_name_plural = _("partidas aplazadas")
        ordering = ["deadline", "id"]

    def __str__(self) -> str:
        return f"match {self.match_id} → {self.deadline}"


# The league of peñas' rows belong to this app (label ``leagues``): Django finds an app's models
# through its models module.
from seasons.leagues.teams.models import TeamFixture, TeamJornada, TeamLeague  # noqa: E402

__all__ = [
    "Division",
    "Jornada",
    "League",
    "Postponement",
    "TeamFixture",
    "TeamJornada",
    "TeamLeague",
]
