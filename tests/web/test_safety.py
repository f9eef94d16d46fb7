"""Safe for a real evening (issue 20): hidden cards stay hidden, nothing entered is lost, and
no request breaks the server. Each test reproduces a finding and fails without its fix."""

from __future__ import annotations

import errno
import os
import re
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")

from starlette.testclient import TestClient

import engine.web.store
from engine.records import parse_record
from engine.web import app as web_app
from engine.web.app import WebPolicy, create_app
from engine.web.store import Store
from tests.web.conftest import LiveServer
from tests.web.test_app import SAME_ORIGIN, play_out, turn_of, version_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)


def table(client: TestClient, ruleset: str = "ombre", mode: str = "bots", seed: int = 3) -> Any:
    return client.post(
        "/tables", data={"ruleset": ruleset, "mode": mode, "seat": "0", "seed": str(seed)}
    )


# Hidden information.


@pytest.mark.parametrize("mode", ["bots", "hotseat"])
def test_the_record_hides_every_hand_until_the_deal_is_over(
    client: TestClient, tmp_path: Path, mode: str
) -> None:
    r = table(client, "ombre", mode)
    path, page = str(r.url.path), r.text
    saved = parse_record((tmp_path / "tables" / f"{path.rsplit('/', 1)[1]}.yaml").read_text())
    hidden = {c for h in saved.deals[0].hands[1:] for c in h} | set(saved.deals[0].talon or ())
    mid = client.get(path + "/record.yaml")
    assert mid.status_code == 409 and "once the deal" in mid.text
    assert "hands:" not in mid.text and not any(f">{c}<" in mid.text for c in hidden)
    assert 'href="' + path + '/record.yaml"' not in page
    # The page shows the viewer's hand only: none of the others' cards, nor the talon.
    shown = set(
        re.findall(r'data-card="(\w\w)"', page.split('id="hand"')[1].split("</section>")[0])
    )
    viewer = int(re.search(r'name="seat" value="(\d)"', page)[1])  # type: ignore[index]
    assert shown <= set(saved.deals[0].hands[viewer])
    # Once the deal is over the whole record is given, the same as the file the server keeps.
    end = play_out(client, path, page, {"0", "1", "2"})
    ident = path.rsplit("/", 1)[1]
    done = client.get(path + "/record.yaml")
    assert done.status_code == 200
    assert done.text == (tmp_path / "tables" / f"{ident}.yaml").read_text()
    # The next deal's hands are not in it while it is played.
    page = client.post(path + "/next", data={"turn": turn_of(end)}).text
    record = parse_record(client.get(path + "/record.yaml").text)
    assert len(record.deals) == 1 and "the deals played" in page


# Nothing entered is lost: names, failed saves, stale tabs, two servers, devices.


@pytest.mark.parametrize(
    ("bad", "code"),
    [
        ("\x80", "U+0080"),
        ("Jo\x9fe", "U+009F"),
        ("\ufffe", "U+FFFE"),
        ("A\uffff", "U+FFFF"),
        ("tab\there", "U+0009"),
        ("\x00", "U+0000"),
    ],
)
def test_a_name_that_cannot_be_saved_is_refused_when_entered(
    client: TestClient, tmp_path: Path, bad: str, code: str
) -> None:
    fields = {"ruleset": "quadrille", "dealer": "0", "title": "Longbourn", "player0": "Anne"}
    r = client.post("/evenings", data={**fields, "player1": bad})
    assert r.status_code == 400
    assert code in r.text
    assert 'value="Longbourn"' in r.text and 'value="Anne"' in r.text  # the form kept
    assert not list((tmp_path / "evenings").glob("*.yaml"))
    r = client.post("/evenings", data={**fields, "title": "Thursday" + bad})
    assert r.status_code == 400 and "the title" in r.text


