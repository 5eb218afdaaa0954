"""The value detector's lexicon: stop words, revision markers, titles, calendar words, number words, unit
words, antonym groups, and the token pattern."""

from __future__ import annotations

import re
from decimal import Decimal


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
    judge master mister the"""
    )
)
_TITLES_V1_V2 = _TITLES | frozenset(_split("warden guildmaster purser supplier contractor guest nurse"))
"""Readers of versions 1 and 2 also took these for titles: words of the project's own scenario sentences
(a guest astronomer, a ship's purser), not titles of address. Kept for those versions' journals alone."""
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
UNITS: dict[str, tuple[str, Decimal]] = {
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
              ("closed", "shut", "sealed", "bolted", "locked"))),
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
_ANTONYMS_V1_V2 = _ANTONYMS | {"welded": ("open", "closed")}
"""Readers of versions 1 and 2 also read "welded" as closed: a scenario's phrase, kept for their journals."""
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
