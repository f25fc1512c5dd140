"""Admin registrations for the clubs app: peñas, members, players, pairs and presets.

Responsible for: lists an operator can search and filter, and forms that link rows without
loading every player into a drop-down (raw_id_fields / autocomplete).

Must not: replace the services for day-to-day work; the admin writes rows directly and is for
staff fixing data by hand.

Terms: peña (club), pareja (pair), preset (a named rule set).
"""

from django.contrib import admin

from clubs.models import Club, Membership, Pair, Player, RuleSetPreset


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
    list_display = ["last_name", "first_name", "email", "phone", "user"]
    list_select_related = ["user"]
    search_fields = ["first_name", "last_name", "email", "phone"]
    list_filter = ["clubs"]
    raw_id_fields = ["user"]
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