@pytest.mark.parametrize("odd", ["a\x85b", "line\u2028sep", "\ufeffbom", "Zoë 😀", "\U0001fffe"])
def test_what_is_accepted_reads_back(tmp_path: Path, odd: str) -> None:
    client = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    r = client.post(
        "/evenings", data={"ruleset": "quadrille", "title": odd, "player2": odd, "player0": "A"}
    )
    assert r.status_code == 200
    again = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    page = again.get(str(r.url.path))
    assert page.status_code == 200
    state = again.app.state.web  # type: ignore[attr-defined]
    evening = state.evening(str(r.url.path).rsplit("/", 1)[1])
    assert evening.title == odd and evening.players[2] == odd


def test_score_players_refuses_what_cannot_be_saved(tmp_path: Path) -> None:
    evening = tmp_path / "e.yaml"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine.cli",
            "score",
            "quadrille",
            "--evening",
            str(evening),
            "--players",
            "Anne,B\x81a,Cass,Dora",
        ],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2 and "U+0081" in run.stderr and "Traceback" not in run.stderr
    assert not evening.exists()


def _evening(client: TestClient) -> tuple[str, str]:
    r = client.post("/evenings", data={"ruleset": "quadrille", "dealer": "0"})
    return str(r.url.path), r.text


DEAL = {
    "dealer": "0",
    "contract": "ask",
    "declarer": "1",
    "trump": "clubs",
    "called": "Kd",
    "holder": "3",
    "matadors": "0",
    "tricks0": "1",
    "tricks1": "3",
    "tricks2": "3",
    "tricks3": "3",
}


def _fail_writes(monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    def refuse(path: Path, text: str) -> None:
        raise OSError(code, os.strerror(code), str(path))

    monkeypatch.setattr(engine.web.store, "write_durably", refuse)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_a_failed_save_changes_nothing_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    client = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    path, page = _evening(client)
    data = {**DEAL, "count": "0", "version": version_of(page)}
    with monkeypatch.context() as patch:
        _fail_writes(patch, code)
        r = client.post(path + "/deals", data=data)
        assert r.status_code == 503 and 'id="not-saved"' in r.text
        assert os.strerror(code) in r.text
        # What was typed is still in the form; nothing was scored.
        assert 'name="tricks1" min="0" max="10" value="3"' in r.text
        assert '<option value="ask" selected>' in r.text
        assert 'data-seat="0">0<' in r.text
        assert client.get(path).text.count('class="deal"') == 0
    # Sent again once the disk has room: scored (not "already entered"), and saved.
    r = client.post(path + "/deals", data=data)
    assert r.status_code == 200 and 'data-seat="0">-14<' in r.text
    fresh = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    assert 'data-seat="0">-14<' in fresh.get(path).text
    assert not list(tmp_path.rglob("*.tmp"))


def test_a_move_that_cannot_be_saved_is_not_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    r = table(client, "quadrille", seed=4)
    path, page = str(r.url.path), r.text
    action = re.search(r'name="action" value="([^"]+)"', page)
    assert action
    with monkeypatch.context() as patch:
        _fail_writes(patch, errno.ENOSPC)
        r = client.post(
            path + "/act", data={"seat": "0", "turn": turn_of(page), "action": action[1]}
        )
        assert r.status_code == 503 and 'id="not-saved"' in r.text
        assert turn_of(r.text) == turn_of(page)  # the table as it was
    r = client.post(path + "/act", data={"seat": "0", "turn": turn_of(page), "action": action[1]})
    assert r.status_code == 200 and turn_of(r.text) != turn_of(page)
    # A new table that cannot be saved leaves no file behind.
    with monkeypatch.context() as patch:
        _fail_writes(patch, errno.EROFS)
        r = table(client, "quadrille", seed=5)
        assert r.status_code == 503 and "Read-only" in r.text
    assert len(list((tmp_path / "tables").glob("*.json"))) == 1


def test_a_stale_tabs_undo_is_refused(client: TestClient) -> None:
    path, page = _evening(client)
    first = client.post(path + "/deals", data={**DEAL, "count": "0", "version": version_of(page)})
    stale = first.text  # tab A: one deal
    # Tab B takes the deal back and enters another one in its place.
    undone = client.post(path + "/undo", data={"count": "1", "version": version_of(stale)}).text
    other = {**DEAL, "declarer": "2", "count": "0", "version": version_of(undone)}
    assert client.post(path + "/deals", data=other).status_code == 200
    # Tab A's Undo names the version it was drawn from: refused, the other deal kept.
    r = client.post(path + "/undo", data={"count": "1", "version": version_of(stale)})
    assert r.status_code == 409 and "moved on" in r.text
    assert client.get(path).text.count('class="deal"') == 1
    assert "by seat 2" in client.get(path).text
    # A form without a version is not understood.
    assert client.post(path + "/undo", data={"count": "1"}).status_code == 400


def test_a_second_server_on_the_folder_says_so_and_exits(tmp_path: Path) -> None:
    lock = Store(tmp_path).lock()
    try:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "engine.cli",
                "serve",
                "--folder",
                str(tmp_path),
                "--port",
                str(port),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        lock.close()
    assert run.returncode == 2, run.stderr
    assert "used by another ombre serve" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_play_record_force_writes_only_over_regular_files(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine.cli",
            "play",
            "quadrille",
            "--auto",
            "--seed",
            "1",
            "--record",
            str(fifo),
            "--force",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode != 0 and "not a regular file" in run.stderr, run.stderr
    assert fifo.is_fifo()


def test_a_durable_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    import resource
    import signal

    from engine.files import NotARegularFile, write_durably

    target = tmp_path / "evening.yaml"
    write_durably(target, "old\n")
    # A real refusal by the kernel: a file size limit (as a full disk would refuse).
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64, hard))
    try:
        with pytest.raises(OSError):
            write_durably(target, "x" * 10_000)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["evening.yaml"]
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(NotARegularFile):
        write_durably(tmp_path / "fifo", "x")
    assert (tmp_path / "fifo").is_fifo()


