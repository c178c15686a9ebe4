"""The session engine: Django's cached_db, whose cache is only a shortcut (config/soft_cache.py).

Django's cached_db reads a session from PostgreSQL when the cache has none, and then writes it to
the cache without catching a failure: with Redis out of reach (restarting, failing over) every
signed-in request and every table socket of a signed-in player failed, though the session was
in PostgreSQL all along. Here the cache is read, written and cleared through soft_cache: with
Redis away a session is read from and written to PostgreSQL alone, and each missed cache call is
one warning (tests/foundation/test_soft_cache.py, tests/gameplay/test_redis_restart.py).
"""

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore

from config import soft_cache


class SessionStore(CachedDBStore):
    def load(self):
        data = soft_cache.get(self.cache_key)
        if data is not None:
            return data
        row = self._get_session_from_db()
        if not row:
            return {}
        data = self.decode(row.session_data)
        soft_cache.set(self.cache_key, data, self.get_expiry_age(expiry=row.expire_date))
        return data

    def exists(self, session_key):
        return bool(session_key) and (soft_cache.get(self.cache_key_prefix + session_key) is not None
                                      or DBStore.exists(self, session_key))

    def save(self, must_create=False):
        DBStore.save(self, must_create)
        soft_cache.set(self.cache_key, self._session, self.get_expiry_age())

    def delete(self, session_key=None):
        DBStore.delete(self, session_key)
        session_key = session_key or self.session_key
        if session_key is not None:
            soft_cache.delete_many([self.cache_key_prefix + session_key])
