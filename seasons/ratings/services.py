"""Writes of the ratings: a confirmed match in, every rating it changes out.

Responsible for: turning a confirmed match of a tournament into a ``RatedMatch`` (who played on
each side, substitutes included; how it ended; when it was played), re-rating with the pure core
(seasons/ratings/rate.py) what a changed match reaches, storing each player's rating after each
match (``RatingEntry``) and rebuilding (or moving) the peñas' ranking rows of the players concerned;
the peña's choice of ranking. A re-rating starts from the ratings stored just before the
changed match and gives exactly what rating everything from scratch gives.

What a change reaches: ``rate`` rates a match from its own players' ratings only, so a later
match changes only when it shares a player with the changed match, or with a later match that
itself changed. ``_rerate_from`` walks the matches from the change in order and re-rates those;
the others keep their entries (a result of a round arriving after later ones of the same round
re-rates only itself). A rebuild (``ratings_rebuild``), and a change that meets a player deleted
since, re-rate every match from the change.

Two player rows made one person (clubs.identity), or that undone: ``ratings_players_sync``
reads again every match of both and re-rates from the earliest that changed (the task
``ratings.players_merged``; ``ratings.reconcile`` runs it again for a merge whose task was lost).

The entry point of a source is ``rating_tournament_match_sync`` (called by the task
``ratings.match_sync``, queued by tournaments' result_confirmed; ``ratings_reconcile``, run by
beat's ``ratings.reconcile``, rates what a lost task left unrated); a league adds its own
``rating_<source>_sync`` that builds the same row and calls ``_rerate_from`` with the players
of the match before and after. The sync's small reads are compiled once (``Prepared``, and
``PreparedValues`` for a few columns): the ORM's compiling cost more than the database's answer.

Must not: rate (seasons.ratings.rate does) or run two re-ratings at once (a lock row serializes
them).

Terms: valoración (rating), puntos (the peña's points ranking), abandono (a forfeit lost),
suplente (substitute).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection, transaction
from django.db.models import Count, Exists, F, OuterRef, Q, Sum, Window
from django.db.models.functions import RowNumber
from django.urls import reverse
from django.utils import timezone

from clubs import roles
from clubs.identity.selectors import player_merges_pending
from clubs.identity.services import player_merge_follow_up_done
from clubs.models import Club, Player, PlayerMerge
from config.errors import Invalid
from seasons.ratings import rate
from seasons.ratings.models import RankingRow, RankingSettings, RatedMatch, RatingEntry, RatingsLock
from tournaments.models import Match, Round, Substitution, Tournament
from tournaments.selectors.prepared import Prepared, PreparedValues

User = AbstractBaseUser | AnonymousUser

#: a list of ids longer than this is not sent as IN (...): the query reads every row instead
_IN_LIMIT = 900
_BATCH = 2000
#: at most this many matches re-rated are added to the ranking rows (one statement each)
_APPEND_LIMIT = 100

_WON = (rate.Result.WIN, rate.Result.WALKOVER)
_LOST = (rate.Result.LOSS, rate.Result.ABANDON)


def order_key(played_at: dt.datetime, source: str, source_id: int) -> str:
    """The order matches are rated in: when played (UTC, fixed width), then source and id."""
    utc = played_at.astimezone(dt.UTC)
    return f"{utc:%Y-%m-%dT%H:%M:%S.%f}|{source}|{source_id:012d}"


#: a list of up to this many ids (a match's players) is compiled once per length
_COMPILED_IN = 8
#: markers: values that no constant of the compiled SQL equals (in range of every id column)
_ID = 2_147_480_000
_KEY = "\x00order key"


class _ByIds:
    """``run(ids, *values)`` of the values queryset ``build(ids, *values)``: compiled once per
    length of ``ids`` up to _COMPILED_IN (``markers`` stand for ``values``), built by the ORM
    each time for a longer list."""

    def __init__(self, build: Callable, *markers) -> None:
        self.build = build
        self.markers = markers
        self.compiled: dict[int, PreparedValues] = {}

    def run(self, ids: list[int], *values) -> list[tuple]:
        n = len(ids)
        if not n:
            return []
        if n > _COMPILED_IN:
            return list(self.build(ids, *values))
        query = self.compiled.get(n)
        if query is None:

            def build(*markers):
                return self.build(list(markers[:n]), *markers[n:])

            query = self.compiled[n] = PreparedValues(
                build, *[_ID + i for i in range(n)], *self.markers
            )
        return query.run(*ids, *values)


_LOCK = PreparedValues(
    lambda pk: RatingsLock.objects.select_for_update().filter(pk=pk).values_list("pk"), _ID
)


def _locked() -> None:
    """Take the lock row (one query once it exists; the very first re-rating creates it)."""
    if _LOCK.run(1):
        return
    RatingsLock.objects.get_or_create(pk=1)
    RatingsLock.objects.select_for_update().get(pk=1)


# --- Sources -------------------------------------------------------------------------------------


def _tournament_match_row(
    match: Match, substitutions: Iterable[Substitution] | None = None
) -> dict | None:
    """The RatedMatch fields of a tournament match, or None when it is not rated (not
    confirmed, a bye, a double loss nobody played, a draft round, or a player on both sides
    through a substitute). ``substitutions``: the match's (None: ``match.substitutions``)."""
    if (
        match.status != Match.Status.CONFIRMED
        or match.kind in (Match.Kind.BYE, Match.Kind.DOUBLE_LOSS)
        or match.entry_a is None
        or match.entry_b is None
        or match.round.status == Round.Status.DRAFT
    ):
        return None
    if substitutions is None:
        substitutions = match.substitutions.all()
    substitutes = {(s.entry_id, s.replaced_id): s.substitute_id for s in substitutions}

    def players(entry) -> list[int]:
        pair = entry.pair
        # a trio's third player (tournaments.Entry.player_three) plays on the same side
        ids = (pair.player_one_id, pair.player_two_id, entry.player_three_id)
        return [substitutes.get((entry.pk, p), p) for p in ids if p is not None]

    side_a, side_b = players(match.entry_a), players(match.entry_b)
    if set(side_a) & set(side_b) or len(set(side_a)) < 2 or len(set(side_b)) < 2:
        return None
    if match.winner_id == match.entry_a_id:
        outcome = RatedMatch.Outcome.A
    elif match.winner_id == match.entry_b_id:
        outcome = RatedMatch.Outcome.B
    else:
        outcome = RatedMatch.Outcome.DRAW
    rnd = match.round
    tournament = rnd.phase.tournament
    played_at = rnd.published_at or match.started_at or match.created_at
    source = RatedMatch.Source.TOURNAMENT
    return {
        "club_id": tournament.club_id,
        "order_key": order_key(played_at, source, match.pk),
        "played_at": played_at,
        "event": tournament.name[:160],
        "stage": f"{rnd.phase.name} R{rnd.number}"[:120],
        "url": reverse(
            "web:public-round",
            kwargs={
                "club_slug": tournament.club.slug,
                "tournament_slug": tournament.slug,
                "round_id": rnd.pk,
            },
        )
        if tournament.is_public
        else "",
        "players_a": side_a,
        "players_b": side_b,
        "outcome": outcome,
        "forfeit": match.kind == Match.Kind.FORFEIT,
        "is_public": tournament.is_public,
        "games_a": match.games_a,
        "games_b": match.games_b,
    }