# Requests the server must survive.


def test_a_nul_in_a_book_path_is_not_found(client: TestClient) -> None:
    for path in ("/book/%00", "/book/books/%00.html", "/book/%C0%AE", "/book/" + "a" * 5000):
        assert client.get(path).status_code == 404


@pytest.mark.parametrize("digit", ["²", "⁵", "٣", "１"])
def test_digits_of_other_scripts_are_not_numbers(client: TestClient, digit: str) -> None:
    base = {"ruleset": "quadrille", "mode": "bots"}
    assert client.post("/tables", data={**base, "seed": digit}).status_code == 400
    assert client.post("/tables", data={**base, "seat": digit}).status_code == 400
    r = table(client, "quadrille", seed=4)
    path, page = str(r.url.path), r.text
    assert (
        client.post(
            path + "/act", data={"seat": digit, "turn": turn_of(page), "action": "pass"}
        ).status_code
        == 400
    )
    assert (
        client.post("/evenings", data={"ruleset": "quadrille", "dealer": digit}).status_code == 400
    )
    epath, epage = _evening(client)
    version = version_of(epage)
    for key in ("count", "dealer", "tricks2", "matadors", "declarer", "holder", "highest_trump"):
        data = {**DEAL, "count": "0", "version": version, key: digit}
        assert client.post(epath + "/deals", data=data).status_code == 400, key
    assert (
        client.post(epath + "/undo", data={"count": digit, "version": version}).status_code == 400
    )
    headers = {
        "content-type": "application/x-www-form-urlencoded",
        "content-length": digit.encode(),
    }
    assert client.post(epath + "/undo", content=b"", headers=headers).status_code == 400


@pytest.mark.parametrize(
    "settings",
    [
        '{"ruleset": "quadrille", "humans": [0], "seed": 1e400}',
        '{"ruleset": "quadrille", "humans": [0], "seed": NaN}',
        '{"ruleset": "quadrille", "humans": [0], "seed": 1, "created": "x"}',
        '{"a": ' * 100_000 + "1" + "}" * 100_000,
        "[" * 100_000 + "]" * 100_000,
    ],
)
def test_a_damaged_settings_file_is_named(tmp_path: Path, settings: str) -> None:
    client = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    path = str(table(client, "quadrille").url.path)
    target = next((tmp_path / "tables").glob("*.json"))
    target.write_text(settings)
    fresh = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    r = fresh.get(path)
    assert r.status_code == 409
    assert "A saved file is damaged" in r.text and str(target) in r.text


