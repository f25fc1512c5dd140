"""Tournaments, registrations, phases, groups, rounds, matches, results and their audit trail.

Responsible for: the rows and the constraints that are the backstop of every write (one entry
per pair and tournament, one table per round, one result per idempotency key, one hand number
per match). Rules live in scoring/ (Mus) and tournaments/draw/ (pairing); writes in
tournaments/services/, reads in tournaments/selectors.py.

Entrant kinds (``Tournament.entrant_kind``): pairs (an Entry is a pair); trios (an Entry is a
team of three: its ``pair`` is the team's row, named by its three players, and ``player_three``
the third); individuals (each player registers alone, as an IndividualEntry; each round the draw
makes partnerships, saved as Entries with ``drawn`` set, and pairs them in ordinary Matches);
francés (players register alone and each round the draw seats them at FrancesTables, whose
result is the finishing order, submitted and confirmed like a match's).

Terms: pareja (an Entry is a pair registered in a tournament), trío, jugador inscrito
(IndividualEntry), mesa de mus francés (FrancesTable), fase (phase), liguilla (round robin
group), ronda (round), mesa (table), partida (match), juego (game), vaca, piedras, órdago,
repesca, a tres ceros.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Pair, Player, RuleSetFields


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Tournament(RuleSetFields):
    class Status(models.TextChoices):
        DRAFT = "draft", _("borrador")
        REGISTRATION = "registration", _("inscripción")
        RUNNING = "running", _("en juego")
        FINISHED = "finished", _("terminado")

    class ManagedBy(models.TextChoices):
        NONE = "", _("nadie: el torneo se lleva desde su mesa de control")
        LEAGUE = "league", _("liga")
        INTERPENA = "interpena", _("interpeñas")

    class EntrantKind(models.TextChoices):
        PAIRS = "pairs", _("parejas")
        TRIOS = "trios", _("tríos")
        INDIVIDUALS = "individuals", _("individual")
        FRANCES = "frances", _("mus francés")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(_("nombre"), max_length=160)
    slug = models.SlugField(max_length=80)
    venue = models.CharField(_("lugar"), max_length=160, blank=True)
    starts_on = models.DateField(_("fecha de inicio"))
    ends_on = models.DateField(_("fecha de fin"), null=True, blank=True)
    is_public = models.BooleanField(_("público"), default=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    tables_available = models.PositiveSmallIntegerField(_("mesas disponibles"), default=0)
    max_pairs = models.PositiveSmallIntegerField(
        _("máximo de parejas"), null=True, blank=True, help_text=_("vacío: sin límite")
    )
    #: the fewest entries the bases play with: below it the tournament does not start
    min_entries = models.PositiveSmallIntegerField(
        _("mínimo de inscritos"), null=True, blank=True, help_text=_("vacío: sin mínimo")
    )
    #: the field sizes the bases allow ("12 o 16 parejas"): when registration closes the last
    #: registered drop out down to the largest that fits (tournaments.draw.entries); empty: any
    field_sizes = models.JSONField(default=list, blank=True)
    #: the match format chosen by the number of entries when the tournament starts: a list of
    #: {"from": entries, "rules": {stones_per_game, games_per_vaca, vacas_per_match}}
    rules_by_entries = models.JSONField(default=list, blank=True)
    #: the calendar of the bases ("martes y jueves a las 20:00 desde el 6 de octubre"):
    #: {"first": date, "weekdays": [0-6], "time": "HH:MM"} (tournaments.draw.calendar); the
    #: n-th round of the tournament without a date of its own is played on its n-th evening
    calendar = models.JSONField(default=dict, blank=True)
    #: tiebreak order for standings: names of scoring.standings.Tiebreak
    tiebreaks = models.JSONField(default=list, blank=True)
    #: the standings' points table, as the bases write it ("2 puntos por partida ganada, 1 por
    #: perdida"): the points of a match won (a bye too); empty: no table, the standings count
    #: matches won. Then the standings rank by points first (scoring.standings POINTS).
    points_win = models.PositiveSmallIntegerField(
        _("puntos por partida ganada"), null=True, blank=True
    )
    #: the points of a match played and lost (with a points table)
    points_loss = models.PositiveSmallIntegerField(_("puntos por partida perdida"), default=0)
    #: the points of a match lost by not showing up: a forfeit, a double loss
    points_walkover_loss = models.PositiveSmallIntegerField(
        _("puntos por partida no presentada"), default=0
    )
    #: the prizes the bases declare, across phases (tournaments.draw.prizes: each a name, a
    #: kind, a measure, the phases it counts by their order, its tiebreaks and ties)
    prizes = models.JSONField(default=list, blank=True)
    #: the prizes awarded (services/prizes.py), with their winners' names; computed when the
    #: tournament finishes and again after any change of its results or prizes
    prize_awards = models.JSONField(default=list, blank=True)
    prizes_awarded_at = models.DateTimeField(null=True, blank=True)
    #: a game lost per this many minutes late (empty: no lateness penalty)
    late_minutes_per_game = models.PositiveSmallIntegerField(null=True, blank=True)
    #: seed of the draws' random choices, so a draw can be reproduced
    draw_seed = models.PositiveIntegerField(default=0)
    preset_name = models.CharField(max_length=80, blank=True)
    #: who enters: pairs, trios, individuals (partners drawn each round) or Mus francés players
    entrant_kind = models.CharField(
        _("se inscriben"),
        max_length=16,
        choices=EntrantKind.choices,
        default=EntrantKind.PAIRS,
    )
    #: Mus francés: the players seated at each table (3 to 6)
    frances_table_size = models.PositiveSmallIntegerField(
        _("jugadores por mesa de mus francés"),
        default=4,
        validators=[MinValueValidator(3), MaxValueValidator(6)],
    )
    #: the app that runs this tournament (a league's division, an interpeña's boards): its
    #: rounds, phases and status change only through that app's services, and the lists of
    #: tournaments leave it out. Blank: an ordinary tournament, run from its own desk.
    managed_by = models.CharField(max_length=16, choices=ManagedBy.choices, blank=True, default="")
    #: what runs it, as that app names it (the league and division, the interpeña)
    managed_label = models.CharField(max_length=200, blank=True)
    #: the organizer's page of what runs it (the desk links there)
    managed_url = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: who created it as an archive named them (an imported row: the users of the instance it
    #: came from are not this one's, so ``created_by`` is empty); blank otherwise
    created_by_name = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("torneo")
        verbose_name_plural = _("torneos")
        ordering = ["-starts_on", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="tournament_slug_per_club"),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A pair registered in a tournament."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("inscrita")
        WAITING = "waiting", _("en lista de espera")
        CHECKED_IN = "checked_in", _("presente")
        WITHDRAWN = "withdrawn", _("retirada")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveSmallIntegerField(_("cabeza de serie"), null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTERED)
    pinned_table = models.PositiveSmallIntegerField(
        _("mesa fija"), null=True, blank=True, help_text=_("p. ej. accesible en silla de ruedas")
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    #: left out when registration closed, to fit the field sizes of the bases (withdrawn then)
    dropped_at = models.DateTimeField(null=True, blank=True)
    #: its entry fee marked as refunded (an entry dropped at the close is)
    refunded_at = models.DateTimeField(null=True, blank=True)
    #: a trio's third player (``pair`` is the team's row, named by the three)
    player_three = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    #: a partnership the draw made for a round of an individual tournament (not registered)
    drawn = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("pareja inscrita")
        verbose_name_plural = _("parejas inscritas")
        ordering = ["tournament", "seed", "registered_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "pair"], name="entry_once"),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=Q(seed__isnull=False),
                name="entry_seed_once",
            ),
        ]

    def __str__(self) -> str:
        return str(self.pair)


class IndividualEntry(models.Model):
    """A player registered alone: in an individual tournament (partners drawn each round) or
    a Mus francés one (seated at a table each round)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="individual_entries"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="individual_entries")
    status = models.CharField(
        max_length=16, choices=Entry.Status.choices, default=Entry.Status.REGISTERED
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    #: left out when registration closed, to fit the field sizes of the bases (withdrawn then)
    dropped_at = models.DateTimeField(null=True, blank=True)
    #: its entry fee marked as refunded (an entry dropped at the close is)
    refunded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("jugador inscrito")
        verbose_name_plural = _("jugadores inscritos")
        ordering = ["tournament", "registered_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="individual_entry_once"),
        ]

    def __str__(self) -> str:
        return str(self.player)


class Phase(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("suizo")
        ROUND_ROBIN = "round_robin", _("liguilla")
        SINGLE_ELIMINATION = "single_elimination", _("eliminatoria")
        DOUBLE_ELIMINATION = "double_elimination", _("doble eliminación")
        LIVES = "lives", _("eliminación a N derrotas (a tres ceros)")
        GROUP_LADDER = "group_ladder", _("escalera de grupos (ascensos y descensos)")
        TABLE_LADDER = "table_ladder", _("sube y baja (escalera de mesas)")

    class Status(models.TextChoices):
        PENDING = "pending", _("pendiente")
        RUNNING = "running", _("en juego")
        FINISHED = "finished", _("terminada")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="phases")
    order = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=80)
    format = models.CharField(max_length=24, choices=Format.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    #: Swiss: rounds to play; others: derived
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    group_size = models.PositiveSmallIntegerField(null=True, blank=True)
    #: groups then knockout: how many of each group go on (to the next phase)
    qualifiers_per_group = models.PositiveSmallIntegerField(null=True, blank=True)
    lives = models.PositiveSmallIntegerField(default=3)
    third_place = models.BooleanField(default=False)
    grand_final_reset = models.BooleanField(default=True)
    separate_clubs_rounds = models.PositiveSmallIntegerField(default=0)
    #: the phase whose standings seed this one (groups then knockout)
    source = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The match format of this phase, where it differs from the tournament's (a longer final).
    stones_per_game = models.PositiveSmallIntegerField(null=True, blank=True)
    games_per_vaca = models.PositiveSmallIntegerField(null=True, blank=True)
    vacas_per_match = models.PositiveSmallIntegerField(null=True, blank=True)
    #: elimination formats: the bracket structure from tournaments.draw, as plain data
    bracket = models.JSONField(null=True, blank=True)
    settings = models.JSONField(default=dict, blank=True)
    #: the plan's rules by which this phase takes its entrants from earlier phases
    #: (tournaments.draw.plan: ``[{"rule": "top", "phase": 1, "count": 8}, …]``); empty: every
    #: pair that plays (or, with ``source``, the knockout from its groups, as before)
    entrants = models.JSONField(default=list, blank=True)
    #: how its groups are filled from the entrants' seed order (tournaments.draw.plan.SEEDINGS);
    #: empty: drawn by lot with peña-mates apart, as before
    seeding = models.CharField(max_length=8, blank=True, default="")
    #: the groups' sizes where they differ (a 4 and a 6); empty: ``group_size`` decides
    group_sizes = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["tournament", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "order"], name="phase_order_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"


class Group(models.Model):
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(max_length=16)
    entries = models.ManyToManyField(Entry, related_name="groups", blank=True)

    class Meta:
        ordering = ["phase", "name"]
        constraints = [
            models.UniqueConstraint(fields=["phase", "name"], name="group_name_once"),
        ]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("borrador")
        PUBLISHED = "published", _("publicada")
        CLOSED = "closed", _("cerrada")

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    #: when it is played (empty: the tournament's calendar says, or nothing does)
    scheduled_at = models.DateTimeField(_("se juega"), null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["phase", "number"]
        constraints = [
            models.UniqueConstraint(fields=["phase", "number"], name="round_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.phase.name} R{self.number}"


class Match(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pendiente")
        IN_PROGRESS = "in_progress", _("en juego")
        SUBMITTED = "submitted", _("enviado")
        CONFIRMED = "confirmed", _("confirmado")
        DISPUTED = "disputed", _("en disputa")

    class Kind(models.TextChoices):
        PLAYED = "played", _("jugada")
        FORFEIT = "forfeit", _("no presentada")
        BYE = "bye", _("descanso")
        #: a league match not played by its deadline: both pairs lose it (no winner)
        DOUBLE_LOSS = "double_loss", _("doble derrota")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    group = models.ForeignKey(
        Group, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    #: position in an elimination bracket (e.g. "W2-1", "L3-2", "GF1", "3P"), blank otherwise
    bracket_key = models.CharField(max_length=16, blank=True)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    entry_a = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_as_a"
    )
    entry_b = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_as_b"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.PLAYED)
    winner = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_won"
    )
    games_a = models.PositiveSmallIntegerField(default=0)
    games_b = models.PositiveSmallIntegerField(default=0)
    vacas_a = models.PositiveSmallIntegerField(default=0)
    vacas_b = models.PositiveSmallIntegerField(default=0)
    stones_a = models.PositiveIntegerField(default=0)
    stones_b = models.PositiveIntegerField(default=0)
    #: the official result as plain data (scoring's state_to_json), once confirmed
    result = models.JSONField(null=True, blank=True)
    #: bumped by every write of the result; a client sends the version it saw (409 if stale)
    version = models.PositiveIntegerField(default=0)
    #: the secret of the table's link (QR), scoped to this match
    token = models.CharField(max_length=64, unique=True, default=new_token)
    #: tournaments.draw reason codes of this pairing
    reasons = models.JSONField(default=list, blank=True)
    first_mano = models.CharField(max_length=2, default="A1")
    #: when it is played, where the pairs agreed another date than their round's
    scheduled_at = models.DateTimeField(_("se juega"), null=True, blank=True)
    #: postponed: the last day it may be played; after it the organizer decides a walkover or
    #: a double loss (services/calendar.py)
    deadline = models.DateField(_("fecha límite"), null=True, blank=True)
    postponed_reason = models.CharField(_("motivo del aplazamiento"), max_length=200, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("partida")
        verbose_name_plural = _("partidas")
        ordering = ["round", "table_number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table_number"],
                condition=Q(table_number__isnull=False),
                name="match_table_once_per_round",
            ),
            models.CheckConstraint(
                condition=Q(entry_a__isnull=True) | ~Q(entry_a=F("entry_b")),
                name="match_two_different_entries",
            ),
        ]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"{self.round} mesa {self.table_number}: {self.entry_a} – {self.entry_b}"


class ResultSubmission(models.Model):
    """One version of a result as a pair (or the organizer) entered it. Never edited."""

    class Side(models.TextChoices):
        A = "a", _("pareja A")
        B = "b", _("pareja B")
        ORGANIZER = "organizer", _("organización")

    class Via(models.TextChoices):
        LINK = "link", _("enlace de mesa")
        ACCOUNT = "account", _("cuenta")
        API = "api", _("API")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="submissions")
    side = models.CharField(max_length=16, choices=Side.choices)
    via = models.CharField(max_length=16, choices=Via.choices)
    #: what was entered: {"games": [...]} or {"hands": [...]} in scoring's JSON form
    payload = models.JSONField()
    #: the engine's validated state (scoring.jsonio.state_to_json)
    summary = models.JSONField()
    idempotency_key = models.CharField(max_length=80)
    #: the match version this submission was made against
    based_on_version = models.PositiveIntegerField()
    device = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: who created it as an archive named them (an imported row: the users of the instance it
    #: came from are not this one's, so ``created_by`` is empty); blank otherwise
    created_by_name = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "idempotency_key"], name="submission_idempotency_key_once"
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id}: {self.side} ({self.idempotency_key})"

    @property
    def created_by_shown(self) -> str | None:
        """Who entered it: the user's name, or the one an archive gave; None for a table."""
        if self.created_by:
            return self.created_by.get_username()
        return self.created_by_name or None


class FrancesTable(models.Model):
    """A Mus francés table of a round: its players (FrancesSeat) and, once confirmed, their
    finishing order (IndividualEntry ids, first place first). Its result is submitted from the
    table's link and confirmed like a match's (FrancesSubmission)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="frances_tables")
    table_number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=16, choices=Match.Status.choices, default=Match.Status.PENDING
    )
    #: the confirmed finishing order: IndividualEntry ids, the winner first
    order = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    reasons = models.JSONField(default=list, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("mesa de mus francés")
        verbose_name_plural = _("mesas de mus francés")
        ordering = ["round", "table_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table_number"], name="frances_table_once_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} mesa {self.table_number}"


class FrancesSeat(models.Model):
    table = models.ForeignKey(FrancesTable, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(IndividualEntry, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "entry"], name="frances_seat_player_once"),
            models.UniqueConstraint(fields=["table", "seat"], name="frances_seat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}"


class FrancesSubmission(models.Model):
    """One version of a francés table's finishing order, as a seat (or the organizer) entered
    it. Never edited."""

    table = models.ForeignKey(FrancesTable, on_delete=models.CASCADE, related_name="submissions")
    #: the seat number of who entered it, 0 for the organizer
    seat = models.PositiveSmallIntegerField()
    via = models.CharField(max_length=16, choices=ResultSubmission.Via.choices)
    order = models.JSONField()
    confirms = models.BooleanField(default=False)
    idempotency_key = models.CharField(max_length=80)
    based_on_version = models.PositiveIntegerField()
    device = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: who created it as an archive named them (an imported row: the users of the instance it
    #: came from are not this one's, so ``created_by`` is empty); blank otherwise
    created_by_name = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "idempotency_key"], name="frances_submission_key_once"
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.table_id}: seat {self.seat} ({self.idempotency_key})"


class HandEntry(models.Model):
    """A hand recorded at the table (anotador), in scoring's JSON form; the running score is
    the fold of the match's hands through scoring."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    payload = models.JSONField()
    idempotency_key = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="hand_number_once"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id}: hand {self.number}"


