"""The keyed records of the opening files: they round-trip, and anything else is refused by name."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lib.errors import InputError
from lib.games.connect_four import records

MAGIC = b"TEST1\n"


@given(st.dictionaries(st.integers(0, (1 << 56) - 1), st.integers(0, 255), max_size=20))
def test_records_round_trip_in_key_order(rows):
    read = list(records.read_records(records.records_bytes(MAGIC, rows), MAGIC, "t.bin", "a test"))
    assert [(key, value) for _index, key, value in read] == sorted(rows.items())
    assert [index for index, _key, _value in read] == list(range(len(rows)))


@given(st.binary(max_size=80))
def test_any_bytes_are_read_in_key_order_or_refused_with_an_input_error(data):
    with contextlib.suppress(InputError):
        keys = [key for _index, key, _value in records.read_records(MAGIC + data, MAGIC, "t", "x")]
        assert keys == sorted(set(keys))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"OTHER\n", "t.bin is not a test file"),
        (MAGIC + bytes(12), "12 bytes of records, not a multiple of 8"),
        (MAGIC + records.records_bytes(b"", {2: 0}) * 2, "entry 1 is out of order or repeated"),
    ],
)
def test_a_malformed_file_is_refused_naming_what_is_wrong(data, message):
    with pytest.raises(InputError, match=message):
        list(records.read_records(data, MAGIC, "t.bin", "a test file"))


def _load(path):
    """A loader that reads the test format, as the opening files' loaders do."""
    return dict(
        (key, value)
        for _i, key, value in records.read_records(
            path.read_bytes(), MAGIC, path.name, "a test file"
        )
    )


@pytest.mark.parametrize(
    ("data", "said"),
    [(None, "No such file"), (b"OTHER\n", "is not a test file"), (MAGIC + bytes(3), "3 bytes")],
)
def test_a_missing_or_broken_bundled_file_is_left_out_and_the_log_says_why(
    tmp_path, caplog, data, said
):
    path = tmp_path / "bundled.bin"
    if data is not None:
        path.write_bytes(data)
    with caplog.at_level("WARNING"):
        assert records.read_bundled(_load, path, "The test file") is None
    assert "The test file is not used" in caplog.text and said in caplog.text


def test_a_valid_bundled_file_is_read(tmp_path, caplog):
    path = tmp_path / "bundled.bin"
    path.write_bytes(records.records_bytes(MAGIC, {7: 1, 3: 2}))
    assert records.read_bundled(_load, path, "The test file") == {3: 2, 7: 1}
    assert not caplog.records
