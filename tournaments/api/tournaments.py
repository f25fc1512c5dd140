"""API of the tournaments area (being written)."""

urlpatterns: list = []
