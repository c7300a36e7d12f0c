"""The gRPC peer, in the go-plugin shape: a "host" process that serves clients over gRPC
and forwards each call over gRPC to a "plugin" process, both with grpcio's asyncio API,
over unix sockets. Bodies are raw bytes (no protobuf message, no generated code: the
method handlers pass bytes through), so what is measured is gRPC's own transport.

    python grpc_peer.py plugin unix:PATH               the echo plugin
    python grpc_peer.py host unix:PATH unix:PLUGIN     the host in front of it

This is benchmark code only: IntentBus itself never depends on gRPC (grpcio lives in the
bench-only venv that `make bench-peers` creates). Runs until SIGTERM.
"""

from __future__ import annotations

import asyncio
import signal
import sys

import grpc

METHOD = "/intentbus.bench.Echo/Echo"
OPTIONS = [("grpc.max_concurrent_streams", 10_000)]


def _server(handler) -> grpc.aio.Server:
    server = grpc.aio.server(options=OPTIONS)
    rpc = grpc.unary_unary_rpc_method_handler(handler)  # no (de)serializers: bytes in, bytes out
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("intentbus.bench.Echo", {"Echo": rpc})])
    return server


async def plugin(address: str) -> None:
    async def echo(request: bytes, context) -> bytes:
        return request

    server = _server(echo)
    server.add_insecure_port(address)
    await server.start()
    await server.wait_for_termination()


async def host(address: str, plugin_address: str) -> None:
    channel = grpc.aio.insecure_channel(plugin_address, options=OPTIONS)
    forward = channel.unary_unary(METHOD)

    async def route(request: bytes, context) -> bytes:
        return await forward(request)

    server = _server(route)
    server.add_insecure_port(address)
    await server.start()
    await server.wait_for_termination()


class GRPCClient:
    """Calls the host's Echo with a grpcio asyncio channel."""

    def __init__(self, address: str) -> None:
        self.channel = grpc.aio.insecure_channel(address, options=OPTIONS)
        self.stub = self.channel.unary_unary(METHOD)

    async def call(self, body: bytes) -> bytes:
        return await self.stub(body)

    async def close(self) -> None:
        await self.channel.close()


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    role, args = sys.argv[1], sys.argv[2:]
    if role == "plugin":
        asyncio.run(plugin(*args))
    elif role == "host":
        asyncio.run(host(*args))
    else:
        sys.exit(f"unknown role {role}")


if __name__ == "__main__":
    main()
