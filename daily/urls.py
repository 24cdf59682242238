from django.urls import path
from django.views.decorators.cache import never_cache

from daily import views

app_name = "daily"

urlpatterns = [
    path("daily/", never_cache(views.today_page), name="today"),
    path("daily/start/", views.start, name="start"),
    path("daily/<str:date>/", views.day_page, name="day"),
]
