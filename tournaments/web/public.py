"""Pages of the public area (being written)."""

urlpatterns: list = []
