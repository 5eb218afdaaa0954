"""Rank arithmetic: reinforcement, per-turn exponential decay, rank-triggered demotion.

Decay uses decimal arithmetic (software, identical on every platform) so that a replay anywhere
computes the same ranks: ``new = floor(rank * 0.5 ** (1 / (half_life * tier multiplier)))``.
"""

from __future__ import annotations

from decimal import ROUND_FLOOR, Context, Decimal
from functools import lru_cache

from arvis.awmu.config import AwmuConfig
from arvis.awmu.model import AUTHORITY_ORDER, Authority, Tier, authority_rank, tier_of

_DECIMAL = Context(prec=34)


def clamp_rank(config: AwmuConfig, rank: int) -> int:
    return max(config.min_rank, min(config.max_rank, rank))


def tier_for(config: AwmuConfig, rank: int) -> Tier:
    return tier_of(rank, hot=config.hot_threshold, warm=config.warm_threshold)


def tier_multiplier(config: AwmuConfig, tier: Tier) -> float:
    """Higher lengthens the half-life: HOT units decay slowest."""
    return {
        Tier.HOT: config.hot_multiplier,
        Tier.WARM: config.warm_multiplier,
        Tier.COLD: config.cold_multiplier,
    }[tier]


@lru_cache(maxsize=256)
def _decay_factor(half_life_turns: str, multiplier: str) -> Decimal:
    """``0.5 ** (1 / (half_life * multiplier))`` from the two numbers' shortest text forms. A config
    has three factors (one per tier), and the power is most of a decay's cost: each is computed once."""
    half_life = _DECIMAL.multiply(Decimal(half_life_turns), Decimal(multiplier))
    return _DECIMAL.power(Decimal("0.5"), _DECIMAL.divide(Decimal(1), half_life))


def decayed_rank(config: AwmuConfig, rank: int) -> int:
    """The rank after one turn without reinforcement (the tier is that of the current rank)."""
    multiplier = tier_multiplier(config, tier_for(config, rank))
    factor = _decay_factor(repr(config.half_life_turns), repr(multiplier))
    value = _DECIMAL.multiply(Decimal(rank), factor).to_integral_value(rounding=ROUND_FLOOR)
    return clamp_rank(config, int(value))


def upgraded_authority(config: AwmuConfig, authority: Authority, count: int, ceiling: Authority) -> Authority:
    """Authority after the ``count``-th reinforcement: up at the configured counts, never above the
    ceiling, never to CANON, never down."""
    target = authority
    if target is Authority.PROVISIONAL and count >= config.upgrade_to_unreliable_at:
        target = Authority.UNRELIABLE
    if target is Authority.UNRELIABLE and count >= config.upgrade_to_reliable_at:
        target = Authority.RELIABLE
    cap = min(authority_rank(ceiling), authority_rank(Authority.RELIABLE))
    if authority_rank(target) > cap:
        target = AUTHORITY_ORDER[max(cap, authority_rank(authority))]
    return target


def demoted_authority(config: AwmuConfig, authority: Authority, rank: int) -> Authority:
    """Rank-triggered demotion: RELIABLE below 400 → UNRELIABLE; UNRELIABLE below 200 → PROVISIONAL."""
    if authority is Authority.RELIABLE and rank < config.reliable_demote_below:
        authority = Authority.UNRELIABLE
    if authority is Authority.UNRELIABLE and rank < config.unreliable_demote_below:
        authority = Authority.PROVISIONAL
    return authority