def _tournament_matches():
    return Match.objects.select_related(
        "round__phase__tournament__club", "entry_a__pair", "entry_b__pair"
    ).prefetch_related("substitutions")


# The sync's reads of one match, compiled once (the match's read joins seven tables: Django
# would spend longer compiling it than the database spends answering it).
_MATCH = Prepared(
    lambda pk: (
        Match.objects.select_related(
            "round__phase__tournament__club", "entry_a__pair", "entry_b__pair"
        )
        .filter(pk=pk)
        .order_by()
    ),
    _ID,
)
_SUBSTITUTIONS = Prepared(lambda pk: Substitution.objects.filter(match_id=pk).order_by(), _ID)
_RATED = Prepared(
    lambda pk: RatedMatch.objects.filter(
        source=RatedMatch.Source.TOURNAMENT, source_id=pk
    ).order_by(),
    _ID,
)
#: what a re-rating reads of a RatedMatch; a change of anything else re-rates nothing
_RATES = ("order_key", "players_a", "players_b", "outcome", "forfeit", "club_id")


def rating_tournament_match_sync(*, match_id: int) -> int:
    """Bring the ratings up to date with one tournament match (confirmed, corrected, or no
    longer confirmed): store it as rated and re-rate from it, or take it out and re-rate from
    where it was; only the matches its players' ratings reach are re-rated (``_rerate_from``).
    Idempotent: a match already rated as it is changes nothing. Returns the number of matches
    re-rated."""
    source = RatedMatch.Source.TOURNAMENT
    with transaction.atomic():
        _locked()
        match = next(iter(_MATCH.run(match_id)), None)
        row = None
        if match is not None:
            row = _tournament_match_row(match, _SUBSTITUTIONS.run(match_id))
        existing = next(iter(_RATED.run(match_id)), None)
        if row is None:
            if existing is None:
                return 0
            start = existing.order_key
            players = {*existing.players_a, *existing.players_b}
            existing.delete()
            return _rerate_from(start, players)
        if existing is not None:
            # updated_at says "taken in since the match last changed" (the reconciliation
            # reads it), so it moves even when nothing the ratings read has changed.
            now = timezone.now()
            if all(getattr(existing, name) == value for name, value in row.items()):
                RatedMatch.objects.filter(pk=existing.pk).update(updated_at=now)
                return 0
            RatedMatch.objects.filter(pk=existing.pk).update(**row, updated_at=now)
            if all(getattr(existing, name) == row[name] for name in _RATES):
                return 0  # its name, stage, page or games: no rating or ranking row moves
            start = min(existing.order_key, row["order_key"])
            players = {*existing.players_a, *existing.players_b, *row["players_a"]}
            return _rerate_from(start, players | set(row["players_b"]))
        created = RatedMatch.objects.create(source=source, source_id=match_id, **row)
        return _rerate_from(row["order_key"], {*row["players_a"], *row["players_b"]}, created.pk)


