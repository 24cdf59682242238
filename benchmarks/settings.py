"""Settings for the load benchmark: the site's own, plus its reference action.

    DJANGO_SETTINGS_MODULE=benchmarks.settings

The reference action (benchmarks/reference/) is what the load benchmark compares the game's
actions with; production settings and URLs never name it.
"""

from yahtzee_site.settings import *  # noqa: F403
from yahtzee_site.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "benchmarks.reference"]
ROOT_URLCONF = "benchmarks.urls"
