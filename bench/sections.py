"""Running a benchmark's named sections from the command line (shared by the benchmarks)."""

from __future__ import annotations

from collections.abc import Callable, Mapping


def run_sections(sections: Mapping[str, Callable[[], None]], names: list[str]) -> None:
    """Run the sections called ``names`` (all by default), a blank line after each."""
    names = names or list(sections)
    unknown = [name for name in names if name not in sections]
    if unknown:
        raise SystemExit(f"unknown section {unknown[0]!r}; choose from {', '.join(sections)}")
    for name in names:
        sections[name]()
        print()
