"""Sweeps on a cluster: ``ombre simulate --ray ADDRESS`` plays a run's blocks on Ray.

A run is blocks of deals whose play depends only on the seed and the block's number
(:mod:`engine.simulate`); here each block is a Ray task, and the tasks' results are gathered by
the block's number and handed on in order, to be settled and summed up by this process exactly
as ``--jobs`` does. So the summary (and the ``--against`` report) is the same, byte for byte but
for its timing fields, as on one machine's processes, for the same seed.

A worker lost in the middle of a block (its process killed, its node gone) is Ray's to retry
(``max_retries``); the retried task plays the same block again, from its seed, and returns the
same deals. A block's deals are taken once, from whichever attempt Ray returns, and only when
its number is the next one to settle: no deal is counted twice, none left out (each block's
length is checked). An exception raised in a block (a bug, not a lost worker) is not retried
but stops the run.

Ray is the optional extra ``[ray]`` and imported only here, only when a run asks for it
(:func:`connect`); without it :func:`available` is false and the command line says which extra
to install. The rule set goes to the workers pickled (its frozen mappings as dicts), once a run;
each worker keeps the last one it unpacked, its tables compiled and its bots made.
"""

from __future__ import annotations

import copyreg
import hashlib
import importlib.util
import io
import pickle
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from engine.errors import RequestError
from engine.simulate import Played, Setup, play_block

__all__ = ["EXTRA", "LOCAL", "RayBlocks", "available", "connect", "dumps_setup", "loads_setup"]

EXTRA = "ray"
"""The optional dependency that installs Ray (``pip install 'ombre-workbench[ray]'``)."""
LOCAL = "local"
"""The ``--ray`` address of a fresh Ray instance on this machine, started for the run."""
AUTO = "auto"
"""The ``--ray`` address of the cluster this machine belongs to (``RAY_ADDRESS``, or one
started here by ``ray start``), else a fresh local instance."""
RETRIES = 3
"""How many times a block whose worker was lost is played again before the run fails."""

PlayBlock = Callable[[Setup, int, int], list[Played]]
"""What a task runs: :func:`engine.simulate.play_block` (a test puts a failing one in)."""


def available() -> bool:
    """Checks if Ray is installed (the extra ``[ray]``), without importing it."""
    return importlib.util.find_spec("ray") is not None


# The setup, pickled: a rule set's frozen mappings are mapping proxies, which pickle cannot
# write; they travel as dicts and are frozen again on the worker.


def _proxy(data: dict[Any, Any]) -> types.MappingProxyType[Any, Any]:
    return types.MappingProxyType(data)


def _reduce_proxy(
    proxy: types.MappingProxyType[Any, Any],
) -> tuple[Callable[[dict[Any, Any]], types.MappingProxyType[Any, Any]], tuple[dict[Any, Any]]]:
    return _proxy, (dict(proxy),)


