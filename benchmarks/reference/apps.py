from django.apps import AppConfig


class BenchrefConfig(AppConfig):
    """The reference action of the load benchmark; never installed in a real deployment."""

    name = "benchmarks.reference"
    label = "benchref"  # its tables' and migrations' name from before it moved here
    verbose_name = "Load benchmark reference"
