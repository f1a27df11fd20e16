"""The example database a campaign's workers share: where findings meet.

One Hypothesis ``ExampleDatabase`` per campaign: a directory by default
(``DEFAULT_DATABASE``), a Redis server given ``redis://HOST:PORT[/DB]``
(Hypothesis' ``RedisExampleDatabase``; the ``redis`` client is the optional
``attnfuzz[redis]`` extra), or none.  Every worker, of this campaign or of
another one on another machine pointed at the same database, saves the shrunk
case of each finding under its round and replays the saved cases of a round
before drawing new ones: a failure found anywhere is checked first everywhere.

What is saved is the case itself (``cases.to_json``), not Hypothesis' choice
sequence: a case drawn among compiled specialisations depends on what the
worker had compiled, so only the case replays exactly.
"""

from __future__ import annotations

import datetime
import json
import os

from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

from ..model.dumps import made_directory

DEFAULT_DATABASE = ".attnfuzz/examples"
# Bumped when the saved cases' JSON changes meaning.
_FORMAT = "attnfuzz-findings-v1"


def open_database(spec: str | None) -> ExampleDatabase | None:
    """The database ``spec`` names: a directory path, ``redis://HOST:PORT[/DB]``,
    or ``none`` (None).  ``None`` means ``DEFAULT_DATABASE``.  A spec that cannot
    be opened raises ``ValueError`` saying why in one line."""
    if spec is None:
        spec = DEFAULT_DATABASE
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"database must be a directory, redis://HOST:PORT or none, got {spec!r}")
    if spec == "none":
        return None
    if spec.startswith("redis://"):
        return _redis(spec)
    return DirectoryBasedExampleDatabase(str(made_directory(spec, "database")))


def _redis(spec: str) -> ExampleDatabase:
    try:
        import redis
        from hypothesis.extra.redis import RedisExampleDatabase
    except ImportError:
        raise ValueError(f"database {spec!r} needs the redis client: "
                         "pip install 'attnfuzz[redis]'") from None
    try:
        client = redis.Redis.from_url(spec, socket_connect_timeout=5, socket_timeout=30)
        client.ping()
    except (redis.RedisError, ValueError) as exc:
        raise ValueError(f"database {spec!r}: {exc}") from None
    # A finding stays replayable a year (Redis needs some expiry); a fixed one
    # is deleted when it next passes.
    return RedisExampleDatabase(client, expire_after=datetime.timedelta(days=365))


def _key(round_key: tuple[str, str, str]) -> bytes:
    return "\0".join((_FORMAT, *round_key)).encode()


def saved_cases(db: ExampleDatabase | None, round_key: tuple[str, str, str]) -> list[dict]:
    """The cases saved for ``round_key`` (implementation, dtype, property), oldest
    form first; entries that do not parse are skipped (another version wrote them)."""
    if db is None:
        return []
    out = []
    for value in db.fetch(_key(round_key)):
        try:
            out.append(json.loads(value.decode()))
        except (UnicodeDecodeError, ValueError):
            continue
    return sorted(out, key=lambda c: json.dumps(c, sort_keys=True))


def save_case(db: ExampleDatabase | None, round_key: tuple[str, str, str], case: dict) -> None:
    if db is not None:
        db.save(_key(round_key), json.dumps(case, sort_keys=True).encode())


def forget_case(db: ExampleDatabase | None, round_key: tuple[str, str, str], case: dict) -> None:
    """Drop a saved case that now passes: a fixed finding is not replayed forever."""
    if db is not None:
        db.delete(_key(round_key), json.dumps(case, sort_keys=True).encode())


def describe(spec: str | None) -> str:
    spec = DEFAULT_DATABASE if spec is None else spec
    return spec if spec.startswith("redis://") or spec == "none" else os.path.abspath(spec)
