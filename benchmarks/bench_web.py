"""How long the server takes to answer a move in the browser, the bots' replies included.

For each ruleset, plays deals at a web table (one person, heuristic bots, the default) and times
what the server does for each click: the referee's checked apply, the bots playing up to the
person's next turn, the record and settings written to disk, and the next page rendered. Prints
the median, the 95th percentile and the slowest, in milliseconds (the target: under 50 ms).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import load_ruleset
from engine.render import render
from engine.web.app import _table_context
from engine.web.store import Store
from engine.web.tables import WebTable

DEALS = 12


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp))
        store.ensure()
        print(f"a move answered server-side (apply + bots + save + page), {DEALS} deals each")
        every: list[float] = []
        for name in ("quadrille", "ombre", "quadrille-a-trois", "mediateur"):
            rules = load_ruleset(name)
            table = WebTable(f"bench-{name}", rules, {}, (0,), "heuristic", seed=3)
            table.start()
            times: list[float] = []
            while len(table.party.deals) <= DEALS:
                deal = table.deal
                if deal.is_over:
                    table.next_deal(table.turn)
                    continue
                action = str(deal.legal_actions()[0])
                start = time.perf_counter()
                table.act(0, action, table.turn)
                table.save(store)
                render("web/table.j2", "html", **_table_context(table, None))
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            every.extend(times)
            p95 = times[int(len(times) * 0.95)]
            print(
                f"  {name:18} {len(times):4} moves: median {statistics.median(times):5.1f} ms, "
                f"95th percentile {p95:5.1f} ms, slowest {times[-1]:5.1f} ms"
            )
        every.sort()
        print(
            f"  all                {len(every):4} moves: median {statistics.median(every):5.1f} ms,"
            f" 95th percentile {every[int(len(every) * 0.95)]:5.1f} ms"
        )


if __name__ == "__main__":
    main()
