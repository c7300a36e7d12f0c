"""OrderCoffeeIntent: the coffee-ordering example plugin, a legacy (SiriKit-style)
handler after the custom intent of seed 001 of the IntentBus reference material.

The intent's shape lives in its definition, `definitions/coffee.yaml`, which the host
reads (the manifest entry lists it under `definitions:`):

    Intent: OrderCoffeeIntent — "Order a coffee"
    Parameters:
      - beverage (enum Beverage: espresso, americano, cappuccino, latte, icedLatte,
                  flatWhite, mocha), required
      - size     (enum CupSize: small, medium, large), required
      - quantity (Integer, 1…10, default 1)
    Response:
      - orderNumber (String), price (CurrencyAmount), drinks (String)
      - codes: success, tenthCupFree (custom), failure
    Phrases:
      - "Order coffee in MyApp"
      - "Get a latte from MyApp"

The host asks for what is missing and checks types and ranges; this handler resolves
(a sold-out beverage is `unsupported`, more than five cups need a confirmation),
confirms, and handles (progress, then the order; the tenth cup of an order is free).

Run it under the host (plugins.yaml: `exec: .venv/bin/python -m intentbus.examples.coffee`),
then: `intentbus send OrderCoffeeIntent beverage=latte size=large quantity=2`.
With `INTENTBUS_DESCRIBE=1` it prints its HELLO declarations and exits (`intentbus validate`).
"""

from __future__ import annotations

import itertools
import os
import random
from typing import Dict, Optional, Set

from intentbus import LegacyHandler, LegacyIntent, Plugin, Resolution, Response

#: Prices in euro cents for a medium cup, by the Beverage enum's case names.
MENU: Dict[str, int] = {
    "espresso": 220,
    "americano": 280,
    "cappuccino": 340,
    "latte": 360,
    "icedLatte": 390,
    "flatWhite": 380,
    "mocha": 400,
}
#: How people call the drinks (the enum's display names, lower case).
NAMES: Dict[str, str] = {"icedLatte": "iced latte", "flatWhite": "flat white"}
#: Surcharge (cents) per size.
SIZES: Dict[str, int] = {"small": -40, "medium": 0, "large": 60}
#: Orders of more than this many cups are confirmed first.
CONFIRM_ABOVE = 5

#: Order numbers count up from a random start, or from COFFEE_FIRST_ORDER (tests, demos).
_orders = itertools.count(int(os.environ.get("COFFEE_FIRST_ORDER") or random.randint(1000, 8999)))


def sold_out() -> Set[str]:
    """Beverages that are out today: `COFFEE_SOLD_OUT` (comma-separated), default mocha."""
    return {b.strip() for b in os.environ.get("COFFEE_SOLD_OUT", "mocha").split(",") if b.strip()}


def drink_name(beverage: str) -> str:
    return NAMES.get(beverage, beverage)


class OrderCoffeeHandler(LegacyHandler):
    """resolve → confirm → handle for OrderCoffeeIntent."""

    def resolve_beverage(self, value: Optional[str], intent: LegacyIntent) -> Resolution:
        if value is None:
            return Resolution.needs_value()
        if value in sold_out():
            return Resolution.unsupported("soldOut")
        return Resolution.success()

    def resolve_size(self, value: Optional[str], intent: LegacyIntent) -> Resolution:
        return Resolution.needs_value() if value is None else Resolution.success()

    def resolve_quantity(self, value: Optional[int], intent: LegacyIntent) -> Resolution:
        if value is None:
            return Resolution.needs_value()
        if value > CONFIRM_ABOVE:
            # The host asks "N cups, is that right?"; yes settles it, no asks again.
            return Resolution.confirmation_required()
        return Resolution.success()

    def confirm(self, intent: LegacyIntent) -> Response:
        # The last check before the order: the beverage may have sold out meanwhile.
        if intent.beverage in sold_out():
            return Response.failure()
        return Response.ready()

    def handle(self, intent: LegacyIntent) -> Response:
        beverage, size, quantity = intent.beverage, intent.size, intent.get("quantity", 1)
        intent.progress("Sending your order to the barista…", fraction=0.5)
        cups = quantity - 1 if quantity >= 10 else quantity
        cents = (MENU[beverage] + SIZES[size]) * cups
        response = {"orderNumber": f"C-{next(_orders)}",
                    "price": {"amount": round(cents / 100, 2), "currency": "EUR"},
                    "drinks": f"{quantity} × {size} {drink_name(beverage)}"}
        return Response("tenthCupFree" if cups < quantity else "success", response)


def main() -> None:
    """Serves OrderCoffeeIntent under `intentbus host`."""
    plugin = Plugin()
    plugin.add("OrderCoffeeIntent", OrderCoffeeHandler())
    plugin.run()


if __name__ == "__main__":
    main()
