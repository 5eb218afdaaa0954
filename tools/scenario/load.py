"""Reading scenario files: YAML in, a tolerant ``Scenario`` out; unreadable files are a clear error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import yaml

from arvis.scenario.schema import Scenario, parse_scenario
from journal.regular_file import read_regular
from tools.common import CommandError

SCENARIO_SUFFIXES = (".yml", ".yaml")
MAX_SCENARIO_BYTES = 16 * 1024 * 1024


def load_scenario(path: Path) -> Scenario:
    """Parse one file; YAML syntax errors and unreadable files raise CommandError (exit 2)."""
    try:
        text = read_regular(path, MAX_SCENARIO_BYTES).decode("utf-8")  # a FIFO is refused, not waited on
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {path}: {exc}") from None
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CommandError(f"{path} is not valid YAML: {exc}") from None
    return parse_scenario(document, name=path.stem)


def iter_scenario_files(directory: Path) -> Iterator[Path]:
    """Scenario files of a directory, sorted by name (README and other files skipped)."""
    if not directory.is_dir():
        raise CommandError(f"{directory} is not a directory")
    yield from sorted(p for p in directory.iterdir() if p.suffix in SCENARIO_SUFFIXES and p.is_file())
