"""A championship's rows: its centres, stages, stage tournaments and qualified pairs.

Responsible for: the rows and the constraints that hold whatever code writes them (a peña is
a centre once per championship, a stage's order once, one final, a tournament a stage of one
championship only, a pair qualified once from a tournament). Quotas and eligibility are
computed by the pure cores (seasons.championships.quotas, .eligibility) and stored or enforced
by seasons.championships.services; pages only read.

Must not: hold a rule (services and the pure cores do).

Terms: campeonato (championship), centro (centre), fase (stage), clasificatoria (qualifier),
final provincial o regional (intermediate final), cupo (quota), clasificado (qualified).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Pair
from seasons.competitions.models import Competition
from tournaments.models import Entry, Tournament


class Championship(Competition):
    """Qualifiers in many centres feeding optional intermediate finals and a final. Its
    name, peñas (whose organizers run it), named organizers and visibility are every
    competition's (seasons.competitions); its centres are rows of their own."""

    #: how many of its players a pair may change on the day of each stage (0: none)
    member_changes = models.PositiveSmallIntegerField(_("cambios de jugador"), default=1)

    class Meta:
        verbose_name = _("campeonato")
        verbose_name_plural = _("campeonatos")
        ordering = ["-created_at", "name"]


class Centre(models.Model):
    """A peña (a bar, a peña, a Basque house) that runs a qualifier of the championship and
    whose pairs represent it."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="centres")
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="championship_centres")
    #: its place in the championship's ranking of centres (1: the best), for quotas by ranking
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    #: a fixed quota of its own, where the stage's quota is a fixed number per centre
    quota = models.PositiveSmallIntegerField(null=True, blank=True)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "club__name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "club"], name="centre_once"),
        ]

    def __str__(self) -> str:
        return f"{self.championship_id}: {self.club_id}"


class Stage(models.Model):
    class Kind(models.TextChoices):
        QUALIFIERS = "qualifiers", _("clasificatorias")
        INTERMEDIATE = "intermediate", _("final provincial o regional")
        FINAL = "final", _("final")

    class Quota(models.TextChoices):
        FIXED = "fixed", _("un número fijo por centro")
        PROPORTIONAL = "proportional", _("proporcional a las parejas")
        RANKING = "ranking", _("según la clasificación del centro")

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField()
    name = models.CharField(_("nombre"), max_length=120)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    #: how many pairs each tournament of the stage sends to the next (not for a final)
    quota_rule = models.CharField(max_length=16, choices=Quota.choices, default=Quota.FIXED)
    #: fixed: pairs per centre (or per tournament); proportional: one pair per this many
    quota_number = models.PositiveSmallIntegerField(default=2)
    #: proportional and ranking: at least this many
    quota_minimum = models.PositiveSmallIntegerField(default=1)
    #: ranking: the pairs of the centre ranked 1st, 2nd, …; a centre beyond it sends the minimum
    quota_table = models.JSONField(default=list, blank=True)
    #: a tournament of the stage not finished by then is late (the desk says so)
    deadline = models.DateField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["championship", "order"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "order"], name="stage_order_once"),
            models.UniqueConstraint(
                fields=["championship"], condition=Q(kind="final"), name="stage_one_final"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class StageTournament(models.Model):
    """A tournament of a stage: a centre's qualifier, an intermediate final or the final."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="stops")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="tournaments")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="championship_stops"
    )
    #: the centre that runs it (a qualifier's)
    centre = models.ForeignKey(
        Centre, null=True, blank=True, on_delete=models.CASCADE, related_name="tournaments"
    )
    #: the tournament of the next stage its qualified pairs go to; None: the next stage's only one
    feeds = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="fed_by"
    )
    #: when it finished: the pairs and the players who took part (the players of its pairs and
    #: its substitutes) and its quota, as the last flow computed them
    pairs_played = models.PositiveSmallIntegerField(null=True, blank=True)
    players_played = models.PositiveSmallIntegerField(null=True, blank=True)
    quota = models.PositiveSmallIntegerField(null=True, blank=True)
    #: when its qualified pairs last flowed (or the flow found it could not), and why not
    flowed_at = models.DateTimeField(null=True, blank=True)
    flow_note = models.CharField(max_length=40, blank=True)
    #: how many times its qualified pairs changed (a webhook event's id carries it)
    flow_version = models.PositiveIntegerField(default=0)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "stage__order", "tournament__starts_on", "tournament_id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament"], name="championship_tournament_once"),
        ]

    def __str__(self) -> str:
        return f"{self.championship_id}: {self.tournament_id}"


class Qualification(models.Model):
    """A pair that qualified from a stage's tournament, and where it went."""

    stop = models.ForeignKey(StageTournament, on_delete=models.CASCADE, related_name="qualified")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+")
    #: its final place in the tournament, and its order among the qualified (1: the first)
    place = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()
    #: the centre it represents (its qualifier's, carried through the intermediate finals)
    centre = models.ForeignKey(
        Centre, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: where it went: the next stage's tournament and its entry there, once registered
    target = models.ForeignKey(
        StageTournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="incoming"
    )
    target_entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["stop", "position"]
        constraints = [
            models.UniqueConstraint(fields=["stop", "entry"], name="qualified_once"),
        ]

    def __str__(self) -> str:
        return f"{self.stop_id}: {self.entry_id} ({self.position})"
