"""The clubs API: whole paths under /api/v1/. Reads are GET on noun paths; each write is POST
on its own action path, like the rest of the API."""

from django.urls import path

from clubs.api import clubs, identity, players, presets, webhooks

app_name = "clubs"

_CLUB = "clubs/<int:club_id>"
_MEMBER = f"{_CLUB}/members/<int:user_id>"
_PLAYER = f"{_CLUB}/players/<int:player_id>"
_PAIR = f"{_CLUB}/pairs/<int:pair_id>"
_PRESET = f"{_CLUB}/presets/<int:preset_id>"
_WEBHOOK = f"{_CLUB}/webhooks/<int:webhook_id>"
_MERGE = f"{_CLUB}/player-merges/<int:merge_id>"

urlpatterns = [
    path("me", clubs.MeApi.as_view(), name="me"),
    path("clubs", clubs.ClubListApi.as_view(), name="club-list"),
    path("clubs/create", clubs.ClubCreateApi.as_view(), name="club-create"),
    path(_CLUB, clubs.ClubDetailApi.as_view(), name="club-detail"),
    path(f"{_CLUB}/update", clubs.ClubUpdateApi.as_view(), name="club-update"),
    path(
        f"{_CLUB}/default-preset",
        clubs.ClubDefaultPresetSetApi.as_view(),
        name="club-default-preset",
    ),
    path(f"{_CLUB}/members", clubs.MemberListApi.as_view(), name="member-list"),
    path(f"{_CLUB}/members/add", clubs.MemberAddApi.as_view(), name="member-add"),
    path(f"{_MEMBER}/role", clubs.MemberRoleChangeApi.as_view(), name="member-role"),
    path(f"{_MEMBER}/remove", clubs.MemberRemoveApi.as_view(), name="member-remove"),
    path(f"{_CLUB}/players", players.PlayerListApi.as_view(), name="player-list"),
    path(f"{_CLUB}/players/create", players.PlayerCreateApi.as_view(), name="player-create"),
    path(f"{_CLUB}/players/add", players.PlayerAddApi.as_view(), name="player-add"),
    path(
        f"{_CLUB}/players/duplicates",
        identity.PlayerDuplicateListApi.as_view(),
        name="player-duplicates",
    ),
    path(_PLAYER, players.PlayerDetailApi.as_view(), name="player-detail"),
    path(f"{_PLAYER}/update", players.PlayerUpdateApi.as_view(), name="player-update"),
    path(f"{_PLAYER}/remove", players.PlayerRemoveApi.as_view(), name="player-remove"),
    path(f"{_PLAYER}/merge", identity.PlayerMergeApi.as_view(), name="player-merge"),
    path(f"{_CLUB}/player-merges", identity.PlayerMergeListApi.as_view(), name="player-merge-list"),
    path(_MERGE, identity.PlayerMergeDetailApi.as_view(), name="player-merge-detail"),
    path(f"{_MERGE}/undo", identity.PlayerMergeUndoApi.as_view(), name="player-merge-undo"),
    path(f"{_CLUB}/pairs", players.PairListApi.as_view(), name="pair-list"),
    path(f"{_CLUB}/pairs/create", players.PairCreateApi.as_view(), name="pair-create"),
    path(f"{_CLUB}/pairs/from-names", players.PairFromNamesApi.as_view(), name="pair-from-names"),
    path(_PAIR, players.PairDetailApi.as_view(), name="pair-detail"),
    path(f"{_PAIR}/update", players.PairUpdateApi.as_view(), name="pair-update"),
    path("presets", presets.PresetBuiltinListApi.as_view(), name="preset-builtin-list"),
    path(f"{_CLUB}/presets", presets.PresetListApi.as_view(), name="preset-list"),
    path(f"{_CLUB}/presets/create", presets.PresetCreateApi.as_view(), name="preset-create"),
    path(_PRESET, presets.PresetDetailApi.as_view(), name="preset-detail"),
    path(f"{_PRESET}/update", presets.PresetUpdateApi.as_view(), name="preset-update"),
    path(f"{_PRESET}/delete", presets.PresetDeleteApi.as_view(), name="preset-delete"),
    path(f"{_CLUB}/webhooks", webhooks.WebhookListApi.as_view(), name="webhook-list"),
    path(f"{_CLUB}/webhooks/create", webhooks.WebhookCreateApi.as_view(), name="webhook-create"),
    path(f"{_WEBHOOK}/delete", webhooks.WebhookDeleteApi.as_view(), name="webhook-delete"),
    path(
        f"{_WEBHOOK}/deliveries",
        webhooks.WebhookDeliveryListApi.as_view(),
        name="webhook-deliveries",
    ),
    path(
        f"{_CLUB}/webhook-deliveries/<int:delivery_id>/redeliver",
        webhooks.WebhookRedeliverApi.as_view(),
        name="webhook-redeliver",
    ),
]
