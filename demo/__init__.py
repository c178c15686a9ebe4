"""The demo world `make run` seeds (`manage.py seed_demo`): a club in mid-season, made by the same
services as real data. Like the tests and benchmarks it drives every app from outside, so it may
import any of them; no app imports it."""