def ratings_reconcile() -> int:
    """Rate every confirmed match of a running tournament that the ratings have not taken in
    since it last changed (its ``ratings.match_sync`` was lost: a worker killed, a broker down
    when it was queued). Returns how many were synced; nothing when nothing was lost."""
    rated = RatedMatch.objects.filter(
        source=RatedMatch.Source.TOURNAMENT,
        source_id=OuterRef("pk"),
        updated_at__gte=OuterRef("updated_at"),
    )
    unrated = (
        Match.objects.filter(
            round__phase__tournament__status=Tournament.Status.RUNNING,
            status=Match.Status.CONFIRMED,
        )
        .exclude(kind=Match.Kind.BYE)
        .filter(~Exists(rated))
        .values_list("pk", flat=True)
    )
    done = 0
    for match_id in list(unrated):
        rating_tournament_match_sync(match_id=match_id)
        done += 1
    return done


def ratings_rebuild(*, resync: bool = True) -> int:
    """Rate every match from scratch; ``resync``: first read every tournament match again
    (what a lost task left behind is caught up). Returns the number of matches rated."""
    source = RatedMatch.Source.TOURNAMENT
    with transaction.atomic():
        _locked()
        if resync:
            rows = {}
            confirmed = _tournament_matches().filter(status=Match.Status.CONFIRMED)
            for match in confirmed.iterator(chunk_size=_BATCH):
                row = _tournament_match_row(match)
                if row is not None:
                    rows[match.pk] = row
            RatedMatch.objects.filter(source=source).exclude(source_id__in=list(rows)).delete()
            known = dict(RatedMatch.objects.filter(source=source).values_list("source_id", "pk"))
            RatedMatch.objects.bulk_create(
                [
                    RatedMatch(source=source, source_id=mid, **row)
                    for mid, row in rows.items()
                    if mid not in known
                ],
                batch_size=_BATCH,
            )
            for mid, row in rows.items():
                if mid in known:
                    RatedMatch.objects.filter(pk=known[mid]).update(**row)
        return _rerate_from("")


# --- One person, one identity (clubs.identity) --------------------------------------------------

#: the name of the task that runs ``ratings_merge_follow_up``
MERGE_TASK = "ratings.players_merged"


