"""A game's position declared once, each field with who may see it (DESIGN principle 6).

A game's position class is an attrs class; a field is public unless its metadata says otherwise
(``attrs.field(metadata=owned(...))``) with ``owned`` (a per-player entry only its owner sees, with a size others see),
``hidden`` (nobody sees it, perhaps its size) or ``by_rule`` (the game's own rule decides, for
conditional cases such as secret simultaneous choices). From that declaration this module
derives what would otherwise be written again for every game:

- the view class (``PositionView`` subclasses name their position and get their fields) and
  ``view_of(state, player)``;
- the baseline ``hidden_variants``: positions that differ only in what a player cannot see;
- ``deal``: the uniform refilling of hidden entries that ``determinize`` does;
- ``check_view``: a view's shape checked against the declaration, then a position drawn from it
  that must pass the game's invariants and give the view back.

Items are either ``COUNTS`` (a vector of counts per kind: Manhattan's cards) or ``SORTED`` (a
sorted tuple of item numbers: Urbanization's cards and tiles).
"""

from __future__ import annotations

import functools
import operator
import random
import sys
import typing
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

import attrs

from citybuild.core import chance
from citybuild.core.determinize import determinizer
from citybuild.core.errors import InvalidStateError
from citybuild.core.text import plain
from citybuild.core.tuples import bumped, inserted, removed, replaced
from citybuild.core.view import View

if TYPE_CHECKING:
    from citybuild.core.game import State

KEY = "citybuild.visibility"
Items = Literal["counts", "sorted"]
COUNTS: Items = "counts"
SORTED: Items = "sorted"


@attrs.frozen
class Public:
    """Everyone sees the field as it is (the default)."""


@attrs.frozen
class Owned:
    """A per-player tuple: each player sees their own entry, others ``None``; everyone sees each
    entry's size under ``size`` (when named). ``pool`` names the hidden field an entry's items
    could have come from (a hand and the draw pile), for the baseline hidden variants."""

    items: Items | None
    size: str | None
    pool: str | None


@attrs.frozen
class Hidden:
    """Nobody sees the field; everyone sees its size under ``size`` (when named)."""

    items: Items | None
    size: str | None


@attrs.frozen
class ByRule:
    """The game's own rule: ``show(state, player)`` gives the view's values of ``fields`` (names
    and types, in view order), which replace this position field in the view."""

    fields: tuple[tuple[str, Any], ...]
    show: Callable[[Any, int], tuple[Any, ...]]


Visibility = Public | Owned | Hidden | ByRule
PUBLIC = Public()


def owned(*, items: Items | None = None, size: str | None = None, pool: str | None = None) -> dict[str, Any]:
    """The metadata of a field private to each player's own entry (see ``Owned``):
    ``hands: tuple[Counts, ...] = attrs.field(metadata=owned(size="hand_sizes"))``."""
    return {KEY: Owned(items, size, pool)}


def hidden(*, items: Items | None = None, size: str | None = None) -> dict[str, Any]:
    """The metadata of a field hidden from everyone (see ``Hidden``)."""
    return {KEY: Hidden(items, size)}


def by_rule(show: Callable[[Any, int], tuple[Any, ...]], **fields: Any) -> dict[str, Any]:
    """The metadata of a field the game's rule ``show`` turns into the view's ``fields`` (see
    ``ByRule``); the keywords name each view field with its type, in order."""
    return {KEY: ByRule(tuple(fields.items()), show)}


def visibility(field: attrs.Attribute[Any]) -> Visibility:
    """How a position field is seen: its declaration, public when it declares none."""
    seen: Visibility = field.metadata.get(KEY, PUBLIC)
    return seen


@functools.lru_cache(maxsize=64)
def declared(position: type) -> tuple[tuple[attrs.Attribute[Any], Visibility], ...]:
    """The position's fields but its game, in declaration order, each with its visibility."""
    return tuple((f, visibility(f)) for f in attrs.fields(position) if f.name != "game")


@functools.lru_cache(maxsize=64)
def has_secrets(position: type) -> bool:
    """Whether any field of the position is kept from some player."""
    return any(not isinstance(seen, Public) for _, seen in declared(position))


# --- the view class -------------------------------------------------------------------------------
def resolved(position: type, field: attrs.Attribute[Any]) -> Any:
    """A field's annotation as a type, read in the module of the class that declares it."""
    annotation = field.type
    if not isinstance(annotation, str):
        return annotation
    for owner in position.__mro__:
        if field.name in vars(owner).get("__annotations__", {}):
            module = sys.modules[owner.__module__]
            try:
                return eval(annotation, dict(vars(module)))  # an annotation the game itself wrote
            except NameError:
                return Any
    return Any


