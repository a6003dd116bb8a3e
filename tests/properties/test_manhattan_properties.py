"""Hypothesis properties of Manhattan over every preset, player count and many option mixes:
random games end, pieces and cards are conserved, the owner invariant holds, legal_moves() and
check() agree, text round-trips, play is deterministic, views do not leak, refusals change nothing."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import citybuild as cb
from citybuild.core import chance
from citybuild.core.tower import floors_by_owner
from citybuild.games.manhattan import Build, Draw, Forfeit, ManhattanState, Pass, Redraw, Select
from citybuild.games.manhattan.rules import PIECES_PER_SIZE

PRESETS = cb.presets("manhattan")
OPTION_MIXES = st.fixed_dictionaries(
    {},
    optional={
        "reshuffle": st.sampled_from(["lazy", "eager"]),
        "selection": st.sampled_from(["sequential_open", "simultaneous_hidden"]),
        "no_legal_move": st.sampled_from(["redraw_then_forfeit", "forfeit", "pass_keep_piece"]),
        "redraw_limit": st.integers(0, 4),
        "two_colour_legality": st.sampled_from(["per_colour", "merged"]),
        "two_colour_seating": st.sampled_from(["shared_side", "own_side"]),
        "card_orientation": st.sampled_from(["by_seat", "fixed"]),
        "tallest_tie": st.sampled_from(["nobody", "nobody_unless_same_owner"]),
        "takeover_compare": st.sampled_from(["owner", "max_other", "any_colour"]),
        "two_colour_split": st.sampled_from(["per_colour", "free"]),
    },
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_candidates(rng: random.Random, colours: int) -> list[Any]:
    """Moves of every kind with random fields, legal or not."""

    def sizes(most: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, 4) for _ in range(rng.randint(0, most)))

    pair = rng.sample(range(colours), 2)
    return [
        Build(rng.randrange(9), rng.randrange(6), rng.randrange(colours), rng.randint(1, 4)),
        Build(rng.randrange(9), rng.randrange(6), rng.randrange(colours), rng.randint(1, 4)),
        Redraw(rng.randrange(9)),
        Forfeit(rng.randrange(colours), rng.randint(1, 4)),
        Pass(),
        Select(((rng.randrange(colours), sizes(7)),)),
        Select(((pair[0], sizes(9)), (pair[1], sizes(9)))),
        Draw(rng.randrange(9)),
    ]


def near_selections(state: ManhattanState, player: int, rng: random.Random) -> list[Select]:
    """A legal selection of ``player`` with one piece moved to the other colour, added, dropped or
    resized: legal or not depending on two_colour_split and the supplies (MAN-ROUND-1)."""
    base = rng.choice(state.legal_moves(player))
    picks = [(c, list(sizes)) for c, sizes in base.picks]
    out = []
    for _ in range(4):
        changed = [(c, list(sizes)) for c, sizes in picks]
        source = rng.choice(changed)
        if source[1] and rng.random() < 0.7:
            piece = source[1].pop(rng.randrange(len(source[1])))
            how = rng.randrange(3)
            if how == 0:
                rng.choice(changed)[1].append(piece)  # moved (maybe back where it was)
            elif how == 1:
                rng.choice(changed)[1].append(rng.randint(1, 4))  # resized
        else:
            source[1].append(rng.randint(1, 4))  # one more
        out.append(Select(tuple((c, tuple(sizes)) for c, sizes in changed)))
    return out


def assert_conserved(state: ManhattanState) -> None:
    """45 cards, 24 pieces (11/6/4/3) per colour, and every tower's owner has the most floors
    (under takeover_compare="any_colour": at least as many as some other colour there)."""
    cards = sum(state.draw) + sum(state.discard) + sum(sum(h) for h in state.hands)
    assert cards == 45  # MAN-COMP-3, MAN-CARD-3
    for k in range(9):
        assert state.draw[k] + state.discard[k] + sum(h[k] for h in state.hands) == 5
    for colour in range(len(state.supply)):
        on_board = [0, 0, 0, 0]
        for tower in state.towers:
            for piece in tower:
                if piece.colour == colour:
                    on_board[piece.size - 1] += 1
        chosen = state.chosen[colour] or (0, 0, 0, 0)
        for s in range(4):
            total = on_board[s] + chosen[s] + state.supply[colour][s] + state.box[colour][s]
            assert total == PIECES_PER_SIZE[s]  # MAN-COMP-2
    merged = state.rules.two_colour_legality == "merged"
    n = state.players
    for tower in state.towers:
        if tower:
            floors = floors_by_owner(tower)
            top = tower[-1].colour
            if merged:  # MAN-BUILD-7: a player's colours count as one
                per_player: dict[int, int] = {}
                for colour, count in floors.items():
                    per_player[colour % n] = per_player.get(colour % n, 0) + count
                floors, top = per_player, top % n
            others = [f for unit, f in floors.items() if unit != top]
            if state.rules.takeover_compare == "any_colour":  # MAN-BUILD-4: some other colour was reached
                assert not others or floors[top] >= min(others)
            else:
                assert floors[top] == max(floors.values())  # MAN-BUILD-6


def assert_check_agrees(state: ManhattanState, rng: random.Random) -> None:
    actor = rng.choice(state.to_act) if state.to_act else None
    legal = state.legal_moves(actor)
    legal_set = set(legal)
    for move in rng.sample(legal, min(len(legal), 8)):
        assert state.check(move, player=actor).ok, (state.notation(), move)
    colours = len(state.supply)
    for move in random_candidates(rng, colours):
        verdict = state.check(move, player=actor)
        assert verdict.ok == (move in legal_set), (state.notation(), move, verdict)
        if not verdict.ok:
            assert verdict.violations and all(v.code and v.rule and v.message for v in verdict.violations)
    if state.phase == "select" and actor is not None:
        for move in near_selections(state, actor, rng):
            verdict = state.check(move, player=actor)
            assert verdict.ok == (move in legal_set), (state.notation(), move, verdict)
    for player in range(state.players):
        if player not in state.to_act and legal:
            assert not state.check(legal[0], player=player).ok


def assert_refusal_changes_nothing(state: ManhattanState, rng: random.Random) -> None:
    before = state.notation()
    actor = rng.choice(state.to_act) if state.to_act else None
    for move in random_candidates(rng, len(state.supply)):
        if not state.check(move, player=actor).ok:
            try:
                state.play(move, player=actor)
            except cb.IllegalMoveError as exc:
                assert exc.verdict.violations
            else:  # pragma: no cover - a refused move must raise
                raise AssertionError(f"{move} was refused by check() but play() accepted it")
    assert state.notation() == before


def play_out(game: cb.Game, seed: int, inspect: bool) -> tuple[ManhattanState, list[Any]]:
    rng = random.Random(seed)
    state: Any = game.initial_state()
    trail: list[Any] = []
    while not state.is_over:
        if inspect:
            assert_conserved(state)
            state.validate()
            if rng.random() < 0.15 or state.phase == "select":
                assert_check_agrees(state, rng)
                assert_refusal_changes_nothing(state, rng)
                assert game.parse_state(state.notation()) == state
        actor = None
        if state.is_chance:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1  # MAN-RAND-1
            move = chance.sample(outcomes, rng)
        else:
            actor = state.to_act[rng.randrange(len(state.to_act))]
            moves = state.legal_moves(actor)
            assert moves, state.notation()  # MAN-BUILD-8: there is always something to do
            move = moves[rng.randrange(len(moves))]
            assert game.parse_move(str(move)) == move
        trail.append((move, actor))
        state = state.play(move, player=actor)
    return state, trail


@SETTINGS
@given(preset=st.sampled_from(PRESETS), players=st.integers(2, 4), seed=st.integers(0, 2**32), options=OPTION_MIXES)
def test_random_games_end_and_keep_every_invariant(
    preset: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    # MAN-END-1, MAN-ROUND-6, MAN-COMP-2, MAN-COMP-3, MAN-BUILD-6
    try:
        game = cb.load("manhattan", players=players, preset=preset, **options)
    except cb.RulesError:  # e.g. own_side seating that puts two colours on one side: refused, nothing to play
        assume(False)
        raise
    final, _ = play_out(game, seed, inspect=True)
    assert_conserved(final)
    sheet = final.scores()
    assert sheet.totals == final.points
    assert final.winners() and set(final.winners()) <= set(range(players))
    assert max(sheet.totals) == sheet.totals[final.winners()[0]]
    assert final.legal_moves() == () and final.to_act == ()


def assert_game_ends_under(game: cb.Game, seed: int) -> None:
    """A random game through legal_moves/check and a random playout through random_move both end,
    keep every invariant, and leave nothing to play."""
    final, _ = play_out(game, seed, inspect=True)
    assert_conserved(final)
    assert final.is_over and final.legal_moves() == () and final.winners()
    state: Any = game.initial_state()
    rng = random.Random(seed)
    while not state.is_over:
        player = None if state.is_chance else state.to_act[int(rng.random() * len(state.to_act))]
        move = state.random_move(rng, player)
        if player is not None:
            assert state.check(move, player=player).ok, (state.notation(), move)
        state = state.play(move, player=player)
    assert_conserved(state)
    state.validate()


@settings(max_examples=15, deadline=None)
@given(preset=st.sampled_from(PRESETS), players=st.integers(2, 4), seed=st.integers(0, 2**32), options=OPTION_MIXES)
def test_any_colour_games_end_with_check_agreeing(
    preset: str, players: int, seed: int, options: dict[str, Any]
) -> None:
    # MAN-BUILD-4 takeover_compare="any_colour", with the weaker owner invariant it keeps (MAN-BUILD-6)
    try:
        game = cb.load("manhattan", players=players, preset=preset, **{**options, "takeover_compare": "any_colour"})
    except cb.RulesError:
        assume(False)
    assert_game_ends_under(game, seed)


@settings(max_examples=15, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32), options=OPTION_MIXES)
def test_free_split_games_end_with_check_agreeing(preset: str, seed: int, options: dict[str, Any]) -> None:
    # MAN-ROUND-1 two_colour_split="free": 2 players with two colours each, 8 pieces a round in any split
    forced = {"colours_per_player": {2: 2, 3: 1, 4: 1}, "two_colour_split": "free"}
    try:
        game = cb.load("manhattan", players=2, preset=preset, **{**options, **forced})
    except cb.RulesError:
        assume(False)
    assert_game_ends_under(game, seed)


@settings(max_examples=15, deadline=None)
@given(preset=st.sampled_from(PRESETS), players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_same_choices_and_outcomes_give_the_same_game(preset: str, players: int, seed: int) -> None:
    game = cb.load("manhattan", players=players, preset=preset)
    first, trail = play_out(game, seed, inspect=False)
    again: Any = game.initial_state()
    for move, actor in trail:
        again = again.play(str(move), player=actor)  # through the notation, too
    assert again == first
    assert again.scores() == first.scores()
    second, _ = play_out(game, seed, inspect=False)
    assert second == first


def hide_swap(state: ManhattanState, player: int, rng: random.Random) -> ManhattanState | None:
    """The same position with one card of ``player``'s hand exchanged with a draw-pile card."""
    hand = list(state.hands[player])
    have = [k for k in range(9) if hand[k]]
    pile = [k for k in range(9) if state.draw[k]]
    if not have or not pile:
        return None
    give, take = rng.choice(have), rng.choice(pile)
    if give == take:
        return None
    hand[give] -= 1
    hand[take] += 1
    draw = list(state.draw)
    draw[take] -= 1
    draw[give] += 1
    hands = list(state.hands)
    hands[player] = tuple(hand)
    return ManhattanState(
        game=state.game, round=state.round, phase=state.phase, turn=state.turn, towers=state.towers,
        hands=tuple(hands), draw=tuple(draw), discard=state.discard, supply=state.supply, chosen=state.chosen,
        box=state.box, points=state.points, redraws=state.redraws, passes=state.passes, ledger=state.ledger,
    )  # fmt: skip


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), steps=st.integers(20, 150))
def test_views_do_not_leak_other_hands(players: int, seed: int, steps: int) -> None:
    game = cb.load("manhattan", players=players)
    rng = random.Random(seed)
    state: Any = game.initial_state()
    for _ in range(steps):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    for hidden in range(players):
        other = hide_swap(state, hidden, rng)
        if other is None:
            continue
        other.validate()
        assert other != state
        for viewer in range(players):
            if viewer != hidden:
                assert other.view(viewer) == state.view(viewer)
            else:
                assert other.view(viewer) != state.view(viewer)


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_hidden_selection_does_not_leak_until_everyone_has_chosen(players: int, seed: int) -> None:
    # MAN-ROUND-1 with selection="simultaneous_hidden"
    game = cb.load("manhattan", players=players, selection="simultaneous_hidden")
    rng = random.Random(seed)
    state: Any = game.initial_state()
    while state.is_chance:
        state = state.play(chance.sample(state.chance_outcomes(), rng))
    assert state.to_act == tuple(range(players))
    chooser = rng.randrange(players)
    a = state.play(rng.choice(state.legal_moves(chooser)), player=chooser)
    b = state.play(rng.choice(state.legal_moves(chooser)), player=chooser)
    for viewer in range(players):
        if viewer != chooser:
            assert a.view(viewer) == b.view(viewer)
    assert chooser not in a.to_act