def ratings_players_sync(*, player_ids: Iterable[int]) -> int:
    """Bring the ratings up to date after the matches of these players changed hands: two
    player rows made one person, or that undone (clubs.identity moves the pairs, entries and
    substitutions, never the ratings' rows). Every rated match of theirs and every confirmed
    tournament match of theirs is read again (who played on each side, as the pairs now say)
    and the ratings are re-rated from the earliest that changed, with every player it
    reaches, as a corrected result is (``_rerate_from``): the same ratings as rating everything
    from scratch. Idempotent; returns the number of matches re-rated."""
    players = set(player_ids)
    source = RatedMatch.Source.TOURNAMENT
    with transaction.atomic():
        _locked()
        rated = RatedMatch.objects.filter(source=source, entries__player_id__in=players)
        ids = set(rated.values_list("source_id", flat=True))
        theirs = Q()
        for side in ("entry_a", "entry_b"):
            for field in ("pair__player_one_id", "pair__player_two_id", "player_three_id"):
                theirs |= Q(**{f"{side}__{field}__in": players})
        theirs |= Q(substitutions__substitute_id__in=players)
        confirmed = Match.objects.filter(status=Match.Status.CONFIRMED).filter(theirs)
        ids |= set(confirmed.values_list("pk", flat=True))
        ordered = sorted(ids)
        existing: dict[int, RatedMatch] = {}
        matches: dict[int, Match] = {}
        for group in _chunks(ordered):
            existing.update(
                (r.source_id, r)
                for r in RatedMatch.objects.filter(source=source, source_id__in=group)
            )
            matches.update((m.pk, m) for m in _tournament_matches().filter(pk__in=group))
        start: str | None = None
        touched = set(players)
        now = timezone.now()
        for pk in ordered:
            old = existing.get(pk)
            row = _tournament_match_row(matches[pk]) if pk in matches else None
            keys = []
            if old is not None and row is None:
                touched.update((*old.players_a, *old.players_b))
                keys.append(old.order_key)
                old.delete()
            elif old is None and row is not None:
                RatedMatch.objects.create(source=source, source_id=pk, **row)
                keys.append(row["order_key"])
            elif old is not None and row is not None:
                if all(getattr(old, name) == value for name, value in row.items()):
                    continue
                RatedMatch.objects.filter(pk=old.pk).update(**row, updated_at=now)
                if all(getattr(old, name) == row[name] for name in _RATES):
                    continue
                touched.update((*old.players_a, *old.players_b))
                keys += [old.order_key, row["order_key"]]
            if row is not None:
                touched.update((*row["players_a"], *row["players_b"]))
            for key in keys:
                start = key if start is None else min(start, key)
        if start is None:
            return 0
        return _rerate_from(start, touched)


def ratings_merge_follow_up(*, merge: PlayerMerge, version: int) -> int:
    """What the task does for a merge (or its undo, ``version``): re-rate, then say done."""
    rerated = ratings_players_sync(player_ids=[merge.keep_id, merge.other_id])
    player_merge_follow_up_done(merge_id=merge.pk, task=MERGE_TASK, version=version)
    return rerated


def ratings_merges_reconcile() -> int:
    """Beat's repair: the re-rating of every merge or undo whose task was lost."""
    pending = player_merges_pending(task=MERGE_TASK)
    for merge in pending:
        ratings_merge_follow_up(merge=merge, version=merge.version)
    return len(pending)


# --- Re-rating -----------------------------------------------------------------------------------


def _chunks(ids: list[int]) -> Iterable[list[int]]:
    for i in range(0, len(ids), _IN_LIMIT):
        yield ids[i : i + _IN_LIMIT]


def _latest_entries(entries, fields: tuple[str, ...]):
    """Each player's last entry among ``entries`` (a window over the player's history)."""
    return (
        entries.annotate(
            n=Window(RowNumber(), partition_by=[F("player_id")], order_by=F("order_key").desc())
        )
        .filter(n=1)
        .values_list("player_id", *fields)
    )


_BEFORE = _ByIds(
    lambda ids, key: _latest_entries(
        RatingEntry.objects.filter(order_key__lt=key, player_id__in=ids), ("mu", "sigma")
    ),
    _KEY,
)
_PLAYERS = _ByIds(lambda ids: Player.objects.filter(pk__in=ids).order_by().values_list("pk"))
_ROW = ("pk", "order_key", "players_a", "players_b", "outcome", "forfeit", "club_id")
_ROWS = PreparedValues(
    lambda key: (
        RatedMatch.objects.filter(order_key__gte=key).order_by("order_key").values_list(*_ROW)
    ),
    _KEY,
)