def dumps_setup(setup: Setup) -> bytes:
    """Returns a run's setup pickled, its rule set included (:func:`loads_setup` reads it)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    table: dict[type, Any] = dict(copyreg.dispatch_table)
    table[types.MappingProxyType] = _reduce_proxy
    pickler.dispatch_table = table
    pickler.dump(setup)
    return out.getvalue()


def loads_setup(data: bytes) -> Setup:
    """Returns the setup :func:`dumps_setup` pickled."""
    setup = pickle.loads(data)
    assert isinstance(setup, Setup)
    return setup


# The worker's side.

_WORKER: dict[str, tuple[Setup, list[Any]]] = {}
"""The last setup a worker process unpacked, by its digest, with its bots."""


def _play(
    digest: str, payload: Sequence[Any], block: int, deals: int, play: PlayBlock
) -> list[Played]:
    """A task: plays block ``block`` of the run whose pickled setup is ``payload[0]`` (an object
    reference inside a list, which Ray leaves unresolved: it is fetched only by a worker that
    has not unpacked it yet)."""
    held = _WORKER.get(digest)
    if held is None:
        import ray

        setup = loads_setup(ray.get(payload[0]))
        setup.rules.tables(dict(setup.options) or None)  # compile once per worker
        held = (setup, setup.make_bots())
        _WORKER.clear()
        _WORKER[digest] = held
    setup, bots = held
    if play is play_block:
        return play_block(setup, block, deals, bots)
    return play(setup, block, deals)


# The driver's side.


class RayBlocks:
    """Plays a run's blocks as Ray tasks on the cluster ``ray.init`` joined
    (:class:`engine.simulate.Blocks`): at most ``window`` blocks are out at once, each gathered by
    its number and yielded in order.

    :param retries: how many times a block whose worker was lost is played again.
    :param play: what a task runs (:func:`engine.simulate.play_block`).
    """

    def __init__(
        self, *, retries: int = RETRIES, window: int | None = None, play: PlayBlock = play_block
    ) -> None:
        import ray

        self._ray = ray
        self._retries = retries
        self._play = play
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self._workers = max(1, cpus)
        self._window = window or 2 * self._workers
        self._task = ray.remote(_play).options(max_retries=retries, retry_exceptions=False)

    @property
    def workers(self) -> int:
        """The cluster's cores."""
        return self._workers

    def __call__(self, setup: Setup, deals: int) -> Iterator[list[Played]]:
        ray = self._ray
        size = setup.block
        count = -(-deals // size)
        data = dumps_setup(setup)
        digest = hashlib.sha256(data).hexdigest()
        payload = [ray.put(data)]
        pending: dict[Any, int] = {}  # object reference -> its block's number
        ready: dict[int, list[Played]] = {}  # blocks back, not yet yielded
        submitted = 0
        following = 0  # the next block to yield
        try:
            while following < count:
                while submitted < count and submitted - following < self._window:
                    ref = self._task.remote(digest, payload, submitted, deals, self._play)
                    pending[ref] = submitted
                    submitted += 1
                if following in ready:
                    yield ready.pop(following)
                    following += 1
                    continue
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    block = pending.pop(ref)
                    part = self._get(ref, block)
                    expected = min((block + 1) * size, deals) - block * size
                    if len(part) != expected:
                        raise RequestError(
                            f"block {block} came back from the cluster with {len(part)} deals, "
                            f"not {expected}",
                            status=1,
                        )
                    ready[block] = part
        finally:
            for ref in pending:
                ray.cancel(ref)

    def _get(self, ref: Any, block: int) -> list[Played]:
        ray = self._ray
        try:
            part: list[Played] = ray.get(ref)
        except ray.exceptions.RayTaskError:
            raise  # a bug in the block's play: its own traceback
        except ray.exceptions.RayError as exc:
            raise RequestError(
                f"the cluster lost block {block} of the run {self._retries + 1} times "
                f"({type(exc).__name__}); nothing was summed up",
                status=1,
            ) from None
        return part


def _reachable(address: str, timeout: float = 5.0) -> None:
    """Checks that a cluster's ``host:port`` (or ``ray://host:port``) answers, before Ray tries
    it (Ray waits minutes for an address where nothing listens).

    :raises RequestError: naming the address, if it is malformed or nothing answers there.
    """
    import socket

    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise RequestError(
            f"--ray takes host:port (the head's, e.g. head:6379), auto or local, not {address!r}"
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise RequestError(
            f"--ray {address}: no Ray cluster answers there ({exc.strerror or exc}); "
            "is its head started (ray start --head)?"
        ) from None


@contextmanager
def connect(address: str, *, cpus: int | None = None) -> Iterator[RayBlocks]:
    """Joins a Ray cluster for a run, and leaves it after: ``address`` is ``host:port`` (or
    ``ray://host:port``), :data:`AUTO` or :data:`LOCAL`. ``cpus``: the cores of a local instance.
    Where this process has joined one already (``ray.init`` called before), it is used as it is.

    :raises RequestError: if Ray is not installed, or the cluster cannot be joined.
    """
    if not available():
        raise RequestError(
            f"--ray needs Ray: install the extra (pip install 'ombre-workbench[{EXTRA}]')"
        )
    import ray

    joined = not ray.is_initialized()
    if joined:
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "logging_level": "warning",
            "log_to_driver": True,
        }
        if address == LOCAL:
            kwargs.update(address="local", num_cpus=cpus)
        elif address != AUTO:
            _reachable(address)
            kwargs["address"] = address
        try:
            ray.init(**kwargs)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise RequestError(f"--ray {address}: cannot join the cluster: {first}") from None
    try:
        yield RayBlocks()
    finally:
        if joined:
            ray.shutdown()
