"""The clubs API."""

app_name = "clubs"

urlpatterns: list = []
