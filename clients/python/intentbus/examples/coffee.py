"""OrderCoffeeIntent: the coffee-ordering example plugin (after the custom intent in
seed 001 of the IntentBus reference material).

Intent: OrderCoffeeIntent — "Order a coffee"
Parameters:
  - beverage (String)   e.g. "latte", "flat white"
  - size (String)       small, medium or large
  - quantity (Integer)  1–10, default 1
Response:
  - orderNumber (String)
  - price (CurrencyAmount: {"amount": 9.0, "currencyCode": "EUR"})
Phrases:
  - "Order coffee in MyApp"
  - "Get a latte from MyApp"

Run it under the host (plugins.yaml: `exec: .venv/bin/python -m intentbus.examples.coffee`),
then: `intentbus send OrderCoffeeIntent beverage=latte size=large quantity=2`.
`python -m intentbus.examples.coffee --describe` prints the definition as JSON.

It is a *plain* handler for now, shaped like a legacy one: it asks for what is
missing or ambiguous (value and disambiguation prompts), confirms large orders, and
its reply carries `code`, `dialog` and `response` as a legacy response does, so it
can move to the legacy style (resolve → confirm → handle) without changing clients.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from typing import Any, Dict, List

from intentbus import BusError, ErrorCode, Plugin, Result

#: The intent definition, in the shape of a custom intent (seed 001).
DEFINITION: Dict[str, Any] = {
    "intent": "OrderCoffeeIntent",
    "title": "Order a coffee",
    "category": "order",
    "parameters": [
        {"name": "beverage", "type": "String", "prompt": "What would you like to drink?"},
        {"name": "size", "type": "String", "prompt": "Which size?", "options": ["small", "medium", "large"]},
        {"name": "quantity", "type": "Integer", "default": 1, "min": 1, "max": 10},
    ],
    "response": {
        "parameters": [{"name": "orderNumber", "type": "String"}, {"name": "price", "type": "CurrencyAmount"}],
        "codes": [
            {"name": "success", "success": True,
             "formatString": "Your order ${orderNumber} is on its way: ${quantity} × ${size} ${beverage}, "
                             "${price}."},
            {"name": "failure", "success": False, "formatString": "Sorry, I could not place the order."},
            {"name": "cancelledByUser", "success": False, "formatString": "Okay, I won't order anything."},
        ],
    },
    "phrases": ["Order coffee in MyApp", "Get a latte from MyApp"],
}

#: Prices in euro cents for a medium cup.
MENU: Dict[str, int] = {
    "espresso": 220,
    "americano": 280,
    "cappuccino": 340,
    "latte": 360,
    "iced latte": 390,
    "flat white": 380,
    "mocha": 400,
}
#: Surcharge (cents) per size.
SIZES: Dict[str, int] = {"small": -40, "medium": 0, "large": 60}
#: Orders of more than this many cups are confirmed first.
CONFIRM_ABOVE = 5

_orders = itertools.count(random.randint(1000, 8999))


def _price_text(cents: int) -> str:
    return f"{cents // 100},{cents % 100:02d} €"


def _match_beverage(text: str) -> List[str]:
    """Menu items for what the user said: an exact name, else every item containing it."""
    t = " ".join(text.lower().split())
    if t in MENU:
        return [t]
    return [name for name in MENU if t and t in name]


def order_coffee(request, ctx) -> Result:
    """Resolves beverage, size and quantity (asking when needed), confirms big orders,
    and places the order."""
    params = request.params if isinstance(request.params, dict) else {}

    # beverage: ask when missing; disambiguate when several menu items match.
    beverage = params.get("beverage")
    while True:
        if not isinstance(beverage, str) or not beverage.strip():
            beverage = ctx.ask_value("beverage", "What would you like to drink?", "String")
            continue
        matches = _match_beverage(beverage)
        if len(matches) == 1:
            beverage = matches[0]
            break
        if not matches:
            beverage = ctx.ask_value("beverage", f"Sorry, there is no {beverage} on the menu. "
                                                 f"What would you like instead? ({', '.join(MENU)})", "String")
            continue
        options = [{"id": m, "title": m.title(), "subtitle": _price_text(MENU[m])} for m in matches]
        beverage = ctx.disambiguate("beverage", options, f"There are {len(matches)} options matching "
                                                          f"‘{beverage}’. Which one?")

    # size: one of three; ask with the sizes as options when missing or unknown.
    size = params.get("size")
    if not (isinstance(size, str) and size.lower() in SIZES):
        options = [{"id": s, "title": s.title(), "subtitle": _price_text(MENU[beverage] + SIZES[s])} for s in SIZES]
        size = ctx.disambiguate("size", options, "Which size?")
        if not (isinstance(size, str) and size in SIZES):
            raise BusError(ErrorCode.INVALID_PARAMETERS, f"size must be one of {', '.join(SIZES)}",
                           {"parameter": "size"})
    size = size.lower()

    # quantity: an integer from 1 to 10, default 1.
    quantity = params.get("quantity", 1)
    if isinstance(quantity, str) and quantity.strip().isdigit():
        quantity = int(quantity)
    if isinstance(quantity, bool) or not isinstance(quantity, int) or not 1 <= quantity <= 10:
        return Result.failure({"code": "failure", "dialog": "You can order from 1 to 10 coffees at a time.",
                               "response": {}, "parameter": "quantity"})

    cents = (MENU[beverage] + SIZES[size]) * quantity
    if quantity > CONFIRM_ABOVE:
        if not ctx.confirm(f"That's {quantity} {size} {beverage}s for {_price_text(cents)}. Order them?"):
            return Result.failure({"code": "cancelledByUser", "dialog": "Okay, I won't order anything.",
                                   "response": {}})

    ctx.progress("Sending your order to the barista…", fraction=0.5)
    order_number = f"C-{next(_orders)}"
    response = {"orderNumber": order_number, "price": {"amount": cents / 100, "currencyCode": "EUR"},
                "beverage": beverage, "size": size, "quantity": quantity}
    dialog = (f"Your order {order_number} is on its way: {quantity} × {size} {beverage}, "
              f"{_price_text(cents)}.")
    return Result.success({"code": "success", "dialog": dialog, "response": response})


def main() -> None:
    """Serves OrderCoffeeIntent under `intentbus host`; `--describe` prints the definition."""
    if "--describe" in sys.argv[1:]:
        print(json.dumps(DEFINITION, indent=2, ensure_ascii=False))
        return
    plugin = Plugin()
    plugin.handler("OrderCoffeeIntent")(order_coffee)
    plugin.run()


if __name__ == "__main__":
    main()
