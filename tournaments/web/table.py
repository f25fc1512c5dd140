"""Pages of the table area (being written)."""

urlpatterns: list = []
