"""Collection settings for the whole tree: the OpenSpiel game (engine/spiel) needs the optional
extra ``[openspiel]``, which ``make test`` installs; without it its doctests are not collected
(tests/test_spiel.py says why it skips)."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("pyspiel") else ["engine/spiel"]
