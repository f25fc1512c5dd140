"""Registration of a whole field at once: a pasted list or an imported CSV file, for a
tournament of pairs, of trios or of players alone.

Responsible for: reading the lines — a pasted line names an entrant's players separated by "/"
("Ana García / Luis Pérez"), optionally after its team's name and a colon ("Los de la
Txantrea: Ana García / Luis Pérez"); a CSV file (UTF-8 with or without a BOM, comma, semicolon
or tab) has a header row naming its columns: the players (one column "jugadores", or one per
player "jugador 1", "jugador 2"…), and optionally their licences, the peña each entrant
represents and its team name — then checking every line, and writing the whole list, or
nothing.

Every line is checked as registration one by one checks it (the names, an entrant of the
right size, a pair already registered or waiting, a withdrawn one registered again) and
against the rest of the list and of the tournament: a player enters a tournament once, so a
player named on two lines, or already in another entry (by id, by another paste, under another
peña's pair), is refused with the player and the other line or entry named. Every wrong line is
reported with its number (one error: that error, "Line 4: …"; several: ``lines_invalid`` with
each of them), and then nothing is stored. Places go in the order of the lines; the lines
beyond ``max_pairs`` wait, in that order (players alone have no waiting list).

It reads each kind of row once (the peña's players, the pairs of those players, the
tournament's entries) and writes each kind of row with one bulk insert or update, so a list of
1,000 lines costs the same number of queries as one of 10. A preview (``preview=True``) does
the same reads and checks and returns what would be written — new players, players matched
(by licence or by name), pairs, places and waiting list — and writes nothing.

The audit rows are the ones registration one by one writes (a pair registered again, each
trio, each player alone) plus one for the list (``entrants_registered``: where it came from,
what it created and the pairs it renamed). Registration queues no follow-up and no webhook.

Must not: decide who a name is (clubs.services.Roster finds a peña's players and pairs), draw,
or touch matches.

Terms: pareja (pair), trío, jugador inscrito (a player alone), lista de espera (waiting list),
peña (the peña a pair represents: a federation's centre), licencia (a federation's licence
number), nombre de la pareja (a pair's team name).
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import re
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from clubs.models import Club, Pair, Player
from clubs.selectors import clubs_named
from clubs.services import (
    Roster,
    RosterPair,
    RosterPerson,
    name_key,
    pair_line_names,
    roster_load,
)
from config.errors import Conflict, DomainError, Invalid
from tournaments.models import AuditEntry, Entry, IndividualEntry, Tournament
from tournaments.selectors.tournaments import ACTIVE_ENTRY_STATUSES
from tournaments.services.base import (
    ALONE,
    User,
    audit_entry,
    lock_open_registration,
    player_entered_error,
)
from tournaments.services.eligibility import Candidate, eligibility_refusals

#: The most entrants one list registers (a pasted list's non-blank lines, a file's rows).
MAX_LINES = 1000
#: The largest file read (1,000 lines of four columns take about 60 kB).
MAX_CSV_BYTES = 1_000_000
#: The line errors an error of several lines carries (all their numbers are in ``lines``).
MAX_ERRORS_SHOWN = 100

TEAM_MAX = Pair._meta.get_field("name").max_length
LICENCE_MAX = Player._meta.get_field("licence").max_length
KINDS = tuple(Tournament.EntrantKind.values)
PAIRS = Tournament.EntrantKind.PAIRS
TRIOS = Tournament.EntrantKind.TRIOS
#: how many players each kind of line names
SIZES = {PAIRS: 2, TRIOS: 3}


@dataclasses.dataclass
class Line:
    """One entrant as a list writes it, its names read but nobody looked up yet."""

    number: int
    text: str  # the players as written, "Ana García / Luis Pérez" (errors quote it)
    names: list[tuple[str, str]]  # (first name, surnames) of each player
    licences: list[str]  # one per player, "" where the list gives none
    centre: str = ""  # the peña the entrant represents, as written
    team: str = ""  # the pair's (or trio's) team name


@dataclasses.dataclass(eq=False)
class Planned:
    """A line once checked: who its players are, its pair (new or not), its place."""

    line: Line
    people: list[RosterPerson]
    club: Club | None = None
    pair: RosterPair | None = None  # pairs and trios
    status: str = Entry.Status.REGISTERED
    #: the withdrawn entry (or player alone) this line registers again
    again: Entry | IndividualEntry | None = None
    #: the row this line stored (None in a preview)
    entry: Entry | IndividualEntry | None = None


@dataclasses.dataclass
class Registration:
    """What a list registered (or, in a preview, would register)."""

    kind: str
    preview: bool
    source: str  # "paste", "csv" or "pairs" (existing pairs: entries_register_pairs)
    lines: list[Planned]
    new_players: int
    licences_added: int
    new_pairs: int
    renamed_pairs: int

    @property
    def entries(self) -> list[Entry | IndividualEntry]:
        """The rows stored, in the order of the lines (none in a preview)."""
        return [planned.entry for planned in self.lines if planned.entry is not None]

    @property
    def registered(self) -> int:
        return sum(1 for p in self.lines if p.status != Entry.Status.WAITING)

    @property
    def waiting(self) -> int:
        return sum(1 for p in self.lines if p.status == Entry.Status.WAITING)

    @property
    def registered_again(self) -> int:
        return sum(1 for p in self.lines if p.again is not None)

    @property
    def matched_players(self) -> int:
        players = {id(person.player) for p in self.lines for person in p.people}
        return len(players) - self.new_players


# --- Entry points -----------------------------------------------------------------------------


def entrants_register_text(
    *,
    tournament: Tournament,
    text: str,
    actor: User,
    kinds: tuple[str, ...] = KINDS,
    empty: Invalid | None = None,
    preview: bool = False,
    via: str = "api",
    device: str = "",
) -> Registration:
    """Register a pasted list, one entrant per line, as the tournament's kind of entrant
    (refused unless it is one of ``kinds``). ``empty``: the error for a list without a line."""
    numbered = pasted_lines(text, empty=empty)

    def read(kind: str) -> tuple[list[Line], list[tuple[int, DomainError]]]:
        lines, errors = [], []
        for number, written in numbered:
            try:
                lines.append(_pasted_line(kind, number, written))
            except DomainError as error:
                errors.append((number, error))
        return lines, errors

    return _register(tournament, read, "paste", actor, kinds, preview, via, device)


def entrants_register_csv(
    *,
    tournament: Tournament,
    data: bytes | str,
    actor: User,
    preview: bool = False,
    via: str = "api",
    device: str = "",
) -> Registration:
    """Register a CSV file's rows as the tournament's kind of entrant (see the module's
    docstring for its columns). ``data``: the file's bytes, or its text already decoded."""
    rows = csv_rows(data)

    def read(kind: str) -> tuple[list[Line], list[tuple[int, DomainError]]]:
        lines, errors = [], []
        for row in rows:
            try:
                lines.append(_csv_line(kind, row))
            except DomainError as error:
                errors.append((row.number, error))
        return lines, errors

    return _register(tournament, read, "csv", actor, KINDS, preview, via, device)


