"""Reading the values of one text: numbers with their units, dates, times, identifiers, names, antonyms."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from arvis.awmu.text import NEGATIONS
from arvis.awmu.values.lexicon import (
    _ANTONYMS,
    _ANTONYMS_V1_V2,
    _CURRENCY,
    _DIGITS,
    _FREQUENCY,
    _LABELS,
    _MONTHS,
    _ONES,
    _ORDINAL_SUFFIX,
    _ORDINAL_WORDS,
    _REVISION_WORDS,
    _SCALES,
    _STOPWORDS,
    _TENS,
    _TITLES,
    _TITLES_V1_V2,
    _WEEKDAYS,
    UNITS,
)
from arvis.awmu.values.tokens import _is_capitalised, _stem, _Token, _tokens


@dataclass(frozen=True)
class Value:
    """One value in a text: ``key`` says what it measures (``number:mass``, ``date:month``, ``name``),
    ``norm`` is the comparable form, ``raw`` the words as written."""

    slot: str
    key: str
    norm: str
    raw: str


@dataclass(frozen=True)
class _Found:
    """A value and the token positions it took."""

    value: Value
    positions: frozenset[int]


def _number_words(tokens: list[_Token], start: int) -> tuple[int, int] | None:
    """A run of number words from ``start``: (value, end position), or None. "one seventy" is two
    numbers, not 170: a word that cannot extend the number so far ends it."""
    total, current, end = 0, 0, start
    while end < len(tokens) and (end == start or not tokens[end].gap):
        parts = tokens[end].low.split()
        if not parts or not all(_is_number_word(p) and p not in _FREQUENCY for p in parts):
            if end > start and tokens[end].low == "and" and _extends(current, tokens, end + 1):
                end += 1
                continue
            break
        if not all(_fits(current, part) for part in parts[:1]):
            break
        for part in parts:
            total, current = _add_word(total, current, part)
        end += 1
    return (total + current, end) if end > start else None


def _extends(current: int, tokens: list[_Token], at: int) -> bool:
    return at < len(tokens) and tokens[at].low.split()[0] in _ONES | _TENS and _fits(current, tokens[at].low)


def _fits(current: int, part: str) -> bool:
    """Whether number word ``part`` can follow a number that has reached ``current``."""
    low = current % 100
    if part in _SCALES:
        return current > 0 or part == "hundred"
    if part in _TENS:
        return low == 0
    return low == 0 or (low >= 20 and low % 10 == 0 and _ONES.get(part.split()[0], 99) < 10)


def _add_word(total: int, current: int, part: str) -> tuple[int, int]:
    if part in _SCALES:
        current = max(current, 1) * _SCALES[part]
        return (total + current, 0) if _SCALES[part] >= 1000 else (total, current)
    return total, current + _ONES.get(part, 0) + _TENS.get(part, 0)


def _digits(token: _Token) -> tuple[Decimal, str] | None:
    match = _DIGITS.match(token.text)
    if match is None:
        return None
    number, suffix = match.groups()
    if "," in number and not re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", number):
        return None
    try:
        return Decimal(number.replace(",", "")), suffix.casefold()
    except InvalidOperation:  # pragma: no cover - the pattern admits only decimal digits
        return None


def _canonical(number: Decimal) -> str:
    text = format(number.normalize(), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _unit_after(tokens: list[_Token], end: int) -> tuple[str, str, int] | None:
    """The unit after a number at ``end``: (dimension key, raw, tokens taken)."""
    if end >= len(tokens) or tokens[end].gap:
        return None
    low = tokens[end].low
    if low in UNITS:
        return low, tokens[end].text, 1
    if low in ("per", "a") and end + 1 < len(tokens) and tokens[end + 1].low == "cent":
        return "percent", "per cent", 2
    if _plain_word(low) and not _is_capitalised(tokens[end]) and not _is_number_word(low):
        return low, tokens[end].text, 1
    return None


def _plain_word(low: str) -> bool:
    return (
        low.isalpha()
        and low not in _STOPWORDS
        and low not in NEGATIONS
        and low not in _REVISION_WORDS
        and not _is_number_word(low)
    )


def _quantity(number: Decimal, unit: str | None) -> tuple[str, str]:
    """(key, norm) of a number with an optional unit word."""
    if unit is None:
        return "number:", _canonical(number)
    if unit in UNITS:
        dimension, factor = UNITS[unit]
        return f"number:{dimension}", _canonical(number * factor)
    return f"number:{_stem(unit)}", _canonical(number)


def _label_before(tokens: list[_Token], start: int) -> str:
    """The noun a unit-less number follows ("channel sixteen" is labelled ``channel``)."""
    if start == 0 or tokens[start].gap:
        return ""
    low = tokens[start - 1].low
    return _stem(low) if _plain_word(low) else ""


class _Reader:
    """Walks the tokens of one text once, collecting its values."""

    def __init__(self, tokens: list[_Token], version: int) -> None:
        self.tokens = tokens
        self.version = version
        self.found: list[_Found] = []
        self.taken: set[int] = set()

    def add(self, slot: str, key: str, norm: str, positions: range | list[int]) -> None:
        spots = frozenset(positions)
        raw = " ".join(self.tokens[i].text for i in sorted(spots))
        self.found.append(_Found(Value(slot, key, norm, raw), spots))
        self.taken |= spots

    def free(self, position: int) -> bool:
        return 0 <= position < len(self.tokens) and position not in self.taken


def _read_times(reader: _Reader) -> None:
    tokens = reader.tokens
    for i, token in enumerate(tokens):
        if ":" in token.text and token.text[0].isdigit():
            hours, minutes = token.text.split(":", 1)
            reader.add("date", "date:time", f"{int(hours)}:{minutes[:2]}", [i])
        elif token.low in ("noon", "midday", "midnight"):
            reader.add("date", "date:time", "12:00" if token.low != "midnight" else "0:00", [i])
        elif i + 1 < len(tokens) and tokens[i + 1].low in ("o'clock", "oclock", "am", "pm", "a.m", "p.m"):
            _read_clock(reader, i)
        elif token.low == "at" and reader.free(i + 1):
            _read_clock(reader, i + 1, after_at=True)


def _read_clock(reader: _Reader, i: int, after_at: bool = False) -> None:
    tokens = reader.tokens
    if not reader.free(i):
        return
    hour = _ONES.get(tokens[i].low)
    digits = _digits(tokens[i])
    if hour is None and digits is not None and digits[1] in ("", "am", "pm"):
        hour = int(digits[0]) if digits[0] == digits[0].to_integral_value() else None
    if hour is None or not 0 < hour <= 12:
        return
    nxt = tokens[i + 1].low if i + 1 < len(tokens) else ""
    if after_at and (nxt in UNITS or (nxt.isalpha() and nxt not in _STOPWORDS and nxt not in _CLOCK_NEXT)):
        return
    take = [i, i + 1] if nxt in ("o'clock", "oclock", "am", "pm", "a.m", "p.m") else [i]
    pm = nxt in ("pm", "p.m")
    reader.add("date", "date:time", f"{hour + 12 if pm and hour < 12 else hour}:00", take)


_CLOCK_NEXT = frozenset({"night", "noon", "morning", "evening", "afternoon", "sharp", "pm", "am"})


def _read_dates(reader: _Reader) -> None:
    tokens = reader.tokens
    for i, token in enumerate(tokens):
        if not reader.free(i):
            continue
        low = token.low.rstrip(".")
        if low in _MONTHS and _is_capitalised(token):
            reader.add("date", "date:month", str(_MONTHS[low]), [i])
            _read_day_near(reader, i)
        elif _weekday(low) is not None and token.text[0].isupper():
            _read_weekdays(reader, i)
    _read_ordinal_days(reader)
    _read_years(reader)


_RANGE = frozenset({"to", "through", "thru", "until", "till"})


def _read_weekdays(reader: _Reader, i: int) -> None:
    """A weekday, or a range of them ("Monday to Saturday" holds Thursday)."""
    tokens, first = reader.tokens, _weekday(_low_at(reader, i))
    last = _weekday(_low_at(reader, i + 2)) if _low_at(reader, i + 1) in _RANGE else None
    if first is None:
        return
    if last is None or not tokens[i + 2].text[:1].isupper():
        reader.add("date", "date:weekday", str(first), [i])
        return
    days = range(first, last + 1) if first <= last else [*range(first, 7), *range(0, last + 1)]
    for day in days:
        reader.add("date", "date:weekday", str(day), [i, i + 1, i + 2])


def _low_at(reader: _Reader, i: int) -> str:
    return reader.tokens[i].low.rstrip(".") if 0 <= i < len(reader.tokens) else ""


def _weekday(low: str) -> int | None:
    return _WEEKDAYS.get(low[:-1] if low.endswith("s") else low)


def _day_at(tokens: list[_Token], i: int) -> int | None:
    if not 0 <= i < len(tokens):
        return None
    if tokens[i].low in _ORDINAL_WORDS:
        return _ORDINAL_WORDS[tokens[i].low]
    digits = _digits(tokens[i])
    if digits is None or digits[1] not in _ORDINAL_SUFFIX | {""}:
        return None
    day = int(digits[0]) if digits[0] == digits[0].to_integral_value() else 0
    return day if 1 <= day <= 31 else None


def _read_day_near(reader: _Reader, month_at: int) -> None:
    """The day of a month: "3 March", "the 15th of December", "December 20"."""
    tokens = reader.tokens
    before = month_at - 2 if month_at >= 2 and tokens[month_at - 1].low == "of" else month_at - 1
    for spot in (before, month_at + 1):
        day = _day_at(tokens, spot)
        if day is not None and reader.free(spot):
            reader.add("date", "date:day", str(day), [spot])
            return


def _read_ordinal_days(reader: _Reader) -> None:
    """A digit ordinal on its own ("the 25th", "28th") is a day of the month."""
    for i, token in enumerate(reader.tokens):
        digits = _digits(token)
        if digits is not None and digits[1] in _ORDINAL_SUFFIX and reader.free(i):
            day = _day_at(reader.tokens, i)
            if day is not None:
                reader.add("date", "date:day", str(day), [i])


def _read_years(reader: _Reader) -> None:
    for i, token in enumerate(reader.tokens):
        digits = _digits(token)
        if digits is None or digits[1] or not reader.free(i) or "," in token.text:
            continue
        if len(token.text) == 4 and 1900 <= digits[0] <= 2099:
            nxt = reader.tokens[i + 1].low if i + 1 < len(reader.tokens) else ""
            if nxt not in UNITS:
                reader.add("date", "date:year", token.text, [i])


def _read_identifiers(reader: _Reader) -> None:
    """Codes with letters and digits, and digit strings of three or more without a unit."""
    tokens = reader.tokens
    for i, token in enumerate(tokens):
        if not reader.free(i):
            continue
        if token.text[:1].isalpha() and any(c.isdigit() for c in token.text):
            reader.add("identifier", "identifier", token.low, [i])
            continue
        digits = _digits(token)
        if digits is None or digits[1] or "," in token.text or "." in token.text:
            continue
        unit = _unit_after(tokens, i + 1)
        priced = i > 0 and tokens[i - 1].low in _CURRENCY
        if len(token.text) >= 3 and not priced and (unit is None or unit[0] not in UNITS):
            if reader.version >= 2 and unit is not None and _counted(tokens, i):
                continue  # "120 guests": a count of something, read as a number
            reader.add("identifier", "identifier", token.text.lstrip("0") or "0", [i])


def _counted(tokens: list[_Token], i: int) -> bool:
    """Version 2: three or four digits before a noun count it ("120 guests", "450 loaves") unless a
    label or a name stands before them ("account 4471 is", "Flight 442 departs") or they start with 0."""
    text = tokens[i].text
    before = tokens[i - 1] if i > 0 and not tokens[i].gap else None
    named = before is not None and (
        (_is_capitalised(before) and before.low not in _STOPWORDS) or before.low in _LABELS
    )
    return len(text) <= 4 and not text.startswith("0") and not named


def _read_numbers(reader: _Reader) -> None:
    tokens = reader.tokens
    i = 0
    while i < len(tokens):
        taken = _read_number_at(reader, i) if reader.free(i) else 0
        i += max(taken, 1)


def _read_number_at(reader: _Reader, i: int) -> int:
    """Reads a number (and its unit) starting at ``i``; returns the tokens taken."""
    tokens = reader.tokens
    symbol = tokens[i - 1].low if i > 0 and tokens[i - 1].low in _CURRENCY else None
    parsed = _parse_number(tokens, i)
    if parsed is None:
        return 0
    number, end, attached = parsed
    unit = (symbol, symbol, 0) if symbol else _attached_or_following(tokens, end, attached)
    if unit is None and end == i + 1 and tokens[i].low == "one":
        return 0  # "the one ending ...", "a daily one": a pronoun
    key, norm = _quantity(number, unit[0] if unit else None)
    if unit is None:
        label = _label_before(tokens, i)
        key = f"number:@{label}" if label else key
    take = list(range(i, end + (unit[2] if unit else 0)))
    reader.add("number", key, norm, take)
    return len(take)


def _attached_or_following(tokens: list[_Token], end: int, attached: str) -> tuple[str, str, int] | None:
    if attached:
        return (attached, attached, 0) if attached in UNITS else None
    return _unit_after(tokens, end)


def _parse_number(tokens: list[_Token], i: int) -> tuple[Decimal, int, str] | None:
    """(value, end position, attached unit) of the number at ``i``."""
    token = tokens[i]
    if token.low in _FREQUENCY:
        return Decimal(_FREQUENCY[token.low]), i + 1, "times"
    words_value = _number_words(tokens, i)
    if words_value is not None:
        return Decimal(words_value[0]), words_value[1], ""
    digits = _digits(token)
    if digits is None or digits[1] in _ORDINAL_SUFFIX:
        return None
    number, suffix = digits
    end = i + 1
    while end < len(tokens) and tokens[end].low in _SCALES:
        number, end = number * _SCALES[tokens[end].low], end + 1
    return number, end, suffix


def _read_names(reader: _Reader) -> None:
    """Capitalised runs ("Harbor Mutual", "Dr. Okafor"); a clause's first word only inside a run."""
    tokens = reader.tokens
    i = 0
    while i < len(tokens):
        end = _name_run_end(reader, i)
        if end > i:
            _add_name(reader, i, end)
        i = max(end, i + 1)


