import logging

from config.logfilters import RedactSecretsFilter


def test_log_records_have_passwords_in_urls_masked():
    record = logging.LogRecord("chalk", logging.INFO, __file__, 1, "connecting to %s", ("redis://:s3cret@h:6379/0",), None)

    RedactSecretsFilter().filter(record)

    assert record.getMessage() == "connecting to redis://:***@h:6379/0"


def test_log_records_never_show_the_secret_key(monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "a-very-long-secret-value-123")
    record = logging.LogRecord("chalk", logging.ERROR, __file__, 1, "key is a-very-long-secret-value-123", (), None)

    RedactSecretsFilter().filter(record)

    assert "a-very-long-secret-value-123" not in record.getMessage()
