from django.urls import path
from django.views.decorators.cache import never_cache

from history import practice, views

app_name = "history"

urlpatterns = [
    # The positions change as games finish: never from the browser's cache.
    path("me/practice/", never_cache(practice.practice), name="practice"),
    # The list grows as games finish: never shown from the browser's cache.
    path("me/games/", never_cache(views.games), name="games"),
]
