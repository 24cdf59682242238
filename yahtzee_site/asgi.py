"""ASGI entry point: HTTP through Django, WebSockets (live games and lobby) through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")

# Django must be set up before the consumers (and their models) are imported.
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from lobby.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(
            SessionMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
