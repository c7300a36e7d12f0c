"""The D-Bus peer: a method call through a private `dbus-daemon` to a service written
with dbus-fast, which is how a Linux desktop service answers a client today.

    python dbus_peer.py config DIR          writes DIR/bus.conf (a private bus on DIR/bus.sock)
    python dbus_peer.py service ADDRESS     the echo service, org.intentbus.BenchEcho

The daemon is Debian's dbus-daemon, started by run.py with that config; the client is
`DBusClient`. Runs until SIGTERM.
"""

from __future__ import annotations

import asyncio
import signal
import sys

from dbus_fast import BusType, Message, MessageType
from dbus_fast.aio import MessageBus
from dbus_fast.service import ServiceInterface, method

NAME = "org.intentbus.BenchEcho"
PATH = "/org/intentbus/BenchEcho"
INTERFACE = "org.intentbus.BenchEcho"

CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={dir}/bus.sock</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
  <limit name="max_incoming_bytes">1000000000</limit>
  <limit name="max_outgoing_bytes">1000000000</limit>
  <limit name="max_replies_per_connection">100000</limit>
</busconfig>
"""


class Echo(ServiceInterface):
    def __init__(self) -> None:
        super().__init__(INTERFACE)

    @method()
    def Echo(self, body: "ay") -> "ay":  # noqa: F821 - D-Bus signature annotations
        return body


async def serve(address: str) -> None:
    bus = await MessageBus(bus_address=address, bus_type=BusType.SESSION).connect()
    bus.export(PATH, Echo())
    await bus.request_name(NAME)
    await asyncio.get_running_loop().create_future()  # until SIGTERM


class DBusClient:
    """Calls Echo(ay) → ay on the bus; dbus-fast matches replies to calls by serial."""

    def __init__(self, bus: MessageBus) -> None:
        self.bus = bus

    @classmethod
    async def connect(cls, address: str) -> "DBusClient":
        return cls(await MessageBus(bus_address=address, bus_type=BusType.SESSION).connect())

    async def call(self, body: bytes) -> bytes:
        reply = await self.bus.call(Message(destination=NAME, path=PATH, interface=INTERFACE, member="Echo",
                                            signature="ay", body=[body]))
        if reply.message_type == MessageType.ERROR:
            raise RuntimeError(f"D-Bus error {reply.error_name}: {reply.body}")
        return bytes(reply.body[0])

    def close(self) -> None:
        self.bus.disconnect()


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    role, arg = sys.argv[1], sys.argv[2]
    if role == "config":
        with open(f"{arg}/bus.conf", "w") as f:
            f.write(CONFIG.format(dir=arg))
    elif role == "service":
        asyncio.run(serve(arg))
    else:
        sys.exit(f"unknown role {role}")


if __name__ == "__main__":
    main()
