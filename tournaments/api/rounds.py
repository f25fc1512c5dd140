"""API of the rounds area: phases, rounds and their tables, brackets and standings.

Responsible for: the HTTP edge of tournaments/services/rounds/ (writes, organizers of the
tournament's peña only) and of tournaments/selectors/rounds.py and standings.py (reads, public
for published tournaments; draft rounds only for the organizers). One view per write action,
each with an input and an output serializer; errors come from the services as config.errors
classes (or a DrawError, 400) and the one exception handler shapes them.

Must not: hold a rule, query beyond what the selectors do, or create rows in a serializer.

Paths (under /api/v1/):

- GET  tournaments/<id>/phases            phases with their rounds
- POST tournaments/<id>/phases/create     add a phase
- GET  phases/<id>                        one phase with its rounds
- POST phases/<id>/rounds/generate        draw the next round (draft)
- POST phases/<id>/lengths                the match length per round (a longer final)
- POST phases/<id>/finish                 finish the phase
- POST phases/<id>/advance                finish it and draw the next phase's first round
- GET  phases/<id>/bracket                the bracket filled in so far
- GET  phases/<id>/standings              the stored standings (empty list before any)
- GET  rounds/<id>                        a round's matches, pairs, players and tables
- POST rounds/<id>/publish | close        publish (e-mails the players) / close a round
- POST rounds/<id>/swap-entries | swap-tables | move-table   changes before the round starts

Terms: fase, ronda, mesa, pareja, descanso (bye), liguilla, cuadro (bracket), clasificación.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.inputs import Input
from scoring.errors import RuleSetError
from tournaments.draw.plan import SEEDINGS
from tournaments.models import Match, Phase, Round, Tournament
from tournaments.selectors import rounds as selectors
from tournaments.selectors.standings import standings_cached
from tournaments.selectors.tournaments import tournament_not_found
from tournaments.services import rounds as services
from tournaments.services.lengths import phase_round_lengths_set

# --- Shared output shapes ---------------------------------------------------------------------


def _choices(choices) -> str:
    # Plain strings, not enums: three different "status" enums would collide in the schema.
    return "one of: " + ", ".join(choices.values)


class EntryOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    club = serializers.CharField(allow_null=True)
    players = serializers.ListField(child=serializers.CharField())

    class Meta:
        ref_name = "RoundsEntry"


class ReasonOutSerializer(serializers.Serializer):
    code = serializers.CharField()
    params = serializers.DictField()
    text = serializers.CharField(help_text="English wording; translate by code and params")

    class Meta:
        ref_name = "RoundsReason"


class MatchOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table_number = serializers.IntegerField(allow_null=True)
    bracket_key = serializers.CharField(allow_blank=True)
    group = serializers.CharField(allow_null=True)
    status = serializers.CharField(help_text=_choices(Match.Status))
    kind = serializers.ChoiceField(choices=Match.Kind.choices)
    entry_a = EntryOutSerializer(allow_null=True)
    entry_b = EntryOutSerializer(allow_null=True, help_text="null for a bye (descanso)")
    winner_id = serializers.IntegerField(allow_null=True)
    games_a = serializers.IntegerField()
    games_b = serializers.IntegerField()
    vacas_a = serializers.IntegerField()
    vacas_b = serializers.IntegerField()
    stones_a = serializers.IntegerField()
    stones_b = serializers.IntegerField()
    reasons = ReasonOutSerializer(many=True)

    class Meta:
        ref_name = "RoundsMatch"


class RoundSummaryOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField(help_text=_choices(Round.Status))
    published_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)

    class Meta:
        ref_name = "RoundsRoundSummary"


class RoundOutSerializer(RoundSummaryOutSerializer):
    phase_id = serializers.IntegerField()
    matches = MatchOutSerializer(many=True)

    class Meta:
        ref_name = "RoundsRound"


class GroupOutSerializer(serializers.Serializer):
    name = serializers.CharField()
    entry_ids = serializers.ListField(child=serializers.IntegerField())

    class Meta:
        ref_name = "RoundsGroup"


class LengthOutSerializer(serializers.Serializer):
    stones_per_game = serializers.IntegerField()
    games_per_vaca = serializers.IntegerField()
    vacas_per_match = serializers.IntegerField()

    class Meta:
        ref_name = "RoundsLength"


class PhaseRoundOutSerializer(RoundSummaryOutSerializer):
    length = LengthOutSerializer(
        help_text="what this round is played to: the tournament's length, the phase's, the "
        "round's (round_lengths)"
    )

    class Meta:
        ref_name = "RoundsPhaseRound"


#: a phase's lengths per round: on a knockout keyed final, semifinal, quarterfinal, earlier
#: (the rounds before the quarter-finals); on any other phase by round number ("1", "2", …)
ROUND_LENGTHS_HELP = (
    "the match length of some rounds over the phase's: a knockout names them from the final "
    '({"quarterfinal": {"games_per_vaca": 2}, "semifinal": {"games_per_vaca": 2}, "final": '
    '{"games_per_vaca": 3}}, and "earlier" for the rounds before the quarter-finals), any '
    'other phase by number ({"5": {"vacas_per_match": 2}}); each sets stones_per_game, '
    "games_per_vaca and/or vacas_per_match"
)


def _round_lengths_field(**kwargs) -> serializers.DictField:
    return serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text=ROUND_LENGTHS_HELP,
        **kwargs,
    )


class LadderMovesOutSerializer(serializers.Serializer):
    cycle = serializers.IntegerField()
    up = serializers.ListField(child=serializers.IntegerField())
    down = serializers.ListField(child=serializers.IntegerField())

    class Meta:
        ref_name = "RoundsLadderMoves"


class LadderOutSerializer(serializers.Serializer):
    """A ladder phase's options and, for a group ladder, where it stands."""

    groups = serializers.IntegerField(required=False, help_text="group ladder: level groups")
    cycle_rounds = serializers.IntegerField(required=False, help_text="group ladder: k")
    cycles = serializers.IntegerField(required=False, help_text="group ladder: C")
    move_by = serializers.CharField(required=False, help_text="group ladder: wins or place")
    moves = serializers.IntegerField(required=False, allow_null=True)
    swap = serializers.BooleanField(required=False, help_text="table ladder")
    cycle = serializers.IntegerField(
        required=False, help_text="group ladder: the cycle being played (1…C)"
    )
    moved = LadderMovesOutSerializer(
        many=True, required=False, help_text="group ladder: who moved after each cycle"
    )
    final_groups = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        required=False,
        allow_null=True,
        help_text="group ladder, once finished: the final groups (entry ids, A first)",
    )

    class Meta:
        ref_name = "RoundsPhaseLadder"


