"""Value detector: the same subject and relation with a different value.

The lexical detector (:func:`arvis.awmu.resolution.detect_lexical`) sees only a negation mismatch over
shared words, so "paid to the account ending 9902" passes as agreeing with "... ending 4471". This
detector reads the *values* a statement carries, in six slots:

``number``
    digits and number words with the unit that follows them ("5 mg", "eighteen thousand euros",
    "twice daily"); a unit-less number takes the noun before it as its label ("channel sixteen").
``date``
    months, weekdays, days of the month ("25th", "15th of December", "December 20"), years and times
    ("02:00", "four o'clock", "at ten").
``name``
    capitalised word runs that are not a sentence's first word ("Harbor Mutual", "Dr. Okafor").
``identifier``
    long digit strings and letter-digit codes ("ending 4471", "INC-2291", "account 88213").
``polarity``
    a negation on one side only ("is allergic" against "is not allergic").
``antonym``
    a curated set of mutually exclusive words (alive/dead, open/closed, north/south, ...) and the
    ``un``/``in``/``dis``/``non`` prefixes ("locked"/"unlocked").

Two statements conflict in a slot when both fill it and share none of its values. Whether they talk
about the same thing is the *subject*: the content words left after value tokens, stopwords and
revision markers are removed, with light stemming, compared by a smoothed overlap coefficient
``|A & B| / (min(|A|, |B|) + 1)`` (so one shared word of two is weak evidence). Names that do not
lead and that the other side lacks count as values, not subject; values both sides hold alike count
as subject. Each slot needs its own least overlap (``*_SUBJECT``, chosen by measurement on the
scenario corpora) and at least one shared word. A capitalised name that opens a clause is the
subject itself: when that name has no counterpart on the other side, the
statements are about different things ("Contractor Ilse Brandt is paid to ... 5820" against "Supplier
Norvik Steel is paid to ... 3318"), whatever their values. A finding is a REVISION when the incoming
text marks an update ("now", "moved to", "from now on", "no longer", "instead", ...), else a
CONTRADICTION.

Pure: no I/O, no clock, no randomness; scores are rounded to 4 decimals.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import NamedTuple

from arvis.awmu.ruleset import SUBJECT_SIMILARITY
from arvis.awmu.text import NEGATIONS

__all__ = [
    "RELATED_SUBJECT",
    "VALUE_DETECTOR",
    "VALUE_DETECTOR_VERSION",
    "Value",
    "ValueFinding",
    "detect_values",
    "same_values",
    "subject_overlap",
    "values_of",
]

VALUE_DETECTOR = "value"
VALUE_DETECTOR_VERSION = "1"

# an embedding similarity at or above this makes a pair the same subject when the words barely overlap
RELATED_SUBJECT = SUBJECT_SIMILARITY
# subject overlap a slot needs before a differing value counts: chosen by measurement on the 17 arvis
# and 33 upstream scenarios (no finding on any benign statement, every look-alike swap still found)
VALUE_SUBJECT = 0.3
NAME_SUBJECT = 0.4
SWAP_SUBJECT = 0.2
POLARITY_SUBJECT = 0.5
# added to the smaller side's size: one shared word of two is weaker evidence than two of three
SMOOTHING = 1
# at least this many shared subject words, whatever the overlap coefficient
MIN_SHARED = 1
MIN_SHARED_POLARITY = 2
# a negated clause must have this share of its words in the other text to contradict it
CLAUSE_COVER = Decimal("0.75")

CONTRADICTION = "CONTRADICTION"
REVISION = "REVISION"
SLOTS = ("identifier", "number", "date", "name", "antonym", "polarity")
_SLOT_WEIGHT = {
    "identifier": Decimal("1.0"),
    "number": Decimal("1.0"),
    "date": Decimal("0.95"),
    "name": Decimal("0.9"),
    "antonym": Decimal("0.85"),
    "polarity": Decimal("0.85"),
}
_FOUR = Decimal("0.0001")


@dataclass(frozen=True)
class ValueFinding:
    unit_id: str
    kind: str  # "CONTRADICTION" | "REVISION"
    slot: str  # "number" | "date" | "name" | "identifier" | "polarity" | "antonym"
    existing: str  # the value as found in the stored unit's text
    incoming: str  # the value as found in the incoming text
    subject: float  # how strongly the two texts are about the same subject (0..1, 4 decimals)
    confidence: float  # 0..1, 4 decimals


@dataclass(frozen=True)
class Value:
    """One value in a text: ``key`` says what it measures (``number:mass``, ``date:month``, ``name``),
    ``norm`` is the comparable form, ``raw`` the words as written."""

    slot: str
    key: str
    norm: str
    raw: str


class _Token(NamedTuple):
    text: str
    low: str
    opens: bool  # first word of a sentence or clause: its capital letter says nothing
    gap: bool  # punctuation stands before it: no number, unit or name runs across


# ---------------------------------------------------------------------------------------------- lexicon


def _split(words: str) -> tuple[str, ...]:
    return tuple(words.split())


_STOPWORDS = frozenset(
    _split(
        """a an the this that these those there here it its it's i me my we us our you your he him his she
    her they them their who whom whose which what when where why how and or but so if then than as at by
    for from in into of on onto to with without within about above below over under up down out off
    again further once all any both each every few more most other some such only own same too very
    just also even still is are was were be been being am has have had having do does did doing will
    would shall should can could may might must ought get gets got go goes went gone going come comes
    came say says said tell told think thought know knew heard hear please really actually surely maybe
    perhaps probably sure pretty fairly quite well okay ok yes right one ones thing things someone
    anyone everyone everybody nobody whatever whoever whenever however because while until since after
    before during per via like just already always ever yet soon today tonight yesterday tomorrow
    time times"""
    )
)
_REVISION_WORDS = frozenset(
    _split(
        """now nowadays new newly changed change changes moved move moves updated update updates instead
    longer anymore switched switch replaced replace effective revised raised lowered increased
    decreased reopened pushed"""
    )
)
_REVISION = re.compile(
    r"\b(?:now|nowadays|these days|from now on|as of|(?:has|have|was|were) (?:been )?changed|changed"
    r"|moved|updated?|no longer|instead|new|newly|switched|replaced|any ?more|effective|revised"
    r"|raised|lowered|increased|decreased|reopened|pushed back|brought forward|taken over|from this"
    r" (?:week|month|year|quarter|cycle))\b",
    re.IGNORECASE,
)
# words that say what kind of value follows, not what it belongs to ("account ending 4471")
_LABELS = frozenset(
    _split(
        """account accounts number numbers no ending end ends ended code codes id ref reference
    unit units value amount"""
    )
)
_HONORIFICS = frozenset(_split("dr mr mrs ms st mt prof capt lt"))
_TITLES = frozenset(
    _split(
        """dr dr. doctor mr mr. mrs mrs. ms ms. miss sir dame lord lady prof prof. professor st st. saint
    mt mt. mount captain capt capt. king queen prince princess duke duchess baron baroness count earl
    brother sister father mother uncle aunt general colonel major sergeant lieutenant officer agent
    judge warden guildmaster purser supplier contractor guest nurse master mister the"""
    )
)
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march",),
            ("april", "apr"),
            ("may",),
            ("june",),
            ("july",),
            ("august", "aug"),
            ("september", "sept", "sep"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_WEEKDAYS = {
    name: day
    for day, name in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))
}
_ONES = {
    word: number
    for number, word in enumerate(
        _split(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
            " sixteen seventeen eighteen nineteen"
        )
    )
}
_TENS = {
    word: 10 * number
    for number, word in enumerate(_split("twenty thirty forty fifty sixty seventy eighty ninety"), start=2)
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_FREQUENCY = {"once": 1, "twice": 2, "thrice": 3}
_ORDINAL_WORDS = {
    word: number
    for number, word in enumerate(
        _split(
            "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth"
            " fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
        ),
        start=1,
    )
} | {"thirtieth": 30}
# unit words: canonical dimension and the factor to that dimension's base
_UNITS: dict[str, tuple[str, Decimal]] = {
    **{u: ("mass", Decimal(1)) for u in ("mcg", "µg", "microgram", "micrograms")},
    **{u: ("mass", Decimal(1000)) for u in ("mg", "milligram", "milligrams")},
    **{u: ("mass", Decimal(1_000_000)) for u in ("g", "gram", "grams")},
    **{u: ("mass", Decimal(1_000_000_000)) for u in ("kg", "kilo", "kilos", "kilogram", "kilograms")},
    **{u: ("volume", Decimal(1)) for u in ("ml", "millilitre", "millilitres", "milliliter", "milliliters")},
    **{u: ("volume", Decimal(1000)) for u in ("l", "litre", "litres", "liter", "liters")},
    **{u: ("duration", Decimal(1)) for u in ("s", "sec", "secs", "second", "seconds")},
    **{u: ("duration", Decimal(60)) for u in ("m", "min", "mins", "minute", "minutes")},
    **{u: ("duration", Decimal(3600)) for u in ("h", "hr", "hrs", "hour", "hours")},
    **{u: ("duration", Decimal(86400)) for u in ("day", "days", "night", "nights")},
    **{u: ("duration", Decimal(604800)) for u in ("week", "weeks")},
    **{u: ("duration", Decimal(1209600)) for u in ("fortnight", "fortnights")},
    **{u: ("months", Decimal(1)) for u in ("month", "months")},
    **{u: ("months", Decimal(12)) for u in ("year", "years")},
    **{u: ("eur", Decimal(1)) for u in ("€", "eur", "euro", "euros")},
    **{u: ("usd", Decimal(1)) for u in ("$", "usd", "dollar", "dollars")},
    **{u: ("gbp", Decimal(1)) for u in ("£", "gbp", "pound", "pounds", "quid")},
    **{u: ("percent", Decimal(1)) for u in ("%", "percent", "pct")},
    **{u: ("times", Decimal(1)) for u in ("time", "times", "x")},
}
# groups of mutually exclusive words: a statement holding one pole contradicts one holding another
_ANTONYM_GROUPS: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    ("life", (("alive", "living", "survived", "survives"),
              ("dead", "died", "dies", "deceased", "killed", "slain", "perished"))),
    ("open", (("open", "opened", "opens", "reopened", "unlocked", "unbolted"),
              ("closed", "shut", "welded", "sealed", "bolted", "locked"))),
    ("direction", (("north", "northern", "northbound"), ("south", "southern", "southbound"),
                   ("east", "eastern", "eastbound"), ("west", "western", "westbound"))),
    ("enabled", (("enabled", "enable", "activated", "active"), ("disabled", "disable", "deactivated",
                                                                  "inactive"))),
    ("allowed", (("allowed", "permitted", "authorised", "authorized", "legal", "acceptable"),
                 ("forbidden", "prohibited", "banned", "illegal", "barred"))),
    ("safety", (("safe", "harmless"), ("dangerous", "unsafe", "hazardous", "deadly", "lethal"))),
    ("loyalty", (("loyal", "faithful"), ("traitor", "treacherous", "disloyal", "betrayer"))),
    ("side", (("ally", "allies", "allied", "friend", "friends", "friendly"),
              ("enemy", "enemies", "foe", "foes", "hostile"))),
    ("daypart", (("day", "daytime", "daylight"), ("night", "nighttime", "overnight"))),
    ("truth", (("true", "genuine", "real", "authentic"), ("false", "fake", "forged", "counterfeit"))),
    ("online", (("online",), ("offline",))),
    ("fullness", (("full",), ("empty",))),
    ("frozen", (("frozen", "freeze"), ("unfrozen", "thawed", "lifted"))),
    ("required", (("required", "mandatory", "compulsory", "obligatory"), ("optional", "voluntary"))),
    ("guilt", (("guilty",), ("innocent",))),
    ("temperature", (("hot",), ("cold",))),
    ("inside", (("inside", "internal", "indoors"), ("outside", "external", "outdoors"))),
    ("approval", (("approved", "accepted", "granted"), ("rejected", "denied", "refused", "declined"))),
    ("presence", (("present",), ("absent", "missing"))),
    ("valid", (("valid",), ("invalid", "expired", "void"))),
    ("public", (("public",), ("private", "secret", "confidential"))),
    ("frequency", (("daily",), ("weekly",), ("monthly",), ("yearly", "annually", "annual"))),
    ("weekpart", (("weekday", "weekdays"), ("weekend", "weekends"))),
    ("daytime", (("morning", "mornings"), ("afternoon", "afternoons"), ("evening", "evenings"))),
    ("colour", (("red",), ("blue",), ("green",), ("yellow",), ("black",), ("white",), ("grey", "gray"),
                ("orange",), ("purple",), ("brown",), ("pink",))),
    ("success", (("succeeded", "successful"), ("failed", "unsuccessful"))),
)  # fmt: skip
_ANTONYMS: dict[str, tuple[str, str]] = {
    word: (group, poles[0]) for group, members in _ANTONYM_GROUPS for poles in members for word in poles
}
_CURRENCY = frozenset({"€", "$", "£"})
_PREFIXES = ("un", "non", "dis", "in")

# Every kind of token but one: a code made of letter groups and a digit ("ab-cd-7"), which
# ``_token_pieces`` reads once for each run of letter groups (as a regex alternative it rescanned the run
# from each of its words: quadratic on "a-a-a-...").
_TOKEN = re.compile(
    r"""(?P<time>\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?)
      | (?P<code>[A-Za-z]{1,4}\d[\w-]*)
      | (?P<num>\d+(?:,\d{3})*(?:\.\d+)?[A-Za-z%]*)
      | (?P<word>[^\W\d_]+(?:[.'\u2019][^\W\d_]+)*\.?)
      | (?P<stop>[.!?;:,\u2014(){}\[\]"\u201c\u201d]|-(?=\s)|->)
      | (?P<symbol>[€$£%])""",
    re.VERBOSE,
)
_LETTER_GROUPS = re.compile(r"[A-Za-z]++(?:[-_/][A-Za-z]++)*+")
_CODE_TAIL = re.compile(r"[-_/]\d[\w-]*")
_DIGITS = re.compile(r"^(\d[\d,]*(?:\.\d+)?)([A-Za-z%]*)$")
_ORDINAL_SUFFIX = frozenset({"st", "nd", "rd", "th"})


# ------------------------------------------------------------------------------------------- tokenizing


def _token_pieces(text: str) -> Iterator[tuple[str | None, str]]:
    """The kind and text of each token, in order, in one pass: the tokens ``_TOKEN`` finds, except that a
    token found at an ASCII letter of a run of letter groups followed by a separator and a digit is the
    code from that letter to the end of the run's tail (the alternative ``_TOKEN`` leaves out, tried
    before all but a time, which never starts at a letter)."""
    pos, run_end, code_end = 0, 0, -1
    while (match := _TOKEN.search(text, pos)) is not None:
        start = match.start()
        if start >= run_end and text[start].isascii() and text[start].isalpha():
            run = _LETTER_GROUPS.match(text, start)
            run_end = start if run is None else run.end()
            tail = _CODE_TAIL.match(text, run_end)
            code_end = -1 if tail is None else tail.end()
        if start < run_end and code_end >= 0:
            yield "code", text[start:code_end]
            pos = code_end
        else:
            yield match.lastgroup, match.group()
            pos = match.end()


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    opens, gap = True, True
    for kind, piece in _token_pieces(text):
        if kind == "stop":
            opens = opens or piece in '.!?;:\u2014"\u201c(['
            gap = True
            continue
        if kind == "word" and piece.endswith(".") and piece.casefold() not in _TITLES:
            piece = piece[:-1]
        if kind == "word" and ("-" in piece):
            piece = piece.replace("-", " ")
        out.append(_Token(piece, piece.casefold().replace("\u2019", "'"), opens, gap))
        opens, gap = False, False
    return out


def _stem(word: str) -> str:
    """Light stemming: possessive, plural ``s``, ``-ed``, ``-ing``; a final ``e`` dropped."""
    word = word.casefold().replace("\u2019", "'")
    if word.endswith("'s"):
        word = word[:-2]
    word = word.rstrip("'.")
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif word.endswith("eed"):
        word = word[:-1] if len(word) > 4 else word
    elif len(word) > 3 and word.endswith("ed"):
        word = word[:-2]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


_IRREGULAR = {"paid": "pay", "pays": "pay", "held": "hold", "kept": "keep", "sent": "send", "took": "take",
              "taken": "take", "gave": "give", "given": "give", "ran": "run", "left": "leave",
              "leaves": "leave", "signed": "sign", "signs": "sign", "signatory": "sign",
              "signature": "sign"}  # fmt: skip


def _is_capitalised(token: _Token) -> bool:
    text = token.text
    return len(text) > 1 and text[0].isupper() and (text[1].islower() or text[1] in ".'")


# ------------------------------------------------------------------------------------------- extraction


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
    if low in _UNITS:
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
    if unit in _UNITS:
        dimension, factor = _UNITS[unit]
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

    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
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
    if after_at and (nxt in _UNITS or (nxt.isalpha() and nxt not in _STOPWORDS and nxt not in _CLOCK_NEXT)):
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
            if nxt not in _UNITS:
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
        if len(token.text) >= 3 and not priced and (unit is None or unit[0] not in _UNITS):
            reader.add("identifier", "identifier", token.text.lstrip("0") or "0", [i])


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
        return (attached, attached, 0) if attached in _UNITS else None
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
            i = end
        else:
            i += 1


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
    parts = _name_key(tokens[start:end])
    if parts:
        reader.add("name", "name", " ".join(sorted(parts)), range(start, end))


def _name_key(tokens: Sequence[_Token]) -> frozenset[str]:
    return frozenset(
        _stem(t.low) for t in tokens if t.low not in _TITLES and t.low != "of" and _stem(t.low) not in _TITLES
    )


def _read_antonyms(reader: _Reader) -> None:
    for i, token in enumerate(reader.tokens):
        if reader.free(i) and token.low in _ANTONYMS:
            group, pole = _ANTONYMS[token.low]
            reader.add("antonym", f"antonym:{group}", pole, [i])


@lru_cache(maxsize=4096)
def _extract(text: str) -> tuple[tuple[_Found, ...], tuple[_Token, ...]]:
    tokens = _tokens(text)
    reader = _Reader(tokens)
    _read_times(reader)
    _read_dates(reader)
    _read_identifiers(reader)
    _read_numbers(reader)
    _read_names(reader)
    _read_antonyms(reader)
    return tuple(reader.found), tuple(tokens)


def values_of(text: str) -> tuple[Value, ...]:
    """The values ``text`` carries, in reading order by slot kind (names, numbers, dates, ...)."""
    return tuple(found.value for found in _extract(text)[0])


# ------------------------------------------------------------------------------------------- profiles


class _Name(NamedTuple):
    parts: frozenset[str]
    raw: str
    lead: bool  # opens a clause: the name is what the clause is about


class _Clause(NamedTuple):
    negated: bool
    stems: frozenset[str]


@dataclass(frozen=True)
class _Profile:
    values: tuple[Value, ...]
    subject: frozenset[str]  # stems of the content words outside any value
    vocabulary: frozenset[str]  # stems of every word
    names: tuple[_Name, ...]
    name_words: frozenset[str]
    clauses: tuple[_Clause, ...]
    revision: bool
    contrast: frozenset[str]  # stems of words that pair with a negative prefix ("locked" / "unlocked")


@lru_cache(maxsize=4096)
def _profile(text: str) -> _Profile:
    found, tokens = _extract(text)
    taken = {i for item in found if item.value.slot != "name" for i in item.positions}
    names = _names(found, tokens)
    return _Profile(
        values=tuple(item.value for item in found),
        subject=frozenset(_stem(t.low) for i, t in enumerate(tokens) if i not in taken and _content(t.low)),
        vocabulary=frozenset(_stem(part) for token in tokens for part in token.low.split()),
        names=names,
        name_words=frozenset(part for name in names for part in name.parts),
        clauses=_clauses(tokens, taken),
        revision=_REVISION.search(text) is not None,
        contrast=frozenset(_stem(token.low) for token in tokens if len(token.low) > 3),
    )


def _is_number_word(low: str) -> bool:
    return all(p in _ONES or p in _TENS or p in _SCALES or p in _FREQUENCY for p in low.split())


def _content(low: str) -> bool:
    return (
        any(c.isalpha() for c in low)
        and low not in _STOPWORDS
        and low not in NEGATIONS
        and low not in _REVISION_WORDS
        and low.rstrip(".") not in _HONORIFICS
        and low not in _LABELS
        and _stem(low) not in _STOPWORDS
    )


def _names(found: tuple[_Found, ...], tokens: tuple[_Token, ...]) -> tuple[_Name, ...]:
    """The names of a text; one that opens a clause (after at most one determiner or title) leads it."""
    out = []
    for item in found:
        if item.value.slot == "name":
            first = min(item.positions)
            opener = first if tokens[first].opens else first - 1
            lead = opener >= 0 and tokens[opener].opens and (opener == first or _determiner(tokens[opener]))
            out.append(_Name(frozenset(item.value.norm.split()), item.value.raw, lead))
    return tuple(out)


def _determiner(token: _Token) -> bool:
    low = token.low.rstrip(".")
    return token.low in _STOPWORDS or low in _TITLES


def _clauses(tokens: tuple[_Token, ...], taken: set[int]) -> tuple[_Clause, ...]:
    """Clauses split at punctuation, each with its negation and content stems. A "not" right after a
    comma contrasts ("brine, not fresh water") rather than negates."""
    out: list[_Clause] = []
    negated, stems = False, set[str]()
    for i, token in enumerate(tokens):
        if token.gap and i and (stems or negated):
            out.append(_Clause(negated, frozenset(stems)))
            negated, stems = False, set()
        if _negation(token) and not (token.gap and token.low == "not" and not token.opens):
            negated = True
        elif i not in taken and _content(token.low):
            stems.add(_stem(token.low))
    out.append(_Clause(negated, frozenset(stems)))
    return tuple(out)


def _negation(token: _Token) -> bool:
    return token.low in NEGATIONS or token.low.endswith("n't") or token.low == "cannot"


# ------------------------------------------------------------------------------------------- comparing


def _round(value: Decimal | float) -> float:
    return float(Decimal(repr(value) if isinstance(value, float) else value).quantize(_FOUR))


def subject_overlap(text: str, other: str) -> float:
    """Overlap coefficient of the two texts' subject words (0..1, 4 decimals)."""
    first, second = _profile(text).subject, _profile(other).subject
    if not first or not second:
        return 0.0
    return _round(Decimal(len(first & second)) / Decimal(min(len(first), len(second))))


# how two names relate: one contains the other, one word swapped for a look-alike ("Beatrix Vollmer" /
# "Bettina Vollmer"), one word swapped for an unlike one ("Cohort Azure" / "Cohort Tide": siblings,
# two things of one kind), or nothing in common
SAME, SWAP, SIBLING, UNRELATED = "same", "swap", "sibling", "unrelated"


def _relation(first: frozenset[str], second: frozenset[str]) -> str:
    if first <= second or second <= first:
        return SAME
    if not first & second:
        return UNRELATED
    rest = sorted(first - second), sorted(second - first)
    alike = any(_look_alike(a, b) for a in rest[0] for b in rest[1])
    return SWAP if alike else SIBLING


def _look_alike(first: str, second: str) -> bool:
    """Two words that differ only partly: a shared start of two letters or more ("Okafor"/"Okonjo")."""
    return len(first) > 2 and len(second) > 2 and first[:2] == second[:2]


def _present(name: _Name, other: _Profile) -> bool:
    """The other text names it too: a name of it, or one of its words, with no sibling name there."""
    relations = {_relation(name.parts, theirs.parts) for theirs in other.names}
    if SAME in relations or SWAP in relations:
        return True
    return SIBLING not in relations and bool(name.parts & other.vocabulary)


def _different_subjects(existing: _Profile, incoming: _Profile) -> bool:
    """A name leading the incoming text that the stored one lacks, or a name leading the stored text
    that an incoming text with names of its own lacks: different things ("Contractor Ilse Brandt is paid
    ..." / "Supplier Norvik Steel is paid ..."; "Cohort Azure uses ..." / "... for Cohort Tide ...").
    An incoming text naming nothing ("We owe them ...") keeps the stored subject."""
    if any(name.lead and not _present(name, existing) for name in incoming.names):
        return True
    return bool(incoming.names) and any(name.lead and not _present(name, incoming) for name in existing.names)


class _Clash(NamedTuple):
    slot: str
    existing: str
    incoming: str
    strength: Decimal  # how sure the values differ, before the subject is weighed


def _keyed(values: tuple[Value, ...]) -> dict[str, list[Value]]:
    out: dict[str, list[Value]] = {}
    for value in values:
        if value.slot != "name":
            out.setdefault(value.key, []).append(value)
    return out


# an incoming text holding more values than this for one key lists options rather than states one
LIST_SIZE = 2


def _value_clashes(existing: _Profile, incoming: _Profile) -> list[_Clash]:
    """Keys both texts fill with no value in common. A bare number (no unit, no label before it) says
    too little to compare; an incoming slot that lists options ("Wednesday, Thursday or Friday") is
    not a change."""
    mine, theirs = _keyed(existing.values), _keyed(incoming.values)
    listed = {values[0].slot for values in theirs.values() if len({v.norm for v in values}) > LIST_SIZE}
    clashes = []
    for key in sorted(mine.keys() & theirs.keys() - {"number:"}):
        old, new = mine[key], theirs[key]
        if old[0].slot not in listed and not {v.norm for v in old} & {v.norm for v in new}:
            clashes.append(_Clash(old[0].slot, old[0].raw, new[0].raw, Decimal(1)))
    return clashes


def _name_clash(existing: _Profile, incoming: _Profile) -> _Clash | None:
    """A look-alike swap ("Dr. Samuel Achebe" / "Dr. Samuel Achterberg"), or names on both sides that
    the other side does not mention at all ("Harbor Mutual" / "Kestrel Bank")."""
    for old in existing.names:
        for new in incoming.names:
            if _relation(old.parts, new.parts) == SWAP:
                return _Clash("name", old.raw, new.raw, Decimal(1))
    gone = [name for name in existing.names if not _present(name, incoming)]
    fresh = [name for name in incoming.names if not _present(name, existing)]
    if gone and fresh:
        return _Clash("name", gone[0].raw, fresh[0].raw, Decimal("0.8"))
    return None


def _negated_about(text: _Profile, other: _Profile) -> bool:
    """``text`` negates a clause whose words the other text holds (three in four at least)."""
    return any(
        clause.negated
        and clause.stems
        and Decimal(len(clause.stems & other.vocabulary)) / Decimal(len(clause.stems)) >= CLAUSE_COVER
        for clause in text.clauses
    )


def _polarity_clash(existing: _Profile, incoming: _Profile) -> _Clash | None:
    old, new = _negated_about(existing, incoming), _negated_about(incoming, existing)
    if old == new or (_negated(existing) and _negated(incoming)):
        return None
    return _Clash("polarity", _sign(old), _sign(new), Decimal(1))


def _sign(negative: bool) -> str:
    return "negative" if negative else "positive"


def _negated(text: _Profile) -> bool:
    return any(clause.negated for clause in text.clauses)


def _prefix_clash(existing: _Profile, incoming: _Profile) -> _Clash | None:
    """A negative prefix on one side only: "locked" against "unlocked", "safe" against "unsafe"."""
    only_incoming = incoming.contrast - existing.contrast
    found: list[tuple[str, str]] = []
    for word in only_incoming:  # scan the smaller side; the first clash in the existing text's order wins
        for prefix in _PREFIXES:
            if not word.startswith(prefix):
                continue
            base = word[len(prefix) :]
            if _prefixed(prefix, base) and base in existing.contrast:
                found.append((base, word))
    for word in only_incoming:
        for prefix in _PREFIXES:
            if _prefixed(prefix, word) and prefix + word in existing.contrast:
                found.append((prefix + word, word))
    if not found:
        return None
    existing_word, incoming_word = min(found)
    return _Clash("antonym", existing_word, incoming_word, Decimal(1))


def _prefixed(prefix: str, base: str) -> bool:
    return len(base) >= (5 if prefix == "in" else 4)


def _clashes(existing: _Profile, incoming: _Profile) -> list[_Clash]:
    found = _value_clashes(existing, incoming)
    for extra in (
        _name_clash(existing, incoming),
        _prefix_clash(existing, incoming),
        _polarity_clash(existing, incoming),
    ):
        if extra is not None:
            found.append(extra)
    return found


def _needs(clash: _Clash) -> _Overlap:
    """The least overlap a clash needs to count. A look-alike name swap is evidence of the same
    subject in itself; names with nothing in common need the rest of the two texts to agree on two
    plain words at least; every clash needs one shared word besides the values that agree."""
    slot = clash.slot
    if slot == "polarity":
        return _Overlap(Decimal(repr(POLARITY_SUBJECT)), MIN_SHARED_POLARITY, 1, 1)
    if slot == "name" and clash.strength == 1:
        return _Overlap(Decimal(repr(SWAP_SUBJECT)), MIN_SHARED + 1, 0, 1)
    if slot == "name":
        return _Overlap(Decimal(repr(NAME_SUBJECT)), MIN_SHARED + 1, 2, 2)
    if slot == "antonym":
        return _Overlap(Decimal(repr(NAME_SUBJECT)), MIN_SHARED + 1, 1, 1)
    return _Overlap(Decimal(repr(VALUE_SUBJECT)), MIN_SHARED, 0, 1)


def _subject_words(text: _Profile, other: _Profile) -> frozenset[str]:
    """``text``'s subject words for this pair: words of names that do not lead a clause and that the
    other text lacks are values, not subject; values both texts hold alike (the same account, the
    same date) are subject."""
    agreed = {f"={v.key}={v.norm}" for v in text.values if v.slot != "name"} & {
        f"={v.key}={v.norm}" for v in other.values if v.slot != "name"
    }
    values = {part for name in text.names if not name.lead for part in name.parts} - other.vocabulary
    return (text.subject - values) | agreed


class _Overlap(NamedTuple):
    score: Decimal  # overlap coefficient of the pair's subject words
    shared: int  # shared words and values; a shared name word counts twice: a name anchors
    plain: int  # shared words that are neither values nor names
    words: int  # shared words that are not values


def _subject(existing: _Profile, incoming: _Profile, related: float | None) -> _Overlap:
    mine, theirs = _subject_words(existing, incoming), _subject_words(incoming, existing)
    common = mine & theirs
    words = {word for word in common if not word.startswith("=")}
    names = words & existing.name_words
    smaller = min(len(mine), len(theirs))
    lexical = Decimal(len(common)) / Decimal(smaller + SMOOTHING) if smaller else Decimal(0)
    overlap = _Overlap(lexical.quantize(_FOUR), len(common) + len(names), len(words - names), len(words))
    if related is not None and related >= RELATED_SUBJECT:
        score = max(overlap.score, Decimal(repr(float(related))).quantize(_FOUR))
        shared = max(overlap.shared, MIN_SHARED_POLARITY)
        return _Overlap(score, shared, max(overlap.plain, 2), max(overlap.words, 2))
    return overlap


def _eligible(clash: _Clash, overlap: _Overlap) -> bool:
    need = _needs(clash)
    return (
        overlap.score >= need.score
        and overlap.shared >= need.shared
        and overlap.plain >= need.plain
        and overlap.words >= need.words
    )


def _confidence(clash: _Clash, subject: Decimal) -> Decimal:
    score = (Decimal("0.5") + Decimal("0.5") * min(subject, Decimal(1))) * _SLOT_WEIGHT[clash.slot]
    return (score * clash.strength).quantize(_FOUR)


def _best(clashes: list[_Clash], overlap: _Overlap) -> _Clash | None:
    eligible = [clash for clash in clashes if _eligible(clash, overlap)]
    if not eligible:
        return None
    return max(eligible, key=lambda c: (_confidence(c, overlap.score), -SLOTS.index(c.slot)))


def _finding(unit_id: str, unit_text: str, text: str, related: float | None) -> ValueFinding | None:
    existing, incoming = _profile(unit_text), _profile(text)
    if _different_subjects(existing, incoming):
        return None
    overlap = _subject(existing, incoming, related)
    clash = _best(_clashes(existing, incoming), overlap)
    subject = overlap.score
    if clash is None:
        return None
    return ValueFinding(
        unit_id=unit_id,
        kind=REVISION if incoming.revision else CONTRADICTION,
        slot=clash.slot,
        existing=clash.existing,
        incoming=clash.incoming,
        subject=_round(subject),
        confidence=_round(_confidence(clash, subject)),
    )


def detect_values(
    text: str, units: Sequence[tuple[str, str]], related: Mapping[str, float] | None = None
) -> list[ValueFinding]:
    """Units whose value ``text`` changes: at most one finding per unit (the strongest), by unit id.

    ``units`` are (unit_id, text) pairs. ``related`` optionally maps a unit id to a semantic similarity
    (0..1): at or above :data:`RELATED_SUBJECT` the pair is the same subject even when few words match
    (a name leading either text that the other lacks still marks another subject)."""
    best: dict[str, ValueFinding] = {}
    for unit_id, unit_text in units:
        finding = _finding(unit_id, unit_text, text, (related or {}).get(unit_id))
        if finding is not None and (unit_id not in best or finding.confidence > best[unit_id].confidence):
            best[unit_id] = finding
    return [best[unit_id] for unit_id in sorted(best)]


def same_values(text: str, other: str) -> bool:
    """Both texts carry values, are about the same thing (a shared word, no differing leading name),
    and every value slot they share agrees: a restatement, not a change."""
    first, second = _profile(text), _profile(other)
    if not first.values or not second.values or _different_subjects(first, second):
        return False
    if _value_clashes(first, second) or _name_clash(first, second) or _polarity_clash(first, second):
        return False
    if _prefix_clash(first, second) or _subject(first, second, None).words < 1:
        return False
    return bool({v.key for v in first.values} & {v.key for v in second.values})
