"""Settings of the pages benchmark's server: Chalk's own, plus a bare view (benchmarks/pages.py)."""

from config.settings import *  # noqa: F401,F403

ROOT_URLCONF = "benchmarks.pages_urls"
