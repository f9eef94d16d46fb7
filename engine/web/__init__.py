"""The workbench in a browser: a table to play at and a scorekeeper (``ombre serve``).

:mod:`engine.web.store` keeps every table and evening as records in a folder the user can see;
:mod:`engine.web.tables` runs a table (the referee decides, bots play their seats);
:mod:`engine.web.app` is the Starlette application that renders the pages from
``templates/web/``. Starlette and uvicorn come with the optional extra
``ombre-workbench[web]``; nothing here is imported by the rest of the engine.
"""

from __future__ import annotations

__all__: list[str] = []
