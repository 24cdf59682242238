"""ASGI entry point: HTTP through Django, WebSockets (live games and lobby) through Channels."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")

# Django must be set up before the consumers (and their models) are imported.
django_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from games.live.sockets import SameOriginValidator  # noqa: E402
from yahtzee_site.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": SameOriginValidator(SessionMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Everything made at start-up lives as long as the process: keep it out of the garbage
# collector's full passes, which otherwise stop the event loop, and every socket on it, for
# 60-100 ms each (16-28 ms with this; docs/benchmarks.md).
gc.freeze()