def _ratings_before(key: str, players: set[int]) -> dict[int, rate.Rating]:
    if not key or not players:
        return {}
    if len(players) <= _COMPILED_IN:
        return {p: rate.Rating(mu, sigma) for p, mu, sigma in _BEFORE.run(sorted(players), key)}
    before = RatingEntry.objects.filter(order_key__lt=key)
    found: dict[int, rate.Rating] = {}
    if len(players) > _IN_LIMIT * 4:
        groups: Iterable = [None]
    else:
        groups = _chunks(sorted(players))
    for group in groups:
        entries = before if group is None else before.filter(player_id__in=group)
        for player, mu, sigma in _latest_entries(entries, ("mu", "sigma")):
            found[player] = rate.Rating(mu, sigma)
    return {p: r for p, r in found.items() if p in players}


def _ratings_after(resume: dict[int, int]) -> dict[int, rate.Rating]:
    """Each player's rating after the match ``resume[player]`` (their stored entry of it)."""
    found: dict[int, rate.Rating] = {}
    for group in _chunks(sorted(set(resume.values()))):
        entries = RatingEntry.objects.filter(match_id__in=group).order_by()
        for match, player, mu, sigma in entries.values_list("match_id", "player_id", "mu", "sigma"):
            if resume.get(player) == match:
                found[player] = rate.Rating(mu, sigma)
    return found


def _existing_players(players: set[int]) -> set[int]:
    if len(players) <= _COMPILED_IN:
        return {pk for (pk,) in _PLAYERS.run(sorted(players))}
    if len(players) > _IN_LIMIT * 4:
        return set(Player.objects.order_by().values_list("pk", flat=True)) & players
    found: set[int] = set()
    for group in _chunks(sorted(players)):
        found.update(Player.objects.filter(pk__in=group).order_by().values_list("pk", flat=True))
    return found


def _records(rows: list[tuple]) -> list[rate.MatchRecord]:
    return [
        rate.MatchRecord(
            key=k,
            side_a=tuple(a),
            side_b=tuple(b),
            outcome=rate.Outcome(outcome),
            forfeit=forfeit,
            club_id=club,
        )
        for _, k, a, b, outcome, forfeit, club in rows
    ]


def _rerate_from(key: str, players: Iterable[int] | None = None, created: int | None = None) -> int:
    """Re-rate what a change at ``key`` reaches, from the ratings stored before it; rebuild (or
    move) the ranking rows of the players whose entries changed. Runs under the lock; returns
    the number of matches re-rated.

    ``players``: those of the match that changed at ``key`` (taken out: the players it had;
    corrected: its players before and after); ``created``: the id of a RatedMatch just stored
    (it has no entries yet). ``rate.rate`` rates a match from its own players' ratings only,
    so a later match's entries change only when it shares a player with the changed match or
    with a later match that itself changed: walking the matches from ``key`` in order, a match
    is re-rated when it has an affected player, and then all its players are affected. Every
    other match keeps its entries. Without ``players`` (a rebuild, key ""), or when a player of
    a match to re-rate has been deleted since, every match from ``key`` is re-rated."""
    rows = _ROWS.run(key)
    if players is None:
        return _rerate_all(key, rows)
    affected = set(players)
    chosen: list[tuple] = []
    untouched: dict[int, int] = {}  # a player not affected yet: their last match since key
    resume: dict[int, int] = {}  # affected later: the match whose entry they start from
    for row in rows:
        both = (*row[2], *row[3])
        if affected.isdisjoint(both):
            for p in both:
                untouched[p] = row[0]
            continue
        chosen.append(row)
        for p in both:
            if p not in affected:
                affected.add(p)
                if p in untouched:
                    resume[p] = untouched[p]
    rated_before = [row for row in chosen if row[0] != created]  # they have entries
    if rated_before:
        seen = {p for row in rated_before for p in (*row[2], *row[3])}
        if seen - _existing_players(seen):
            return _rerate_all(key, rows)  # a player deleted since: as before, everything
        _entries_delete(key, [row[0] for row in rated_before], everything=len(chosen) == len(rows))
    records = _records(chosen)
    in_play = {p for r in records for p in (*r.side_a, *r.side_b)}
    start = _ratings_before(key, in_play - resume.keys())
    if resume:
        start.update(_ratings_after(resume))
    run = rate.rate(records, start)
    clubs = {r.key: r.club_id for r in records}
    _insert_entries(run.history, {row[1]: row[0] for row in chosen}, clubs)
    if created is not None and not rated_before:
        # only the new match, after every match of its players: nothing was deleted, and
        # each player's ranking rows move by what it adds
        _ranking_rows_add(run.history, clubs)
    else:
        _ranking_rows_rebuild(affected if len(affected) <= _IN_LIMIT * 4 else None)
    return len(chosen)


