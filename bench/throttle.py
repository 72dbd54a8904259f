"""A phone's 4G link between chromium and the server, for bench/offline.py:

    python bench/throttle.py --listen 8001 --to 127.0.0.1:8000 [--down 9 --up 3 --rtt 170]

A TCP proxy (asyncio): every byte from the server to the browser goes over one shared downlink
of ``--down`` Mbit/s, every byte the other way over an uplink of ``--up`` Mbit/s, each arriving
half the round trip (``--rtt`` ms) after it left; a new connection waits one round trip (the
TCP handshake) before its first byte goes out. Unlike shaping in the browser's devtools it
sits outside chromium, as the radio does: the browser's own parallel connections share the
link, and every byte it counts went over it (headers, compressed bodies, TLS-free).
"""

from __future__ import annotations

import argparse
import asyncio
import threading
from dataclasses import dataclass

CHUNK = 16 * 1024  # bytes read at once: 15 ms of the downlink


@dataclass
class Link:
    """One direction of the link, shared by every connection: a byte leaves when the bytes
    before it have left (``rate``), and arrives ``delay`` seconds later."""

    rate: float  # bits per second
    delay: float  # seconds, one way
    busy_until: float = 0.0
    bytes: int = 0

    def arrival(self, size: int, now: float) -> float:
        leaves = max(now, self.busy_until)
        self.busy_until = leaves + size * 8 / self.rate
        self.bytes += size
        return self.busy_until + self.delay


class Throttle:
    """The proxy, in a thread of its own (``start``/``stop``); ``down.bytes`` and ``up.bytes``
    count what went over the link (``reset`` between measurements)."""

    def __init__(self, target: tuple[str, int], down_mbps: float = 9, up_mbps: float = 3, rtt_ms: float = 170):
        self.target = target
        self.rtt = rtt_ms / 1000
        self.down = Link(down_mbps * 1e6, self.rtt / 2)
        self.up = Link(up_mbps * 1e6, self.rtt / 2)
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server = None
        self._thread: threading.Thread | None = None

    def reset(self) -> None:
        self.down.bytes = self.up.bytes = 0

    async def _pipe(self, reader, writer, link: Link, opened: float) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()

        async def deliver():
            while (item := await queue.get()) is not None:
                at, data = item
                if at > loop.time():
                    await asyncio.sleep(at - loop.time())
                writer.write(data)
                await writer.drain()
            if writer.can_write_eof():
                writer.write_eof()

        delivering = asyncio.create_task(deliver())
        try:
            while data := await reader.read(CHUNK):
                queue.put_nowait((link.arrival(len(data), max(loop.time(), opened + self.rtt)), data))
        except ConnectionError:
            pass
        queue.put_nowait(None)
        try:
            await delivering
        except ConnectionError:
            pass

    async def _connection(self, client_reader, client_writer) -> None:
        opened = asyncio.get_running_loop().time()
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.close()
            return
        try:
            await asyncio.gather(self._pipe(client_reader, server_writer, self.up, opened),
                                 self._pipe(server_reader, client_writer, self.down, opened),
                                 return_exceptions=True)
        except asyncio.CancelledError:  # the proxy stops: the connection ends quietly
            pass
        for writer in (client_writer, server_writer):
            writer.close()

    async def serve(self, port: int = 0) -> None:
        self._server = await asyncio.start_server(self._connection, "127.0.0.1", port)
        self.port = self._server.sockets[0].getsockname()[1]

    def start(self) -> int:
        """Runs the proxy on a free loopback port (answered) until ``stop``."""
        ready = threading.Event()

        def run():
            self._loop = asyncio.new_event_loop()
            self._loop.run_until_complete(self.serve())
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        ready.wait(10)
        return self.port

    async def _shutdown(self) -> None:
        self._server.close()
        others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in others:  # the browser's idle keep-alive connections
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)

    def stop(self) -> None:
        if self._loop:
            asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", type=int, required=True)
    parser.add_argument("--to", required=True, help="host:port of the server")
    parser.add_argument("--down", type=float, default=9, help="Mbit/s to the browser")
    parser.add_argument("--up", type=float, default=3, help="Mbit/s to the server")
    parser.add_argument("--rtt", type=float, default=170, help="round trip, ms")
    args = parser.parse_args()
    host, port = args.to.rsplit(":", 1)
    throttle = Throttle((host, int(port)), args.down, args.up, args.rtt)

    async def forever():
        await throttle.serve(args.listen)
        await asyncio.Event().wait()

    asyncio.run(forever())


if __name__ == "__main__":
    main()
