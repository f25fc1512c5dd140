"""The shapes the clubs API answers with, shared by the views that return the same row.

Responsible for: turning Club, Membership, Player, Pair and RuleSetPreset rows into JSON. Each
serializer names its OpenAPI component (``Meta.ref_name``, all starting with "Club") so that
the views' nested serializers of other apps never clash with ours in the schema.

Must not: read the database beyond the row it is given (the selectors join what is shown) or
hold a rule.

Terms: peña (club), pareja (pair), preset (a named rule set), reyes, piedras, vaca, 31 real,
dejes, envite.
"""

from __future__ import annotations

from rest_framework import serializers


class ClubOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    town = serializers.CharField()
    region = serializers.CharField()
    contact_email = serializers.CharField()
    contact_phone = serializers.CharField()
    language = serializers.CharField(help_text="the language of its e-mails")
    default_preset_id = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "ClubOutput"


class ClubMemberOutputSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    first_name = serializers.CharField(source="user.first_name")
    last_name = serializers.CharField(source="user.last_name")
    role = serializers.CharField()
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "ClubMemberOutput"


class ClubPlayerOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    full_name = serializers.CharField(source="__str__")
    email = serializers.CharField()
    phone = serializers.CharField()
    licence = serializers.CharField(help_text="the federation's licence number, when known")

    class Meta:
        ref_name = "ClubPlayerOutput"


class ClubPairPlayerOutputSerializer(serializers.Serializer):
    """A player as a pair shows them: the name only, never the contact."""

    id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()

    class Meta:
        ref_name = "ClubPairPlayerOutput"


class ClubPairOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    display_name = serializers.CharField(source="__str__")
    club_id = serializers.IntegerField(allow_null=True)
    player_one = ClubPairPlayerOutputSerializer()
    player_two = ClubPairPlayerOutputSerializer()

    class Meta:
        ref_name = "ClubPairOutput"


class ClubPresetOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club_id = serializers.IntegerField(allow_null=True)
    builtin = serializers.SerializerMethodField()
    kings = serializers.IntegerField()
    stones_per_game = serializers.IntegerField()
    games_per_vaca = serializers.IntegerField()
    vacas_per_match = serializers.IntegerField()
    real_31 = serializers.CharField()
    dejes = serializers.BooleanField()
    min_envite = serializers.IntegerField()
    real_31_suit = serializers.CharField()
    tio_perete = serializers.BooleanField()
    forgotten_stones_lost = serializers.BooleanField()

    class Meta:
        ref_name = "ClubPresetOutput"

    def get_builtin(self, preset) -> bool:
        return preset.club_id is None
