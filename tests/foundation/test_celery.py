import pytest
from django.core.cache import cache

from config.celery import BEAT_SCHEDULE, HEARTBEAT_CACHE_KEY, app, heartbeat


def test_beat_schedule_lives_in_code_and_names_registered_tasks():
    app.loader.import_default_modules()

    for entry in BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks
    assert app.conf.beat_schedule == BEAT_SCHEDULE


def test_broker_is_the_redis_the_settings_chose(settings):
    assert app.conf.broker_url == settings.CELERY_BROKER_URL


@pytest.mark.django_db
def test_heartbeat_task_records_when_it_ran():
    ran_at = heartbeat.delay().get()

    assert cache.get(HEARTBEAT_CACHE_KEY) == ran_at
