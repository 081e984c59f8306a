"""The room store: codes, answers (latest counts), reveals, closing, expiry, a restart, concurrent writers,
and a file that cannot be written or stays locked. Real SQLite files in tmp_path; a fake clock for expiry."""

from __future__ import annotations

import os
import sqlite3
import threading

import pytest

from loaderlab.classroom import store as rooms
from loaderlab.classroom.store import RoomsOff, RoomStore, UnknownRoom
from tests.helpers.clock import Clock


@pytest.fixture
def db(tmp_path):
    return RoomStore(tmp_path / "rooms.sqlite3")


def test_a_room_collects_answers_and_the_latest_answer_counts(db):
    room = db.open_room()
    assert len(room.code) == 6 and set(room.code) <= set(rooms.CODE_ALPHABET)
    db.answer(room.code, "a1", 3, "12", "Mina")
    db.answer(room.code, "a2", 3, "12")
    db.answer(room.code, "a3", 3, "8")
    db.answer(room.code.lower(), "a3", 3, "12", "  Jun   Ho ")  # answered again: the latest counts
    db.answer(room.code, "a1", 4, "yes")  # another lesson is counted apart
    assert db.counts(room.code, 3) == {"12": 3}
    assert db.counts(room.code, 4) == {"yes": 1} and db.counts(room.code, 5) == {}
    assert db.my_answer(room.code, "a3", 3) == "12" and db.my_answer(room.code, "a9", 3) is None
    assert db.nicknames(room.code, 3) == {"12": ["Mina", "Jun Ho"]}


def test_reveals_and_closing_the_room_clears_its_answers(db):
    room = db.open_room()
    db.answer(room.code, "a1", 2, "x")
    db.reveal(room.code, 2)
    db.reveal(room.code, 2)  # twice is once
    db.reveal(room.code, 5)
    assert db.revealed(room.code) == {2, 5}
    db.reveal(room.code, 5, shown=False)
    assert db.revealed(room.code) == {2}
    db.close_room(room.code)
    with pytest.raises(UnknownRoom, match=f"no open room has the code {room.code}"):
        db.counts(room.code, 2)
    with sqlite3.connect(db.path) as raw:  # nothing of the room is left in the file
        assert raw.execute("SELECT COUNT(*) FROM answers").fetchone() == (0,)
        assert raw.execute("SELECT COUNT(*) FROM reveals").fetchone() == (0,)


@pytest.mark.parametrize("code", ["", "ABC", "ABCDEFG", "ABCD0O", "💥💥💥💥💥💥", "'; DROP TABLE rooms; --"])
def test_malformed_and_unknown_codes_are_refused_by_name(db, code):
    with pytest.raises(UnknownRoom, match="is not a room code"):
        db.answer(code, "a1", 1, "x")
    with pytest.raises(UnknownRoom, match="no open room has the code ABCDEF"):
        db.room("abc-def")


def test_a_room_expires(tmp_path):
    clock = Clock(1_000_000.0)
    db = RoomStore(tmp_path / "r.sqlite3", clock=clock)
    room = db.open_room(hours=1)
    db.answer(room.code, "a1", 1, "x")
    clock.now += 3601
    with pytest.raises(UnknownRoom, match="closed or expired"):
        db.answer(room.code, "a2", 1, "x")
    db.open_room()  # opening a room deletes the expired ones with their answers
    with sqlite3.connect(db.path) as raw:
        assert raw.execute("SELECT COUNT(*) FROM answers").fetchone() == (0,)


def test_answers_survive_a_restart(tmp_path):
    path = tmp_path / "r.sqlite3"
    room = RoomStore(path).open_room()
    RoomStore(path).answer(room.code, "a1", 1, "x")
    RoomStore(path).reveal(room.code, 1)
    again = RoomStore(path)  # a new server process opens the same file
    assert again.counts(room.code, 1) == {"x": 1} and again.revealed(room.code) == {1}


def test_bad_answers_are_refused_by_parameter(db):
    room = db.open_room()
    with pytest.raises(ValueError, match="attendee must be"):
        db.answer(room.code, "", 1, "x")
    with pytest.raises(ValueError, match="lesson must be 1-999 and choice"):
        db.answer(room.code, "a", 0, "x")
    with pytest.raises(ValueError, match="lesson must be 1-999 and choice"):
        db.answer(room.code, "a", 1, "x" * 41)


def test_two_hundred_answers_at_once_from_threads_are_all_counted(db):
    room = db.open_room()
    start = threading.Barrier(20)
    errors: list[BaseException] = []

    def attendee(k: int) -> None:
        start.wait()
        try:
            for i in range(10):  # each answers lesson 1 ten times (the last counts) — 200 writes in all
                db.answer(room.code, f"attendee-{k}", 1, "a" if (k + i) % 2 else "b", f"n{k}")
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=attendee, args=(k,)) for k in range(20)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert errors == []
    # attendee k's last answer (i = 9) is "a" when k + 9 is odd, i.e. k even: 10 of each
    assert db.counts(room.code, 1) == {"a": 10, "b": 10}


def test_an_unwritable_file_turns_rooms_off_with_one_sentence(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes read-only files")
    path = tmp_path / "r.sqlite3"
    RoomStore(path).open_room()
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(RoomsOff, match=r"^rooms are off: .*r\.sqlite3 cannot be written \("):
            RoomStore(path).open_room()
    finally:
        tmp_path.chmod(0o755)


def test_a_folder_that_cannot_be_made_turns_rooms_off(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(RoomsOff, match=r"^rooms are off: the folder of .* cannot be created"):
        RoomStore(blocker / "rooms.sqlite3")


def test_a_file_that_is_not_a_database_turns_rooms_off(tmp_path):
    path = tmp_path / "r.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(RoomsOff, match=r"^rooms are off: .* cannot be written \(file is not a database\)"):
        RoomStore(path)


def test_a_lock_held_too_long_turns_rooms_off(tmp_path, monkeypatch):
    monkeypatch.setattr(rooms, "BUSY_TIMEOUT_S", 0.05)
    path = tmp_path / "r.sqlite3"
    db = RoomStore(path)
    room = db.open_room()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the file
    try:
        with pytest.raises(RoomsOff, match=r"cannot be written \(database is locked\)"):
            db.answer(room.code, "a1", 1, "x")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    db.answer(room.code, "a1", 1, "x")  # the lock is gone: rooms work again
    assert db.counts(room.code, 1) == {"x": 1}


def test_the_path_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("LOADERLAB_ROOM_DB", str(tmp_path / "env.sqlite3"))
    assert RoomStore().path == tmp_path / "env.sqlite3" and (tmp_path / "env.sqlite3").exists()


def test_a_path_that_is_a_folder_turns_rooms_off(tmp_path):
    (tmp_path / "r.sqlite3").mkdir()  # unopenable even for root
    with pytest.raises(RoomsOff, match=r"^rooms are off: .*r\.sqlite3 cannot be (opened|written) \("):
        RoomStore(tmp_path / "r.sqlite3")
