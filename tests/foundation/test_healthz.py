"""/healthz: database and Redis status, 200 or 503, and nothing secret in the answer."""

import pytest

from config import views


@pytest.mark.django_db
def test_healthz_is_200_when_database_and_redis_answer(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "redis": "ok"}}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_is_503_when_redis_is_down_and_does_not_leak_the_url(client, settings, caplog):
    settings.REDIS_URL = "redis://:hunter2-secret@127.0.0.1:1/0"  # nothing listens on port 1

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["checks"] == {"database": "ok", "redis": "error"}
    assert "hunter2" not in response.content.decode()
    assert "hunter2" not in caplog.text


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_fails(client, monkeypatch):
    def broken():
        raise RuntimeError("password=hunter2")

    monkeypatch.setattr(views, "check_database", broken)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "error"
    assert "hunter2" not in response.content.decode()
