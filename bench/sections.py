"""Running a benchmark's named sections from the command line (shared by the benchmarks)."""

from __future__ import annotations

import argparse
import inspect
import sys
from collections.abc import Callable, Mapping


def _first_line(function: Callable[[], None]) -> str:
    """The first line of ``function``'s docstring ("" if it has none)."""
    return (inspect.getdoc(function) or "").partition("\n")[0]


def run_sections(
    sections: Mapping[str, Callable[[], None]], names: list[str], prog: str | None = None
) -> None:
    """Run the sections called ``names`` (all by default), a blank line after each.

    ``names`` is the command line: ``--help`` lists the sections (each with its
    docstring's first line) and runs none; an unknown name is refused with the choices
    (exit status 2). ``prog`` is the command shown in the usage line (by default the
    calling benchmark's ``python -m bench.<name>``).
    """
    if prog is None:
        caller = inspect.getmodule(inspect.stack()[1].frame)
        module = getattr(caller, "__spec__", None)
        prog = f"python -m {module.name}" if module is not None else None
    listing = "\n".join(f"  {name:<20} {_first_line(run)}" for name, run in sections.items())
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Run the named sections of this benchmark (every section by default).",
        epilog=f"sections:\n{listing}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("sections", nargs="*", metavar="section", help="a section to run")
    chosen = parser.parse_args(names).sections or list(sections)
    unknown = [name for name in chosen if name not in sections]
    if unknown:
        print(
            f"{parser.prog}: unknown section {unknown[0]!r}; choose from {', '.join(sections)}",
            file=sys.stderr,
        )
        raise SystemExit(2)
    for name in chosen:
        sections[name]()
        print()
