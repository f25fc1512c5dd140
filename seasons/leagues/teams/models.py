"""The rows of a league of peñas (liga de peñas): the league, its calendar, its fixtures.

Responsible for: a league whose competitors are peñas (TeamLeague), its calendar (TeamJornada)
and its fixtures (TeamFixture), each played as an interpeña (``TeamFixture.interpena``,
seasons/interpenas) whose boards are tournament matches in turn; the constraints that hold
whatever code writes them. The rows belong to the leagues app (label ``leagues``):
seasons/leagues/models.py imports them.

Must not: hold a rule (seasons/leagues/teams/services.py and seasons/leagues/table.py do).

Terms: liga de peñas, jornada, enfrentamiento (fixture), interpeñas, tablero (board), descanso.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from seasons.interpenas.models import Interpena


class TeamLeague(models.Model):
    """A league whose competitors are peñas: each fixture of a jornada is an interpeña of N
    boards (seasons.circuits), and its confirmed team result counts for the standings."""

    #: the peña that runs it (its organizers manage it; it need not play)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="team_leagues")
    name = models.CharField(_("nombre"), max_length=120)
    slug = models.SlugField(max_length=80)
    season = models.CharField(_("temporada"), max_length=20)
    #: the peñas that play it, in the order the round robin's schedule is built from (ids)
    clubs = models.ManyToManyField(Club, related_name="team_leagues_played", blank=True)
    schedule = models.JSONField(default=list, blank=True)
    legs = models.PositiveSmallIntegerField(_("vueltas"), default=1)
    #: pairs each peña fields in every fixture (the interpeñas' boards)
    boards = models.PositiveSmallIntegerField(_("tableros"), default=3)
    is_public = models.BooleanField(_("pública"), default=True)
    preset_name = models.CharField(max_length=80, blank=True)
    points_win = models.PositiveSmallIntegerField(_("puntos por victoria"), default=3)
    points_draw = models.PositiveSmallIntegerField(_("puntos por empate"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("puntos por derrota"), default=0)
    points_walkover_loss = models.PositiveSmallIntegerField(
        _("puntos por no presentada"), default=0
    )
    #: names of seasons.leagues.table.TEAM_TIEBREAKS, in order
    tiebreaks = models.JSONField(default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: who created it as an archive named them (an imported row); blank otherwise
    created_by_name = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("liga de peñas")
        verbose_name_plural = _("ligas de peñas")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="team_league_slug_per_club"),
            models.CheckConstraint(
                condition=Q(legs__in=(1, 2)), name="team_league_one_or_two_legs"
            ),
            models.CheckConstraint(
                condition=Q(boards__gte=1, boards__lte=16), name="team_league_boards"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"


class TeamJornada(models.Model):
    """A date of a league of peñas: its fixtures are played on it (or postponed)."""

    league = models.ForeignKey(TeamLeague, on_delete=models.CASCADE, related_name="jornadas")
    number = models.PositiveSmallIntegerField()
    date = models.DateField(_("fecha"))
    #: the peña that rests (descanso) this jornada, with an odd number of peñas
    resting = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("jornada de liga de peñas")
        verbose_name_plural = _("jornadas de liga de peñas")
        ordering = ["league", "number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="team_jornada_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.league} J{self.number}"


class TeamFixture(models.Model):
    """One meeting of two peñas in a jornada, played as an interpeña (``interpena``, made when
    the home peña opens it). A fixture not played on its date may be postponed to a deadline;
    the league's organizers may then decide a walkover or a double loss."""

    class Decision(models.TextChoices):
        NONE = "", _("ninguna")
        HOME_ABSENT = "home_absent", _("no presentada de la local")
        AWAY_ABSENT = "away_absent", _("no presentada de la visitante")
        DOUBLE_LOSS = "double_loss", _("doble derrota")

    jornada = models.ForeignKey(TeamJornada, on_delete=models.CASCADE, related_name="fixtures")
    number = models.PositiveSmallIntegerField()
    home_club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    away_club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    interpena = models.OneToOneField(
        Interpena,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="team_fixture",
    )
    postponed_to = models.DateField(_("aplazada hasta"), null=True, blank=True)
    decision = models.CharField(max_length=16, choices=Decision.choices, blank=True, default="")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("enfrentamiento de liga de peñas")
        verbose_name_plural = _("enfrentamientos de liga de peñas")
        ordering = ["jornada", "number"]
        constraints = [
            models.UniqueConstraint(fields=["jornada", "number"], name="team_fixture_number_once"),
            models.CheckConstraint(
                condition=~Q(home_club=F("away_club")), name="team_fixture_two_clubs"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.jornada}: {self.home_club_id}–{self.away_club_id}"
