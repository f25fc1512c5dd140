"""Peñas (clubs), their members and roles, players, pairs, and the rule-set presets they use.

Responsible for: the rows; constraints that must hold whatever code writes them. Rules of Mus
live in scoring/, writes in clubs/services.py, reads in clubs/selectors.py.

Terms: peña (club), pareja (pair: two players who play as one team), preset (a named rule set:
"8 reyes a 40", "4 reyes a 30", …).
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


# --- Ratings of players (clubs/ratings.py rates; clubs/ratings_services.py stores) -----------


class RatedMatch(models.Model):
    """A confirmed match as the ratings see it, whatever it came from (a tournament's match
    today, a league's tomorrow): who played on each side, how it ended, when it was played.

    ``order_key`` is the order the matches are rated in: the time it was played (UTC, fixed
    width), then the source and its id, so the order never depends on when a result arrived.
    """

    class Source(models.TextChoices):
        TOURNAMENT = "tournament", _("torneo")

    class Outcome(models.TextChoices):
        A = "a", _("gana el lado A")
        B = "b", _("gana el lado B")
        DRAW = "draw", _("empate")

    source = models.CharField(max_length=16, choices=Source.choices)
    source_id = models.PositiveBigIntegerField()
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rated_matches")
    order_key = models.CharField(max_length=64, unique=True)
    played_at = models.DateTimeField()
    #: what the pages show: the event (a tournament's name) and the stage in it ("Suizo R3")
    event = models.CharField(max_length=160)
    stage = models.CharField(max_length=120, blank=True)
    #: where the match is shown (a path of the site), blank when it has no public page
    url = models.CharField(max_length=200, blank=True)
    #: player ids of each side (two for a pair; one or three when other forms land)
    players_a = models.JSONField()
    players_b = models.JSONField()
    outcome = models.CharField(max_length=8, choices=Outcome.choices)
    #: the loser did not play: the points ranking counts it, the ratings do not move
    forfeit = models.BooleanField(default=False)
    #: False for a private tournament's match: it rates, but the pages do not say where it was
    is_public = models.BooleanField(default=True)
    #: juegos of each side, for the pages
    games_a = models.PositiveSmallIntegerField(default=0)
    games_b = models.PositiveSmallIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("partida valorada")
        verbose_name_plural = _("partidas valoradas")
        ordering = ["order_key"]
        constraints = [
            models.UniqueConstraint(fields=["source", "source_id"], name="rated_match_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.stage}".strip()


class RatingEntry(models.Model):
    """A player's rating after one rated match (the chart's points), and what it gave them.

    Rewritten by clubs.ratings_services for the matches a change reaches (the changed match and
    every later one sharing a player with what changed): never edited by hand.
    """

    # No index of their own: (match, player) is unique and (player, order_key) is indexed; a
    # season rebuilt from scratch writes hundreds of thousands of these rows.
    match = models.ForeignKey(
        RatedMatch, on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_entries", db_index=False
    )
    #: copies of the match's, so that a player's history is read from one index
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    order_key = models.CharField(max_length=64)
    side = models.CharField(max_length=1)
    result = models.CharField(max_length=8)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    #: mu − 3·sigma, the rating shown
    rating = models.FloatField()
    points = models.SmallIntegerField()

    class Meta:
        # by the columns: "player" would order by the player's name, through a join
        ordering = ["player_id", "order_key"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_entry_once"),
        ]
        indexes = [
            models.Index(fields=["player", "order_key"], name="rating_entry_history"),
            # none on order_key alone: a re-rating scans the table once or twice, where an
            # index would be updated for each of the hundreds of thousands of rows it writes
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.order_key}: {self.rating:.2f}"


class RankingRow(models.Model):
    """A player's line in a peña's ranking: the peña's matches and points, and the player's
    rating (from every match anywhere). Rebuilt with the entries; the pages only read it."""

    club = models.ForeignKey(  # (club, player) is unique: that index serves the club too
        Club, on_delete=models.CASCADE, related_name="ranking_rows", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ranking_rows")
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    abandons = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0)
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="ranking_row_once"),
        ]
        indexes = [
            models.Index(fields=["club", "-rating"], name="ranking_by_rating"),
            models.Index(fields=["club", "-points"], name="ranking_by_points"),
        ]

    def __str__(self) -> str:
        return f"{self.club_id}/{self.player_id}"


class RankingSettings(models.Model):
    """Which ranking a peña's page shows: the rating, the points, or both (the default)."""

    class Shows(models.TextChoices):
        BOTH = "both", _("valoración y puntos")
        RATING = "rating", _("valoración")
        POINTS = "points", _("puntos")

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="ranking_settings")
    shows = models.CharField(max_length=8, choices=Shows.choices, default=Shows.BOTH)

    def __str__(self) -> str:
        return f"{self.club_id}: {self.shows}"


class RatingsLock(models.Model):
    """One row, locked by every re-rating: two never interleave (they touch the same players)."""

    def __str__(self) -> str:
        return "ratings lock"


class Webhook(models.Model):
    """A URL of an organizer's that hears of the peña's events (a webhook): each event is POSTed
    to it as JSON, signed with the webhook's secret (clubs.webhooks.signing)."""

    class Event(models.TextChoices):
        RESULT_CONFIRMED = "result.confirmed", _("resultado confirmado")
        ROUND_PUBLISHED = "round.published", _("ronda publicada")
        TOURNAMENT_FINISHED = "tournament.finished", _("torneo terminado")

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
