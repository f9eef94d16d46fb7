"""How the web table holds up: one move server-side, then a real server under load.

1. For each ruleset, plays deals at a web table (one person, heuristic bots, the default) and
   times what the server does for each click: the referee's checked apply, the bots playing up
   to the person's next turn, the record and settings written to disk, and the next page
   rendered. Prints the median, the 95th percentile and the slowest, in milliseconds.
2. Starts ``ombre serve`` on the loopback address (a temporary folder) and lets 1, 8, 32 and 128
   players play at once, each at a table of their own over a kept-alive connection, clicking
   the first choice offered as fast as the server answers. Prints requests per second and the
   50th, 95th and 99th percentile of the answer time at each level.
   Then 32 and 128 players who take a second over each click (a quick player takes several):
   the answer times a table of real players sees.
3. Opens 2,000 tables and abandons them, and prints the server's resident memory before and
   after.
4. Sixty clients ask for the record of a table of 3,000 deals (about 3.5 MiB) and never read
   it: prints the server's memory before, while they wait, after the server has dropped them
   (``SEND_SECONDS``) and once they have gone, and a player's answer times meanwhile.

``--quick`` shortens every part (for a smoke run); ``--only load`` skips part 1.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEALS = 12
LEVELS = (1, 8, 32, 128)
PACED = (32, 128)
THINK = 1.0
"""The seconds a paced player takes over each click."""
ABANDONED = 2000
LONG_DEALS = 3000
SLOW_READERS = 60

_TURN = re.compile(r'name="turn" value="([^"]+)"')
_SEAT = re.compile(r'name="seat" value="(\d)"')
_ACTION = re.compile(r'name="action" value="([^"]+)"')


def server_side() -> None:
    from engine import load_ruleset
    from engine.render import render
    from engine.web.app import _table_context
    from engine.web.store import Store
    from engine.web.tables import WebTable

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


# The server under load.


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0  # pragma: no cover - not Linux


class Player:
    """One person at a table of their own, on one kept-alive connection."""

    def __init__(self, port: int, seed: int) -> None:
        self.port = port
        self.seed = seed
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Origin": f"http://127.0.0.1:{port}", "Host": f"127.0.0.1:{port}"}
        self.path = ""
        self.page = ""
        self.times: list[float] = []
        self.errors = 0

    def request(self, method: str, path: str, fields: dict[str, str] | None = None) -> str:
        """Sends one request (a redirect followed as a second request); returns the page."""
        headers = dict(self.headers)
        body = None
        if fields is not None:
            body = urlencode(fields, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        self.times.append((time.perf_counter() - start) * 1000)
        if response.status in (301, 302, 303):
            location = response.getheader("location") or "/"
            return self.request("GET", location.split("#")[0])
        if response.status >= 400:  # counted, and shown beside the figures
            self.errors += 1
        self.last_location = path
        return text

    def sit_down(self) -> None:
        self.page = self.request(
            "POST",
            "/tables",
            {"ruleset": "quadrille", "mode": "bots", "seat": "0", "seed": str(self.seed)},
        )
        self.path = self.last_location

    def click(self) -> None:
        page = self.page
        turn = _TURN.search(page)
        if turn is None:
            self.page = self.request("GET", self.path)
            return
        if 'id="next-deal"' in page or 'id="result"' in page:
            self.page = self.request("POST", self.path + "/next", {"turn": turn[1]})
            return
        seat = _SEAT.search(page)
        seat_value = seat[1] if seat else "0"
        if 'name="verb" value="discard"' in page:
            fields = {"seat": seat_value, "turn": turn[1], "verb": "discard"}
        else:
            action = _ACTION.search(page)
            if action is None:
                self.page = self.request("GET", self.path)
                return
            fields = {"seat": seat_value, "turn": turn[1], "action": action[1]}
        self.page = self.request("POST", self.path + "/act", fields)


def _level(
    port: int, players: int, seconds: float, think: float = 0.0
) -> tuple[int, list[float], int]:
    # The web takes seeds 0 to 9999.
    crowd = [Player(port, (100 * players + k) % 10_000) for k in range(players)]
    stop = time.monotonic() + seconds
    ready = threading.Barrier(players + 1)

    def run(player: Player) -> None:
        player.sit_down()
        player.times.clear()
        ready.wait()
        if think:  # the players do not all click in the same instant
            time.sleep(think * (player.seed % 97) / 97)
        while time.monotonic() < stop:
            player.click()
            if think:
                time.sleep(think)

    threads = [threading.Thread(target=run, args=(p,), daemon=True) for p in crowd]
    for t in threads:
        t.start()
    ready.wait()
    began = time.monotonic()
    stop = began + seconds
    for t in threads:
        t.join()
    elapsed = time.monotonic() - began
    times = sorted(t for p in crowd for t in p.times)
    for p in crowd:
        p.conn.close()
    return int(len(times) / elapsed), times, sum(p.errors for p in crowd)


def under_load(seconds: float, abandoned: int, long_deals: int) -> None:
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        long_ident = _long_table(Path(tmp) / "home", long_deals)
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "engine.cli",
                "serve",
                "--port",
                str(port),
                "--folder",
                str(Path(tmp) / "home"),
                # Every player of the benchmark comes from this machine's one address.
                "--per-client",
                "512",
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            # Warm up: the first page of a ruleset loads it.
            Player(port, 1).sit_down()
            print(
                f"\nombre serve on 127.0.0.1 under load: players clicking for {seconds:g} s "
                "each at a table of their own"
            )
            for players in LEVELS:
                _print_level(players, *_level(port, players, seconds))
            print(f"  players taking {THINK:g} s over each click, for {2 * seconds:g} s:")
            for players in PACED:
                _print_level(players, *_level(port, players, 2 * seconds, THINK))
            before = _rss_kib(server.pid)
            opener = Player(port, 7)
            for k in range(abandoned):
                opener.seed = 5000 + k % 5000
                opener.sit_down()
            opener.conn.close()
            time.sleep(1.0)
            after = _rss_kib(server.pid)
            print(
                f"  server memory: {before / 1024:.0f} MiB, after {abandoned} abandoned tables "
                f"{after / 1024:.0f} MiB ({(after - before) / 1024:+.0f} MiB)"
            )
            _slow_readers(port, server.pid, long_ident)
        finally:
            server.terminate()
            server.wait(20)


def _print_level(players: int, rate: int, times: list[float], errors: int) -> None:
    def pct(q: float) -> float:
        return times[min(len(times) - 1, int(len(times) * q))]

    print(
        f"  {players:3} player{'s' if players > 1 else ' '}: {rate:5d} requests/s, "
        f"p50 {pct(0.50):6.1f} ms, p95 {pct(0.95):6.1f} ms, p99 {pct(0.99):6.1f} ms"
        + (f"  ({errors} answered 4xx/5xx)" if errors else "")
    )


def _long_table(folder: Path, deals: int) -> str:
    """Saves a table of ``deals`` finished deals (bots in every seat) in the server's folder."""
    from engine import load_ruleset
    from engine.web.store import Store
    from engine.web.tables import WebTable

    store = Store(folder)
    store.ensure()
    table = WebTable("quadrille-long01", load_ruleset("quadrille"), {}, (), seed=4)
    table.start()
    while len(table.party.deals) <= deals:
        table.next_deal(table.turn)
    table.save(store, settings=True)
    return table.ident