def _name_run_end(reader: _Reader, i: int) -> int:
    tokens = reader.tokens
    end = i
    while end < len(tokens) and reader.free(end) and _name_part(tokens[end], end > i):
        if end > i and tokens[end].gap:
            break
        if tokens[end].low == "of" and not (end + 1 < len(tokens) and _is_capitalised(tokens[end + 1])):
            break
        end += 1
    while end > i and tokens[end - 1].low == "of":
        end -= 1
    return end


def _name_part(token: _Token, inside: bool) -> bool:
    if token.low == "of":
        return inside
    low = token.low
    pronoun = low == "i" or low.startswith("i'")
    return _is_capitalised(token) and low.rstrip(".") not in _MONTHS and not pronoun


def _add_name(reader: _Reader, start: int, end: int) -> None:
    tokens = reader.tokens
    if tokens[start].opens:
        if end - start == 1:
            return  # a lone capital opening a sentence says nothing
        if _stem(tokens[start].low) in _STOPWORDS or tokens[start].low in _STOPWORDS:
            start += 1
    parts = _name_key(tokens[start:end], reader.version)
    if parts:
        reader.add("name", "name", " ".join(sorted(parts)), range(start, end))


def titles(version: int) -> frozenset[str]:
    """The words a reader of ``version`` takes for titles, not parts of a name."""
    return _TITLES if version >= 3 else _TITLES_V1_V2


