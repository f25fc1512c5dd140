"""Admin registrations for the clubs app: peñas, members, players, pairs and presets.

Responsible for: lists an operator can search and filter, and forms that link rows without
loading every player into a drop-down (raw_id_fields / autocomplete).

Must not: replace the services for day-to-day work; the admin writes rows directly and is for
staff fixing data by hand. A player merge is read only here: only clubs.identity.services moves
what a merge moves, and undoes it.

Terms: peña (club), pareja (pair), preset (a named rule set).
"""

from django.contrib import admin

from clubs.models import Club, Membership, Pair, Player, PlayerMerge, RuleSetPreset


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "town", "region", "contact_email", "language", "created_at"]
    list_filter = ["region"]
    search_fields = ["name", "slug", "town", "region"]
    prepopulated_fields = {"slug": ["name"]}
    raw_id_fields = ["default_preset"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "created_at"]
    list_filter = ["role"]
    list_select_related = ["user", "club"]
    search_fields = ["user__username", "user__email", "club__name", "club__slug"]
    raw_id_fields = ["user", "club"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "email", "phone", "licence", "user", "merged_into"]
    list_select_related = ["user", "merged_into"]
    search_fields = ["first_name", "last_name", "email", "phone", "licence"]
    list_filter = ["clubs"]
    raw_id_fields = ["user", "merged_into"]
    filter_horizontal = ["clubs"]


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ["__str__", "player_one", "player_two", "club", "created_at"]
    list_select_related = ["player_one", "player_two", "club"]
    search_fields = [
        "name",
        "player_one__first_name",
        "player_one__last_name",
        "player_two__first_name",
        "player_two__last_name",
    ]
    list_filter = ["club"]
    autocomplete_fields = ["player_one", "player_two", "club"]


@admin.register(RuleSetPreset)
class RuleSetPresetAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "kings", "stones_per_game", "games_per_vaca", "real_31"]
    list_select_related = ["club"]
    list_filter = ["kings", "stones_per_game"]
    search_fields = ["name", "club__name"]
    raw_id_fields = ["club"]


@admin.register(PlayerMerge)
class PlayerMergeAdmin(admin.ModelAdmin):
    """The merges' audit, read only (a merge and its undo move rows across the service)."""

    list_display = ["pk", "other", "keep", "reason", "actor", "created_at", "undone_at"]
    list_select_related = ["other", "keep", "actor"]
    list_filter = ["reason"]
    search_fields = ["keep__first_name", "keep__last_name", "other__first_name", "other__last_name"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
