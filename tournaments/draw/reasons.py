"""Why a pairing is what it is: structured reasons with stable codes and their wording.

Responsible for: the `Reason` value every `Pairing` carries, the catalogue of reason codes, and
their wording: an English text with named blanks per code (`REASON_TEXT`), which is a gettext
message id of the ``errors`` catalogs like the errors' texts (scoring.messages), so that
`render_reason` says a reason in any language it is given a catalog for (`Reason.describe`:
English). Clients read ``code`` and ``params``, so a code, once released, keeps its meaning and
its parameter names; a new situation gets a new code.

Must not: decide anything. The pairing modules choose reasons; this module only names them.

Terms: a *record* is a pareja's wins–losses in the phase (``"3–1"``, a bye counts as a win); a
*score group* is the set of entrants with the same record; to *float down* is to be paired with
an entrant of a lower score group; a *bye* is a round without an opponent.

Reason codes (parameters in brackets):

Swiss and elimination after N losses (a tres ceros):

- ``same_score`` [score]: both entrants have the same record, e.g. ``3–1``.
- ``float_down`` [score, opponent_score]: the better entrant meets one from a lower score group.
- ``same_losses`` [losses]: both entrants have lost the same number of matches.
- ``loss_float`` [losses, opponent_losses]: the entrants have lost different numbers of matches.
- ``not_met_before``: the two have not been paired before in this phase.
- ``rematch_unavoidable`` [times]: they have met ``times`` times already; no pairing of the
  round without a rematch exists (only in late rounds of small fields).
- ``rematch_keeps_byes_even`` [times]: they have met ``times`` times already; a draw with fewer
  rematches exists, but only by giving an entrant a second bye while another has had fewer
  (the bye rule comes first).
- ``same_club_avoided``: club-mates are kept apart this round and one of the two had a club-mate
  in their score group.
- ``same_club_unavoidable`` [club]: club-mates meet although they are to be kept apart.
- ``avoids_second_bye``: one of the two ranks below the entrant given the bye, but has had more
  byes, so plays instead.
- ``bye``: no opponent this round.
- ``lowest_ranked_eligible``: the bye goes to the lowest-ranked entrant with the fewest byes.
- ``bye_avoids_rematch``: the bye goes higher up because giving it to a lower-ranked eligible
  entrant would force a rematch.
- ``bye_avoids_score_gap``: the bye goes higher up because giving it to a lower-ranked eligible
  entrant would force a rematch or pair entrants further apart in score.
- ``first_bye``: the entrant had no bye before.
- ``every_entrant_had_bye`` [byes]: every entrant has had ``byes`` byes, so one gets another.

Brackets (single and double elimination, groups then knockout):

- ``seeded`` [seed, opponent_seed]: first-round match between two seeded entrants.
- ``seeded_v_drawn`` [seed]: a seeded entrant meets an unseeded one placed by lot.
- ``drawn_by_lot``: both entrants are unseeded and were placed by lot.
- ``top_seed_bye`` [seed, entrants, size]: a top seed goes straight to the second round because
  the field does not fill the bracket.
- ``bye_by_lot`` [entrants, size]: an unseeded entrant drew a first-round bye.
- ``group_crossing`` [label, opponent_label]: groups-then-knockout crossing such as 1A v 2B.
- ``crossing_bye`` [label]: a group qualifier (e.g. 1A) goes straight to the second round.
- ``winner_of`` [match]: this slot is filled by the winner of bracket match ``match``.
- ``loser_of`` [match]: this slot is filled by the loser of bracket match ``match``.
- ``third_place``: the match for third place between the losing semi-finalists.
- ``grand_final``: winners' bracket champion v losers' bracket champion.
- ``grand_final_reset``: second grand final, because the losers' bracket champion won the first.

Round robin (liguilla):

- ``round_robin`` [group, round, rounds]: round ``round`` of ``rounds`` in group ``group``.
- ``round_robin_rest`` [group]: the group has an odd number of entrants; this one rests.

Table ladder ("sube y baja", tournaments.draw.table_ladder):

- ``table_ladder`` [table]: the ladder's table ``table`` (1 the top): winners move up a table,
  losers down.

Individual tournaments and Mus francés (tournaments.draw.individual):

- ``new_partners_and_opponents``: nobody at the table has played with or against the others.
- ``partners_again`` [times]: the table's partnerships had played together ``times`` times,
  and no draw of the round's tables repeats fewer partnerships (proved: an exact search that
  ended, or a floor the draw reaches).
- ``partners_again_best_found`` [times]: as ``partners_again``, but fewer was not ruled out:
  the draw's search found none with fewer (fields too large for it to end).
- ``opponents_again`` [times]: opponents at the table had met ``times`` times, and no draw
  that repeats as few partnerships repeats fewer opponents (proved, as above).
- ``opponents_again_best_found`` [times]: as ``opponents_again``, fewer not ruled out.
- ``frances_table`` [size]: a Mus francés table of ``size`` players.
- ``tablemates_again`` [times]: players of the table had shared one ``times`` times, and no
  draw of the round repeats fewer table-mates (proved, as above).
- ``tablemates_again_best_found`` [times]: as ``tablemates_again``, fewer not ruled out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scoring.messages import Translations, gettext_noop, placeholders, render

__all__ = ["REASON_TEXT", "Reason", "render_reason"]

Text = str | tuple[str, str]

# The wording of every code, filled with the reason's params. A (singular, plural) pair is
# chosen by the param named in _COUNTED.
REASON_TEXT: Mapping[str, Text] = MappingProxyType(
    {
        "same_score": gettext_noop("same record {score}"),
        "float_down": gettext_noop("floats down from {score} to meet {opponent_score}"),
        "same_losses": gettext_noop("same number of losses ({losses})"),
        "loss_float": gettext_noop("different numbers of losses ({losses} v {opponent_losses})"),
        "not_met_before": gettext_noop("not met before"),
        "rematch_unavoidable": (
            "rematch (met {times} time before): no pairing without one exists",
            "rematch (met {times} times before): no pairing without one exists",
        ),
        "rematch_keeps_byes_even": (
            "rematch (met {times} time before): avoiding it would give someone a second bye "
            "while others have had fewer",
            "rematch (met {times} times before): avoiding it would give someone a second bye "
            "while others have had fewer",
        ),
        "same_club_avoided": gettext_noop("kept apart from a club-mate"),
        "same_club_unavoidable": gettext_noop("same club ({club}): could not be kept apart"),
        "avoids_second_bye": gettext_noop("avoids a second bye"),
        "bye": gettext_noop("bye"),
        "lowest_ranked_eligible": gettext_noop("lowest-ranked entrant with the fewest byes"),
        "bye_avoids_rematch": gettext_noop("a bye lower down would have forced a rematch"),
        "bye_avoids_score_gap": gettext_noop(
            "a bye lower down would have forced a rematch or pairings further apart in score"
        ),
        "first_bye": gettext_noop("first bye"),
        "every_entrant_had_bye": (
            "every entrant has had {byes} bye",
            "every entrant has had {byes} byes",
        ),
        "seeded": gettext_noop("seed {seed} v seed {opponent_seed}"),
        "seeded_v_drawn": gettext_noop("seed {seed} v an unseeded entrant placed by lot"),
        "drawn_by_lot": gettext_noop("unseeded, placed by lot"),
        "top_seed_bye": gettext_noop(
            "bye for seed {seed}: {entrants} entrants in a bracket of {size}"
        ),
        "bye_by_lot": gettext_noop("bye drawn by lot: {entrants} entrants in a bracket of {size}"),
        "group_crossing": gettext_noop("{label} v {opponent_label}"),
        "crossing_bye": gettext_noop("bye for {label}"),
        "winner_of": gettext_noop("winner of {match}"),
        "loser_of": gettext_noop("loser of {match}"),
        "third_place": gettext_noop("third-place match"),
        "grand_final": gettext_noop("grand final"),
        "grand_final_reset": gettext_noop(
            "grand final reset: the losers' bracket champion won the first"
        ),
        "round_robin": gettext_noop("group {group}, round {round} of {rounds}"),
        "round_robin_rest": gettext_noop(
            "rests this round: group {group} has an odd number of entrants"
        ),
        "table_ladder": gettext_noop("ladder table {table}: winners up a table, losers down"),
        "new_partners_and_opponents": gettext_noop(
            "partners drawn for the round: nobody at the table has played with or against "
            "each other"
        ),
        "partners_again": (
            "partners again ({times} time before): no draw of this round's tables has fewer "
            "repeated partners",
            "partners again ({times} times before): no draw of this round's tables has fewer "
            "repeated partners",
        ),
        "partners_again_best_found": (
            "partners again ({times} time before): the draw found none with fewer repeated "
            "partners",
            "partners again ({times} times before): the draw found none with fewer repeated "
            "partners",
        ),
        "opponents_again": (
            "opponents again ({times} time before): no draw of this round's tables with as few "
            "repeated partners has fewer repeated opponents",
            "opponents again ({times} times before): no draw of this round's tables with as "
            "few repeated partners has fewer repeated opponents",
        ),
        "opponents_again_best_found": (
            "opponents again ({times} time before): the draw found none with fewer repeated "
            "opponents",
            "opponents again ({times} times before): the draw found none with fewer repeated "
            "opponents",
        ),
        "frances_table": gettext_noop("Mus francés table of {size}"),
        "tablemates_again": (
            "players who shared a table before ({times} time): no draw of this round's tables "
            "has fewer repeated table-mates",
            "players who shared a table before ({times} times): no draw of this round's tables "
            "has fewer repeated table-mates",
        ),
        "tablemates_again_best_found": (
            "players who shared a table before ({times} time): the draw found none with fewer "
            "repeated table-mates",
            "players who shared a table before ({times} times): the draw found none with "
            "fewer repeated table-mates",
        ),
    }
)

#: the param that chooses between the singular and the plural of a (singular, plural) text
_COUNTED = {
    "rematch_unavoidable": "times",
    "rematch_keeps_byes_even": "times",
    "every_entrant_had_bye": "byes",
    "partners_again": "times",
    "partners_again_best_found": "times",
    "opponents_again": "times",
    "opponents_again_best_found": "times",
    "tablemates_again": "times",
    "tablemates_again_best_found": "times",
}


def render_reason(
    code: str, params: Mapping[str, Any], text: Text, translations: Translations | None = None
) -> str:
    """``text`` (the wording of ``code``) filled with ``params``, in the language of
    ``translations`` (English without). ``code`` itself when a blank has no param: a reason
    stored by an older release is shown by its code rather than with a hole."""
    blanks = (
        placeholders(text[0]) | placeholders(text[1])
        if isinstance(text, tuple)
        else placeholders(text)
    )
    if not blanks <= params.keys():
        return code
    values = dict(params)
    if isinstance(text, tuple):
        values["count"] = params[_COUNTED.get(code, "count")]
    if translations is None:
        return render(text, values)
    return render(text, values, translations)


@dataclass(frozen=True)
class Reason:
    """One reason for a pairing: a stable ``code`` and the values its wording needs."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in REASON_TEXT:
            raise ValueError(f"unknown reason code {self.code!r}")
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.params.items()))))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reason):
            return NotImplemented
        return self.code == other.code and dict(self.params) == dict(other.params)

    def __repr__(self) -> str:
        if not self.params:
            return f"Reason({self.code!r})"
        return f"Reason({self.code!r}, {dict(self.params)!r})"

    def describe(self, translations: Translations | None = None) -> str:
        """The reason in English (or the language of ``translations``): ``same record 3–1``."""
        return render_reason(self.code, self.params, REASON_TEXT[self.code], translations)
