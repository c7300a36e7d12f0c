"""Questions asked over Wyoming (docs/wyoming.md "Questions"): a plugin's PROMPT in the
middle of a `transcript` request becomes a `handled` event whose text is the question and
whose context says `continue_conversation`; the request stays open, and the next
`transcript` of the same conversation answers it.

"The same conversation" is the event context's `conversation_id` (Home Assistant sends one
and opens a connection per turn), else the connection. Wyoming's `handled`/`transcript`
events carry a free-form `context` "for the next interaction", which is all the protocol
has for a dialogue: there is no event for "ask the user", so the question is the handled
text, and the answer is the next transcript.

Bounded: at most `limit` open questions in all (one more is asked as before: the request
ends, the question is the not-handled text), each waits `timeout` seconds for its answer,
an answer that does not fit is asked again at most twice, and "cancel"/"stop"/"abbrechen"
ends it.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any, Awaitable, Callable, Dict, Hashable, List, Optional

from wyoming.event import Eventable
from wyoming.handle import Handled, NotHandled

from intentbus import Answer, Prompt

__all__ = ["OpenQuestions", "Turn", "answer_for"]

#: Words that end an open question instead of answering it.
CANCEL_WORDS = {"cancel", "stop", "never mind", "nevermind", "abbrechen", "stopp", "vergiss es"}
_YES = {"yes", "yeah", "yep", "sure", "ok", "okay", "ja", "jawohl", "genau", "klar", "true"}
_NO = {"no", "nope", "nein", "false", "nicht"}
#: Times an answer that does not fit is asked again before the request ends.
MAX_REASKS = 2


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def answer_for(prompt: Prompt, text: str) -> Any:
    """The ANSWER value for what was said, or None when it does not fit the question: a
    yes/no for a confirmation, an offered option by its title, id or number, a number
    for a numeric value, else the words."""
    said = _words(text)
    kind = (prompt.type or "").lower()  # "Integer" (new style), "integer"
    if prompt.kind == "confirmation" or kind == "boolean":
        first = said.split(" ")[0] if said else ""
        return True if first in _YES else False if first in _NO else None
    if prompt.options:
        for i, option in enumerate(prompt.options):
            names = {_words(str(option.get("title", ""))), _words(str(option.get("id", "")))} - {""}
            if said in names or said == str(i + 1):
                chosen = option.get("id")
                return Answer(chosen, remember="once") if prompt.kind == "plugin_choice" else chosen
        return None
    if kind == "integer":
        return int(said) if re.fullmatch(r"-?\d+", said.replace(" ", "")) else None
    if kind in ("decimal", "number", "double"):
        try:
            return float(text.strip().replace(",", "."))
        except ValueError:
            return None
    return text.strip() or None


class Turn:
    """One request with a question open: the `send` runs as a task; each step it takes
    (a question, or the final answer) is put where the Wyoming side reads it."""

    def __init__(self, key: Hashable, context: Optional[Dict[str, Any]], timeout: float,
                 question_text: Callable[[Prompt], str]):
        self.key = key
        self.context = context
        self.timeout = timeout
        self.question_text = question_text
        self.steps: "asyncio.Queue[Eventable]" = asyncio.Queue()
        self.answers: "asyncio.Queue[Optional[str]]" = asyncio.Queue()
        self.task: Optional["asyncio.Task[None]"] = None
        self.prompt: Optional[Prompt] = None

    def question(self, text: str) -> Eventable:
        """The `handled` event that asks: the conversation goes on."""
        return Handled(text=text, context={**(self.context or {}), "continue_conversation": True,
                                           "intentbus_question": self.prompt.kind if self.prompt else "value"})

    async def ask(self, prompt: Prompt) -> Any:
        """`on_prompt`: says the question, waits for the answer (None: cancelled)."""
        self.prompt = prompt
        text = self.question_text(prompt)
        for _attempt in range(MAX_REASKS + 1):
            await self.steps.put(self.question(text))
            try:
                said = await asyncio.wait_for(self.answers.get(), self.timeout)
            except asyncio.TimeoutError:
                return None
            if said is None or _words(said) in CANCEL_WORDS:
                return None
            value = answer_for(prompt, said)
            if value is not None:
                return value
            text = f"Sorry, “{said}” does not answer that. {self.question_text(prompt)}"
        return None

    async def run(self, send: Awaitable[Eventable]) -> None:
        try:
            await self.steps.put(await send)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # never leave the Wyoming side waiting
            await self.steps.put(NotHandled(text=str(e), context=self.context))


class OpenQuestions:
    """The service's open questions, by conversation (bounded: `limit`)."""

    def __init__(self, limit: int = 64, timeout: float = 60.0):
        self.limit = limit
        self.timeout = timeout
        self.turns: Dict[Hashable, Turn] = {}

    def has_room(self) -> bool:
        self._prune()
        return len(self.turns) < self.limit

    def _prune(self) -> None:
        """Forgets turns whose request ended unread (its question timed out)."""
        for key in [k for k, t in self.turns.items() if t.task is not None and t.task.done()]:
            del self.turns[key]

    async def start(self, key: Hashable, context: Optional[Dict[str, Any]],
                    send: Callable[[Callable[[Prompt], Awaitable[Any]]], Awaitable[Eventable]],
                    question_text: Callable[[Prompt], str]) -> Eventable:
        """Runs `send(on_prompt)`; returns its first step (a question or the answer)."""
        turn = Turn(key, context, self.timeout, question_text)
        self.turns[key] = turn
        turn.task = asyncio.ensure_future(turn.run(send(turn.ask)))
        return await self._step(turn)

    async def answer(self, key: Hashable, text: str) -> Optional[Eventable]:
        """The next step after `text` answers the question open under `key` (None: no
        question is open there)."""
        turn = self.turns.get(key)
        if turn is None or turn.task is None or turn.task.done():
            self.turns.pop(key, None)  # ended meanwhile (timed out): the text is a new request
            return None
        await turn.answers.put(text)
        return await self._step(turn)

    async def _step(self, turn: Turn) -> Eventable:
        step = await turn.steps.get()
        if not (isinstance(step, Handled) and (step.context or {}).get("continue_conversation")):
            self.turns.pop(turn.key, None)  # the request ended
        return step

    async def drop(self, key: Hashable) -> None:
        """The connection a question was keyed by has gone: the request is cancelled."""
        turn = self.turns.pop(key, None)
        if turn is not None and turn.task is not None:
            await turn.answers.put(None)
            try:
                await asyncio.wait_for(turn.task, 5.0)
            except (asyncio.TimeoutError, Exception):
                turn.task.cancel()

    def keys(self) -> List[Hashable]:
        return list(self.turns)
