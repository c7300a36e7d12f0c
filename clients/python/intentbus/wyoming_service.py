"""A Wyoming service for Home Assistant's voice pipeline, answering through an IntentBus
host (docs/wyoming.md).

    intentbus-wyoming --uri tcp://127.0.0.1:10700 --endpoint ipc://.intentbus/frontend.sock --language en

Home Assistant's `wyoming` integration connects over TCP and sends JSONL events:

* `describe` → `info`: IntentBus as an intent service and a handle service, with its
  languages.
* `recognize` → `intent` (the intent and its parameters as entities, from `ib.say.match`)
  or `not-recognized`.
* `transcript` → `handled` with the intent's dialog (`ib.say`: the phrase's intent runs in
  its plugin) or `not-handled`. A question the plugin asks (a missing value, a
  confirmation, a disambiguation, the plugin choice) is the `handled` text, with
  `continue_conversation` in its context; the request stays open and the next transcript
  of the same conversation answers it (wyoming_turns.py). With `--questions end`, the
  request is cancelled instead and the question is the `not-handled` text.
  `--transcript recognize` answers transcripts like `recognize` instead, for a host
  whose intents are Home Assistant's own (Home Assistant then runs them).
* `ping` → `pong`; anything else, or a malformed event, → `error`.

Every connection is handled in its own task, all over one `AsyncClient`; the event loop is
the only thread.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import signal
import sys
from typing import Any, Dict, List, Optional, Sequence

from wyoming.asr import Transcript
from wyoming.error import Error
from wyoming.event import Event, Eventable
from wyoming.handle import Handled, NotHandled
from wyoming.info import Describe
from wyoming.intent import Entity, Intent, NotRecognized, Recognize
from wyoming.ping import Ping, Pong
from wyoming.server import AsyncEventHandler, AsyncServer

from intentbus import AsyncClient, BusError, ChoiceRequired, IntentBusError, Prompt, Unanswered, UnknownIntent
from intentbus.wyoming_events import WyomingFault, read_event
from intentbus.wyoming_settings import WyomingSettings
from intentbus.wyoming_turns import OpenQuestions

__all__ = ["WyomingSettings", "WyomingHandler", "serve", "main"]

_LOG = logging.getLogger("intentbus.wyoming")

#: The longest text taken in a `recognize` or `transcript` (characters); the host's
#: sentence matcher looks at 64 words at most anyway.
MAX_TEXT = 2000

def question_text(prompt: Prompt) -> str:
    """What the plugin asked, for people: the dialog and, for a choice, its options."""
    titles = [str(o.get("title") or o.get("id")) for o in prompt.options if o.get("title") or o.get("id")]
    text = prompt.dialog or "A question was asked that cannot be answered here."
    if titles:
        text += " (" + ", ".join(titles[:10]) + ")"
    return text


def _dialog(body: Any) -> Optional[str]:
    if isinstance(body, dict) and isinstance(body.get("dialog"), str) and body["dialog"]:
        return str(body["dialog"])
    return None


def _closest(error: UnknownIntent) -> List[str]:
    found = error.details.get("closest")
    return [c for c in found if isinstance(c, str)] if isinstance(found, list) else []


def _not_understood(text: str, closest: List[str]) -> str:
    """The answer to a misheard sentence: the closest phrases, their slots as "…"."""
    answer = f"Sorry, I did not understand “{text}”."
    if closest:
        answer += " Did you mean " + " or ".join(f"“{re.sub(r'[$][{][^}]*[}]', '…', c)}”" for c in closest[:3]) + "?"
    return answer


class WyomingHandler(AsyncEventHandler):
    """One Wyoming connection: reads events with bounds, answers each one."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, client: AsyncClient,
                 settings: WyomingSettings):
        super().__init__(reader, writer)
        self.client = client
        self.settings = settings

    async def run(self) -> None:
        """Reads and answers events until the client leaves or breaks the format (then it
        gets an `error` first)."""
        peer = self.writer.get_extra_info("peername")
        settings = self.settings
        if settings.open_connections >= settings.max_connections:
            _LOG.warning("wyoming client %s refused: %d connections are open", peer, settings.open_connections)
            await self.write_event(Error(text=f"busy: {settings.max_connections} connections are open; "
                                         "connect again later", code="busy").event())
            await self._linger()
            self.writer.close()
            return
        settings.open_connections += 1
        try:
            while True:
                try:
                    event = await asyncio.wait_for(read_event(self.reader, settings.limits), settings.idle_timeout)
                except asyncio.TimeoutError:
                    _LOG.info("wyoming client %s closed: no complete event in %g s", peer, settings.idle_timeout)
                    break
                except WyomingFault as fault:
                    _LOG.warning("wyoming client %s: %s", peer, fault.text)
                    await self.write_event(Error(text=fault.text, code=fault.code).event())
                    if fault.fatal:
                        await self._linger()
                        break
                    continue
                if event is None:
                    break
                if not await self.handle_event(event):
                    break
        except (asyncio.IncompleteReadError, ConnectionError) as e:
            # The client left in the middle of an event (or while we answered): nothing
            # to answer, and the next connection is not affected.
            _LOG.info("wyoming client %s left mid-event: %s", peer, type(e).__name__)
        finally:
            settings.open_connections -= 1
            await settings.open_questions.drop(("connection", id(self)))  # its question: cancelled
            self.writer.close()

    async def _linger(self) -> None:
        """Ends a connection whose stream can't be followed so that the client still reads
        the error: closing with its unread bytes in our buffer would send a TCP reset,
        which can destroy the error before the client reads it. So: end our side, then
        drop what it still sends, for at most a second and 1 MiB."""
        if self.writer.can_write_eof():
            self.writer.write_eof()
        dropped = 0
        deadline = asyncio.get_running_loop().time() + 1.0
        try:
            while dropped < (1 << 20):
                left = deadline - asyncio.get_running_loop().time()
                if left <= 0:
                    break
                chunk = await asyncio.wait_for(self.reader.read(65536), left)
                if not chunk:
                    break
                dropped += len(chunk)
        except (asyncio.TimeoutError, ConnectionError):
            pass

    async def handle_event(self, event: Event) -> bool:
        """Answers one event; always True (only the client ends the connection)."""
        if Describe.is_type(event.type):
            await self.write_event(self.settings.info().event())
        elif Ping.is_type(event.type):
            text = event.data.get("text")
            await self.write_event(Pong(text=text if isinstance(text, str) else None).event())
        elif Recognize.is_type(event.type) or Transcript.is_type(event.type):
            text, context = await self._text_and_context(event)
            if text is None:
                return True
            language = event.data.get("language")
            header = {"context": self.settings.request_context(context),
                      "locale": language if isinstance(language, str) and 0 < len(language) <= 35 else None}
            if Recognize.is_type(event.type) or self.settings.transcript == "recognize":
                answer = await self.recognize(text, context, header)
            else:
                answer = await self.handle(text, context, header)
            await self.write_event(answer.event())
        else:
            await self.write_event(Error(text=f"unsupported event type {event.type!r}: this is an intent and "
                                         "handle service", code="unsupported-event").event())
        return True

    async def _text_and_context(self, event: Event) -> "tuple[Optional[str], Optional[Dict[str, Any]]]":
        """The event's text and context, or (None, None) after answering an `error`."""
        text, context = event.data.get("text"), event.data.get("context")
        problem = None
        if not isinstance(text, str):
            problem = f"{event.type} needs text (a string)"
        elif len(text) > MAX_TEXT:
            problem = f"the text is over {MAX_TEXT} characters"
        elif context is not None and not isinstance(context, dict):
            problem = "context must be a JSON object"
        if problem is not None:
            await self.write_event(Error(text=problem, code="invalid-event").event())
            return None, None
        return text, context

    async def recognize(self, text: str, context: Optional[Dict[str, Any]], header: Dict[str, Any]) -> Eventable:
        """`ib.say.match`: the intent and parameters the text names, without running it.
        `header`: the request's `context` and `locale`."""
        try:
            reply = await self.client.send("ib.say.match", {"text": text}, timeout=self.settings.timeout, **header)
        except UnknownIntent as e:
            closest = _closest(e)
            extra = {"closest": closest} if closest else {}
            merged = {**(context or {}), **extra} if context is not None or extra else None
            return NotRecognized(text=_not_understood(text, closest), context=merged)
        except ChoiceRequired as e:
            names = sorted({str(c.get("intent") or c.get("id")) for c in e.candidates if isinstance(c, dict)})
            return NotRecognized(text=f"“{text}” could mean several things: {', '.join(names)}.", context=context)
        except (BusError, IntentBusError) as e:
            return NotRecognized(text=str(e), context=context)
        body = reply.body if isinstance(reply.body, dict) else {}
        found = body.get("parameters")
        parameters: Dict[str, Any] = found if isinstance(found, dict) else {}
        return Intent(name=str(body.get("intent")),
                      entities=[Entity(name=str(k), value=v) for k, v in sorted(parameters.items())],
                      context=context)

    def _conversation(self, context: Optional[Dict[str, Any]]) -> Any:
        """Which open question a transcript may answer: its context's `conversation_id`
        (Home Assistant opens a connection per turn), else this connection's."""
        cid = (context or {}).get("conversation_id")
        if isinstance(cid, (str, int)) and not isinstance(cid, bool) and 0 < len(str(cid)) <= 255:
            return ("conversation", str(cid))
        return ("connection", id(self))

    async def handle(self, text: str, context: Optional[Dict[str, Any]], header: Dict[str, Any]) -> Eventable:
        """`ib.say`: runs what the text names; its dialog is the answer. A question the
        plugin asks is asked back (docs/wyoming.md "Questions"), and a transcript while
        one is open answers it."""
        questions = self.settings.open_questions
        if self.settings.questions == "ask":
            key = self._conversation(context)
            step = await questions.answer(key, text)
            if step is not None:
                return step
            if questions.has_room():
                return await questions.start(key, context, lambda ask: self._say(text, context, header, ask),
                                             question_text)
        # on_prompt returns None: the client cancels the request and raises Unanswered.
        return await self._say(text, context, header, None)

    async def _say(self, text: str, context: Optional[Dict[str, Any]], header: Dict[str, Any],
                   ask: Any) -> Eventable:
        try:
            reply = await self.client.send("ib.say", {"text": text}, timeout=self.settings.timeout,
                                           on_prompt=ask or (lambda prompt: None), **header)
        except Unanswered as e:
            if ask is not None:
                return NotHandled(text="The question was not answered; the request is cancelled.", context=context)
            return NotHandled(text=question_text(e.prompt), context=context)
        except UnknownIntent as e:
            return NotHandled(text=_not_understood(text, _closest(e)), context=context)
        except BusError as e:
            return NotHandled(text=e.message, context=context)
        except IntentBusError as e:
            return NotHandled(text=str(e), context=context)
        if reply.succeeded:
            return Handled(text=_dialog(reply.body) or "Done.", context=context)
        return NotHandled(text=_dialog(reply.body) or f"The intent ended with {reply.status}.", context=context)


