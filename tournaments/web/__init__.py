"""Server-rendered pages. Each area's module holds its views and its urlpatterns; views call the
same services as the API (tournaments/services, clubs/services) and redirect after a POST."""