def test_a_damaged_evening_is_named(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    path, _ = _evening(client)
    target = next((tmp_path / "evenings").glob("*.yaml"))
    target.write_text('ruleset: quadrille\ntitle: "\\u0081"\ndeals: [' * 1 + "]\n")
    fresh = TestClient(create_app(tmp_path), follow_redirects=True, headers=SAME_ORIGIN)
    r = fresh.get(path)
    assert r.status_code == 409 and str(target) in r.text


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"origin": "null"}, 403),
        ({}, 403),
        ({"origin": "http://testserver:8001"}, 403),
        ({"origin": "https://testserver"}, 403),
        ({"origin": "http://evil.example"}, 403),
        ({"origin": "http://testserver", "sec-fetch-site": "cross-site"}, 403),
        ({"origin": "http://testserver", "sec-fetch-site": "same-site"}, 403),
        ({"sec-fetch-site": "same-origin"}, 200),
        ({"origin": "http://testserver"}, 200),
    ],
)
def test_a_state_change_needs_a_same_origin_signal(
    tmp_path: Path, headers: dict[str, str], status: int
) -> None:
    client = TestClient(create_app(tmp_path), follow_redirects=True)
    r = client.post(
        "/tables",
        data={"ruleset": "quadrille", "mode": "bots", "seed": "4"},
        headers=headers,
    )
    assert r.status_code == status
    assert (tmp_path / "tables").is_dir()
    assert len(list((tmp_path / "tables").glob("*.json"))) == (status == 200)


def test_every_answer_refuses_framing_and_sniffing(client: TestClient) -> None:
    answers = [
        client.get("/"),
        client.get("/style.css"),
        client.get("/nothing"),
        client.get("/tables/nothing-here"),
        client.get("/", headers={"host": "evil.example"}),
        client.post("/tables", data={}, headers={"origin": "null"}),
        client.put("/"),
    ]
    for r in answers:
        assert r.headers["x-content-type-options"] == "nosniff", r.url
        assert r.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert r.status_code < 500
        assert "<html" in r.text or r.headers["content-type"].startswith("text/css")


def test_the_hosts_the_operator_names_are_served(tmp_path: Path) -> None:
    app = create_app(tmp_path, allowed_hosts=["127.0.0.1", "localhost", "club.local"])
    client = TestClient(app, base_url="http://club.local:8000", follow_redirects=True)
    r = client.post(
        "/tables",
        data={"ruleset": "quadrille", "mode": "bots", "seed": "4"},
        headers={"origin": "http://club.local:8000"},
    )
    assert r.status_code == 200 and "/tables/" in str(r.url)
    assert client.get("/", headers={"host": "other.local:8000"}).status_code == 421


