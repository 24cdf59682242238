from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.urls")),
    path("", include("lobby.urls")),
]

handler404 = "games.views.page_not_found"
handler500 = "games.views.server_error"
