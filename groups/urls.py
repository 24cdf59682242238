from django.urls import path, re_path
from django.views.decorators.cache import never_cache

from groups import views

app_name = "groups"

# Live pages, never shown from the browser's cache (see games/urls.py).
urlpatterns = [
    path("groups/", never_cache(views.mine), name="mine"),
    path("groups/new/", views.create, name="create"),
    path("groups/join/", views.join_by_code, name="join_by_code"),
    path("groups/join/<str:code>/", never_cache(views.invite), name="invite"),
    path("groups/join/<str:code>/go/", views.join, name="join"),
    path("groups/<str:group_id>/", never_cache(views.group), name="group"),
    path("groups/<str:group_id>/leave/", views.leave, name="leave"),
    re_path(
        r"^groups/(?P<group_id>[^/]+)/(?P<action>remove|owner|back)/$",
        views.member_action,
        name="member",
    ),
    path("groups/<str:group_id>/rename/", views.rename, name="rename"),
    path("groups/<str:group_id>/invite/", views.new_invite, name="new_invite"),
    path("groups/<str:group_id>/table/", views.open_table, name="open_table"),
]
