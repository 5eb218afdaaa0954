"""Rules 4: a statement's origin is bound to who calls, never to what the caller writes.

The channel the trust signals and the revision rules read comes from the calling principal and the
context's ``channels`` (the deployment's map, recorded with the context; see ``channel_of``). A caller may
describe its statement as coming from a less trusted channel that belongs to no principal (a relayed
document, a quoted user), never from a more trusted one: so a principal holding only ``write`` on an
operator's context cannot establish, corroborate or revise anything as the operator.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from arvis.awmu.config import AwmuConfig
from arvis.awmu.errors import AwmuErrorCode, AwmuRuleError

OPERATOR_CHANNEL = "operator"
"""The channel of the principals who operate a context, unless the context's ``channels`` say otherwise."""


def authority_of(config: AwmuConfig, channel: str) -> float:
    """The source authority the context gives a channel (``source_authorities``, else the default)."""
    return config.source_authorities.get(channel, config.default_source_authority)


def channel_of(config: AwmuConfig, principal: str, *, operator: bool) -> str:
    """The channel ``principal`` speaks on: the longest ``channels`` pattern that matches it names it; else
    an operator of the context speaks on :data:`OPERATOR_CHANNEL`, and any other principal on its id."""
    matching = [pattern for pattern in config.channels if fnmatchcase(principal, pattern)]
    if matching:
        return config.channels[max(matching, key=lambda pattern: (len(pattern), pattern))]
    return OPERATOR_CHANNEL if operator else principal


def bound_source(config: AwmuConfig, principal: str, *, operator: bool, named: str | None) -> str:
    """The source a statement of ``principal`` is recorded under: its own channel, or ``named`` when
    that describes it as coming from a less trusted channel that belongs to no principal; anything else
    is refused ``memory_policy_denied``."""
    own = channel_of(config, principal, operator=operator)
    if named is None or named == own:
        return own
    belongs = ":" in named or declared(config, named)
    if belongs or authority_of(config, named) >= authority_of(config, own):
        raise AwmuRuleError(
            AwmuErrorCode.NOT_AUTHORIZED,
            f"principal '{principal}' speaks on channel '{own}' and may describe its statement only as "
            f"that channel or a less trusted one that belongs to no principal, not as '{named}'",
        )
    return named


def declared(config: AwmuConfig, source: str) -> bool:
    """Whether the deployment declared ``source`` as a channel principals speak on: the operators' channel
    or a value of the context's ``channels``. Any other source (a principal speaking on its own id, or a
    channel a caller describes its statement as) is one of as many as a caller can make up: rules 5 lets
    no number of them corroborate one another or lift a statement above PROVISIONAL (the Sybil bound)."""
    return source == OPERATOR_CHANNEL or source in config.channels.values()
