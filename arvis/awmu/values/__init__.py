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

from arvis.awmu.values.compare import RELATED_SUBJECT as RELATED_SUBJECT
from arvis.awmu.values.compare import VALUE_DETECTOR as VALUE_DETECTOR
from arvis.awmu.values.compare import VALUE_DETECTOR_VERSION as VALUE_DETECTOR_VERSION
from arvis.awmu.values.compare import ValueFinding as ValueFinding
from arvis.awmu.values.compare import detect_values as detect_values
from arvis.awmu.values.compare import same_values as same_values
from arvis.awmu.values.compare import subject_overlap as subject_overlap
from arvis.awmu.values.extract import Value as Value
from arvis.awmu.values.extract import values_of as values_of
