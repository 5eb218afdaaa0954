"""The arguments of a model run, shared by ``python -m tools.model_loop`` and ``arvis scenario model-run``.

Registered without loading what they run (the kernel, the YAML loader, the HTTP client): the command
itself is ``tools.model_loop.cli``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from arvis.scenario.conditions import Condition

__all__ = ["DESCRIPTION", "add_arguments"]

DESCRIPTION = (
    "Play a scenario with a game-master and a judge model (OpenAI-compatible API), "
    "journal every answer, and verify the journal by replay."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", type=Path)
    parser.add_argument("--db", type=Path, default=Path("model-run.db"), help="the journal to write")
    parser.add_argument("--base-url", help="e.g. http://127.0.0.1:8000/v1 (needed unless --replay)")
    parser.add_argument("--gm-model", default="gpt-4.1-mini")
    parser.add_argument("--judge-model", default="gpt-4.1-mini")
    parser.add_argument("--api-key-env", default=None, help="environment variable holding the API key")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument(
        "--condition", default=Condition.FULL_AWMU.value, choices=[c.value for c in Condition]
    )
    parser.add_argument("--replay", action="store_true", help="replay --db offline instead of running")
