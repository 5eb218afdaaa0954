"""Benchmark 6: working memory. (a) One ``memory.awmu.turn`` plus one ``memory.awmu.assemble`` on a
context whose budget of 20 units is full, relative to one ``memory.write`` (informative, no
target). (b) The detectors' cost: one ``memory.awmu.propose`` (a value swap on a stored fact, so every
detector runs and it is queued) plus one ``memory.awmu.turn`` with that text, with the semantic encoder
bound, relative to one ``memory.write`` (goal: at most 5 ms for the pair); the same pair without the
encoder is reported beside it. (c) A scenario run's syscalls per second:
scenarios/flagship-dead-king.yml under FULL_AWMU through ``tools.scenario.runner.run_scenario``, journal
entries ÷ seconds."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

from arvis.scenario.conditions import Condition
from bench.common import (
    BenchResult,
    ProfileJob,
    Series,
    alternate,
    cli_main,
    no_cleanup,
    scratch_dir,
    timed,
    write_args,
)
from journal.engine import Durability
from journal.reader import JournalReader
from kernel.dispatcher import Kernel
from kernel.registry import KernelServiceRegistry
from kernel.services import default_services, shared_encoder
from syscalls.boot import open_kernel
from syscalls.table import SYSCALL_TABLE
from tools.audit.replay import verify_journal
from tools.scenario.load import load_scenario
from tools.scenario.runner import run_scenario

__all__ = ["profile_setup", "profile_setup_scenario", "run", "run_scenario_rate"]

NAME = "working_memory_turn_assemble"
DETECTORS_NAME = "working_memory_detectors"
SCENARIO_NAME = "scenario_syscalls"
ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "flagship-dead-king.yml"
CONTEXT = "bench"
BUDGET = 20
OPERATOR = "operator:bench"
AGENT = "agent:bench"
AGENT_CAPABILITIES = ("read", "write")  # turn and propose write, assemble reads
_counter = itertools.count()


def _sizes(quick: bool) -> tuple[int, int, int]:
    """Turn+assemble pairs (and writes) per repetition, repetitions, scenario repetitions."""
    return (40, 5, 5) if quick else (300, 7, 5)


def full_context(directory: Path, services: KernelServiceRegistry | None = None) -> tuple[Kernel, list[str]]:
    """A kernel with one context whose budget of 20 units is full (seeded RELIABLE units), created by the
    operator, which grants the agent read and write on it (journaled ``access.grant`` calls)."""
    kernel = open_kernel(
        str(directory / f"wm-{next(_counter)}.db"),
        durability=Durability.NORMAL,
        services=services,
        create=True,
    )
    created = kernel.call(
        "memory.awmu.create", {"context_id": CONTEXT, "config": {"budget": BUDGET}}, principal=OPERATOR
    )
    if not created.ok:
        raise RuntimeError(f"memory.awmu.create refused: {created.error}")
    for capability in AGENT_CAPABILITIES:  # the operator owns the context; the agent needs grants on it
        granted = kernel.call(
            "access.grant",
            {"principal": AGENT, "capability": capability, "scope": CONTEXT},
            principal=OPERATOR,
        )
        if not granted.ok:
            raise RuntimeError(f"access.grant refused: {granted.error}")
    units: list[str] = []
    for index in range(BUDGET):
        text = f"Fact {index}: the river {index} flows north past the tower of watch {index}."
        seeded = kernel.call(
            "memory.awmu.seed",
            {"context_id": CONTEXT, "text": text, "authority": "RELIABLE"},
            principal=OPERATOR,
        )
        if not seeded.ok:
            raise RuntimeError(f"memory.awmu.seed refused: {seeded.error}")
        units.append(seeded.value["unit_id"])
    return kernel, units


def turn_and_assemble(kernel: Kernel, units: list[str], turn: int) -> int:
    """One turn reinforcing half the units (alternate halves, so half decay each turn and all stay
    active), then the prompt block without a token limit; returns how many units it included."""
    turned = kernel.call(
        "memory.awmu.turn", {"context_id": CONTEXT, "reinforce": units[turn % 2 :: 2]}, principal=AGENT
    )
    block = kernel.call("memory.awmu.assemble", {"context_id": CONTEXT}, principal=AGENT)
    if not (turned.ok and block.ok):
        raise RuntimeError(f"working memory refused: {turned.error or block.error}")
    return len(block.value["included"])


def write_sampler(writer: Kernel, written: Iterator[int], calls: int) -> Callable[[], float]:
    """One sample: ``calls`` memory.write calls on ``writer``, in ms per call."""

    def write_ms() -> float:
        workload = [write_args(next(written)) for _ in range(calls)]
        with timed() as elapsed:
            results = [writer.call(name, args, principal=who) for name, args, who in workload]
        if not all(result.ok for result in results):
            raise RuntimeError("the kernel refused a benchmark write")
        return elapsed[0] * 1_000 / calls

    return write_ms


def propose_and_turn(kernel: Kernel, step: int) -> str:
    """A value swap on one stored fact (every detector runs; it is queued), then a turn with that text;
    returns the semantic detector's status."""
    index = step % BUDGET
    text = f"Fact {index}: the river {index} flows north past the tower of watch {index + step + 1000}."
    proposed = kernel.call(
        "memory.awmu.propose",
        {"context_id": CONTEXT, "text": text, "source": "player", "confidence": 0.8},
        principal=AGENT,
    )
    turned = kernel.call("memory.awmu.turn", {"context_id": CONTEXT, "text": text}, principal=AGENT)
    if not (proposed.ok and turned.ok):
        raise RuntimeError(f"working memory refused: {proposed.error or turned.error}")
    status: str = proposed.value["detectors"][3]["status"]
    return status


