"""The canonical encoding: sorted compact UTF-8 JSON, shortest floats, fixed-form UTC times."""

from __future__ import annotations

import hashlib
import json
import math
import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import (
    aware_datetimes,
    finite_floats,
    json_objects,
    json_values,
    json_values_no_float,
    lone_surrogates,
    nested_lists,
    non_finite_floats,
    stable_id,
)

from arvis.canonical import (
    CanonicalEncodingError,
    canonical_bytes,
    decode,
    format_time,
    parse_time,
    sha256_hex,
)

FIXED_FORM = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z")


def _json_dumps(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


# --------------------------------------------------------------------------------------------------
# canonical_bytes: examples


def test_keys_are_sorted_and_output_compact() -> None:
    assert canonical_bytes({"b": 1, "a": [1, 2], "c": {"z": None, "y": True}}) == (
        b'{"a":[1,2],"b":1,"c":{"y":true,"z":null}}'
    )


def test_text_is_raw_utf8_with_only_required_escapes() -> None:
    assert canonical_bytes("é\u2028\x7f/") == '"é\u2028\x7f/"'.encode()
    assert canonical_bytes('\x00\n"\\') == b'"\\u0000\\n\\"\\\\"'
    assert canonical_bytes("\U0001f600") == '"\U0001f600"'.encode()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.1, b"0.1"),
        (1.0, b"1.0"),
        (-0.0, b"-0.0"),
        (1e16, b"1e16"),
        (1e-7, b"1e-7"),
        (123456789.125, b"123456789.125"),
        (2**63 - 1, b"9223372036854775807"),
        (-(2**63), b"-9223372036854775808"),
        (True, b"true"),
        (None, b"null"),
        ((1, "a"), b'[1,"a"]'),
    ],
)
def test_scalar_forms(value: object, expected: bytes) -> None:
    assert canonical_bytes(value) == expected


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_floats_are_refused_at_any_depth(value: float) -> None:
    for wrapped in (value, [value], {"a": {"b": [1, value]}}, (0, value)):
        with pytest.raises(CanonicalEncodingError, match="non-finite"):
            canonical_bytes(wrapped)


@pytest.mark.parametrize(
    "value",
    [
        {1: "a"},
        {None: 1},
        {("a",): 1},
        b"bytes",
        bytearray(b"x"),
        {1, 2},
        frozenset({"a"}),
        object(),
        datetime(2026, 1, 1, tzinfo=UTC),
        1 + 2j,
        range(3),
    ],
    ids=stable_id,
)
def test_values_without_a_json_form_are_refused(value: object) -> None:
    with pytest.raises(CanonicalEncodingError):
        canonical_bytes(value)


def test_memoryview_is_refused_like_bytes() -> None:
    with pytest.raises(CanonicalEncodingError):
        canonical_bytes(memoryview(b"abc"))


def test_lone_surrogates_are_refused_in_values_and_keys() -> None:
    with pytest.raises(CanonicalEncodingError, match="unicode"):
        canonical_bytes("a\ud800b")
    with pytest.raises(CanonicalEncodingError, match="unicode"):
        canonical_bytes({"\udfff": 1})
    with pytest.raises(CanonicalEncodingError, match="unicode"):
        canonical_bytes([["x", "\udc80"]])


def test_nesting_limit_is_256_levels() -> None:
    assert canonical_bytes(nested_lists(256)) == b"[" * 256 + b"0" + b"]" * 256
    with pytest.raises(CanonicalEncodingError, match="nested too deeply"):
        canonical_bytes(nested_lists(257))
    with pytest.raises(CanonicalEncodingError, match="nested too deeply"):
        canonical_bytes(nested_lists(50_000))


@pytest.mark.parametrize("leaf", ["x", None, True, 0, {}, []])
@pytest.mark.parametrize("container", ["list", "dict"])
def test_nesting_limit_does_not_depend_on_the_innermost_value(leaf: object, container: str) -> None:
    """The walk skips strings, booleans and None without descending into them: the limit holds all
    the same, for a leaf at depth 256 accepted and at depth 257 refused."""

    def nest(depth: int) -> object:
        value = leaf
        for _ in range(depth):
            value = [value] if container == "list" else {"k": value}
        return value

    canonical_bytes(nest(256))
    with pytest.raises(CanonicalEncodingError, match="nested too deeply"):
        canonical_bytes(nest(257))


def test_a_non_string_key_is_named_at_any_depth() -> None:
    for value in ({1: 2}, {"a": [{"b": {3: 4}}]}, [{None: 1}]):
        with pytest.raises(CanonicalEncodingError, match="object keys must be strings"):
            canonical_bytes(value)


def test_error_is_a_value_error() -> None:
    assert issubclass(CanonicalEncodingError, ValueError)