def test_serve_on_every_network_needs_the_names(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine.cli",
            "serve",
            "--host",
            "0.0.0.0",
            "--folder",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2 and "--allow-host" in run.stderr


# Load: work off the event loop; a bounded number of tables in memory.


def test_handlers_run_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    seen: list[bool] = []
    original = web_app.ROUTES[0][1].handler

    def home(state: Any, request: Any, form: Any) -> Any:
        try:
            asyncio.get_running_loop()
            seen.append(True)
        except RuntimeError:
            seen.append(False)
        return original(state, request, form)

    monkeypatch.setattr(web_app, "ROUTES", [("/", web_app.Endpoint(home)), *web_app.ROUTES[1:]])
    client = TestClient(create_app(tmp_path))
    assert client.get("/").status_code == 200
    assert seen == [False]


def test_tables_are_dropped_from_memory_and_read_back(tmp_path: Path) -> None:
    policy = WebPolicy(max_tables=2, finished_seconds=0.0)
    app = create_app(tmp_path, policy=policy)
    client = TestClient(app, follow_redirects=True, headers=SAME_ORIGIN)
    state = app.state.web
    pages = {}
    for seed in range(1, 6):
        r = table(client, "quadrille", seed=seed)
        pages[str(r.url.path)] = r.text
        assert len(state.tables) <= 2
    for path, page in pages.items():
        again = client.get(path).text
        assert turn_of(again) == turn_of(page)
        hand = re.findall(r'data-card="(\w\w)"', again.split('id="hand"')[1])
        assert hand == re.findall(r'data-card="(\w\w)"', page.split('id="hand"')[1])
    assert len(state.tables) <= 2
    # A table whose deal is over is dropped once idle (here: at once), and read back.
    path = next(iter(pages))
    end = play_out(client, path, client.get(path).text, {"0"})
    client.get("/")
    state.sweep()
    assert path.rsplit("/", 1)[1] not in state.tables
    assert turn_of(client.get(path).text) == turn_of(end)


def test_a_table_per_player_of_128_stays_in_memory() -> None:
    """128 players, each at a table of his own, are all kept in memory: were fewer kept, every
    click would read a table back from its file and replay it (the cost that made the server
    slow at 128 players)."""
    assert WebPolicy().max_tables >= 128


def test_the_deals_held_in_memory_are_bounded_too(tmp_path: Path) -> None:
    """Past ``max_deals`` deals held in all, the least recently used tables are dropped (and
    read back when asked for), however few they are: a few very long tables cannot fill the
    memory."""
    policy = WebPolicy(max_deals=2, finished_seconds=600.0)
    app = create_app(tmp_path, policy=policy)
    client = TestClient(app, follow_redirects=True, headers=SAME_ORIGIN)
    state = app.state.web
    first = table(client, "quadrille", seed=1)
    path = str(first.url.path)
    ident = path.rsplit("/", 1)[1]
    end = play_out(client, path, first.text, {"0"})
    page = client.post(path + "/next", data={"turn": turn_of(end)}).text
    assert len(state.tables[ident].party.deals) == 2
    other = table(client, "quadrille", seed=2)  # a third deal in memory: one too many
    assert ident not in state.tables and str(other.url.path).rsplit("/", 1)[1] in state.tables
    assert turn_of(client.get(path).text) == turn_of(page)  # read back as it was


# The live server: bounded bodies, slow clients.


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path, request_seconds=1.0).start()
    yield server
    server.stop()


def test_a_chunked_body_is_bounded_while_it_is_read(quick_server: LiveServer) -> None:
    head = (
        f"POST /evenings HTTP/1.1\r\nHost: 127.0.0.1:{quick_server.port}\r\n"
        f"Origin: http://127.0.0.1:{quick_server.port}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    chunk = b"%x\r\n%s\r\n" % (65536, b"a" * 65536)
    sent = 0
    answer = b""
    with socket.create_connection(("127.0.0.1", quick_server.port), timeout=10) as s:
        s.sendall(head)
        deadline = time.monotonic() + 20
        while sent < 400 * 1024 * 1024 and time.monotonic() < deadline:
            readable, _, _ = select.select([s], [], [], 0)
            if readable:
                answer = s.recv(65536)
                break
            try:
                s.sendall(chunk)
            except OSError:
                break
            sent += len(chunk)
        if not answer:
            s.settimeout(5)
            answer = s.recv(65536)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert sent < 16 * 1024 * 1024


def test_half_sent_requests_time_out(quick_server: LiveServer) -> None:
    port = quick_server.port
    hanging = []
    for k in range(30):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        if k % 2:
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the head never ends
        else:
            s.sendall(
                f"POST /evenings HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Origin: http://127.0.0.1:{port}\r\n"
                "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n"
                "ruleset=q".encode()  # the body never ends
            )
        hanging.append(s)
    time.sleep(2.5)
    closed = 0
    for s in hanging:
        s.settimeout(5)
        try:
            data = s.recv(4096)
            closed += data == b"" or data.startswith(b"HTTP/1.1 4")
        except OSError:
            closed += 1
        s.close()
    assert closed == len(hanging)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        assert s.recv(64).startswith(b"HTTP/1.1 200")


def test_one_client_holds_at_most_its_share_of_connections(tmp_path: Path) -> None:
    """Past its share of connections, a client's new connection is closed as it opens; another
    client (here 127.0.0.2) is answered all the while, and a connection given back is free."""
    server = LiveServer(tmp_path, per_client=8).start()
    try:
        port = server.port
        held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(8)]
        time.sleep(0.3)
        with socket.create_connection(("127.0.0.1", port), timeout=2) as extra:
            try:
                refused = extra.recv(64) == b""  # closed at once (the deadline is 10 s)
            except TimeoutError:  # held open: not refused
                refused = False
            except OSError:  # reset: closed as it opened
                refused = True
        assert refused

        def answered(source: str) -> bytes:
            with socket.create_connection(
                ("127.0.0.1", port), timeout=10, source_address=(source, 0)
            ) as s:
                s.sendall(
                    f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
                )
                return s.recv(64)

        assert answered("127.0.0.2").startswith(b"HTTP/1.1 200")
        held.pop().close()
        time.sleep(0.3)
        assert answered("127.0.0.1").startswith(b"HTTP/1.1 200")
        for s in held:
            s.close()
    finally:
        server.stop()


