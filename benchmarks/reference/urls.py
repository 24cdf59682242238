from django.urls import path

from benchmarks.reference import views

app_name = "benchref"
urlpatterns = [
    path("bench/reference/<int:slot>/", views.reference, name="reference"),
]
