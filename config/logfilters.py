"""Logging that says what happened without leaking secrets."""

import logging
import os
import re

# scheme://user:password@host -> scheme://user:***@host
URL_PASSWORD = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<user>[^:/@\s]*):(?P<password>[^@/\s]+)@", re.I)
SECRET_ENV_VARS = ("SECRET_KEY", "EMAIL_HOST_PASSWORD")


def redact(text):
    text = URL_PASSWORD.sub(r"\g<scheme>\g<user>:***@", text)
    for name in SECRET_ENV_VARS:
        value = os.environ.get(name)
        if value and len(value) >= 8:
            text = text.replace(value, "***")
    return text


class RedactSecretsFilter(logging.Filter):
    """Rewrites the formatted message (and exception text) of every record it sees."""

    def filter(self, record):
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True