def test_requests_waiting_for_one_table_leave_the_workers_to_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fifty requests for one table whose answer is held up wait their turn without taking
    the server's worker threads (there are 40): another table is answered meanwhile."""
    import http.client
    import threading

    from engine.web.app import AppState

    release = threading.Event()
    real = AppState.table

    def table(self: AppState, ident: str) -> Any:
        if ident == "quadrille-slow00":
            release.wait(30)
            raise KeyError(ident)
        return real(self, ident)

    monkeypatch.setattr(AppState, "table", table)
    server = LiveServer(tmp_path).start()
    try:
        port = server.port
        made = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        made.request(
            "POST",
            "/tables",
            body="ruleset=quadrille&mode=bots&seat=0&seed=3",
            headers={
                "Origin": f"http://127.0.0.1:{port}",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        answer = made.getresponse()
        assert answer.status == 303
        other = answer.getheader("location")
        made.close()

        def ask_slow() -> None:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=40)
            try:
                c.request("GET", "/tables/quadrille-slow00")
                c.getresponse().read()
            except OSError:
                pass
            finally:
                c.close()

        waiting = [threading.Thread(target=ask_slow, daemon=True) for _ in range(50)]
        for t in waiting:
            t.start()
        time.sleep(1.0)
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=8)
        try:
            c.request("GET", str(other))
            assert c.getresponse().status == 200  # not stuck behind the fifty
        finally:
            c.close()
            release.set()
            for t in waiting:
                t.join(40)
    finally:
        release.set()
        server.stop()


def test_serve_prints_the_names_it_answers(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [sys.executable, "-m", "engine.cli", "serve", "--folder", str(tmp_path)]
    command += ["--port", str(port), "--host", "127.0.0.1", "--allow-host", "club.local"]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as proc:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]
        proc.terminate()
        proc.wait(20)
    assert any("club.local" in line for line in lines), lines
    assert (tmp_path / ".lock").is_file()


def test_the_terminal_scorekeeper_keeps_the_evening_when_the_disk_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.scoreterm
    from engine import load_ruleset
    from engine.scoresheet import Evening, load_evening
    from engine.scoreterm import run_score

    answers = iter(["ask", "1", "clubs", "Kd", "3", "1 3 3 3", "0", "n"] * 2 + ["quit"])
    out: list[str] = []
    path = tmp_path / "thursday.yaml"
    evening = Evening(load_ruleset("quadrille"))
    real = engine.scoreterm.write_durably
    calls = {"n": 0}

    def first_refused(target: Path, text: str) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))
        real(target, text)

    monkeypatch.setattr(engine.scoreterm, "write_durably", first_refused)
    run_score(evening, path, lambda prompt: next(answers) + "\n", out.append)
    text = "\n".join(out)
    assert "Not saved" in text and os.strerror(errno.ENOSPC) in text
    # The refused deal was not scored; the same deal entered again was, and saved.
    assert len(evening.deals) == 1
    assert len(load_evening(path, load_ruleset).deals) == 1