def _or_none(kind: Any) -> Any:
    """``tuple[X, ...]`` as ``tuple[X | None, ...]``: a per-player tuple with others' entries blanked."""
    args = typing.get_args(kind)
    entry: Any = args[0] | None if args else Any
    return tuple[entry, ...]


def view_fields(position: type) -> list[tuple[str, Any, attrs.Attribute[Any] | None]]:
    """The view's fields derived from the position: name, type and the position field copied
    (None for a field a rule or a size makes), ``player`` first and ``to_act`` after the position's."""
    out: list[tuple[str, Any, attrs.Attribute[Any] | None]] = [("player", int, None)]
    for field, seen in declared(position):
        kind = resolved(position, field)
        if isinstance(seen, Public):
            out.append((field.name, kind, field))
        elif isinstance(seen, Owned):
            out.append((field.name, _or_none(kind), None))
            if seen.size:
                out.append((seen.size, tuple[int, ...], None))
        elif isinstance(seen, Hidden):
            if seen.size:
                out.append((seen.size, int, None))
        else:
            out.extend((name, kind_of, None) for name, kind_of in seen.fields)
    out.append(("to_act", tuple[int, ...], None))
    return out


class PositionView(View):
    """A view class derived from a position: ``class MyView(PositionView, position=MyPosition)``
    gets one frozen attrs field per view field (``view_fields``), then ``game``; the class body
    adds only what is special (notation, checks, a docstring)."""

    __slots__ = ()
    position: typing.ClassVar[type]

    def __init_subclass__(cls, position: type | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if position is None:
            return
        cls.position = position
        annotations: dict[str, Any] = {}
        for name, kind, copied in view_fields(position):
            annotations[name] = kind
            eq = copied.eq if copied is not None else True
            setattr(cls, name, attrs.field(eq=eq, repr=copied.repr if copied is not None else True))
        annotations["game"] = Any
        setattr(cls, "game", attrs.field(default=None, kw_only=True, repr=False))  # noqa: B010 - a field, not a value
        cls.__annotations__ = annotations
        attrs.frozen(slots=False)(cls)

    def notation(self) -> str:
        """The view as one line (games with richer text write their own): ``game/players@P<viewer>``
        and each field's plain value (``core.text.plain``), ``?`` for another player's entry."""
        game = self.game
        header = f"{game.name}/{game.players}@P{self.player}" if game is not None else f"view@P{self.player}"
        fields = (
            f"{f.name}={plain(tuple('?' if v is None else v for v in value) if isinstance(value, tuple) else value)}"
            for f in attrs.fields(cast(Any, type(self)))
            if f.name not in ("player", "to_act", "game")
            for value in (getattr(self, f.name),)
        )
        return " ".join((header, *fields))

    def __str__(self) -> str:
        return self.notation()

    if TYPE_CHECKING:  # the fields are made from the declaration, so type checkers see them as Any

        def __init__(self, **fields: Any) -> None: ...

        def __getattr__(self, name: str) -> Any: ...


def view_of(state: State, player: int, view: type[PositionView]) -> Any:
    """What ``player`` may know of ``state``, as an instance of the derived ``view`` class."""
    state.require_player(player)
    return view(game=state.game, **dict(_view_values(state, player, view.position)))


def _view_values(state: State, player: int, position: type, public: bool = True) -> Iterator[tuple[str, Any]]:
    """The fields of ``player``'s view of ``state`` by name, as the declaration shows them (with
    ``public=False``, all but the public fields, which a view shows as they are)."""
    yield "player", player
    for name, kind, seen, shown_as in _plan(position) if public else _kept_plan(position):
        value = getattr(state, name)
        if kind is Public:
            yield name, value
        elif kind is Owned:
            shown = [None] * len(value)
            if player < len(shown):
                shown[player] = value[player]
            yield name, tuple(shown)
            if seen.size:
                yield seen.size, tuple(map(sum if seen.items == COUNTS else len, value))  # size_of, per entry
        elif kind is Hidden:
            if seen.size:
                yield seen.size, size_of(value, seen.items)
        else:
            yield from zip(shown_as, seen.show(state, player), strict=True)
    yield "to_act", state.to_act


def derives_views(method: Callable[..., Any]) -> Callable[..., Any]:
    """Marks the ``State.view`` that derives a view from the declaration (``view_of``), so that
    ``gives`` knows when it may compare a view without building one."""
    method.derives_views = True  # type: ignore[attr-defined]
    return method


def gives(state: State, view: Any) -> bool:
    """Whether ``state`` gives its player exactly ``view`` (``state.view(view.player) == view``);
    where views are derived, each field is compared as ``view_of`` derives it, with no view built."""
    if not getattr(type(state).view, "derives_views", False):  # a game that writes its own views
        return bool(state.view(view.player) == view)
    if state.game is not view.game and state.game != view.game:
        return False
    view_class: type = type(view)
    read_public = _public_reader(view_class)
    if read_public(state) != read_public(view):  # shown as they are: compared at once
        return False
    skipped = _uncompared(view_class)
    for name, value in _view_values(state, view.player, view.position, public=False):
        shown = getattr(view, name)
        if shown is not value and name not in skipped and shown != value:
            return False
    return True


@functools.lru_cache(maxsize=64)
def _uncompared(view: type) -> frozenset[str]:
    """The view fields its equality leaves out (``eq=False``)."""
    return frozenset(f.name for f in attrs.fields(view) if not f.eq)


@functools.lru_cache(maxsize=64)
def _plan(position: type) -> tuple[tuple[str, type, Any, tuple[str, ...]], ...]:
    """``view_of``'s reading of the declaration, once per position class: each field but the
    game by name, with its kind of visibility, the visibility and (by rule) the view's names."""
    kinds = (Public, Owned, Hidden, ByRule)
    return tuple(
        (
            field.name,
            next((kind for kind in kinds if isinstance(seen, kind)), ByRule),  # as view_of's last branch
            seen,
            tuple(name for name, _ in seen.fields) if isinstance(seen, ByRule) else (),
        )
        for field, seen in declared(position)
    )


@functools.lru_cache(maxsize=64)
def _kept_plan(position: type) -> tuple[tuple[str, type, Any, tuple[str, ...]], ...]:
    """``_plan`` without the public fields: what a view derives rather than shows as it is."""
    return tuple(entry for entry in _plan(position) if entry[1] is not Public)


@functools.lru_cache(maxsize=64)
def _public_reader(view: Any) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the public fields a view's equality compares, as one tuple, of a view
    or of a position."""
    names = tuple(name for name in _public_names(view.position) if name not in _uncompared(view))
    if len(names) > 1:
        return operator.attrgetter(*names)
    return lambda value: tuple(getattr(value, name) for name in names)


def size_of(value: Any, items: Items | None) -> int:
    """How many items a hidden value holds: the sum of a count vector, the length of anything else."""
    return sum(value) if items == COUNTS else len(value)


# --- hidden variants ----------------------------------------------------------------------------
def exchanges(entry: Any, pool: Any, items: Items | None) -> Iterator[tuple[Any, Any]]:
    """``(entry, pool)`` pairs with one item of ``entry`` exchanged for a different one of ``pool``
    (the first such exchange), the sizes of both unchanged."""
    if items == COUNTS:
        give = next((a for a, n in enumerate(entry) if n), None)
        take = next((b for b, n in enumerate(pool) if n and b != give), None)
        if give is not None and take is not None:
            yield bumped(bumped(entry, give, -1), take), bumped(bumped(pool, take, -1), give)
    elif items == SORTED:
        pair = next(((a, b) for a in entry for b in pool if a != b), None)
        if pair is not None:
            a, b = pair
            yield inserted(removed(entry, a), b), inserted(removed(pool, b), a)


def hidden_variants(state: State, player: int, position: type) -> list[State]:
    """The baseline variants of ``state`` for ``player``: for each other player and each owned
    field with a pool, one item of their entry exchanged with one of the pool. A game adds the
    variants only its rules know (secret selections, unbounded points)."""
    out: list[State] = []
    for field, seen in declared(position):
        if not isinstance(seen, Owned) or seen.pool is None:
            continue
        entries, pool = getattr(state, field.name), getattr(state, seen.pool)
        for other in range(len(entries)):
            if other == player:
                continue
            for entry, rest in exchanges(entries[other], pool, seen.items):
                changes = {field.name: replaced(entries, other, entry), seen.pool: rest}
                out.append(attrs.evolve(state, **changes))  # type: ignore[misc]
    return out


# --- determinisation ------------------------------------------------------------------------------
class FirstDraws(random.Random):
    """A generator every draw of which is 0.0, so that a determinizer handed it deals the first
    position it can. A view is checked against one position drawn from it, and any will do; this
    one holds no state, so one instance serves every call, with nothing to seed or restore, and
    each deal stops at the first card it may take."""

    def random(self) -> float:
        return 0.0


FIRST_DRAWS = FirstDraws(0)


def deal(unseen: Any, sizes: Sequence[int], items: Items, rng: random.Random) -> tuple[list[Any], Any]:
    """``unseen`` items dealt uniformly: one entry of each size in ``sizes`` (in order), and what
    is left. Count vectors draw card by card (``chance.sample_counts``); sorted items shuffle once
    and cut, and each entry comes out sorted."""
    if items == COUNTS:
        if rng is FIRST_DRAWS:
            return _first_deal(unseen, sizes)
        left = list(unseen)
        entries: list[Any] = []
        for size in sizes:
            entry = [0] * len(left)
            for _ in range(size):
                k = chance.sample_counts(left, rng)
                left[k] -= 1
                entry[k] += 1
            entries.append(tuple(entry))
        return entries, tuple(left)
    order = chance.shuffled(sorted(unseen), rng)
    entries = []
    for size in sizes:
        entries.append(tuple(sorted(order[:size])))
        del order[:size]
    return entries, tuple(sorted(order))


def _first_deal(unseen: Sequence[int], sizes: Sequence[int]) -> tuple[list[Any], Any]:
    """The deal of counts that ``FIRST_DRAWS`` gives (each card the first kind left), without the
    draws: each entry takes what it can from the lowest kinds on, where the one before stopped."""
    left = list(unseen)
    kinds = len(left)
    entries: list[Any] = []
    kind = 0
    for size in sizes:
        entry = [0] * kinds
        while size > 0:
            if kind == kinds:
                raise InvalidStateError("cannot draw from an empty pile")
            have = left[kind]
            if have >= size:
                entry[kind] = size
                left[kind] = have - size
                break
            if have > 0:
                entry[kind] = have
                left[kind] = 0
                size -= have
            kind += 1
        entries.append(tuple(entry))
    return entries, tuple(left)


# --- checking a view --------------------------------------------------------------------------
def check_shape(view: Any, rule: str) -> None:
    """``InvalidStateError`` (citing ``rule``) unless every owned field shows exactly its viewer's
    entry and every per-player field has one entry per player."""
    me = view.player
    players = None if view.game is None else view.game.players
    if type(me) is not int or me < 0 or (players is not None and me >= players):
        raise InvalidStateError(f"a view of {players or 'some'} players cannot belong to player {me!r}", rule)
    for name, kind, seen, _ in _plan(view.position):
        if kind is not Owned:
            continue
        entries = getattr(view, name)
        if view.game is not None and len(entries) != players:
            raise InvalidStateError(f"{name} has one entry per player", rule)
        if me >= len(entries) or entries[me] is None or entries.count(None) != len(entries) - 1:
            raise InvalidStateError(f"a view shows its own player's {name} and no other (P{me})", rule)
        if seen.size:
            sizes = getattr(view, seen.size)
            if len(sizes) != len(entries) or size_of(entries[me], seen.items) != sizes[me]:
                raise InvalidStateError(f"the viewer's {name} disagrees with {seen.size}", rule)


def check_view(view: Any, rule: str, determinize: Callable[[Any, random.Random], State] | None = None) -> None:
    """``InvalidStateError`` unless some position gives ``view``: its shape is checked, then a
    position drawn from it (by ``determinize``; for a game that hides nothing, the position the view
    shows) must pass the game's invariants and give this very view back, so a view is held to the
    same invariants as a position, written once."""
    check_shape(view, rule)
    if view.game is None:
        return  # a view read without its game: only its shape can be checked
    if determinize is None:
        determinize = determinizer(view.game)
    try:
        position = determinize(view, FIRST_DRAWS)
    except InvalidStateError:
        raise
    except Exception as exc:  # a view from which no position can be drawn is no view of the game
        raise InvalidStateError(f"no position gives this view: {exc}", rule) from exc
    position.validate()
    if not has_secrets(view.position):  # the view holds every field: only what it derives can differ
        if position.to_act != view.to_act:
            raise InvalidStateError(f"the players to act are {position.to_act}, not {view.to_act}", rule)
        return
    if not gives(position, view):
        raise InvalidStateError("no position gives this view (what it shows disagrees with itself)", rule)


def public_values(view: Any) -> dict[str, Any]:
    """The values of a view's public fields by name: what a position rebuilt from the view takes
    as it is (``determinize`` adds what the view hides)."""
    return {name: getattr(view, name) for name in _public_names(view.position)}


@functools.lru_cache(maxsize=64)
def _public_names(position: type) -> tuple[str, ...]:
    return tuple(f.name for f, seen in declared(position) if isinstance(seen, Public))


def public_notation(view: Any) -> str:
    """What every player sees, as one line: the public fields of a ``PositionView``, the sizes of
    its owned and hidden fields, and who is to act; nothing that the position keeps from anyone.
    Equal for every viewer of one position, and for positions that differ only in hidden things."""
    game = view.game
    header = f"{game.name}/{game.players} public" if game is not None else "public"
    values = dict(public_values(view))
    for _, seen in declared(view.position):
        if isinstance(seen, Owned | Hidden) and seen.size:
            values[seen.size] = getattr(view, seen.size)
    values["to_act"] = view.to_act
    return " ".join((header, *(f"{name}={plain(value)}" for name, value in values.items())))
