"""A Python plugin for the end-to-end tests, the counterpart of the Swift plugin-testplugin.

It handles the intents listed in TEST_INTENTS (comma-separated; default PyIntent) and
behaves as the request asks:
  {"crash": CODE}        exit with CODE at once, while holding whatever is in flight
  {"hold": true}         send a PROGRESS "holding", then wait until cancelled
  {"sleep_ms": N}        answer after N ms (interrupted by cancellation)
  {"poll": true}         send a PROGRESS "polling", then poll ctx.cancelled (no ctx.sleep) until set
  {"ask": "param"}       ask for a value first; the answer is returned as "answer"
  {"choose": [ids…]}     ask to pick one of these ids (disambiguation) → "chosen"
  {"confirm": true}      ask a yes/no question first → "confirmed"
  {"progress": N}        send N progress updates first
  {"fail": true}         answer with status failure
  {"error": "message"}   answer with ERROR plugin_error
  {"raise": "message"}   raise an ordinary exception (a handler bug)
  {"disconnect": true}   say DISCONNECT to the host instead of answering
  {"reply_bytes": N}     add N bytes of padding to the reply ("pad"): large answers from small requests
  {"echo_header": true}  add the delivery header to the reply ("header")
  {"block_ms": N}        block the thread N ms (time.sleep: the SDK does not know it waits)
  {"thread": true}       add the name of the thread the handler ran on ("thread")
  {"tag": T}             with TEST_RUN_LOG set: append "PID TAG" to that file as the handler starts
                         (as the Swift test plugin does), so that a harness counts what really ran
PyAsyncIntent is handled by an `async def` handler: {"await_s": N} awaits asyncio.sleep(N)
after a PROGRESS "awaiting", and logs whether its task saw CancelledError.
Every reply names the plugin and echoes the parameters.
"""

import asyncio
import os
import threading
import time

from intentbus import BusError, ErrorCode, Plugin, Result

plugin = Plugin(token="not-the-token" if os.environ.get("TEST_BAD_TOKEN") == "1" else None)


def handle(request, ctx):
    p = request.params if isinstance(request.params, dict) else {}
    if "crash" in p:
        os._exit(int(p["crash"]))
    if "tag" in p and os.environ.get("TEST_RUN_LOG"):
        # One write on an O_APPEND descriptor: whole, with several writers.
        fd = os.open(os.environ["TEST_RUN_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, f"{os.getpid()} {p['tag']}\n".encode())
        finally:
            os.close(fd)
    if p.get("disconnect"):
        plugin.stop("asked to by a test")
        ctx.sleep(30)
    for i in range(int(p.get("progress", 0))):
        ctx.progress(f"step {i + 1} of {p['progress']}", fraction=(i + 1) / p["progress"])
    if p.get("hold"):
        ctx.progress("holding")
        try:
            ctx.sleep(60)
        except Exception:
            plugin.logger.info(f"request {request.id} noticed cancellation: {ctx.cancel_reason}")
            raise
    if "sleep_ms" in p:
        ctx.sleep(p["sleep_ms"] / 1000)
    if "block_ms" in p:
        time.sleep(p["block_ms"] / 1000)
    if p.get("poll"):
        ctx.progress("polling")
        started = time.monotonic()
        while not ctx.cancelled and time.monotonic() - started < 60:
            time.sleep(0.01)
        plugin.logger.info(f"request {request.id} polled cancelled={ctx.cancelled}: {ctx.cancel_reason}")
        ctx.check_cancelled()
    out = {"plugin": plugin.plugin_id, "intent": request.intent, "params": p}
    if p.get("echo_header"):
        out["header"] = request.header
    if p.get("thread"):
        out["thread"] = threading.current_thread().name
    if "ask" in p:
        out["answer"] = ctx.ask_value(p["ask"], f"What is {p['ask']}?", "String")
    if "choose" in p:
        out["chosen"] = ctx.disambiguate("item", [{"id": i, "title": i.upper()} for i in p["choose"]], "Which one?")
    if p.get("confirm"):
        out["confirmed"] = ctx.confirm("Really?")
    if request.client:
        out["client"] = request.client
    if request.context:
        out["context"] = request.context
    if p.get("environ"):
        out["environ"] = dict(os.environ)
    if "reply_bytes" in p:
        out["pad"] = "x" * int(p["reply_bytes"])
    if "error" in p:
        raise BusError(ErrorCode.PLUGIN_ERROR, p["error"], {"where": "pyplugin"})
    if "raise" in p:
        raise RuntimeError(p["raise"])
    return Result.failure(out) if p.get("fail") else Result.success(out)


async def handle_async(request, ctx):
    p = request.params if isinstance(request.params, dict) else {}
    ctx.progress("awaiting")
    try:
        await asyncio.sleep(float(p.get("await_s", 0)))
    except asyncio.CancelledError:
        plugin.logger.info(f"request {request.id}: the async task saw CancelledError ({ctx.cancel_reason})")
        raise
    return {"plugin": plugin.plugin_id, "intent": request.intent, "params": p, "async": True}


for intent in os.environ.get("TEST_INTENTS", "PyIntent").split(","):
    plugin.handler(intent)(handle_async if intent == "PyAsyncIntent" else handle)

plugin.run()