def entries_register_pairs(
    *,
    tournament: Tournament,
    pairs: Sequence[Pair],
    actor: User,
    trusted: bool = False,
    via: str = "api",
    device: str = "",
) -> Registration:
    """Register existing pairs (their players loaded), in order, with the checks and the
    writes of a pasted list: all or nothing, one bulk insert whatever their number, each
    refused pair named by its place in the list. Nobody is created: each line is that pair.
    ``trusted``: the caller is a service of the floor above acting on its own authority
    (base.lock_open_registration), such as a championship's qualified pairs flowing into the
    next stage."""
    with transaction.atomic():
        tournament = lock_open_registration(
            tournament, actor, Tournament.EntrantKind.PAIRS, trusted=trusted
        )
        roster = Roster(tournament.club, [])
        roster.pairs_known(list(pairs))
        lines = [
            Planned(
                line=Line(
                    number=number,
                    text=str(pair)[:120],
                    names=[(p.first_name, p.last_name) for p in (pair.player_one, pair.player_two)],
                    licences=["", ""],
                    team=pair.name,
                ),
                people=[
                    RosterPerson(pair.player_one, "existing"),
                    RosterPerson(pair.player_two, "existing"),
                ],
                club=pair.club,
            )
            for number, pair in enumerate(pairs, start=1)
        ]
        errors: list[tuple[int, DomainError]] = []
        planned = _place_teams(tournament, PAIRS, lines, errors, roster)
        _raise(errors, "pairs")
        registration = Registration(
            kind=PAIRS,
            preview=False,
            source="pairs",
            lines=planned,
            new_players=0,
            licences_added=0,
            new_pairs=0,
            renamed_pairs=0,
        )
        _write(tournament, PAIRS, registration, roster, actor=actor, via=via, device=device)
    return registration