def run_detectors(quick: bool, directory: Path) -> BenchResult:
    pairs, repetitions, _ = _sizes(quick)
    encoder = shared_encoder()
    with_encoder, _ = full_context(directory, default_services(semantic=True))
    without, _ = full_context(directory, default_services())
    writer = open_kernel(
        str(directory / f"writes-{next(_counter)}.db"), durability=Durability.NORMAL, create=True
    )
    steps, written = itertools.count(), itertools.count()
    statuses: set[str] = set()
    try:

        def pair_ms(kernel: Kernel) -> Callable[[], float]:
            def measure() -> float:
                with timed() as elapsed:
                    for _ in range(pairs):
                        statuses.add(propose_and_turn(kernel, next(steps)))
                return elapsed[0] * 1_000 / pairs

            return measure

        write_ms = write_sampler(writer, written, pairs)
        semantic, plain, writes = alternate(repetitions, pair_ms(with_encoder), pair_ms(without), write_ms)
    finally:
        with_encoder.close()
        without.close()
        writer.close()
    semantic_series, plain_series = Series(tuple(semantic), "ms"), Series(tuple(plain), "ms")
    write_series = Series(tuple(writes), "ms")
    encoder_name = "none installed" if encoder is None else f"{encoder.name} {encoder.version}"
    return BenchResult(
        name=DETECTORS_NAME,
        title="memory.awmu.propose + memory.awmu.turn with the semantic detector (goal: ≤ 5 ms)",
        kernel_label=f"propose + turn, semantic encoder bound ({encoder_name})",
        kernel=semantic_series,
        baseline_label="Kernel.call('memory.write') (one call)",
        baseline=write_series,
        ratio=semantic_series.median / write_series.median,
        ratio_means="ms per propose+turn pair ÷ ms per memory.write (informative; the goal is absolute)",
        notes=[
            f"{pairs} pairs per run on a context of {BUDGET} RELIABLE units; each proposal swaps one "
            "fact's number (value detector finds it, it is queued), the turn gets the same text",
            f"semantic detector statuses seen (both kernels): {sorted(statuses)}",
            f"the same pair without an encoder (value + lexical only): median {plain_series.median:.3f} ms",
        ],
        extra={
            "pairs_per_run": pairs,
            "encoder": encoder_name,
            "without_encoder_ms_median": plain_series.median,
            "without_encoder_ms": list(plain_series.samples),
        },
    )


