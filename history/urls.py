from django.urls import path
from django.views.decorators.cache import never_cache

from history import views

app_name = "history"

urlpatterns = [
    # The list grows as games finish: never shown from the browser's cache.
    path("me/games/", never_cache(views.games), name="games"),
]
