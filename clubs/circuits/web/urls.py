"""The circuits' and interpeñas' pages (whole paths): public first, then the organizers'."""

from django.urls import path

from clubs.circuits.web import views

app_name = "circuits"

urlpatterns = [
    path("circuitos/", views.circuit_list, name="circuit-list"),
    path("circuitos/<slug:slug>/", views.circuit_ranking, name="circuit"),
    path("interpenas/", views.interpena_list, name="interpena-list"),
    path("interpenas/<int:interpena_id>/", views.interpena_page, name="interpena"),
    path("organizador/circuitos/nuevo/", views.circuit_new, name="circuit-new"),
    path("organizador/circuitos/<slug:slug>/", views.circuit_manage, name="circuit-manage"),
    path("organizador/interpenas/nuevo/", views.interpena_new, name="interpena-new"),
]
