"""The error every engine raises for an action the rules do not allow, and the reason it gives.

>>> reason = Refusal("does_not_beat", attack="7c", defence="8h", trump="s")
>>> reason.code, reason.params["defence"]
('does_not_beat', '8h')
>>> reason
Refusal('does_not_beat', attack='7c', defence='8h', trump='s')
>>> import json
>>> json.dumps(Refusal("not_in_hand", cards=["Ah", "Kh"]).to_dict())
'{"code": "not_in_hand", "params": {"cards": ["Ah", "Kh"]}}'
"""

from typing import Any, NoReturn


class Params(dict[str, Any]):
    """A refusal's details: a read-only dict of JSON-safe values (lists are kept as tuples)."""

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a refusal's params are read-only")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Params, (dict(self),))


class Refusal:
    """Why an action is not legal now: a ``code`` from the engine's closed list
    (``REFUSAL_CODES`` of ``durak.engine`` or ``rummy.engine``) and JSON-safe ``params``
    (card names such as ``"7c"``, counts).

    An immutable value: two are equal when their code and params are; ``to_dict()`` is the
    plain ``{"code", "params"}`` dict. The engines make it in ``Game.why_illegal`` and hang it
    on ``IllegalAction.reason``; the site turns it into a sentence in the player's language.
    """

    __slots__ = ("code", "params")

    code: str
    params: Params

    def __init__(self, code: str, **params: Any) -> None:
        if not isinstance(code, str) or not code:
            raise TypeError(f"a refusal's code is a non-empty str, not {code!r}")
        object.__setattr__(self, "code", code)
        object.__setattr__(
            self, "params", Params((name, _frozen(value)) for name, value in params.items())
        )

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError("a Refusal is immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("a Refusal is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Refusal):
            return NotImplemented
        return self.code == other.code and self.params == other.params

    def __hash__(self) -> int:
        return hash((self.code, self.params))

    def __repr__(self) -> str:
        words = [repr(self.code)]
        words.extend(f"{name}={_thawed(value)!r}" for name, value in self.params.items())
        return f"Refusal({', '.join(words)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_refusal, (self.code, dict(self.params)))

    def to_dict(self) -> dict[str, Any]:
        """``{"code": …, "params": {…}}`` with plain lists and dicts, for ``json.dumps``."""
        return {
            "code": self.code,
            "params": {name: _thawed(value) for name, value in self.params.items()},
        }


def _refusal(code: str, params: dict[str, Any]) -> Refusal:
    return Refusal(code, **params)


def _frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        items = tuple(value)
        if not all(type(item) in (str, int) for item in items):
            raise TypeError(f"a refusal's list holds names or numbers, not {value!r}")
        return items
    if value is None or type(value) in (str, int, bool):
        return value
    raise TypeError(f"a refusal's params are JSON-safe values, not {value!r}")


def _thawed(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


class IllegalAction(ValueError):
    """An action that is malformed or not legal now; the game it was tried on is unchanged.

    ``reason`` is the :class:`Refusal` saying why, when the engine knows it: ``Game.apply``
    always sets it, to what ``Game.why_illegal`` says of the same seat and action.
    """

    def __init__(self, *args: object, reason: Refusal | None = None) -> None:
        super().__init__(*args)
        self.reason = reason