def _register(
    tournament: Tournament,
    read: Callable[[str], tuple[list[Line], list[tuple[int, DomainError]]]],
    source: str,
    actor: User,
    kinds: tuple[str, ...],
    preview: bool,
    via: str,
    device: str,
) -> Registration:
    with transaction.atomic():
        tournament = lock_open_registration(tournament, actor, *kinds)
        kind = tournament.entrant_kind
        lines, errors = read(kind)
        roster = roster_load(club=tournament.club)
        planned = _plan(tournament, kind, lines, errors, roster)
        _raise(errors, source)
        registration = Registration(
            kind=kind,
            preview=preview,
            source=source,
            lines=planned,
            new_players=len(roster.new_players),
            licences_added=len(roster.licensed),
            new_pairs=sum(1 for p in planned if p.pair is not None and p.pair.state == "new"),
            renamed_pairs=len(roster.renamed),
        )
        if not preview:
            _write(tournament, kind, registration, roster, actor=actor, via=via, device=device)
    return registration


# --- Reading a pasted list ----------------------------------------------------------------------


def pasted_lines(text: str, *, empty: Invalid | None = None) -> list[tuple[int, str]]:
    """The non-blank lines of a pasted list, numbered from 1, their spaces folded; ``empty``
    (or a generic Invalid) when there is none, Invalid when there are too many."""
    lines = str(text).splitlines()
    numbered = [(n, " ".join(line.split())) for n, line in enumerate(lines, start=1)]
    numbered = [(n, line) for n, line in numbered if line]
    if not numbered:
        raise empty or Invalid(
            "Paste at least one entrant, one per line.",
            code="paste_empty_entrants",
        )
    if len(numbered) > MAX_LINES:
        raise Invalid(
            "The list has {lines} lines; paste at most {most} at a time.",
            code="paste_too_long",
            lines=len(numbered),
            most=MAX_LINES,
        )
    return numbered


def _pasted_line(kind: str, number: int, written: str) -> Line:
    """A pasted line: "Ana García / Luis Pérez", after "Team name:" for pairs and trios."""
    team = ""
    players = written
    if ":" in written:
        if kind in ALONE:
            raise _alone_extra(written)
        team, _, players = written.partition(":")
        team, players = team.strip(), players.strip()
        if ":" in players:
            raise Invalid(
                '"{text}" has more than one ":"; write one team name before one ":", e.g. '
                '"Los de la Txantrea: Ana García / Luis Pérez".',
                code="team_line_colons",
                text=written[:120],
            )
        if not team:
            raise Invalid(
                '"{text}" has a ":" but no team name before it; write the team name first, '
                'e.g. "Los de la Txantrea: Ana García / Luis Pérez", or leave out the ":".',
                code="team_name_missing",
                text=written[:120],
            )
    return _line(kind, number, players, [], centre="", team=team)


