"""Documents: what the workbench writes about its rule files, from the model and the referee.

Each module builds typed views that the templates (:mod:`engine.render`) lay out:

* :mod:`.book` -- a ruleset's rules, card tables, changes against its parent, and payment
  tables whose figures the referee's own settlement computes (``ombre show``, the rule books);
* :mod:`.diff` -- the structural differences between two rulesets (``ombre diff``);
* :mod:`.claims` -- the sources' checkable statements, evaluated (``ombre claims``);
* :mod:`.disagreements` -- the sources' disagreements and where each reading lives;
* :mod:`.glossary` -- the historical terms and their meaning in the model;
* :mod:`.matrix` -- every ruleset side by side;
* :mod:`.deal_page` -- a refereed record as a page (``ombre replay --html/--md``);
* :mod:`.site` -- all of it written to a folder (``ombre docs``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

__all__ = ["repo_path", "repo_root"]


def repo_root() -> Path:
    """Returns the folder that holds ``rules/``, ``variants/``, ``claims/`` and ``sources/``.

    In a checkout that is the repository; in an installed wheel, the ``engine`` package, whose
    data folders are named ``rules_data`` and so on.
    """
    from engine.rules.loader import data_dir

    return data_dir("rules").parent


@lru_cache(maxsize=1)
def _resolved_root() -> Path:
    return repo_root().resolve()


def data_dir(name: str) -> Path:
    """Returns a top-level data folder (``claims``, ``sources``): the checkout's or installed."""
    from engine.rules.loader import data_dir

    return data_dir(name)


@lru_cache(maxsize=4096)
def repo_path(file: str | Path) -> str:
    """Returns a rule file's path as the repository names it (``rules/quadrille.yaml``).

    Paths outside the repository stay as given, so output does not depend on where the
    command runs.
    """
    path = Path(file).resolve()
    root = _resolved_root()
    try:
        rel = path.relative_to(root).as_posix()
    except ValueError:
        return str(file)
    head, sep, tail = rel.partition("/")
    if head.endswith("_data") and sep:
        head = head[: -len("_data")]
    return f"{head}{sep}{tail}"
