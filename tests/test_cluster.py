"""``ombre simulate --ray``: a run's blocks played on Ray (engine.cluster), the same results as
``--jobs``, a lost worker's block played again and counted once.

The Ray tests are in the slow tier and skip where Ray (the extra ``[ray]``) is not installed;
they start one local instance of two cores for the module, its files in a temporary folder.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import cluster
from engine.rules import load_ruleset
from engine.simulate import TIMING_FIELDS, Played, Setup, play_block, run, settled_deals
from tests.cli_helpers import invoke

ROOT = Path(__file__).resolve().parent.parent


def _untimed(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k not in TIMING_FIELDS}


# Without a cluster.


def test_importing_the_engine_and_the_cli_does_not_import_ray() -> None:
    code = (
        "import sys, engine.simulate, engine.compare, engine.cluster, engine.cli; "
        "print('ray' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip() == "False"


def test_ray_without_the_extra_says_which_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "available", lambda: False)
    for extra in ([], ["--against", "quadrille-contre"]):
        result = invoke("simulate", "quadrille", "-n", "10", "--ray", "auto", *extra)
        assert result.exit_code == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1
        assert "ombre-workbench[ray]" in lines[0]
        assert "--ray" in lines[0]


def test_ray_without_the_extra_in_json_is_one_error_document(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cluster, "available", lambda: False)
    result = invoke("simulate", "quadrille", "-n", "10", "--ray", "auto", "--json")
    assert result.exit_code == 2
    assert "ombre-workbench[ray]" in json.loads(result.stdout)["error"]["message"]


def test_jobs_goes_with_a_local_instance_only() -> None:
    result = invoke("simulate", "quadrille", "-n", "10", "--ray", "head:6379", "--jobs", "2")
    assert result.exit_code == 2
    assert "--jobs" in result.stderr and "--ray local" in result.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_address_where_no_cluster_answers_is_said_at_once() -> None:
    if not cluster.available():
        pytest.skip("Ray (the extra [ray]) is not installed")
    address = f"127.0.0.1:{_free_port()}"
    result = invoke("simulate", "quadrille", "-n", "10", "--ray", address)
    assert result.exit_code == 2
    assert f"--ray {address}: no Ray cluster answers there" in result.stderr
    result = invoke("simulate", "quadrille", "-n", "10", "--ray", "head-without-port")
    assert result.exit_code == 2
    assert "--ray takes host:port" in result.stderr


def test_a_setup_travels_pickled_and_plays_the_same_block() -> None:
    rules = load_ruleset("quadrille")
    setup = Setup(rules, ("heuristic", "random", "heuristic", "random"), 7, {})
    again = cluster.loads_setup(cluster.dumps_setup(setup))
    assert again.rules.id == "quadrille" and again.bots == setup.bots
    assert play_block(again, 1, 300) == play_block(setup, 1, 300)


# On a local Ray instance.


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    if ray.is_initialized():  # pragma: no cover - another module's instance
        ray.shutdown()
    # A short folder of its own: Ray's socket paths must stay under the system's limit.
    folder = tempfile.mkdtemp(prefix="ombre-ray-")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        logging_level="warning",
        _temp_dir=folder,
    )
    try:
        yield ray
    finally:
        ray.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


SIMULATE = ["simulate", "quadrille", "-n", "700", "--seed", "5", "--bots", "random,heuristic"]


@pytest.mark.slow
def test_simulate_on_ray_reports_what_jobs_2_reports(ray_instance: Any) -> None:
    args = [*SIMULATE[:-1], "random,heuristic,random,heuristic", "--json"]
    on_ray = invoke(*args, "--ray", "auto")
    on_jobs = invoke(*args, "--jobs", "2")
    assert on_ray.exit_code == on_jobs.exit_code == 0, on_ray.stderr
    ray_json, jobs_json = json.loads(on_ray.stdout), json.loads(on_jobs.stdout)
    assert _untimed(ray_json) == _untimed(jobs_json)
    assert ray_json["deals"] == sum(ray_json["results"].values()) == 700
    assert ray_json["jobs"] == 2  # the instance's cores


@pytest.mark.slow
def test_against_on_ray_reports_what_jobs_2_reports(ray_instance: Any) -> None:
    args = ["simulate", "quadrille", "--against", "quadrille-contre", "-n", "600", "--seed", "3"]
    args += ["--bots", "random", "--json"]
    on_ray = invoke(*args, "--ray", "auto")
    on_jobs = invoke(*args, "--jobs", "2")
    assert on_ray.exit_code == on_jobs.exit_code == 0, on_ray.stderr
    assert on_ray.stdout == on_jobs.stdout


def _fail_once(folder: str, failing: int, setup: Setup, block: int, deals: int) -> list[Played]:
    """A block's play whose worker dies (its process ends at once, as a lost node's) the first
    time it plays block ``failing``; the marker in ``folder`` says it did."""
    if block == failing:
        try:
            with open(os.path.join(folder, f"block-{block}"), "x", encoding="utf-8"):
                pass
        except FileExistsError:
            pass  # the second attempt plays
        else:
            os._exit(1)
    return play_block(setup, block, deals)


@pytest.mark.slow
def test_a_lost_worker_is_retried_and_no_deal_counts_twice(
    ray_instance: Any, tmp_path: Path
) -> None:
    ray_instance.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    rules = load_ruleset("quadrille")
    setup = Setup(rules, ("random", "heuristic", "random", "heuristic"), 11, {})
    deals = 4 * setup.block + 17  # five blocks, the last short
    failing = 2
    blocks = cluster.RayBlocks(play=functools.partial(_fail_once, str(tmp_path), failing))
    done: list[int] = []
    on_ray = run(setup, deals, progress=done.append, blocks=blocks)
    assert (tmp_path / f"block-{failing}").exists()  # the worker was lost, once
    at_home = run(setup, deals, jobs=2)
    assert _untimed(on_ray.as_json()) == _untimed(at_home.as_json())
    assert sum(on_ray.results.values()) == deals
    assert done == [min((b + 1) * setup.block, deals) for b in range(5)]
    numbers = [n for n, _, _ in settled_deals(setup, deals, blocks=blocks)]
    assert numbers == list(range(deals))


@pytest.mark.slow
def test_a_block_lost_every_time_stops_the_run_with_a_message(
    ray_instance: Any, tmp_path: Path
) -> None:
    from engine.errors import RequestError

    ray_instance.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    rules = load_ruleset("quadrille")
    setup = Setup(rules, ("random",) * 4, 2, {})
    always = functools.partial(_always_lost, str(tmp_path))
    blocks = cluster.RayBlocks(retries=1, play=always)
    with pytest.raises(RequestError, match="lost block 0 of the run 2 times"):
        run(setup, setup.block, blocks=blocks)


def _always_lost(folder: str, setup: Setup, block: int, deals: int) -> list[Played]:
    os._exit(1)