def _line(
    kind: str, number: int, players: str, licences: list[str], *, centre: str, team: str
) -> Line:
    """The line of ``kind`` naming ``players`` ("Ana García / Luis Pérez"); Invalid when it
    names the wrong number of players, the same one twice, or a name, a licence or a team
    name is too long or out of place."""
    if not players:
        raise Invalid(
            "The line names no player; write the players' names, or remove the line.",
            code="line_no_players",
        )
    if kind in ALONE:
        if team or centre:
            raise _alone_extra(players)
        names = [_alone_name(players)]
    elif kind == TRIOS:
        names = _trio_names(players)
    else:
        names = pair_line_names(players)
    if len(team) > TEAM_MAX:
        raise Invalid(
            'The team name "{team}" is too long: at most {most} characters.',
            code="team_name_too_long",
            team=team[:40],
            most=TEAM_MAX,
        )
    if licences and not any(licences):
        licences = []
    if licences and len(licences) != len(names):
        raise Invalid(
            '"{licences}" gives {count} licences for {players} players; give one per player, '
            'in the order of the names, separated by "/", or leave the licences out.',
            code="licence_count",
            licences=" / ".join(licences)[:80],
            count=len(licences),
            players=len(names),
        )
    for licence in licences:
        if len(licence) > LICENCE_MAX:
            raise Invalid(
                'The licence "{licence}" is too long: at most {most} characters.',
                code="licence_too_long",
                licence=licence[:40],
                most=LICENCE_MAX,
            )
    return Line(
        number=number,
        text=" ".join(players.split()),
        names=names,
        licences=licences or [""] * len(names),
        centre=centre,
        team=team,
    )


def _alone_extra(text: str) -> Invalid:
    return Invalid(
        '"{text}" gives a team name or a peña; players alone have neither: write only the '
        "player's name.",
        code="individual_extra",
        text=text[:120],
    )


def _alone_name(text: str) -> tuple[str, str]:
    if "/" in text:
        raise Invalid(
            '"{text}" names more than one player; write one player per line.',
            code="individual_line",
            text=text[:120],
        )
    return split_name(text)


def split_name(name: str) -> tuple[str, str]:
    """(first name, surnames) of a full name: its first word, and the rest."""
    first, _, last = " ".join(name.split()).partition(" ")
    first_max = Player._meta.get_field("first_name").max_length
    last_max = Player._meta.get_field("last_name").max_length
    if len(first) > first_max or len(last) > last_max:
        raise Invalid(
            'The name "{name}" is too long (at most {first_max} characters for the first name '
            "and {last_max} for the surnames).",
            code="player_name_too_long",
            name=name[:40],
            first_max=first_max,
            last_max=last_max,
        )
    return first, last


def trio_names(line: str) -> list[str]:
    """The three names of a line "Ana García / Luis Pérez / Eva Ruiz"; Invalid otherwise."""
    names = [" ".join(side.split()) for side in line.split("/")]
    if len(names) != 3 or not all(names):
        count = len([n for n in names if n])
        raise Invalid(
            '"{text}" names {count} players; a trio is three players separated by "/", e.g. '
            '"Ana García / Luis Pérez / Eva Ruiz".',
            code="trio_line",
            text=line[:120],
            count=count,
        )
    return names


def trio_same_player(text: str) -> Invalid:
    return Invalid(
        '"{text}" names the same player twice; a trio needs three different players.',
        code="trio_same_player",
        text=text[:120],
    )


def _trio_names(line: str) -> list[tuple[str, str]]:
    names = trio_names(line)
    if len({name_key(n) for n in names}) < 3:
        raise trio_same_player(line)
    return [split_name(n) for n in names]


# --- Reading a CSV file -----------------------------------------------------------------------


@dataclasses.dataclass
class CsvRow:
    """A row of the file with its cells sorted into what they say."""

    number: int  # its line in the file (the header is line 1)
    players: str  # "Ana García / Luis Pérez"
    licences: list[str]
    centre: str
    team: str


#: The words a header may name each column with (es, en, eu, fr), compared without case,
#: accents or punctuation. "jugador 1", "jugador 2"… (and "licencia 1"…) name one player each.
COLUMNS = {
    "players": (
        "jugadores",
        "jugador",
        "nombres",
        "nombre",
        "players",
        "player",
        "names",
        "name",
        "jokalariak",
        "jokalaria",
        "joueurs",
        "joueur",
    ),
    "licence": (
        "licencia",
        "licencias",
        "licence",
        "licences",
        "license",
        "licenses",
        "lizentzia",
        "lizentziak",
    ),
    "centre": ("pena", "centro", "club", "centre", "center", "elkartea", "association"),
    "team": (
        "equipo",
        "nombre de la pareja",
        "nombre de pareja",
        "nombre del equipo",
        "team",
        "team name",
        "taldea",
        "equipe",
        "nom de l equipe",
    ),
}
_HEADER_WORDS = {word: column for column, words in COLUMNS.items() for word in words}
_NUMBERED = re.compile(r"^(.*?) ?([1-9])$")


