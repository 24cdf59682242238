"""An error of the host's configuration, for ``manage.py`` to tell in one line."""

from django.core.exceptions import ImproperlyConfigured


class HostSettingError(ImproperlyConfigured):
    """A setting from the environment that the site refuses; the message says what to do."""
