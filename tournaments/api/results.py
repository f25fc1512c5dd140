"""API of the results area (being written)."""

urlpatterns: list = []