class LadderInputSerializer(Input):
    groups = serializers.IntegerField(min_value=1, max_value=26, required=False)
    cycle_rounds = serializers.IntegerField(min_value=1, max_value=30, required=False)
    cycles = serializers.IntegerField(min_value=1, max_value=30, required=False)
    move_by = serializers.ChoiceField(choices=("wins", "place"), required=False)
    moves = serializers.IntegerField(min_value=1, max_value=16, required=False)
    swap = serializers.BooleanField(required=False)

    class Meta:
        ref_name = "RoundsPhaseLadderInput"


class PhaseOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    tournament_id = serializers.IntegerField()
    order = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=Phase.Format.choices)
    status = serializers.CharField(help_text=_choices(Phase.Status))
    rounds_planned = serializers.IntegerField(allow_null=True)
    group_size = serializers.IntegerField(allow_null=True)
    qualifiers_per_group = serializers.IntegerField(allow_null=True)
    lives = serializers.IntegerField()
    third_place = serializers.BooleanField()
    grand_final_reset = serializers.BooleanField()
    separate_clubs_rounds = serializers.IntegerField()
    source_id = serializers.IntegerField(allow_null=True)
    stones_per_game = serializers.IntegerField(allow_null=True)
    games_per_vaca = serializers.IntegerField(allow_null=True)
    vacas_per_match = serializers.IntegerField(allow_null=True)
    entrants = serializers.ListField(
        child=serializers.DictField(),
        help_text="the plan's rules by which this phase takes its entrants from earlier phases "
        "(docs/plans.md); empty: every pair that plays",
    )
    seeding = serializers.CharField(
        help_text="how its groups are filled: snake, level, pots, lot; empty: by lot with "
        "peña-mates apart"
    )
    group_sizes = serializers.ListField(
        child=serializers.IntegerField(), help_text="the groups' sizes where they differ"
    )
    rules = serializers.DictField(
        allow_null=True, help_text="the effective rule set: the tournament's with the overrides"
    )
    round_lengths = _round_lengths_field()
    groups = GroupOutSerializer(many=True)
    ladder = LadderOutSerializer(
        allow_null=True, help_text="a ladder's options and state (group_ladder, table_ladder)"
    )
    rounds = PhaseRoundOutSerializer(many=True)

    class Meta:
        ref_name = "RoundsPhase"


