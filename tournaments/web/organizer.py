"""Pages of the organizer area (being written)."""

urlpatterns: list = []
