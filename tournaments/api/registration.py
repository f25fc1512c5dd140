"""API of the registration area (being written)."""

urlpatterns: list = []