def csv_rows(data: bytes | str) -> list[CsvRow]:
    """The rows of a CSV file under its header; Invalid naming the line of what cannot be read
    (not UTF-8, a header that names no players or a column it does not know, a row with more
    cells than the header, too many rows)."""
    if isinstance(data, bytes):
        if len(data) > MAX_CSV_BYTES:
            raise Invalid(
                "The file is larger than {most} bytes; split it and import each part.",
                code="csv_too_big",
                most=MAX_CSV_BYTES,
            )
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise Invalid(
                "Line {line} is not UTF-8 text; save the file as CSV UTF-8 and import it again.",
                code="csv_encoding",
                line=data[: error.start].count(b"\n") + 1,
            ) from None
    else:
        text = data.removeprefix("\ufeff")
    if "\x00" in text:
        raise _unreadable(text[: text.index("\x00")].count("\n") + 1, "NUL")
    physical = text.splitlines()
    header_at = next((n for n, line in enumerate(physical) if line.strip()), None)
    if header_at is None:
        raise Invalid(
            "The file is empty; its first line names the columns, e.g. {example}, and each "
            "line after it is an entrant.",
            code="csv_empty",
            example="licencia;jugadores;peña;equipo",
        )
    header_line = physical[header_at]
    delimiter = max((";", ",", "\t"), key=header_line.count)
    reader = csv.reader(io.StringIO("\n".join(physical[header_at:])), delimiter=delimiter)
    offset = header_at  # the reader counts from the header's line
    try:
        header = next(reader)
        columns = _columns(header, header_at + 1)
        rows = []
        for cells in reader:
            number = reader.line_num + offset
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) > len(header):
                raise Invalid(
                    "Line {line} has {count} cells, but the first line names {columns} "
                    'columns; put the cell in a column, or quote a value holding a "{sep}".',
                    code="csv_cells",
                    line=number,
                    count=len(cells),
                    columns=len(header),
                    sep=delimiter if delimiter != "\t" else "tab",
                )
            rows.append(_csv_row(number, cells, columns))
            if len(rows) > MAX_LINES:
                raise Invalid(
                    "The file has more than {most} lines; import at most {most} at a time.",
                    code="csv_too_long",
                    most=MAX_LINES,
                )
    except csv.Error as error:
        raise _unreadable(reader.line_num + offset, str(error)) from None
    if not rows:
        raise Invalid(
            "The file has no line under its header; write an entrant on each line after the first.",
            code="csv_no_rows",
        )
    return rows


def _unreadable(line: int, reason: str) -> Invalid:
    return Invalid(
        "Line {line} cannot be read as CSV ({reason}); check its quotes, or save the file "
        "again as CSV UTF-8.",
        code="csv_unreadable",
        line=line,
        reason=reason[:80],
    )


def _columns(header: list[str], line: int) -> dict[str, list[int]]:
    """Which cells of a row hold the players, the licences, the peña and the team name."""
    columns: dict[str, dict[int, int]] = {}  # column → {its number (0: the only one) → cell}
    for cell, title in enumerate(header):
        word = " ".join(re.sub(r"[^a-z0-9]+", " ", name_key(title)).split())
        number = 0
        if word not in _HEADER_WORDS and (numbered := _NUMBERED.match(word)):
            word, number = numbered.group(1), int(numbered.group(2))
        column = _HEADER_WORDS.get(word)
        if column is None or (number and column not in ("players", "licence")):
            raise Invalid(
                'Line {line}: the column "{column}" is not one the import reads; name the '
                "columns {columns} (the players' one, or one per player: {numbered}).",
                code="csv_column_unknown",
                line=line,
                column=title.strip()[:40],
                columns=["licencia", "jugadores", "peña", "equipo"],
                numbered=["jugador 1", "jugador 2"],
            )
        cells = columns.setdefault(column, {})
        if number in cells or (cells and (number == 0 or 0 in cells)):
            raise Invalid(
                'Line {line}: the column "{column}" is there twice; keep one.',
                code="csv_column_twice",
                line=line,
                column=title.strip()[:40],
            )
        cells[number] = cell
    if "players" not in columns:
        raise Invalid(
            "Line {line} names no column of players; the first line of the file names the "
            "columns, e.g. {example}.",
            code="csv_no_players_column",
            line=line,
            example="licencia;jugadores;peña;equipo",
        )
    return {column: [cells[n] for n in sorted(cells)] for column, cells in columns.items()}