def run_scenario_rate(directory: Path) -> tuple[float, int, float, float]:
    """One flagship run under FULL_AWMU: syscalls/s (end to end, its verification replay
    included), entries, seconds, and the seconds of a separate verification of its journal."""
    scenario = load_scenario(SCENARIO)
    journal = directory / f"flagship-{next(_counter)}.db"
    with timed() as elapsed:
        result = run_scenario(scenario, Condition.FULL_AWMU, journal)
    if not result.replay_verified:
        raise RuntimeError("the scenario's journal did not verify")
    with timed() as verifying:
        reader = JournalReader.open(str(journal))
        try:
            verify_journal(reader, table=SYSCALL_TABLE)
        finally:
            reader.close()
    return result.entries / elapsed[0], result.entries, elapsed[0], verifying[0]


def run(quick: bool = False) -> list[BenchResult]:
    pairs, repetitions, scenario_repetitions = _sizes(quick)
    turn = itertools.count()
    included: list[int] = []
    with scratch_dir(NAME) as directory:
        kernel, units = full_context(directory)
        writer = open_kernel(str(directory / "writes.db"), durability=Durability.NORMAL, create=True)
        written = itertools.count()
        try:

            def pair_ms() -> float:
                with timed() as elapsed:
                    for _ in range(pairs):
                        included.append(turn_and_assemble(kernel, units, next(turn)))
                return elapsed[0] * 1_000 / pairs

            write_ms = write_sampler(writer, written, pairs)
            pair_samples, write_samples = alternate(repetitions, pair_ms, write_ms)
        finally:
            kernel.close()
            writer.close()
        detectors = run_detectors(quick, directory)
        rounds = scenario_repetitions
        scenario_runs = [run_scenario_rate(directory) for _ in range(rounds)]
    pair_series, write_series = Series(tuple(pair_samples), "ms"), Series(tuple(write_samples), "ms")
    scenario_series = Series(tuple(rate for rate, *_ in scenario_runs), "syscalls/s")
    entries = scenario_runs[0][1]
    seconds = sorted(run[2] for run in scenario_runs)[len(scenario_runs) // 2]
    verify_seconds = sorted(run[3] for run in scenario_runs)[len(scenario_runs) // 2]
    play_rate = entries / max(seconds - verify_seconds, 1e-9)
    working = BenchResult(
        name=NAME,
        title=f"memory.awmu.turn + memory.awmu.assemble on a full budget of {BUDGET} units",
        kernel_label="Kernel.call turn + assemble (one pair)",
        kernel=pair_series,
        baseline_label="Kernel.call('memory.write') (one call)",
        baseline=write_series,
        ratio=pair_series.median / write_series.median,
        ratio_means="ms per turn+assemble pair ÷ ms per memory.write (informative)",
        notes=[
            f"{pairs} pairs per run on one context; each turn reinforces half of the {BUDGET} units and "
            f"decays the other half; every block included {min(included)} to {max(included)} units",
            "both are two and one journaled calls respectively, WAL + NORMAL",
        ],
        extra={"pairs_per_run": pairs, "units_included": [min(included), max(included)]},
    )
    scenario = BenchResult(
        name=SCENARIO_NAME,
        title="flagship-dead-king.yml under FULL_AWMU, journal entries per second",
        kernel_label="tools.scenario.runner.run_scenario",
        kernel=scenario_series,
        baseline_label="",
        baseline=None,
        ratio=None,
        ratio_means="informative, no baseline",
        notes=[
            f"{entries} journal entries per run, {seconds:.2f} s end to end (median), of which "
            f"{verify_seconds:.2f} s is the verification replay run_scenario does at the end (timed "
            f"separately on the same journal); the play alone is about {play_rate:,.0f} syscalls/s",
        ],
        extra={
            "entries": entries,
            "seconds_median": seconds,
            "verify_seconds_median": verify_seconds,
            "play_only_syscalls_per_second": play_rate,
        },
    )
    return [working, detectors, scenario]


def profile_setup(directory: Path, quick: bool) -> ProfileJob:
    pairs, _, _ = _sizes(quick)
    kernel, units = full_context(directory)

    return lambda: [turn_and_assemble(kernel, units, turn) for turn in range(pairs)], kernel.close


def profile_setup_scenario(directory: Path, quick: bool) -> ProfileJob:
    return lambda: run_scenario_rate(directory), no_cleanup


def _main() -> None:
    def both(quick: bool) -> BenchResult:
        first, second, third = run(quick)
        print(first.report(), flush=True)
        print(second.report(), flush=True)
        return third

    cli_main(both, __doc__ or "")


if __name__ == "__main__":
    _main()
