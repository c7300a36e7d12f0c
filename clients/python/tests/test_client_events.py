"""The typed accessors of `Prompt` (docs/python.md): what a host sends is read with its
type; anything of another type, or absent, reads as None (False for `multiple`)."""

from intentbus import Prompt


def test_prompt_fields_read_with_their_types():
    p = Prompt.from_body({"kind": "value", "parameter": "amount", "dialog": "Wie viel?", "type": "Integer",
                          "type_title": "Ganzzahl", "multiple": False, "minimum": 5, "maximum": 100,
                          "range": "5…100", "problem": "'7' is not a multiple of 5", "item": 1, "items": 3})
    assert (p.type_title, p.multiple, p.minimum, p.maximum, p.range) == ("Ganzzahl", False, 5, 100, "5…100")
    assert isinstance(p.minimum, int) and p.problem == "'7' is not a multiple of 5"
    assert (p.item, p.items) == (1, 3)


def test_prompt_fields_of_another_type_or_absent_are_none():
    p = Prompt.from_body({"kind": "value", "type_title": 3, "multiple": "yes", "minimum": True, "maximum": "9",
                          "range": None, "item": 1.5, "items": False})
    assert (p.type_title, p.multiple, p.minimum, p.maximum, p.range, p.item, p.items) == (
        None, False, None, None, None, None, None)
    empty = Prompt.from_body("not an object")
    assert (empty.kind, empty.type_title, empty.multiple, empty.problem, empty.item) == ("value", None, False, None, None)