def _csv_row(number: int, cells: list[str], columns: dict[str, list[int]]) -> CsvRow:
    def cell(index: int) -> str:
        return " ".join(cells[index].split()) if index < len(cells) else ""

    players = [cell(i) for i in columns["players"]]
    licences = [cell(i) for i in columns.get("licence", [])]
    if len(licences) == 1:
        licences = [" ".join(part.split()) for part in licences[0].split("/")]
    return CsvRow(
        number=number,
        players=" / ".join(players) if any(players) else "",
        licences=licences,
        centre=" ".join(cell(i) for i in columns.get("centre", [])).strip(),
        team=" ".join(cell(i) for i in columns.get("team", [])).strip(),
    )


def _csv_line(kind: str, row: CsvRow) -> Line:
    return _line(kind, row.number, row.players, row.licences, centre=row.centre, team=row.team)


# --- Checking the lines -----------------------------------------------------------------------


def _plan(
    tournament: Tournament,
    kind: str,
    lines: list[Line],
    errors: list[tuple[int, DomainError]],
    roster: Roster,
) -> list[Planned]:
    """Every line checked and placed, in order; a wrong line's error is added to ``errors``
    (the lines read so far stay planned, so that every wrong line is reported at once)."""
    centres = clubs_named(names=[line.centre for line in lines if line.centre])
    planned: list[Planned] = []
    first_line: dict[int, Planned] = {}  # id(player) → the line that first named them
    for line in lines:
        try:
            planned.append(_people(tournament, kind, line, roster, centres, first_line))
        except DomainError as error:
            errors.append((line.number, error))
    if kind in ALONE:
        return _place_alone(tournament, planned, errors)
    return _place_teams(tournament, kind, planned, errors, roster)


def _people(
    tournament: Tournament,
    kind: str,
    line: Line,
    roster: Roster,
    centres: dict[str, Club],
    first_line: dict[int, Planned],
) -> Planned:
    club = tournament.club
    if line.centre:
        club = centres.get(line.centre)
        if club is None:
            raise Invalid(
                "There is no peña called '{centre}'; write the name or the slug of a peña of "
                "Amarrako, or leave the peña out.",
                code="centre_unknown",
                centre=line.centre[:80],
            )
    people = [
        roster.person(first, last, licence)
        for (first, last), licence in zip(line.names, line.licences, strict=True)
    ]
    if len({id(person.player) for person in people}) < len(people):  # one licence, two names
        if kind == TRIOS:
            raise trio_same_player(line.text)
        raise Invalid(
            '"{text}" names the same player twice; a pair needs two different players.',
            code="pair_line_same_player",
            text=line.text[:120],
            reason="same_player",
        )
    for person in people:
        earlier = first_line.get(id(person.player))
        if earlier is None:
            continue
        if kind in ALONE:
            raise Invalid(
                "{player} is already on an earlier line; remove one of the two lines.",
                code="individual_repeated",
                player=line.text[:80],
            )
        same = {id(p.player) for p in earlier.people} == {id(p.player) for p in people}
        if same and kind == PAIRS:
            raise Invalid(
                "It repeats the pair of line {first_line} ({pair}); remove one of the two lines.",
                code="pair_repeated",
                first_line=earlier.line.number,
                pair=earlier.line.text,
            )
        raise Invalid(
            "{player} is already on line {first_line} ({entrant}); a player enters a "
            "tournament once: remove them from one of the two lines.",
            code="player_repeated",
            player=str(person.player),
            first_line=earlier.line.number,
            entrant=earlier.line.text[:120],
        )
    planned = Planned(line=line, people=people, club=club)
    for person in people:
        first_line[id(person.player)] = planned
    return planned


