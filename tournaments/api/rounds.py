"""API of the rounds area (being written)."""

urlpatterns: list = []
