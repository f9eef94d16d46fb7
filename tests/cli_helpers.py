"""The one way the tests call the command line: typer's runner on ``engine.cli.app``, checking
what every command promises (no traceback, whatever the input; an exit only by SystemExit)."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from engine.cli import app

runner = CliRunner()


def invoke(*args: str, stdin: str | None = None) -> Result:
    """Runs ``ombre ARGS`` with ``stdin`` as its input; fails the test on a traceback or on an
    exception other than the exit."""
    result = runner.invoke(app, list(args), input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result