def _entries_delete(key: str, match_ids: list[int], *, everything: bool) -> None:
    """Delete the entries of ``match_ids`` (``everything``: they are all the matches from
    ``key``, so one pass over the table finds them)."""
    if everything:
        RatingEntry.objects.filter(order_key__gte=key).delete()
    elif connection.vendor == "postgresql" and len(match_ids) > _IN_LIMIT:
        # one statement, the ids as one array: the database chooses between the index and
        # one pass, where chunks of IN (...) would look each match up in the index
        qn = connection.ops.quote_name
        table = qn(RatingEntry._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {table} WHERE {qn('match_id')} = ANY(%s)", [match_ids])
    else:
        for group in _chunks(match_ids):
            RatingEntry.objects.filter(match_id__in=group).delete()


def _rerate_all(key: str, rows: list[tuple]) -> int:
    """Re-rate every match of ``rows`` (every one from ``key``); rebuild the ranking rows of
    every player whose entries changed."""
    records = _records(rows)
    players = {p for r in records for p in (*r.side_a, *r.side_b)}
    gone = players - _existing_players(players)
    if gone:  # a player deleted since (with their history): their matches no longer rate
        dropped = {r.key for r in records if gone & {*r.side_a, *r.side_b}}
        RatedMatch.objects.filter(order_key__in=dropped).delete()
        records = [r for r in records if r.key not in dropped]
        players -= gone
    stale = RatingEntry.objects.filter(order_key__gte=key)
    stale_players: set[int] = set()
    if key:
        stale_players = set(stale.order_by().values_list("player_id", flat=True).distinct())
        players |= stale_players
    # Only new matches after every rated one (a result of the round being played): their
    # entries are appended, nothing is deleted, and each player's ranking rows move by what
    # they add (``_ranking_rows_add``) instead of being counted again from every entry.
    appended = bool(key) and not stale_players and not gone and len(records) <= _APPEND_LIMIT
    run = rate.rate(records, _ratings_before(key, players))
    if not appended:
        stale.delete()
    clubs = {r.key: r.club_id for r in records}
    _insert_entries(run.history, {row[1]: row[0] for row in rows}, clubs)
    if appended:
        _ranking_rows_add(run.history, clubs)
        return len(records)
    # Many players: one pass over every entry costs less than a query per chunk of them.
    _ranking_rows_rebuild(None if not key or len(players) > _IN_LIMIT * 4 else players)
    return len(records)


def _insert_entries(
    history: list[rate.HistoryRow], match_ids: dict[str, int], clubs: dict[str, int]
) -> None:
    if not history:
        return
    _insert(
        RatingEntry,
        (
            "match_id",
            "player_id",
            "club_id",
            "order_key",
            "side",
            "result",
            "mu_before",
            "sigma_before",
            "mu",
            "sigma",
            "rating",
            "points",
        ),
        (
            (
                match_ids[h.key],
                h.player_id,
                clubs[h.key],
                h.key,
                h.side,
                h.result.value,
                h.before.mu,
                h.before.sigma,
                h.after.mu,
                h.after.sigma,
                h.after.shown,
                h.points,
            )
            for h in history
        ),
    )


def _ranking_rows_add(history: list[rate.HistoryRow], clubs: dict[str, int]) -> None:
    """Move the ranking rows by entries appended after every stored one (two queries): each
    (peña, player) row adds the new matches, wins, losses, abandons and points (created when
    it is the player's first match of that peña), and every row of each player takes their
    newest rating. The same rows ``_ranking_rows_rebuild`` counts from the entries."""
    if not history:
        return
    added: dict[tuple[int, int], list[int]] = {}
    current: dict[int, tuple[float, float, float]] = {}
    for h in history:  # oldest first: the last one of a player is their rating now
        tally = added.setdefault((clubs[h.key], h.player_id), [0, 0, 0, 0, 0])
        tally[0] += 1
        tally[1] += h.result in _WON
        tally[2] += h.result in _LOST
        tally[3] += h.result == rate.Result.ABANDON
        tally[4] += h.points
        current[h.player_id] = (h.after.mu, h.after.sigma, h.after.shown)
    qn = connection.ops.quote_name
    table = qn(RankingRow._meta.db_table)
    counted = ("matches", "wins", "losses", "abandons", "points")
    columns = ("club_id", "player_id", *counted, "mu", "sigma", "rating")
    values = ", ".join(["(" + ", ".join(["%s"] * len(columns)) + ")"] * len(added))
    params = [
        v
        for (club, player), tally in added.items()
        for v in (club, player, *tally, *current[player])
    ]
    sets = ", ".join(
        [f"{qn(c)} = {table}.{qn(c)} + EXCLUDED.{qn(c)}" for c in counted]
        + [f"{qn(c)} = EXCLUDED.{qn(c)}" for c in ("mu", "sigma", "rating")]
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(qn(c) for c in columns)}) VALUES {values} "
            f"ON CONFLICT ({qn('club_id')}, {qn('player_id')}) DO UPDATE SET {sets}",
            params,
        )
    # the player's rows of the other peñas: the rating is of every match anywhere
    players = sorted(current)
    cases = ", ".join(
        f"{qn(name)} = CASE {qn('player_id')} "
        + " ".join(["WHEN %s THEN %s"] * len(players))
        + " END"
        for name in ("mu", "sigma", "rating")
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {cases} WHERE {qn('player_id')} IN "
            f"({', '.join(['%s'] * len(players))})",
            [v for i in range(3) for p in players for v in (p, current[p][i])] + players,
        )