def test_deal_probabilities_are_exact() -> None:
    # MAN-RAND-1: the first draw of the deal is 5/45 for every k
    state = cb.load("manhattan", players=4).initial_state()
    assert state.is_chance and state.to_act == ()
    assert state.chance_outcomes() == tuple((Draw(k), Fraction(1, 9)) for k in range(9))


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), steps=st.integers(0, 120))
def test_random_move_is_always_legal(players: int, seed: int, steps: int) -> None:
    game = cb.load("manhattan", players=players)
    rng = random.Random(seed)
    state: Any = game.initial_state()
    for _ in range(steps):
        if state.is_over:
            break
        move = state.random_move(rng)
        assert move in state.legal_moves()
        state = state.play(move)


def test_random_move_is_uniform_over_the_legal_builds() -> None:
    game = cb.load("manhattan", players=4)
    state = game.parse_state(
        "manhattan/4 round=1 phase=build turn=0 towers=Syd4:B3,Man4:B2,Fra0:C4 "
        "hands=0448/0000/1111/2222 chosen=1234/1/1/1"
    )
    legal = state.legal_moves()
    rng = random.Random(99)
    draws = 40 * len(legal)
    counts = {move: 0 for move in legal}
    for _ in range(draws):
        counts[state.random_move(rng)] += 1
    expected = draws / len(legal)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    # chi-square with len(legal) - 1 degrees of freedom: mean df, sd sqrt(2 df); 5 sd is far in the tail
    df = len(legal) - 1
    assert chi2 < df + 5 * (2 * df) ** 0.5, chi2


@settings(max_examples=40, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    options=OPTION_MIXES,
    warmup=st.integers(0, 150),
)
def test_playout_is_the_stepped_game(
    preset: str, players: int, seed: int, options: dict[str, Any], warmup: int
) -> None:
    """``playout`` on the engine gives the same final state, ledger and step count as stepping
    through the public ``random_step`` (random_move, then a checked play), from any point."""
    try:
        game = cb.load("manhattan", players=players, preset=preset, **options)
    except cb.RulesError:
        assume(False)
        raise
    state: Any = game.initial_state()
    rng = random.Random(seed)
    for _ in range(warmup):  # start from any point of a game, not only the beginning
        if state.is_over:
            break
        state = state.random_step(rng)
    fast, fast_steps = state.playout(random.Random(seed + 1))
    slow, slow_steps = state, 0
    stepper = random.Random(seed + 1)
    while not slow.is_over:
        slow, slow_steps = slow.random_step(stepper), slow_steps + 1
    assert fast == slow and fast_steps == slow_steps
    assert fast.ledger == slow.ledger and fast.scores() == slow.scores()
    fast.validate()
