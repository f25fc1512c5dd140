"""The championship's eligibility rules, checked at every registration in its tournaments.

Responsible for: ``championship_eligibility``, the check tournaments' registration calls
through its registry (tournaments.services.eligibility; ``register`` adds it when Django
starts, ChampionshipsConfig.ready) with everybody a registration is about to bring into a
tournament: the pairs of a list, one pair, a trio, a substitute, a member changed on the day.
For a tournament that is no championship's stage it costs one query and refuses nothing; for
one that is, it reads the championship's registrations of those players in a fixed number of
queries (seasons.championships.selectors.eligibility_inputs) and asks the pure core
(seasons.championships.eligibility) which rule each candidate breaks. Each refusal is a 409
naming the rule (``rule``: ``eliminated``, ``one_centre``, ``member_changes``), the player,
and the other registration (its tournament and pair, or the centre it is for).

Must not: write, or be imported by tournaments (it registers itself).

Terms: centro (centre), clasificatoria (qualifier), suplente (substitute), eliminado
(eliminated), cambio de jugador (member change).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from clubs.models import Player
from config.errors import Conflict, DomainError
from seasons.championships import eligibility
from seasons.championships.selectors import (
    EligibilityInputs,
    eligibility_inputs,
    eligibility_stop,
)
from tournaments.models import AuditEntry, Entry, Tournament
from tournaments.services.eligibility import MEMBER, Candidate, eligibility_register

#: the name of the check in tournaments' registry
CHECK = "championships"


def register() -> None:
    eligibility_register(CHECK, championship_eligibility)


def championship_eligibility(
    tournament: Tournament, candidates: Sequence[Candidate]
) -> dict[int, DomainError]:
    """Each refused candidate's error, by its index (see the module)."""
    stop = eligibility_stop(tournament_id=tournament.pk)
    if stop is None:
        return {}
    players = {p for c in candidates for p in c.players}
    entries = {c.entry_id for c in candidates if c.entry_id is not None}
    inputs = eligibility_inputs(stop=stop, players=players, entry_ids=entries)
    changes = _changes_made(tournament, [c for c in candidates if c.role == MEMBER])
    found: dict[int, tuple[eligibility.Refusal, int | None]] = {}
    for index, candidate in enumerate(candidates):
        centre = inputs.centre_for(
            players=candidate.pair_players or candidate.players,
            club_id=candidate.club_id,
            entry_id=candidate.entry_id,
        )
        refused = eligibility.refusal(
            players=candidate.players,
            stop=stop.pk,
            centre=centre,
            stops=inputs.stops,
            registrations=inputs.registrations,
            member_change=candidate.role == MEMBER,
            changes_made=changes.get(candidate.entry_id, 0),
            changes_allowed=stop.championship.member_changes,
        )
        if refused is not None:
            found[index] = (refused, centre)
    if not found:
        return {}
    names = _names(
        players=[r.player for r, _ in found.values()],
        entries=[candidate.entry_id for candidate in candidates]
        + [r.other.entry for r, _ in found.values() if r.other is not None],
    )
    return {
        index: _error(refused, inputs, candidates[index], centre, names)
        for index, (refused, centre) in found.items()
    }


@dataclass(frozen=True)
class Names:
    players: dict[int, str]
    pairs: dict[int, str]  # entry id → its pair's name


def _names(*, players: list[int | None], entries: list[int | None]) -> Names:
    """The names a refusal shows: two queries for every refusal of a list."""
    people = Player.objects.filter(pk__in=[p for p in players if p is not None])
    rows = Entry.objects.filter(pk__in=[e for e in entries if e is not None]).select_related(
        "pair__player_one", "pair__player_two"
    )
    return Names(
        players={p.pk: str(p) for p in people},
        pairs={e.pk: str(e.pair) for e in rows},
    )


def _changes_made(tournament: Tournament, candidates: list[Candidate]) -> dict[int | None, int]:
    """entry → how many of its players it has changed in this tournament (one query, none
    when no candidate changes a member)."""
    if not candidates:
        return {}
    ids = [c.entry_id for c in candidates]
    made: dict[int | None, int] = {}
    for new in AuditEntry.objects.filter(
        tournament=tournament, action="entry_member_changed"
    ).values_list("new", flat=True):
        entry = (new or {}).get("entry")
        if entry in ids:
            made[entry] = made.get(entry, 0) + 1
    return made


def _error(
    found: eligibility.Refusal,
    inputs: EligibilityInputs,
    candidate: Candidate,
    centre: int | None,
    names: Names,
) -> DomainError:
    championship = inputs.championship
    if found.rule is eligibility.Rule.MEMBER_CHANGES and championship.member_changes == 0:
        return Conflict(
            "{championship} allows no change of a pair's players on the day; a substitute may "
            "play one partida instead.",
            code="championship_member_change_none",
            rule=found.rule.value,
            championship=championship.name,
            entry=candidate.entry_id,
        )
    if found.rule is eligibility.Rule.MEMBER_CHANGES:
        return Conflict(
            (
                "{championship} allows {count} change of a pair's players on the day of each "
                "stage, and {pair} has made it already.",
                "{championship} allows {count} changes of a pair's players on the day of each "
                "stage, and {pair} has made them already.",
            ),
            code="championship_member_changes",
            rule=found.rule.value,
            championship=championship.name,
            count=championship.member_changes,
            pair=names.pairs.get(candidate.entry_id, ""),
            entry=candidate.entry_id,
        )
    other = found.other
    params = {
        "rule": found.rule.value,
        "player": names.players.get(found.player, str(found.player)),
        "player_id": found.player,
        "championship": championship.name,
        "other_tournament": inputs.names.get(other.stop, ""),
        "other_stop": other.stop,
        "other_entry": other.entry,
        "other_pair": names.pairs.get(other.entry, ""),
        "substitute": other.substitute,
    }
    if found.rule is eligibility.Rule.ELIMINATED:
        return Conflict(
            "{player} was eliminated in {other_tournament} with {other_pair}; a player "
            "eliminated in a qualifier of {championship} cannot come back in another, not even "
            "as a substitute.",
            code="championship_eliminated",
            **params,
        )
    return Conflict(
        "{player} represents {other_centre} in {championship} ({other_tournament}, with "
        "{other_pair}); a player represents one centre per championship, so not {centre} too.",
        code="championship_one_centre",
        centre=inputs.centre_names.get(centre, ""),
        other_centre=inputs.centre_names.get(other.centre, ""),
        **params,
    )
