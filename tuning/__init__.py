"""What makes Chalk fast under ASGI, in one place: every override of a library's behaviour or
internals that the live path and the pages depend on. tuning/README.md lists each one, the
library internal it touches, why, the figure that pays for it, and the test pinned to the
library's version (tests/tuning/test_pinned_overrides.py) that fails loudly on an upgrade.

Nothing here knows about matches, clubs or competitions: gameplay and config build on it.
"""