def test_sha256_hex_known_vector() -> None:
    assert sha256_hex(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert sha256_hex(b"") == hashlib.sha256(b"").hexdigest()


def test_decode_reads_plain_json() -> None:
    assert decode(b'{"b":[1,2.5,"x"],"a":null}') == {"a": None, "b": [1, 2.5, "x"]}


# --------------------------------------------------------------------------------------------------
# canonical_bytes: properties


@given(json_values_no_float)
def test_canonical_form_is_sorted_compact_json(value: object) -> None:
    """Without floats, the canonical bytes equal json.dumps(sort_keys, no whitespace, UTF-8)."""
    assert canonical_bytes(value) == _json_dumps(value)


@given(json_values)
def test_decode_inverts_canonical_bytes(value: object) -> None:
    """Decoding the canonical bytes gives the value back, and re-encoding gives the same bytes."""
    data = canonical_bytes(value)
    assert decode(data) == _listify(value)
    assert canonical_bytes(decode(data)) == data


@given(json_objects, st.randoms(use_true_random=False))
def test_key_insertion_order_does_not_matter(value: dict[str, object], random: object) -> None:
    """Two dicts with the same items encode to the same bytes whatever their insertion order."""
    items = list(value.items())
    random.shuffle(items)  # type: ignore[attr-defined]
    assert canonical_bytes(dict(items)) == canonical_bytes(value)
    keys = list(decode(canonical_bytes(value)))
    assert keys == sorted(keys)


@given(finite_floats)
def test_floats_round_trip_in_shortest_form(value: float) -> None:
    """Every finite float decodes to itself (sign of zero included) from no more digits than repr."""
    data = canonical_bytes(value)
    back = decode(data)
    assert type(back) is float
    assert back == value
    assert math.copysign(1, back) == math.copysign(1, value)
    assert _significant_digits(data.decode()) <= _significant_digits(repr(value))


@given(non_finite_floats, json_values)
def test_a_non_finite_float_anywhere_is_refused(bad: float, value: object) -> None:
    """A non-finite float makes any enclosing value unencodable."""
    with pytest.raises(CanonicalEncodingError):
        canonical_bytes({"ok": value, "bad": [bad]})


@given(lone_surrogates)
def test_any_lone_surrogate_is_refused(char: str) -> None:
    """No string holding a lone surrogate has a canonical form."""
    with pytest.raises(CanonicalEncodingError):
        canonical_bytes({"k": "x" + char})


def _listify(value: object) -> object:
    if isinstance(value, dict):
        return {key: _listify(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_listify(item) for item in value]
    return value


def _significant_digits(text: str) -> int:
    mantissa = text.lower().lstrip("-").split("e")[0].replace(".", "")
    return len(mantissa.strip("0")) or 1


# --------------------------------------------------------------------------------------------------
# time


def test_format_time_fixed_form_in_utc() -> None:
    paris = timezone(timedelta(hours=1))
    assert format_time(datetime(2026, 1, 1, 1, 0, tzinfo=paris)) == "2026-01-01T00:00:00.000000Z"
    assert format_time(datetime(2026, 3, 4, 5, 6, 7, 89, tzinfo=UTC)) == "2026-03-04T05:06:07.000089Z"


def test_format_time_refuses_naive() -> None:
    with pytest.raises(CanonicalEncodingError, match="naive"):
        format_time(datetime(2026, 1, 1))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-01-01T00:00:00Z", datetime(2026, 1, 1, tzinfo=UTC)),
        ("2026-01-01T02:00:00+02:00", datetime(2026, 1, 1, tzinfo=UTC)),
        ("2026-01-01T00:00:00.000001Z", datetime(2026, 1, 1, 0, 0, 0, 1, tzinfo=UTC)),
        ("2025-12-31T19:00:00-05:00", datetime(2026, 1, 1, tzinfo=UTC)),
    ],
)
def test_parse_time_reads_offsets_into_utc(text: str, expected: datetime) -> None:
    parsed = parse_time(text)
    assert parsed == expected
    assert parsed.utcoffset() == timedelta(0)


@pytest.mark.parametrize("text", ["2026-01-01T00:00:00", "2026-01-01", "yesterday", "", "2026-13-01T00:00Z"])
def test_parse_time_refuses_naive_and_garbage(text: str) -> None:
    with pytest.raises(CanonicalEncodingError):
        parse_time(text)


def test_parse_time_refuses_non_text() -> None:
    with pytest.raises(CanonicalEncodingError):
        parse_time(20260101)  # type: ignore[arg-type]


@given(aware_datetimes)
def test_time_round_trips_through_the_fixed_form(moment: datetime) -> None:
    """format_time always gives the fixed UTC form, and parse_time reads it back to the same instant."""
    text = format_time(moment)
    assert FIXED_FORM.fullmatch(text)
    back = parse_time(text)
    assert back == moment
    assert format_time(back) == text


@given(aware_datetimes)
def test_fixed_form_is_what_isoformat_writes(moment: datetime) -> None:
    """The journaled form of a time never changes: it is byte for byte the ``isoformat`` form of the naive
    UTC time with six fractional digits, plus ``Z``, as every journal written so far has it."""
    utc = moment.astimezone(UTC).replace(tzinfo=None)
    assert format_time(moment) == utc.isoformat(timespec="microseconds") + "Z"


@given(aware_datetimes, aware_datetimes)
def test_fixed_form_sorts_as_time(first: datetime, second: datetime) -> None:
    """Comparing fixed-form texts orders instants exactly as comparing the datetimes does."""
    assert (format_time(first) < format_time(second)) == (first < second)


def test_format_time_pads_years_below_1000() -> None:
    for moment, text in [
        (datetime(999, 1, 1, tzinfo=UTC), "0999-01-01T00:00:00.000000Z"),
        (datetime(1, 2, 3, 4, 5, 6, 7, tzinfo=UTC), "0001-02-03T04:05:06.000007Z"),
    ]:
        assert format_time(moment) == text
        assert parse_time(text) == moment


def test_parse_time_out_of_range_is_a_canonical_error() -> None:
    with pytest.raises(CanonicalEncodingError):
        parse_time("9999-12-31T23:00:00-05:00")
