"""``python -m engine``: the ``ombre`` command as its console script runs it, help cache and
all (:mod:`engine.startup`)."""

from engine.startup import main

main()
