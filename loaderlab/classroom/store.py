"""A workshop room's answers, kept in one SQLite file: rooms, attendees' lesson answers, reveals.

Twin of nothing in torch. A teacher opens a room (a short code); attendees who joined it send their answer
to each lesson's question; the teacher reads how many chose each answer and reveals a lesson's run for the
room. An attendee is a random id their browser session made (plus an optional nickname): no other personal
data is stored. Answering again replaces the attendee's earlier answer (the latest counts). Closing a room
deletes it with its answers; a room expires ``ROOM_HOURS`` after it was opened.

Storage: the standard library's ``sqlite3``, one file (``LOADERLAB_ROOM_DB``, default
``~/.loaderlab/rooms.sqlite3``) in WAL mode, a connection per call (any thread may call; SQLite serialises
the writers, waiting up to ``BUSY_TIMEOUT_S`` for a lock). A file that cannot be opened or written — or
stays locked — raises :class:`RoomsOff` with one sentence saying why; the UI then turns rooms off and the
lessons go on without them. Knows nothing of streamlit or of the lessons' content.
"""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ENV = "LOADERLAB_ROOM_DB"
DEFAULT_PATH = Path.home() / ".loaderlab" / "rooms.sqlite3"
ROOM_HOURS = 12.0  # a room outlives a workshop day, then its answers are deleted
BUSY_TIMEOUT_S = 5.0  # how long a write waits for another writer's lock before the room is declared off
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I: codes are read aloud and typed
CODE_LENGTH = 6
MAX_NICKNAME = 24
MAX_CHOICE = 40
_CODE = re.compile(rf"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (code TEXT PRIMARY KEY, opened_at REAL NOT NULL, expires_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS answers (
    code TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE,
    attendee TEXT NOT NULL, lesson INTEGER NOT NULL, choice TEXT NOT NULL, nickname TEXT NOT NULL DEFAULT '',
    answered_at REAL NOT NULL, PRIMARY KEY (code, attendee, lesson));
CREATE TABLE IF NOT EXISTS reveals (
    code TEXT NOT NULL REFERENCES rooms(code) ON DELETE CASCADE, lesson INTEGER NOT NULL,
    PRIMARY KEY (code, lesson));
