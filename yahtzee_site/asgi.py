"""ASGI entry point: the embedded default serves HTTP (and, later, WebSockets) from one process."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")

application = get_asgi_application()
