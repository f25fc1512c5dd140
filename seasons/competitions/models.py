"""The abstract row of a competition: tournaments of several peñas under one set of organizers.

Responsible for: the columns every such competition has (a circuit, a championship): its name
and short name (``slug``, unique among its kind), region and season, whether it is public, its
peñas (``clubs``: their organizers manage it, their members see it when it is private), the
organizers it names besides them, and who created it. The related names follow the concrete
model's (``Club.circuits``, ``Club.championships``; ``User.circuits_organized``…), so a kind
moved onto this row keeps its tables and columns.

Must not: hold a rule (seasons.competitions.services and each kind's services do).

Terms: peña (club), organizador (organizer), temporada (season).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club


class Competition(models.Model):
    name = models.CharField(_("nombre"), max_length=160)
    slug = models.SlugField(max_length=80, unique=True)
    region = models.CharField(_("región"), max_length=120, blank=True)
    season = models.CharField(_("temporada"), max_length=40, blank=True)
    #: a private competition exists only for the organizers and members of its peñas and the
    #: organizers it names (its pages and API answer 404 to everybody else; lists hide it)
    is_public = models.BooleanField(_("público"), default=True)
    clubs = models.ManyToManyField(Club, related_name="%(class)ss")
    #: organizers named besides those of its peñas
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="%(class)ss_organized", blank=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: who created it as an archive named them (an imported row); blank otherwise
    created_by_name = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "name"]

    def __str__(self) -> str:
        return self.name