def _phase_data(phase: Phase, rounds: list[Round]) -> dict:
    try:
        compiled = selectors.phase_rules(phase)
        rules = {"form": compiled.form.value, **compiled.as_dict()}
    except RuleSetError:
        rules = None
    data = {field: getattr(phase, field) for field in PHASE_FIELDS}
    data.update(
        rules=rules,
        round_lengths=selectors.phase_round_lengths(phase),
        groups=(phase.settings or {}).get("groups", []),
        ladder=None,
        rounds=[
            {**_round_summary(r), "length": selectors.round_length_values(phase, r.number)}
            for r in rounds
        ],
    )
    if phase.format in (Phase.Format.GROUP_LADDER, Phase.Format.TABLE_LADDER):
        data.update(_ladder_data(phase))
    return data


def _ladder_data(phase: Phase) -> dict:
    """A ladder's options, and a group ladder's groups (ladder order) and moves so far."""
    settings = phase.settings or {}
    ladder = dict(settings.get("ladder") or {})
    if phase.format != Phase.Format.GROUP_LADDER:
        return {"ladder": ladder}
    state = settings.get("ladder_state") or {}
    cycles = state.get("cycles") or []
    final = state.get("final")
    current = final if final is not None else (cycles[-1]["groups"] if cycles else [])
    ladder.update(
        cycle=len(cycles),
        moved=[
            {"cycle": n, "up": c["up"], "down": c["down"]}
            for n, c in enumerate(cycles, start=1)
            if c["up"] or c["down"]
        ],
        final_groups=final,
    )
    groups = [{"name": chr(65 + n), "entry_ids": list(ids)} for n, ids in enumerate(current)]
    return {"ladder": ladder, "groups": groups}


PHASE_FIELDS = (
    "id",
    "tournament_id",
    "order",
    "name",
    "format",
    "status",
    "rounds_planned",
    "group_size",
    "qualifiers_per_group",
    "lives",
    "third_place",
    "grand_final_reset",
    "separate_clubs_rounds",
    "source_id",
    "stones_per_game",
    "games_per_vaca",
    "vacas_per_match",
    "entrants",
    "seeding",
    "group_sizes",
)


def _round_summary(rnd: Round) -> dict:
    return {
        "id": rnd.id,
        "number": rnd.number,
        "status": rnd.status,
        "published_at": rnd.published_at,
        "closed_at": rnd.closed_at,
    }


def _match_data(m: Match) -> dict:
    return {
        "id": m.id,
        "table_number": m.table_number,
        "bracket_key": m.bracket_key,
        "group": m.group.name if m.group_id else None,
        "status": m.status,
        "kind": m.kind,
        "entry_a": selectors.entry_summary(m.entry_a),
        "entry_b": selectors.entry_summary(m.entry_b),
        "winner_id": m.winner_id,
        "games_a": m.games_a,
        "games_b": m.games_b,
        "vacas_a": m.vacas_a,
        "vacas_b": m.vacas_b,
        "stones_a": m.stones_a,
        "stones_b": m.stones_b,
        "reasons": selectors.reasons_out(m.reasons),
    }


def _round_data(rnd: Round, matches: list[Match]) -> dict:
    return {
        **_round_summary(rnd),
        "phase_id": rnd.phase_id,
        "matches": [_match_data(m) for m in matches],
    }


def _round_response(rnd: Round, code: int = status.HTTP_200_OK) -> Response:
    data = _round_data(rnd, selectors.round_matches(rnd=rnd))
    return Response(RoundOutSerializer(data).data, status=code)


