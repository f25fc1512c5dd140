"""Peñas (clubs), their members and roles, players, pairs, and the rule-set presets they use.

Responsible for: the rows; constraints that must hold whatever code writes them. Rules of Mus
live in scoring/, writes in clubs/services.py, reads in clubs/selectors.py.

A player row is one person's; two rows of one person (typed by two peñas) are made one by a
merge (PlayerMerge, clubs.identity): the merged row stays, marked ``merged_into`` and pointed at
by nothing, so that the merge can be undone.

Terms: peña (club), pareja (pair: two players who play as one team), preset (a named rule set:
"8 reyes a 40", "4 reyes a 30", …), fusión (a merge of two player rows of one person).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from scoring import Real31, RuleSet
from scoring.rules import REAL_31_SUITS


class RuleSetFields(models.Model):
    """The options of scoring.RuleSet as columns; ``rules()`` validates them in the engine."""

    RULE_FIELDS = (
        "kings",
        "stones_per_game",
        "games_per_vaca",
        "vacas_per_match",
        "real_31",
        "dejes",
        "min_envite",
        "real_31_suit",
        "tio_perete",
        "forgotten_stones_lost",
    )

    kings = models.PositiveSmallIntegerField(
        _("reyes"), choices=[(8, _("8 reyes")), (4, _("4 reyes"))], default=8
    )
    stones_per_game = models.PositiveSmallIntegerField(
        _("piedras por juego"),
        default=40,
        validators=[MinValueValidator(10), MaxValueValidator(100)],
    )
    games_per_vaca = models.PositiveSmallIntegerField(
        _("juegos por vaca"), default=3, validators=[MinValueValidator(1), MaxValueValidator(9)]
    )
    vacas_per_match = models.PositiveSmallIntegerField(
        _("vacas por partida"), default=1, validators=[MinValueValidator(1), MaxValueValidator(9)]
    )
    real_31 = models.CharField(
        _("31 real"),
        max_length=16,
        choices=[
            (Real31.OFF.value, _("sin 31 real")),
            (Real31.SOTA_777.value, _("sota y tres sietes")),
            (Real31.FIGURE_777.value, _("figura y tres sietes")),
            (Real31.SOTA_OF_SUIT.value, _("sota de un palo y tres sietes")),
            (Real31.SOTA_APART.value, _("sota y tres sietes de otros palos")),
        ],
        default=Real31.OFF.value,
    )
    dejes = models.BooleanField(_("se cuentan los dejes"), default=True)
    min_envite = models.PositiveSmallIntegerField(
        _("envite mínimo"), default=2, validators=[MinValueValidator(1), MaxValueValidator(10)]
    )
    real_31_suit = models.CharField(
        _("palo de la sota de la 31 real"),
        max_length=8,
        blank=True,
        default="",
        choices=[(s, s) for s in REAL_31_SUITS],
    )
    tio_perete = models.BooleanField(_("el tío Perete (4-5-6-7) vale una piedra"), default=False)
    forgotten_stones_lost = models.BooleanField(
        _("piedra olvidada, piedra perdida al cortar"), default=False
    )

    class Meta:
        abstract = True

    def rules(self) -> RuleSet:
        return RuleSet.from_dict({name: getattr(self, name) for name in self.RULE_FIELDS})

    def rule_values(self) -> dict:
        return {name: getattr(self, name) for name in self.RULE_FIELDS}


class Club(models.Model):
    name = models.CharField(_("nombre"), max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    town = models.CharField(_("localidad"), max_length=120, blank=True)
    region = models.CharField(_("provincia o región"), max_length=120, blank=True)
    contact_email = models.EmailField(_("correo de contacto"), blank=True)
    contact_phone = models.CharField(_("teléfono de contacto"), max_length=40, blank=True)
    default_preset = models.ForeignKey(
        "clubs.RuleSetPreset",
        verbose_name=_("reglas por defecto"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    #: the language of the e-mails the peña's tournaments send (pairings, round complete)
    language = models.CharField(
        _("idioma de los correos"), max_length=8, choices=settings.LANGUAGES, default="es"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("peña")
        verbose_name_plural = _("peñas")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class RuleSetPreset(RuleSetFields):
    """A named rule set. Built-in presets have no club; a peña may define its own."""

    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="presets"
    )
    name = models.CharField(_("nombre"), max_length=80)

    class Meta:
        verbose_name = _("reglas predefinidas")
        verbose_name_plural = _("reglas predefinidas")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="preset_unique_per_club"),
            models.UniqueConstraint(
                fields=["name"], condition=Q(club=None), name="preset_unique_builtin"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("propietario")
        ORGANIZER = "organizer", _("organizador")
        MEMBER = "member", _("socio")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"


class Player(models.Model):
    """A person who plays. Needs no login; may belong to several peñas."""

    first_name = models.CharField(_("nombre"), max_length=80)
    last_name = models.CharField(_("apellidos"), max_length=120, blank=True)
    email = models.EmailField(_("correo"), blank=True)
    phone = models.CharField(_("teléfono"), max_length=40, blank=True)
    #: the federation's licence number, when an imported list gives it (matched before the name)
    licence = models.CharField(_("licencia"), max_length=32, blank=True, db_index=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    clubs = models.ManyToManyField(Club, related_name="players", blank=True)
    #: set when an organizer made this row and another one person (clubs.identity): the row
    #: is kept, with nothing pointing at it any more, so that the merge can be undone
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("jugador")
        verbose_name_plural = _("jugadores")
        ordering = ["last_name", "first_name"]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class Pair(models.Model):
    """Two players who play as one team, optionally named, representing a peña."""

    player_one = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_two = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    name = models.CharField(_("nombre de la pareja"), max_length=120, blank=True)
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.PROTECT, related_name="pairs"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("pareja")
        verbose_name_plural = _("parejas")
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_one=F("player_two")), name="pair_two_different_players"
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.player_one} / {self.player_two}"


class PlayerMerge(models.Model):
    """Two player rows made one person by an organizer, and the undo: the merge's audit row.

    Holds everything the undo needs to put back exactly which rows pointed where: ``moved``
    (the rows whose reference to ``other`` now points at ``keep``), ``dropped`` (link rows of
    ``other`` that ``keep`` already had, such as a peña both played for), ``filled`` (what
    ``keep`` had in the fields the merge filled from ``other``) and ``extra`` (what each floor
    above recorded of its own part). ``pending`` names the follow-up tasks (the ratings'
    re-rating…) not yet done for the current ``version`` (1 merged, 2 undone); each floor's
    beat task runs again what a lost task left pending.
    """

    class Reason(models.TextChoices):
        LICENCE = "licence", _("misma licencia")
        EMAIL = "email", _("mismo correo")
        NAME = "name", _("mismo nombre")
        ORGANIZER = "organizer", _("decisión del organizador")

    keep = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    #: the peñas either row played for at the merge: their organizers may undo it
    clubs = models.ManyToManyField(Club, related_name="+", blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    #: [{"model": "clubs.pair", "field": "player_one", "ids": [3, 8]}, …]
    moved = models.JSONField(default=list)
    #: [{"model": "clubs.player_clubs", "values": {"player_id": 9, "club_id": 2}}, …]
    dropped = models.JSONField(default=list)
    #: keep's fields before the merge filled them from other's: {"licence": "", …}
    filled = models.JSONField(default=dict)
    #: each floor's own record, by its name: {"leagues": {...}}
    extra = models.JSONField(default=dict)
    version = models.PositiveSmallIntegerField(default=1)
    pending = models.JSONField(default=list)

    class Meta:
        verbose_name = _("fusión de jugadores")
        verbose_name_plural = _("fusiones de jugadores")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["other"], condition=Q(undone_at=None), name="player_merged_once"
            ),
            models.CheckConstraint(condition=~Q(keep=F("other")), name="player_merge_two_rows"),
        ]

    def __str__(self) -> str:
        return f"{self.other_id} → {self.keep_id}"


class Webhook(models.Model):
    """A URL of an organizer's that hears of the peña's events (a webhook): each event is POSTed
    to it as JSON, signed with the webhook's secret (clubs.webhooks.signing)."""

    class Event(models.TextChoices):
        RESULT_CONFIRMED = "result.confirmed", _("resultado confirmado")
        ROUND_PUBLISHED = "round.published", _("ronda publicada")
        TOURNAMENT_FINISHED = "tournament.finished", _("torneo terminado")
        #: a championship's tournament sent (or corrected) its qualified pairs
        CHAMPIONSHIP_QUALIFIED = "championship.qualified", _("clasificados de un campeonato")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    #: the key of the HMAC-SHA256 signature of every delivery; shown once, when registered
    secret = models.CharField(max_length=64)
    #: the Event values this webhook hears (all of them when registered without a choice)
    events = models.JSONField(default=list)
    is_active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["club", "id"]

    def __str__(self) -> str:
        return f"{self.club}: {self.url}"


class WebhookDelivery(models.Model):
    """One event for one webhook, and how its delivery went: the delivery log."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pendiente")
        DELIVERED = "delivered", _("entregado")
        FAILED = "failed", _("fallido")

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40)
    #: the event's stable id: the same event (a task run twice) is recorded once per webhook
    event_id = models.CharField(max_length=120)
    payload = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    #: the HTTP status of the last answer (None: no answer: refused, timed out, …)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["webhook", "event_id"], name="webhook_event_once"),
        ]
        indexes = [models.Index(fields=["webhook", "-created_at"], name="webhook_delivery_log")]

    def __str__(self) -> str:
        return f"{self.event} → {self.webhook_id} ({self.status})"