class Substitution(models.Model):
    """A substitute playing one match for a pair's player, without changing the pair."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="substitutions")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="substitutions")
    replaced = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    substitute = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "entry"], name="one_substitute_per_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.substitute} for {self.replaced}"


class LatePenalty(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="late_penalties")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    minutes_late = models.PositiveSmallIntegerField()
    games_lost = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.entry}: {self.minutes_late} min"


class AuditEntry(models.Model):
    """Every change of a result or of the draw: who, when, through what, the old and the new."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.CASCADE, related_name="audit"
    )
    action = models.CharField(max_length=40)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: who made the change as an archive named them (an imported row: ``actor`` is empty, the
    #: users of the instance it came from are not this one's); blank otherwise
    actor_name = models.CharField(max_length=150, blank=True)
    via = models.CharField(max_length=16, blank=True)
    device = models.CharField(max_length=200, blank=True)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} ({self.created_at})"

    @property
    def actor_shown(self) -> str | None:
        """Who made the change: the user's name, or the one an archive gave; None if nobody."""
        return self.actor.get_username() if self.actor else (self.actor_name or None)


class StandingsSnapshot(models.Model):
    """Standings computed by a task after each confirmed result; the read path only reads."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="standings")
    group = models.ForeignKey(
        Group, null=True, blank=True, on_delete=models.CASCADE, related_name="standings"
    )
    rows = models.JSONField(default=list)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["phase", "group"], condition=Q(group__isnull=False), name="standings_once"
            ),
            models.UniqueConstraint(
                fields=["phase"], condition=Q(group__isnull=True), name="standings_once_ungrouped"
            ),
        ]

    def __str__(self) -> str:
        return f"standings of {self.phase_id}/{self.group_id}"


class Notification(models.Model):
    """A message for an organizer (e.g. 'every match of round 3 is confirmed').

    What it says is its ``kind`` (the message id) and its ``params``, rendered in the language
    of the page or API call that shows it (tournaments.selectors.notifications). ``text`` is the
    English of the moment it was created: what rows written before ``params`` existed show."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=40)
    text = models.CharField(max_length=300)
    #: the values the message of ``kind`` names (plain JSON); empty in rows of before 0005
    params = models.JSONField(default=dict, blank=True)
    key = models.CharField(max_length=120, help_text="makes the notification idempotent")
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="notification_once"),
        ]

    def __str__(self) -> str:
        return self.text


class PlanPreset(models.Model):
    """A peña's saved plan (phases and how entrants flow between them), as the plain JSON of
    tournaments.services.plans; the built-in plans live in code (tournaments.selectors.plans)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="plan_presets")
    name = models.CharField(_("nombre"), max_length=80)
    plan = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="plan_preset_once"),
        ]

    def __str__(self) -> str:
        return self.name
