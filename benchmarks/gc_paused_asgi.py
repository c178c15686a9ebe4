"""Chalk's ASGI application with the cyclic collector's pauses recorded, for `pages.py
--gc-pauses` and `soak.py --gc-pauses` (never in production):

    CHALK_GC_PAUSES=/tmp/pauses.txt uvicorn benchmarks.gc_paused_asgi:application

Every collection appends its generation and pause to CHALK_GC_PAUSES (benchmarks/gc_pauses.py).
"""

import gc
import os

from benchmarks.gc_pauses import recorder
from config.asgi import application  # noqa: F401  (sets Django up; served as is)

gc.callbacks.append(recorder(os.environ["CHALK_GC_PAUSES"]))
