"""The ``ombre`` console script and ``python -m engine``: a help screen seen before is printed
from the cache before typer is imported (:mod:`engine.startup`); anything else runs the
command line (:func:`engine.cli.main`)."""

from __future__ import annotations


def main() -> None:
    """Runs the ``ombre`` command (the console-script entry point)."""
    from engine.startup import replay_cached

    replay_cached()
    from engine.cli import main as cli_main

    cli_main()


if __name__ == "__main__":  # pragma: no cover
    main()