def _slow_readers(port: int, pid: int, ident: str) -> None:
    from engine.web.server import SEND_SECONDS

    path = f"/tables/{ident}/record.yaml"
    whole = Player(port, 11)
    size = len(whole.request("GET", path))  # loads the table: the first reading replays it
    whole.conn.close()
    before = _rss_kib(pid)
    readers = []
    for _ in range(SLOW_READERS):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        readers.append(sock)
    time.sleep(3.0)
    waiting = _rss_kib(pid)
    player = Player(port, 12)
    player.sit_down()
    player.times.clear()
    for _ in range(40):
        player.click()
    times = sorted(player.times)
    time.sleep(SEND_SECONDS)
    dropped = _rss_kib(pid)
    for sock in readers:
        sock.close()
    player.conn.close()
    time.sleep(1.0)
    gone = _rss_kib(pid)
    print(
        f"  {SLOW_READERS} clients asking for a {size / 1024 / 1024:.1f} MiB record and reading "
        f"none of it: server memory {before / 1024:.0f} MiB before, {waiting / 1024:.0f} MiB "
        f"while they wait, {dropped / 1024:.0f} MiB after {SEND_SECONDS:g} s (dropped), "
        f"{gone / 1024:.0f} MiB once they have gone"
    )
    print(f"  a player meanwhile: p50 {times[len(times) // 2]:.1f} ms, slowest {times[-1]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--only", choices=("move", "load"), help="run one part only")
    args = parser.parse_args()
    if args.only != "load":
        server_side()
    if args.only != "move":
        under_load(
            2.0 if args.quick else 10.0,
            100 if args.quick else ABANDONED,
            300 if args.quick else LONG_DEALS,
        )


if __name__ == "__main__":
    main()