def _place_alone(
    tournament: Tournament, planned: list[Planned], errors: list[tuple[int, DomainError]]
) -> list[Planned]:
    rows = IndividualEntry.objects.filter(tournament=tournament).select_related("player")
    by_player = {row.player_id: row for row in rows}
    placed = []
    for plan in planned:
        player = plan.people[0].player
        row = by_player.get(player.pk) if player.pk is not None else None
        if row is not None and row.status != Entry.Status.WITHDRAWN:
            errors.append((plan.line.number, player_entered_error(player, row)))
            continue
        plan.again = row
        placed.append(plan)
    return placed


def _place_teams(
    tournament: Tournament,
    kind: str,
    planned: list[Planned],
    errors: list[tuple[int, DomainError]],
    roster: Roster,
) -> list[Planned]:
    if kind == PAIRS:
        roster.pairs_load([(p.people[0].player, p.people[1].player, p.club) for p in planned])
    rows = (
        Entry.objects.filter(tournament=tournament, drawn=False)
        .select_related("pair__player_one", "pair__player_two")
        .order_by("pk")
    )
    by_pair: dict[int, Entry] = {}
    entered: dict[int, Entry] = {}  # player → the entry they are in (not withdrawn)
    active = 0
    for entry in rows:
        by_pair[entry.pair_id] = entry
        if entry.status == Entry.Status.WITHDRAWN:
            continue
        active += entry.status in ACTIVE_ENTRY_STATUSES
        for pk in (entry.pair.player_one_id, entry.pair.player_two_id, entry.player_three_id):
            if pk is not None:
                entered.setdefault(pk, entry)
    checked = []
    for plan in planned:
        try:
            _check_team(kind, plan, roster, by_pair, entered)
        except DomainError as error:
            errors.append((plan.line.number, error))
            continue
        checked.append(plan)
    # the floor above's rules (a championship's), once for the whole list
    refusals = eligibility_refusals(
        tournament=tournament,
        candidates=[
            Candidate(
                players=tuple(p.player.pk for p in plan.people if p.player.pk is not None),
                club_id=plan.club.pk if plan.club is not None else None,
            )
            for plan in checked
        ],
    )
    placed = []
    for index, plan in enumerate(checked):
        if index in refusals:
            errors.append((plan.line.number, refusals[index]))
            continue
        room = tournament.max_pairs is None or active < tournament.max_pairs
        plan.status = Entry.Status.REGISTERED if room else Entry.Status.WAITING
        active += room
        placed.append(plan)
    return placed


def _check_team(
    kind: str,
    plan: Planned,
    roster: Roster,
    by_pair: dict[int, Entry],
    entered: dict[int, Entry],
) -> None:
    """Give a line its pair (a pair of two, or a trio's new team row) once nobody in it is in
    another entry; a withdrawn pair is registered again."""
    players = [person.player for person in plan.people]
    existing = None
    if kind == PAIRS:
        found = roster.pair(players[0], players[1], club=plan.club, name=plan.line.team)
        existing = by_pair.get(found.pair.pk) if found.pair.pk is not None else None
        if existing is not None and existing.status == Entry.Status.WAITING:
            raise Conflict(
                "{pair} is already on the waiting list in this tournament.",
                code="already_waiting",
                entry=existing.pk,
                pair=str(existing.pair),
            )
        if existing is not None and existing.status != Entry.Status.WITHDRAWN:
            raise Conflict(
                "{pair} is already registered in this tournament.",
                code="already_registered",
                entry=existing.pk,
                pair=str(existing.pair),
            )
    for player in players:
        other = entered.get(player.pk) if player.pk is not None else None
        if other is not None:
            raise player_entered_error(player, other)
    if kind == PAIRS:
        plan.pair = found
        plan.again = existing
        return
    name = plan.line.team or " / ".join(str(p) for p in players)
    team = roster.team(players[0], players[1], club=plan.club, name=name[:TEAM_MAX])
    plan.pair = RosterPair(team, "new")