async def watch_host(pid: int, stop: "asyncio.Event", every: float = 1.0) -> None:
    """Sets `stop` once the process `pid` is gone (`--host-pid`: the host that started the
    service, docs/wyoming.md "Started by the host"): a host killed with SIGKILL can't stop
    its child, so the child leaves by itself within `every` seconds."""
    while not stop.is_set():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            _LOG.warning("the IntentBus host (pid %d) that started this service is gone; stopping", pid)
            stop.set()
            return
        except PermissionError:
            pass  # it exists (another user's process: not ours, but alive)
        await asyncio.sleep(every)


async def serve(uri: str, endpoint: Optional[str], settings: WyomingSettings,
                ready: Optional["asyncio.Event"] = None, host_pid: Optional[int] = None) -> None:
    """Serves Wyoming clients on `uri` (`tcp://host:port`, `unix://path`) until cancelled
    or SIGTERM (or, with `host_pid`, until that process is gone), asking the IntentBus host
    at `endpoint`."""
    server = AsyncServer.from_uri(uri)
    async with AsyncClient(endpoint) as client:
        await server.start(lambda r, w: WyomingHandler(r, w, client=client, settings=settings))
        _LOG.info("wyoming service on %s, IntentBus host at %s", uri, client.endpoint)
        print(f"intentbus-wyoming: serving {uri}", file=sys.stderr, flush=True)
        if ready is not None:
            ready.set()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):  # stop taking connections, then leave
            loop.add_signal_handler(signum, stop.set)
        watcher = asyncio.ensure_future(watch_host(host_pid, stop)) if host_pid is not None else None
        try:
            await stop.wait()
        finally:
            if watcher is not None:
                watcher.cancel()
            await server.stop()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """`intentbus-wyoming`: the command line."""
    parser = argparse.ArgumentParser(prog="intentbus-wyoming", description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", default="tcp://127.0.0.1:10700", help="where Wyoming clients connect")
    parser.add_argument("--endpoint", default=None, help="the IntentBus host's frontend (default $INTENTBUS_ENDPOINT)")
    parser.add_argument("--language", action="append", default=None, help="a language for info (repeatable; en)")
    parser.add_argument("--transcript", choices=["handle", "recognize"], default="handle",
                        help="answer transcripts by running the intent (handle) or naming it (recognize)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds each request to the host may take")
    parser.add_argument("--context", action="append", default=[], metavar="KEY=VALUE",
                        help="context every request gets (repeatable): area=Kitchen, satellite=s1")
    parser.add_argument("--max-connections", type=int, default=64, help="connections at once (1…10000)")
    parser.add_argument("--questions", choices=["ask", "end"], default="ask",
                        help="a plugin's question: ask it back for the next transcript (ask) or end the request")
    parser.add_argument("--question-timeout", type=float, default=60.0,
                        help="seconds an asked question waits for its answer (1…3600)")
    parser.add_argument("--idle-timeout", type=float, default=300.0,
                        help="seconds a connection may go without a complete event (1…86400)")
    parser.add_argument("--host-pid", type=int, default=None,
                        help="stop when this process is gone (the host sets it when it starts the service)")
    args = parser.parse_args(argv)
    fixed: Dict[str, Any] = {}
    for item in args.context:
        key, eq, value = item.partition("=")
        if not eq or not key:
            parser.error(f"--context takes KEY=VALUE, got {item!r}")
        fixed[key] = value
    if not 0.1 <= args.timeout <= 3600:
        parser.error("--timeout must be between 0.1 and 3600 seconds")
    if not 1 <= args.max_connections <= 10000:
        parser.error("--max-connections must be between 1 and 10000")
    if not 1 <= args.question_timeout <= 3600:
        parser.error("--question-timeout must be between 1 and 3600 seconds")
    if not 1 <= args.idle_timeout <= 86400:
        parser.error("--idle-timeout must be between 1 and 86400 seconds")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    settings = WyomingSettings(languages=args.language or ["en"], transcript=args.transcript, timeout=args.timeout,
                               context=fixed, max_connections=args.max_connections, idle_timeout=args.idle_timeout,
                               questions=args.questions, question_timeout=args.question_timeout,
                               open_questions=OpenQuestions(limit=args.max_connections, timeout=args.question_timeout))
    if args.host_pid is not None and args.host_pid <= 1:
        parser.error("--host-pid must be a process id above 1")
    if not args.uri.startswith(("tcp://", "unix://")):
        # wyoming's stdio server has no start() for several connections: not offered.
        parser.error(f"--uri must be tcp://HOST:PORT or unix://PATH, not {args.uri!r}")
    try:
        asyncio.run(serve(args.uri, args.endpoint, settings, host_pid=args.host_pid))
    except ValueError as e:  # a URI wyoming does not take (a tcp:// without a port)
        print(f"intentbus-wyoming: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # the address is taken, the socket's directory does not exist, …
        print(f"intentbus-wyoming: cannot serve {args.uri}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