def _saved_long_table(folder: Path, deals: int) -> tuple[str, str]:
    """A table of ``deals`` finished deals (bots in every seat) saved in ``folder``: its ident
    and the record anyone at it may have."""
    from engine import load_ruleset
    from engine.web.store import Store
    from engine.web.tables import WebTable

    store = Store(folder)
    store.ensure()
    table = WebTable("quadrille-slow01", load_ruleset("quadrille"), {}, (), seed=4)
    table.start()
    while len(table.party.deals) <= deals:
        table.next_deal(table.turn)
    table.save(store, settings=True)
    public = table.public_record()
    assert public is not None
    return table.ident, public


def _read_all(s: socket.socket) -> bytes:
    got = b""
    try:
        while piece := s.recv(65536):
            got += piece
    except OSError:  # reset: the server dropped the answer
        pass
    return got


def test_an_answer_nobody_reads_is_dropped_and_a_read_one_arrives_whole(tmp_path: Path) -> None:
    """A long table's record is streamed: read, it arrives whole (the record the table gives);
    not read for longer than the server's SEND_SECONDS, it is dropped and the connection
    closed, so that what it held is given back."""
    ident, public = _saved_long_table(tmp_path, 150)
    server = LiveServer(tmp_path, send_seconds=1.0, send_buffer=4096).start()
    try:
        ask = (
            f"GET /tables/{ident}/record.yaml HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Connection: close\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", server.port), timeout=20) as s:
            s.sendall(ask)
            whole = _read_all(s)
        head, _, body = whole.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        assert b"transfer-encoding: chunked" in head.lower()
        text = b"".join(_chunks(body)).decode("utf-8")
        assert text == public and len(text) > 150_000
        with socket.socket() as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.settimeout(20)
            s.connect(("127.0.0.1", server.port))
            s.sendall(ask)
            time.sleep(4.0)  # reads nothing for four times the server's patience
            dropped = _read_all(s)
        assert len(dropped) < len(whole) // 2
    finally:
        server.stop()


def _chunks(body: bytes) -> Iterator[bytes]:
    while body:
        size, _, rest = body.partition(b"\r\n")
        n = int(size, 16)
        if n == 0:
            return
        yield rest[:n]
        body = rest[n + 2 :]


def test_a_table_held_up_never_holds_up_another(tmp_path: Path) -> None:
    """Each name has its lock of its own: while one table's lock is held (its request slow),
    a request for any other table takes its own at once, whatever the two names; the same
    name waits its turn; a lock no request holds is forgotten."""
    import threading

    from engine.web.app import AppState
    from engine.web.store import Store

    state = AppState(Store(tmp_path))
    held = threading.Event()
    release = threading.Event()

    def slow() -> None:
        with state.hold("quadrille-slow00"):
            held.set()
            release.wait(10)

    worker = threading.Thread(target=slow)
    worker.start()
    assert held.wait(5)
    try:

        def other(name: str, done: threading.Event) -> None:
            with state.hold(name):
                done.set()

        for k in range(200):  # names of every hash: none waits on the slow one
            done = threading.Event()
            threading.Thread(target=other, args=(f"quadrille-{k:06x}", done)).start()
            assert done.wait(2), k
        same = threading.Event()

        def again() -> None:
            with state.hold("quadrille-slow00"):
                same.set()

        threading.Thread(target=again).start()
        assert not same.wait(0.3)  # the same table waits its turn
    finally:
        release.set()
        worker.join(5)
    assert same.wait(5)
    time.sleep(0.1)
    assert not state._names._held  # nothing held, nothing kept