def _raise(errors: list[tuple[int, DomainError]], source: str) -> None:
    """Raise the lines' errors: one as itself, naming its line; several as one that names
    them all. Nothing has been written yet."""
    if not errors:
        return
    errors.sort(key=lambda found: found[0])
    if len(errors) == 1:
        number, error = errors[0]
        if source == "pairs":
            error.add_context(
                "Pair {line} of the list: {error} Nothing was registered.", line=number
            )
        elif source == "csv":
            error.add_context(
                "Line {line}: {error} Nothing was imported; fix the line and import the file "
                "again.",
                line=number,
            )
        else:
            error.add_context(
                "Line {line}: {error} Nothing was registered; fix the line and paste the "
                "list again.",
                line=number,
            )
        raise error
    for number, error in errors:
        error.add_context("Line {line}: {error}", line=number)
    raise Invalid(
        "{count} lines cannot be registered, so nothing was registered; fix them all and try "
        "again. {error}",
        code="lines_invalid",
        count=len(errors),
        lines=[number for number, _ in errors],
        error=errors[0][1],
        errors=[error for _, error in errors[:MAX_ERRORS_SHOWN]],
    )


# --- Writing ----------------------------------------------------------------------------------


def _write(
    tournament: Tournament,
    kind: str,
    registration: Registration,
    roster: Roster,
    *,
    actor: User,
    via: str,
    device: str,
) -> None:
    """Store the checked list: players and pairs (Roster.save), the entries, the audit rows;
    one query per kind of row."""
    roster.save()
    audit: dict[str, Any] = {"actor": actor, "via": via, "device": device}
    audits: list[AuditEntry] = []
    now = timezone.now()
    model: type[Entry] | type[IndividualEntry] = IndividualEntry if kind in ALONE else Entry
    new_rows, again_rows, again_old = [], [], []
    for plan in registration.lines:
        if plan.again is not None:
            row = plan.again
            again_old.append({"status": row.status, "withdrawn_at": _iso(row.withdrawn_at)})
            row.status = plan.status
            row.withdrawn_at = row.checked_in_at = None
            row.registered_at = now  # back of the queue, like any new registration
            again_rows.append(row)
        elif kind in ALONE:
            row = IndividualEntry(tournament=tournament, player=plan.people[0].player)
            new_rows.append(row)
        else:
            third = plan.people[2].player if kind == TRIOS else None
            row = Entry(
                tournament=tournament, pair=plan.pair.pair, status=plan.status, player_three=third
            )
            new_rows.append(row)
        row.tournament = tournament
        plan.entry = row
    model.objects.bulk_create(new_rows)
    if again_rows:
        fields = ["status", "withdrawn_at", "checked_in_at", "registered_at"]
        model.objects.bulk_update(again_rows, fields)
        waiting = [p for p in registration.lines if p.status == Entry.Status.WAITING]
        if any(p.again is not None for p in waiting):
            # The waiting list goes by registered_at, and the new rows got theirs after the
            # rows registered again: put them back in the order of the lines.
            for n, plan in enumerate(waiting):
                plan.entry.registered_at = now + dt.timedelta(microseconds=n)
            model.objects.bulk_update([p.entry for p in waiting], ["registered_at"])
    olds = iter(again_old)
    for plan in registration.lines:
        row = plan.entry
        if kind in ALONE:
            audits.append(
                audit_entry(
                    tournament=tournament,
                    action="individual_registered",
                    new={"individual": row.pk, "player": plan.people[0].player.pk},
                    **audit,
                )
            )
        elif kind == TRIOS:
            audits.append(
                audit_entry(
                    tournament=tournament,
                    action="trio_registered",
                    new={"entry": row.pk, "trio": str(plan.pair.pair), "status": row.status},
                    **audit,
                )
            )
        elif plan.again is not None:
            audits.append(
                audit_entry(
                    tournament=tournament,
                    action="entry_registered_again",
                    old=next(olds),
                    new={"entry": row.pk, "pair": str(plan.pair.pair), "status": row.status},
                    **audit,
                )
            )
    audits.append(
        audit_entry(
            tournament=tournament,
            action="entrants_registered",
            new={
                "source": registration.source,
                "lines": len(registration.lines),
                "registered": registration.registered,
                "waiting": registration.waiting,
                "registered_again": registration.registered_again,
                "new_players": registration.new_players,
                "licences_added": registration.licences_added,
                "new_pairs": registration.new_pairs,
                "renamed_pairs": [
                    {"pair": found.pair.pk, "old": found.old_name, "new": found.pair.name}
                    for found in roster.renamed
                ],
            },
            **audit,
        )
    )
    AuditEntry.objects.bulk_create(audits)


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None