def _name_key(tokens: Sequence[_Token], version: int) -> frozenset[str]:
    known = titles(version)
    return frozenset(
        _stem(t.low) for t in tokens if t.low not in known and t.low != "of" and _stem(t.low) not in known
    )


def _read_antonyms(reader: _Reader) -> None:
    antonyms = _ANTONYMS if reader.version >= 3 else _ANTONYMS_V1_V2
    for i, token in enumerate(reader.tokens):
        if reader.free(i) and token.low in antonyms:
            group, pole = antonyms[token.low]
            reader.add("antonym", f"antonym:{group}", pole, [i])


@lru_cache(maxsize=4096)
def _extract(text: str, version: int = 1) -> tuple[tuple[_Found, ...], tuple[_Token, ...]]:
    tokens = _tokens(text)
    reader = _Reader(tokens, version)
    _read_times(reader)
    _read_dates(reader)
    _read_identifiers(reader)
    _read_numbers(reader)
    _read_names(reader)
    _read_antonyms(reader)
    return tuple(reader.found), tuple(tokens)


def values_of(text: str, version: int = 1) -> tuple[Value, ...]:
    """The values ``text`` carries, in reading order by slot kind (names, numbers, dates, ...), as the
    detector of ``version`` reads them."""
    return tuple(found.value for found in _extract(text, version)[0])


def _is_number_word(low: str) -> bool:
    return all(p in _ONES or p in _TENS or p in _SCALES or p in _FREQUENCY for p in low.split())
