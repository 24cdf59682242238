from django.apps import AppConfig


class BenchrefConfig(AppConfig):
    """The reference action of the load benchmark; never installed in a real deployment."""

    name = "benchref"
    verbose_name = "Load benchmark reference"
