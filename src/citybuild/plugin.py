"""Everything a game author needs, from one module: ``from citybuild.plugin import ...``.

A game plugin is a ``GameSpec`` (see docs/guide/plugins.md) naming a ``Game`` subclass, its
``State`` (the snapshot of its ``Engine``, where the rules are written once), view, move and
chance-outcome classes (its view class derives from ``PositionView``, naming the position whose
fields declare who may see them), and its optional hooks. The names here are the
public contract for plugins; the deep module paths behind them may move between versions.
"""

from citybuild.core.chance import draw_from_counts, from_counts, multiset_roll, sample, sample_counts
from citybuild.core.engine import Engine, MoveList
from citybuild.core.errors import CitybuildError, IllegalMoveError, InvalidStateError, NotationError, RulesError
from citybuild.core.game import Game, State
from citybuild.core.notation import excerpt, move_words, parse_fields, parse_int, split_fields
from citybuild.core.plain import Worded, parse_position, parse_worded, position_text
from citybuild.core.position import COUNTS, SORTED, PositionView, by_rule, hidden, owned
from citybuild.core.registry import GameSpec, register, unregister
from citybuild.core.rules import (
    FrozenDict,
    RulesBase,
    boolean,
    fail,
    frozen_dict,
    int_between,
    one_of,
    per_player_count,
)
from citybuild.core.scoresheet import ScoreItem, ScoreSheet
from citybuild.core.verdict import Verdict, Violation, refuse
from citybuild.core.view import View

__all__ = [
    "COUNTS",
    "SORTED",
    "CitybuildError",
    "Engine",
    "FrozenDict",
    "Game",
    "GameSpec",
    "IllegalMoveError",
    "InvalidStateError",
    "MoveList",
    "NotationError",
    "PositionView",
    "RulesBase",
    "RulesError",
    "ScoreItem",
    "ScoreSheet",
    "State",
    "Verdict",
    "View",
    "Violation",
    "Worded",
    "boolean",
    "by_rule",
    "draw_from_counts",
    "excerpt",
    "fail",
    "from_counts",
    "frozen_dict",
    "hidden",
    "int_between",
    "move_words",
    "multiset_roll",
    "one_of",
    "owned",
    "parse_fields",
    "parse_int",
    "parse_position",
    "parse_worded",
    "per_player_count",
    "position_text",
    "refuse",
    "register",
    "sample",
    "sample_counts",
    "split_fields",
    "unregister",
]
