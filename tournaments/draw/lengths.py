"""Match length per round, over plain values: which length a round of a phase is played to.

Responsible for:

- ``lengths_clean``: reading the lengths a phase declares per round, as the bases write them —
  on a knockout by the round counted from the final ("cuartos y semifinales al mejor de 3
  juegos, la final al mejor de 5": ``{"quarterfinal": {...}, "semifinal": {...}, "final":
  {...}}``, and ``"earlier"`` for every round before the quarter-finals), on any other phase by
  the round's number (``{"5": {...}}``: the last round of a Swiss longer); each length sets one
  or more of FORMAT_OPTIONS (the engine checks the values when the rule set is built);
- ``stage_of``: a knockout's round of play counted from the final (the third-place match and a
  double elimination's grand final reset are played with the final: they count as the final);
- ``round_length``: the options a round sets over its phase's (``{}`` when it sets none), and
  ``length_of``: the effective length of a round, from the tournament's length, the phase's
  own and the round's — one place computes it, whatever path asks (the phone, the organizer,
  the API, the sheets, the standings, an archive's import);
- ``lengths_grouped``: the rounds that play one length together, in the order they are played
  ("cuartos y semifinales", then "final"), for the bases in words.

Must not: import Django, read the database, or word anything (the pages do).

Terms: ronda (round), eliminatoria (knockout), final, semifinales, cuartos de final, juego
(game), vaca, piedras (stones); "al mejor de 5 juegos" is ``games_per_vaca`` 3 with one vaca.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments.draw.base import DrawError
from tournaments.draw.entries import FORMAT_OPTIONS

__all__ = [
    "MAX_ROUND",
    "STAGES",
    "length_of",
    "lengths_clean",
    "lengths_grouped",
    "round_length",
    "stage_of",
]

#: a knockout's rounds counted from the final, the final first; "earlier" is every round
#: before the quarter-finals
STAGES = ("final", "semifinal", "quarterfinal", "earlier")
#: the highest round number a phase's lengths may name
MAX_ROUND = 99
#: the largest value an option may hold before the engine checks it (the column's range)
_MAX_VALUE = 1000


def stage_of(round_number: int, final_stage: int) -> str:
    """A knockout round's place counted from the final: "final" for the final's round (and any
    later one: a grand final's reset), "semifinal" the one before, "quarterfinal" the one
    before that, "earlier" before."""
    back = final_stage - round_number
    return STAGES[min(max(back, 0), len(STAGES) - 1)]


def _length_clean(where: str, value: Any) -> dict[str, int]:
    if (
        not isinstance(value, Mapping)
        or not value
        or set(value) - set(FORMAT_OPTIONS)
        or any(
            isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= _MAX_VALUE
            for v in value.values()
        )
    ):
        raise DrawError(
            "The length of {round} sets one or more of {options}, each a whole number.",
            code="round_length_options",
            round=where,
            options=list(FORMAT_OPTIONS),
        )
    return {k: value[k] for k in FORMAT_OPTIONS if k in value}


def lengths_clean(value: Any, *, knockout: bool) -> dict[str, dict[str, int]]:
    """The lengths a phase declares per round, keyed in STAGES order (knockout) or by round
    number as text, ascending; ``None`` or ``{}`` for none. DrawError naming what is wrong."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise DrawError(
            "The lengths per round are an object: a length for each round, named as the "
            "phase names its rounds.",
            code="round_lengths_shape",
        )
    out: dict[str, dict[str, int]] = {}
    if knockout:
        unknown = [str(k)[:20] for k in value if k not in STAGES]
        if unknown:
            raise DrawError(
                "A knockout's lengths name its rounds from the final: {stages}; not {unknown}.",
                code="round_lengths_stage",
                stages=list(STAGES),
                unknown=unknown,
            )
        for stage in STAGES:
            if stage in value:
                out[stage] = _length_clean(stage, value[stage])
        return out
    numbers: dict[int, Any] = {}
    for key, length in value.items():
        number = key if isinstance(key, int) and not isinstance(key, bool) else None
        if isinstance(key, str) and key.isdigit():
            number = int(key)
        if number is None or not 1 <= number <= MAX_ROUND:
            raise DrawError(
                "This phase's lengths name its rounds by number, from 1 to {largest}; not "
                "{unknown}.",
                code="round_lengths_number",
                largest=MAX_ROUND,
                unknown=str(key)[:20],
            )
        if number in numbers:
            raise DrawError(
                "Round {round} has two lengths; give it one.",
                code="round_lengths_twice",
                round=number,
            )
        numbers[number] = length
    for number in sorted(numbers):
        out[str(number)] = _length_clean(str(number), numbers[number])
    return out


def round_length(
    lengths: Mapping[str, Mapping[str, int]],
    *,
    round_number: int,
    final_stage: int | None = None,
) -> dict[str, int]:
    """The options round ``round_number`` sets over its phase's. A knockout passes the round of
    its final (``final_stage``) and reads its lengths by stage; any other phase passes None and
    reads them by number. ``{}``: the round plays the phase's length."""
    if not lengths:
        return {}
    key = str(round_number) if final_stage is None else stage_of(round_number, final_stage)
    return dict(lengths.get(key) or {})


def length_of(
    base: Mapping[str, int],
    phase: Mapping[str, int | None],
    round_options: Mapping[str, int],
) -> dict[str, int]:
    """The length a round is played to: the tournament's ``base`` (every option of
    FORMAT_OPTIONS), the phase's where it sets one (None: it does not), the round's over both."""
    out = {name: base[name] for name in FORMAT_OPTIONS}
    for layer in (phase, round_options):
        for name in FORMAT_OPTIONS:
            value = layer.get(name)
            if value is not None:
                out[name] = value
    return out


def lengths_grouped(
    lengths: Mapping[str, Mapping[str, int]],
    phase_length: Mapping[str, int],
    *,
    knockout: bool,
) -> list[tuple[list[str], dict[str, int]]]:
    """The rounds that set a length different from the phase's, grouped by length in the
    order they are played (a knockout's earliest stage first): ``[(["quarterfinal",
    "semifinal"], {...}), (["final"], {...})]``. Each length is whole (``length_of`` over
    ``phase_length``); rounds playing the phase's own length are left out."""
    keys = list(reversed(STAGES)) if knockout else sorted(lengths, key=int)
    groups: list[tuple[list[str], dict[str, int]]] = []
    previous: str | None = None
    for key in keys:
        if key not in lengths:
            previous = None
            continue
        whole = length_of(phase_length, {}, lengths[key])
        if whole == {k: phase_length[k] for k in FORMAT_OPTIONS}:
            previous = None
            continue
        adjacent = previous is not None and (knockout or int(key) == int(previous) + 1)
        if groups and adjacent and groups[-1][1] == whole:
            groups[-1][0].append(key)
        else:
            groups.append(([key], whole))
        previous = key
    return groups