def _tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        raise tournament_not_found(tournament_id)
    return tournament


# --- Phases -----------------------------------------------------------------------------------


class PhaseListApi(APIView):
    @extend_schema(
        operation_id="rounds_phase_list",
        request=None,
        responses={200: PhaseOutSerializer(many=True)},
        summary="The tournament's phases, in order, with their rounds",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.tournament_get_readable(
            tournament_id=tournament_id, user=request.user
        )
        phases = selectors.phases_for_tournament(tournament=tournament, user=request.user)
        data = [_phase_data(p, p.visible_rounds) for p in phases]
        return Response(PhaseOutSerializer(data, many=True).data)


class PhaseCreateApi(APIView):
    class InputSerializer(Input):
        name = serializers.CharField(max_length=80)
        format = serializers.ChoiceField(choices=Phase.Format.choices)
        rounds_planned = serializers.IntegerField(min_value=1, max_value=99, required=False)
        group_size = serializers.IntegerField(min_value=2, max_value=64, required=False)
        qualifiers_per_group = serializers.IntegerField(min_value=1, max_value=64, required=False)
        # A format's own options: one sent to a format that does not read it is a 400
        # (phase_option_unread); left out, lives is 3, grand_final_reset on, separate_clubs 0.
        lives = serializers.IntegerField(min_value=1, max_value=9, required=False)
        third_place = serializers.BooleanField(default=False)
        grand_final_reset = serializers.BooleanField(required=False)
        separate_clubs_rounds = serializers.IntegerField(min_value=0, max_value=99, required=False)
        source_id = serializers.IntegerField(required=False)
        stones_per_game = serializers.IntegerField(required=False, min_value=0, max_value=1000)
        games_per_vaca = serializers.IntegerField(required=False, min_value=0, max_value=100)
        vacas_per_match = serializers.IntegerField(required=False, min_value=0, max_value=100)
        round_lengths = _round_lengths_field(required=False)
        entrants = serializers.ListField(
            child=serializers.DictField(),
            required=False,
            max_length=32,
            help_text="entrants rules, e.g. [{'rule': 'top', 'phase': 1, 'count': 8}]; kinds: "
            "all, top, top_of_each_group, group_winners, places, group, not_qualified, losers, "
            "fixed (docs/plans.md). A rule that cannot work is a 400 naming it",
        )
        seeding = serializers.ChoiceField(
            choices=[(s, s) for s in SEEDINGS],
            required=False,
            help_text="a liguilla's or an a tres ceros' groups filled from the entrants' order",
        )
        group_sizes = serializers.ListField(
            child=serializers.IntegerField(min_value=2, max_value=64),
            required=False,
            max_length=64,
            help_text="groups of unequal size, e.g. [4, 6]",
        )
        # a ladder's options (group_ladder: groups, cycle_rounds, cycles, move_by, moves;
        # table_ladder: swap, with rounds_planned)
        ladder = LadderInputSerializer(required=False)

        class Meta:
            ref_name = "RoundsPhaseCreateInput"

    @extend_schema(
        operation_id="rounds_phase_create",
        request=InputSerializer,
        responses={201: PhaseOutSerializer},
        summary="Add a phase after the tournament's last one (organizers)",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        phase = services.phase_create(
            tournament=_tournament(tournament_id), actor=request.user, **serializer.validated_data
        )
        phase = selectors.phase_detail(phase=phase, user=request.user)
        data = _phase_data(phase, phase.visible_rounds)
        return Response(PhaseOutSerializer(data).data, status=status.HTTP_201_CREATED)


class PhaseDetailApi(APIView):
    @extend_schema(
        operation_id="rounds_phase_detail",
        request=None,
        responses={200: PhaseOutSerializer},
        summary="One phase with its rounds",
    )
    def get(self, request: Request, phase_id: int) -> Response:
        phase = selectors.phase_get_readable(phase_id=phase_id, user=request.user)
        phase = selectors.phase_detail(phase=phase, user=request.user)
        return Response(PhaseOutSerializer(_phase_data(phase, phase.visible_rounds)).data)


class PhaseRoundLengthsApi(APIView):
    class InputSerializer(Input):
        round_lengths = _round_lengths_field()

        class Meta:
            ref_name = "RoundsPhaseRoundLengthsInput"

    @extend_schema(
        operation_id="rounds_phase_round_lengths",
        request=InputSerializer,
        responses={200: PhaseOutSerializer},
        summary="Set the match length per round, replacing the phase's (organizers); a round "
        "already played keeps its length",
    )
    def post(self, request: Request, phase_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        phase = phase_round_lengths_set(
            phase=selectors.phase_get(phase_id=phase_id),
            actor=request.user,
            round_lengths=serializer.validated_data["round_lengths"],
        )
        phase = selectors.phase_detail(phase=phase, user=request.user)
        return Response(PhaseOutSerializer(_phase_data(phase, phase.visible_rounds)).data)


class RoundDrawGenerateApi(APIView):
    @extend_schema(
        operation_id="rounds_round_generate",
        request=None,
        responses={201: RoundOutSerializer},
        summary="Draw the phase's next round, as a draft (organizers)",
    )
    def post(self, request: Request, phase_id: int) -> Response:
        phase = selectors.phase_get(phase_id=phase_id)
        rnd = services.round_draw_generate(phase=phase, actor=request.user)
        return _round_response(rnd, status.HTTP_201_CREATED)


class PhaseFinishApi(APIView):
    @extend_schema(
        operation_id="rounds_phase_finish",
        request=None,
        responses={200: PhaseOutSerializer},
        summary="Finish the phase once its rounds are played and closed (organizers)",
    )
    def post(self, request: Request, phase_id: int) -> Response:
        phase = services.phase_finish(
            phase=selectors.phase_get(phase_id=phase_id), actor=request.user
        )
        phase = selectors.phase_detail(phase=phase, user=request.user)
        return Response(PhaseOutSerializer(_phase_data(phase, phase.visible_rounds)).data)


class PhaseAdvanceApi(APIView):
    @extend_schema(
        operation_id="rounds_phase_advance",
        request=None,
        responses={201: RoundOutSerializer},
        summary="Finish the phase and draw the first round of the next one (organizers)",
    )
    def post(self, request: Request, phase_id: int) -> Response:
        phase = selectors.phase_get(phase_id=phase_id)
        rnd = services.phase_advance(phase=phase, actor=request.user)
        return _round_response(rnd, status.HTTP_201_CREATED)


# --- Brackets and standings -------------------------------------------------------------------


class BracketSlotOutSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField(allow_null=True)
    label = serializers.CharField(allow_blank=True, help_text="groups then knockout: 1A, 2B, …")
    winner_of = serializers.CharField(allow_null=True)
    loser_of = serializers.CharField(allow_null=True)
    bye = serializers.BooleanField()

    class Meta:
        ref_name = "RoundsBracketSlot"


class BracketMatchRowOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round_id = serializers.IntegerField()
    round_number = serializers.IntegerField()
    table_number = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text=_choices(Match.Status))
    kind = serializers.ChoiceField(choices=Match.Kind.choices)
    winner_id = serializers.IntegerField(allow_null=True)

    class Meta:
        ref_name = "RoundsBracketMatchRow"


class BracketMatchOutSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="W2-1, L3-2, GF1, 3P, …")
    side = serializers.CharField()
    round = serializers.IntegerField()
    stage = serializers.IntegerField(help_text="the Round number it is played in")
    position = serializers.IntegerField()
    conditional = serializers.BooleanField()
    a = BracketSlotOutSerializer()
    b = BracketSlotOutSerializer()
    match = BracketMatchRowOutSerializer(allow_null=True)

    class Meta:
        ref_name = "RoundsBracketMatch"


class PhaseBracketApi(APIView):
    class OutputSerializer(serializers.Serializer):
        phase_id = serializers.IntegerField()
        format = serializers.ChoiceField(choices=Phase.Format.choices)
        size = serializers.IntegerField()
        finals = serializers.ListField(child=serializers.CharField())
        champion_id = serializers.IntegerField(allow_null=True)
        matches = BracketMatchOutSerializer(many=True)
        entries = EntryOutSerializer(many=True)

        class Meta:
            ref_name = "RoundsBracket"

    @extend_schema(
        operation_id="rounds_phase_bracket",
        request=None,
        responses={200: OutputSerializer},
        summary="The bracket of an elimination phase, filled in as far as results go",
    )
    def get(self, request: Request, phase_id: int) -> Response:
        phase = selectors.phase_get_readable(phase_id=phase_id, user=request.user)
        data = selectors.bracket_for_phase(phase=phase, user=request.user)
        return Response(self.OutputSerializer(data).data)


class TiebreakValueOutSerializer(serializers.Serializer):
    tiebreak = serializers.CharField()
    value = serializers.JSONField(allow_null=True)

    class Meta:
        ref_name = "RoundsTiebreakValue"


class StandingRowOutSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    club = serializers.CharField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    withdrawn = serializers.BooleanField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    games_won = serializers.IntegerField()
    games_lost = serializers.IntegerField()
    game_difference = serializers.IntegerField()
    stones_won = serializers.IntegerField()
    stones_lost = serializers.IntegerField()
    stone_difference = serializers.IntegerField()
    buchholz = serializers.IntegerField()
    points = serializers.IntegerField(
        required=False,
        help_text="with the tournament's points table, its points; players alone: juegos won "
        "(individual) or placing points (Mus francés); absent otherwise",
    )
    rests = serializers.IntegerField(
        required=False, help_text="players alone only: rounds rested (counted as a bye)"
    )
    tiebreaks = TiebreakValueOutSerializer(many=True)
    separated_by = serializers.CharField(
        allow_null=True,
        help_text="what put this row below the one above: a tiebreak name, or 'placing' in "
        "elimination phases (the round the pair went out in)",
    )
    ladder_move = serializers.ChoiceField(
        choices=("up", "down", "stayed"),
        required=False,
        help_text="group ladder only: 'up' if the pair came up into this group after the last "
        "cycle, 'down' if it came down, 'stayed' otherwise; absent in other phases",
    )

    class Meta:
        ref_name = "RoundsStandingRow"


class StandingsGroupOutSerializer(serializers.Serializer):
    group = serializers.CharField(allow_null=True, help_text="null: the whole phase")
    computed_at = serializers.DateTimeField()
    rows = StandingRowOutSerializer(many=True)

    class Meta:
        ref_name = "RoundsStandingsGroup"


class PhaseStandingsApi(APIView):
    class OutputSerializer(serializers.Serializer):
        phase_id = serializers.IntegerField()
        groups = StandingsGroupOutSerializer(many=True)

        class Meta:
            ref_name = "RoundsStandings"

    @extend_schema(
        operation_id="rounds_phase_standings",
        request=None,
        responses={200: OutputSerializer},
        summary="The stored standings of a phase (per group); empty before the first result",
    )
    def get(self, request: Request, phase_id: int) -> Response:
        phase = selectors.phase_get_readable(phase_id=phase_id, user=request.user)
        body = standings_cached(
            phase=phase,
            build=lambda groups: (
                self.OutputSerializer({"phase_id": phase.id, "groups": groups}).data
            ),
        )
        return Response(body)


# --- Rounds -----------------------------------------------------------------------------------


class RoundDetailApi(APIView):
    @extend_schema(
        operation_id="rounds_round_detail",
        request=None,
        responses={200: RoundOutSerializer},
        summary="A round's matches with pairs, players and tables (byes last)",
    )
    def get(self, request: Request, round_id: int) -> Response:
        rnd = selectors.round_get_readable(round_id=round_id, user=request.user)
        return Response(RoundOutSerializer(_round_data(rnd, rnd.match_list)).data)


class RoundPublishApi(APIView):
    @extend_schema(
        operation_id="rounds_round_publish",
        request=None,
        responses={200: RoundOutSerializer},
        summary="Publish a draft round and e-mail the players their tables (organizers)",
    )
    def post(self, request: Request, round_id: int) -> Response:
        rnd = services.round_publish(
            round=selectors.round_get(round_id=round_id), actor=request.user
        )
        return _round_response(rnd)


class RoundCloseApi(APIView):
    @extend_schema(
        operation_id="rounds_round_close",
        request=None,
        responses={200: RoundOutSerializer},
        summary="Close a round whose matches are all confirmed (organizers)",
    )
    def post(self, request: Request, round_id: int) -> Response:
        rnd = services.round_close(round=selectors.round_get(round_id=round_id), actor=request.user)
        return _round_response(rnd)


class RoundEntriesSwapApi(APIView):
    class InputSerializer(Input):
        entry_id = serializers.IntegerField()
        other_entry_id = serializers.IntegerField()

        class Meta:
            ref_name = "RoundsEntriesSwapInput"

    @extend_schema(
        operation_id="rounds_round_swap_entries",
        request=InputSerializer,
        responses={200: RoundOutSerializer},
        summary="Swap two pairs between matches before the round starts (organizers)",
    )
    def post(self, request: Request, round_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd = services.round_entries_swap(
            round=selectors.round_get(round_id=round_id),
            actor=request.user,
            **serializer.validated_data,
        )
        return _round_response(rnd)


class RoundTablesSwapApi(APIView):
    class InputSerializer(Input):
        match_id = serializers.IntegerField()
        other_match_id = serializers.IntegerField()

        class Meta:
            ref_name = "RoundsTablesSwapInput"

    @extend_schema(
        operation_id="rounds_round_swap_tables",
        request=InputSerializer,
        responses={200: RoundOutSerializer},
        summary="Swap the tables of two matches before the round starts (organizers)",
    )
    def post(self, request: Request, round_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd = services.round_tables_swap(
            round=selectors.round_get(round_id=round_id),
            actor=request.user,
            **serializer.validated_data,
        )
        return _round_response(rnd)


class RoundMatchMoveApi(APIView):
    class InputSerializer(Input):
        match_id = serializers.IntegerField()
        table_number = serializers.IntegerField(min_value=1, max_value=32767)

        class Meta:
            ref_name = "RoundsMatchMoveInput"

    @extend_schema(
        operation_id="rounds_round_move_table",
        request=InputSerializer,
        responses={200: RoundOutSerializer},
        summary="Move a match to a free table before the round starts (organizers)",
    )
    def post(self, request: Request, round_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rnd = selectors.round_get(round_id=round_id)
        services.match_table_move(round=rnd, actor=request.user, **serializer.validated_data)
        return _round_response(rnd)


urlpatterns = [
    path("tournaments/<int:tournament_id>/phases", PhaseListApi.as_view(), name="rounds-phases"),
    path(
        "tournaments/<int:tournament_id>/phases/create",
        PhaseCreateApi.as_view(),
        name="rounds-phase-create",
    ),
    path("phases/<int:phase_id>", PhaseDetailApi.as_view(), name="rounds-phase"),
    path(
        "phases/<int:phase_id>/rounds/generate",
        RoundDrawGenerateApi.as_view(),
        name="rounds-round-generate",
    ),
    path(
        "phases/<int:phase_id>/lengths",
        PhaseRoundLengthsApi.as_view(),
        name="rounds-phase-lengths",
    ),
    path("phases/<int:phase_id>/finish", PhaseFinishApi.as_view(), name="rounds-phase-finish"),
    path("phases/<int:phase_id>/advance", PhaseAdvanceApi.as_view(), name="rounds-phase-advance"),
    path("phases/<int:phase_id>/bracket", PhaseBracketApi.as_view(), name="rounds-phase-bracket"),
    path(
        "phases/<int:phase_id>/standings",
        PhaseStandingsApi.as_view(),
        name="rounds-phase-standings",
    ),
    path("rounds/<int:round_id>", RoundDetailApi.as_view(), name="rounds-round"),
    path("rounds/<int:round_id>/publish", RoundPublishApi.as_view(), name="rounds-round-publish"),
    path("rounds/<int:round_id>/close", RoundCloseApi.as_view(), name="rounds-round-close"),
    path(
        "rounds/<int:round_id>/swap-entries",
        RoundEntriesSwapApi.as_view(),
        name="rounds-round-swap-entries",
    ),
    path(
        "rounds/<int:round_id>/swap-tables",
        RoundTablesSwapApi.as_view(),
        name="rounds-round-swap-tables",
    ),
    path(
        "rounds/<int:round_id>/move-table",
        RoundMatchMoveApi.as_view(),
        name="rounds-round-move-table",
    ),
]