"""


class RoomsOff(RuntimeError):
    """The answers file cannot be used (unwritable, corrupt, locked): rooms are off; ``str()`` says why."""


class UnknownRoom(LookupError):
    """No open room has this code (mistyped, closed, or expired)."""


@dataclass(frozen=True)
class Room:
    code: str
    opened_at: float
    expires_at: float


def normalise_code(code: str) -> str:
    """A code as typed ("abc 123 ") → its canonical form ("ABC123")."""
    return re.sub(r"[\s-]", "", str(code)).upper()


def default_path() -> Path:
    raw = os.environ.get(ENV, "").strip()
    return Path(raw).expanduser() if raw else DEFAULT_PATH


class RoomStore:
    """The rooms in one SQLite file. Thread-safe (a connection per call); ``clock`` is injectable."""

    def __init__(self, path: str | os.PathLike | None = None, *, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.clock = clock
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RoomsOff(f"rooms are off: the folder of {self.path} cannot be created ({exc.strerror}).") from exc
        with self._connect(write=False) as db:
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        """A connection for one call; ``write``: inside one transaction that holds the write lock."""
        try:
            db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        except sqlite3.Error as exc:
            raise RoomsOff(f"rooms are off: {self.path} cannot be opened ({exc}).") from exc
        try:
            db.execute("PRAGMA foreign_keys = ON")
            try:
                db.execute("PRAGMA journal_mode = WAL")  # readers never wait for the writer
                db.execute("PRAGMA synchronous = NORMAL")  # WAL: survives a crashed server, not a power cut
            except sqlite3.OperationalError:
                pass  # a read-only file: the write below says so
            if write:
                db.execute("BEGIN IMMEDIATE")  # take the lock first: no deadlock between two upgrading readers
            yield db
            if db.in_transaction:
                db.execute("COMMIT")
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise RoomsOff(f"rooms are off: {self.path} cannot be written ({exc}).") from exc
        finally:
            db.close()

    # --- rooms ----------------------------------------------------------------------------------------

    def open_room(self, hours: float = ROOM_HOURS) -> Room:
        """A new room with a fresh code; expired rooms are deleted on the way."""
        now = self.clock()
        with self._connect() as db:
            db.execute("DELETE FROM rooms WHERE expires_at <= ?", (now,))
            while True:
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                if db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone() is None:
                    break
            db.execute("INSERT INTO rooms VALUES (?, ?, ?)", (code, now, now + hours * 3600))
        return Room(code, now, now + hours * 3600)

    @staticmethod
    def _checked(code: str) -> str:
        code = normalise_code(code)
        if not _CODE.fullmatch(code):
            raise UnknownRoom(f"{code!r} is not a room code: a room code is {CODE_LENGTH} letters and digits.")
        return code

    def room(self, code: str) -> Room:
        """The open room with ``code`` (typed loosely); UnknownRoom when there is none or it expired."""
        code = self._checked(code)
        with self._connect(write=False) as db:
            row = db.execute("SELECT code, opened_at, expires_at FROM rooms WHERE code = ? AND expires_at > ?",
                             (code, self.clock())).fetchone()
        if row is None:
            raise UnknownRoom(f"no open room has the code {code} (mistyped, closed or expired).")
        return Room(*row)

    def close_room(self, code: str) -> None:
        """Delete the room, its answers and its reveals."""
        code = normalise_code(code)
        with self._connect() as db:
            db.execute("DELETE FROM rooms WHERE code = ?", (code,))

    # --- answers and reveals --------------------------------------------------------------------------

    def answer(self, code: str, attendee: str, lesson: int, choice: str, nickname: str = "") -> None:
        """``attendee``'s answer to ``lesson`` in room ``code``; a second answer replaces the first."""
        code = self._checked(code)
        if not attendee or len(attendee) > 64:
            raise ValueError("attendee must be a non-empty id of at most 64 characters")
        if not 1 <= int(lesson) <= 999 or not choice or len(choice) > MAX_CHOICE:
            raise ValueError(f"lesson must be 1-999 and choice a non-empty id of at most {MAX_CHOICE} characters")
        nickname = " ".join(str(nickname).split())[:MAX_NICKNAME]
        now = self.clock()
        with self._connect() as db:  # one transaction: the room is open and the answer is in, or neither
            if db.execute("SELECT 1 FROM rooms WHERE code = ? AND expires_at > ?", (code, now)).fetchone() is None:
                raise UnknownRoom(f"no open room has the code {code} (mistyped, closed or expired).")
            db.execute("INSERT INTO answers VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (code, attendee, lesson) "
                       "DO UPDATE SET choice = excluded.choice, nickname = excluded.nickname, "
                       "answered_at = excluded.answered_at", (code, attendee, int(lesson), choice, nickname, now))

    def counts(self, code: str, lesson: int) -> dict[str, int]:
        """How many attendees chose each answer to ``lesson`` (latest answers only)."""
        room = self.room(code)
        with self._connect(write=False) as db:
            rows = db.execute("SELECT choice, COUNT(*) FROM answers WHERE code = ? AND lesson = ? GROUP BY choice",
                              (room.code, int(lesson))).fetchall()
        return dict(rows)

    def my_answer(self, code: str, attendee: str, lesson: int) -> str | None:
        room = self.room(code)
        with self._connect(write=False) as db:
            row = db.execute("SELECT choice FROM answers WHERE code = ? AND attendee = ? AND lesson = ?",
                             (room.code, attendee, int(lesson))).fetchone()
        return row[0] if row else None

    def nicknames(self, code: str, lesson: int) -> dict[str, list[str]]:
        """The nicknames (where given) behind each answer to ``lesson``."""
        room = self.room(code)
        with self._connect(write=False) as db:
            rows = db.execute("SELECT choice, nickname FROM answers WHERE code = ? AND lesson = ? AND nickname != '' "
                              "ORDER BY answered_at", (room.code, int(lesson))).fetchall()
        out: dict[str, list[str]] = {}
        for choice, nickname in rows:
            out.setdefault(choice, []).append(nickname)
        return out

    def reveal(self, code: str, lesson: int, shown: bool = True) -> None:
        """Show (or hide again) ``lesson``'s run to the room."""
        room = self.room(code)
        with self._connect() as db:
            if shown:
                db.execute("INSERT OR IGNORE INTO reveals VALUES (?, ?)", (room.code, int(lesson)))
            else:
                db.execute("DELETE FROM reveals WHERE code = ? AND lesson = ?", (room.code, int(lesson)))

    def revealed(self, code: str) -> set[int]:
        room = self.room(code)
        with self._connect(write=False) as db:
            return {r[0] for r in db.execute("SELECT lesson FROM reveals WHERE code = ?", (room.code,))}
