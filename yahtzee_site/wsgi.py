"""WSGI entry point, for serving plain HTTP with a WSGI server."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")

application = get_wsgi_application()