def _ranking_rows_rebuild(players: set[int] | None) -> None:
    """The ranking rows of ``players`` (None: of everybody) from their entries."""
    if players is None:
        RankingRow.objects.all().delete()
        groups: Iterable = [None]
    else:
        groups = _chunks(sorted(players))
    for group in groups:
        entries = RatingEntry.objects.all()
        if group is not None:
            RankingRow.objects.filter(player_id__in=group).delete()
            entries = entries.filter(player_id__in=group)
        current = {
            p: (mu, sigma, shown)
            for p, mu, sigma, shown in _latest_entries(entries, ("mu", "sigma", "rating"))
        }
        tallies = (
            entries.values("club_id", "player_id")
            .annotate(
                n=Count("id"),
                won=Count("id", filter=Q(result__in=_WON)),
                lost=Count("id", filter=Q(result__in=_LOST)),
                abandoned=Count("id", filter=Q(result=rate.Result.ABANDON)),
                total=Sum("points"),
            )
            .order_by()
            .values_list("club_id", "player_id", "n", "won", "lost", "abandoned", "total")
        )
        tallies = list(tallies)  # read before writing: one operation at a time on a connection
        _insert(
            RankingRow,
            (
                "club_id",
                "player_id",
                "matches",
                "wins",
                "losses",
                "abandons",
                "points",
                "mu",
                "sigma",
                "rating",
            ),
            (
                (
                    club,
                    player,
                    n,
                    won,
                    lost,
                    abandoned,
                    total,
                    *current[player],
                )
                for club, player, n, won, lost, abandoned, total in tallies
            ),
        )


def _insert(model, columns: tuple[str, ...], rows: Iterable[tuple]) -> None:
    """Write many rows at once: COPY on PostgreSQL, batched INSERTs elsewhere. The ORM's
    bulk_create spends more time building the statement than the database spends on it, and a
    season from scratch writes hundreds of thousands of rating entries."""
    qn = connection.ops.quote_name
    table = qn(model._meta.db_table)
    names = ", ".join(qn(c) for c in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        sql = f"INSERT INTO {table} ({names}) VALUES ({', '.join(['%s'] * len(columns))})"
        batch: list[tuple] = []
        for row in rows:
            batch.append(row)
            if len(batch) == _BATCH:
                cursor.executemany(sql, batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)


# --- The peña's choice ---------------------------------------------------------------------------


def ranking_settings_set(*, user: User, club: Club, shows: str) -> RankingSettings:
    """Choose which ranking the peña's page shows: "rating", "points" or "both"."""
    if shows not in RankingSettings.Shows.values:
        raise Invalid(
            "The ranking shows 'rating', 'points' or 'both', not '{shows}'.",
            code="ranking_shows_unknown",
            shows=str(shows)[:40],
        )
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        roles.require_organizer(user, locked)
        settings, _ = RankingSettings.objects.update_or_create(
            club=locked, defaults={"shows": shows}
        )
    return settings
