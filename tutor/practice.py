"""The practice table's logic: rounds at a table or a family session, hints and judged moves.

No Streamlit here, so the page stays thin and this is tested like any module: the page only calls
``deal``, ``act`` and ``ask_hint`` from button callbacks and draws what the object holds.

Each move is judged *before* it is played (the decision point is gone once the cards move), by the
strategy's one judge (``tutor.strategy.judge``), never here; every move keeps its judgement (grade,
reason, cost in chips of the hand's bet), so the page lists each mistake of the round with its
reason without the learner asking for a hint first.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from tutor.decision import Action
from tutor.game import Event, IllegalActionError, Money, Round, Turn, money
from tutor.quiz_deal import question_for_item
from tutor.refusal import Refusal, RefusedError
from tutor.rules import TableRules
from tutor.strategy import Judgement, Reference, judge
from tutor.table import BankRotation, FamilySession, Standing, Table, new_shoe

#: Chips each seat starts with at a free table (the family session has its own 20).
START_CHIPS = 100
BET = 2
#: A free table's seats (the family session's come from ``FamilySession.player_bounds``).
MIN_SEATS, MAX_SEATS = 1, 7


class SeatingError(RefusedError, ValueError):
    """Why the table form cannot seat what was asked: a code and its figures, worded in the
    learner's language by ``tutor.render.reasons.seating_message`` (never an English exception
    text on screen)."""

    codes = ("too-many-players-rotating", "too-many-players", "players", "too-many-names",
             "same-name")

    def __init__(self, code: str, **params: int | str) -> None:
        super().__init__(Refusal(code, params), f"{code}: {params}")


def parse_names(text: str) -> tuple[str, ...]:
    """The names typed in the form, comma-separated, blanks dropped.

    >>> parse_names(" Alice, ,Bruno ,")
    ('Alice', 'Bruno')
    """
    return tuple(name.strip() for name in text.split(",") if name.strip())


def seat_family(
    typed: Sequence[str],
    players: int,
    rotation: BankRotation = BankRotation.FIXED,
    default_name: Callable[[int], str] = str,
) -> tuple[str, ...]:
    """The names of a family session's ``players``: every typed name, in order, then
    ``default_name(n)`` for the places left (``n`` the place's number). Never drops a name:
    raises ``SeatingError`` instead, saying why.

    >>> seat_family(["Alice"], 3, default_name=lambda n: f"Player {n}")
    ('Alice', 'Player 2', 'Player 3')
    >>> seat_family(["Alice", "Bruno"], 1)
    Traceback (most recent call last):
    ...
    tutor.practice.SeatingError: too-many-names: {'names': 2, 'players': 1}
    """
    low, high = FamilySession.player_bounds(rotation)
    if len(typed) > high:
        code = "too-many-players-rotating" if rotation.is_rotating else "too-many-players"
        raise SeatingError(code, most=high, names=len(typed))
    if not low <= players <= high:
        raise SeatingError("players", low=low, high=high, players=players)
    if len(typed) > players:
        raise SeatingError("too-many-names", names=len(typed), players=players)
    seen: set[str] = set()
    for name in typed:
        if name.casefold() in seen:
            raise SeatingError("same-name", name=name)
        seen.add(name.casefold())
    names = list(typed)
    number = len(names)
    while len(names) < players:
        number += 1
        candidate = default_name(number)
        if candidate.casefold() not in seen:
            seen.add(candidate.casefold())
            names.append(candidate)
    return tuple(names)


@dataclass(frozen=True)
class Move:
    """A move the learner made, with the judge's verdict on it."""

    seat: int
    hand: int
    action: Action
    judgement: Judgement

    @property
    def is_mistake(self) -> bool:
        """Wrong by the judge's policy (a close call is not a mistake)."""
        return self.judgement.is_mistake

    @property
    def is_right(self) -> bool:
        return self.judgement.is_right

    @property
    def cost(self) -> float:
        """The EV given away, in chips of this hand's bet."""
        return self.judgement.cost


@dataclass
class PracticeTable:
    """A table the learner plays every seat of, or the family session of the rules booklet."""

    rules: TableRules
    seats: int = 1
    family: bool = False
    names: tuple[str, ...] = ()
    #: Who holds the bank in a family session: the booklet's fixed bank or the Vingt-et-Un's.
    rotation: BankRotation = BankRotation.FIXED
    seed: int | None = None
    moves: list[Move] = field(default_factory=list)
    hint: Judgement | None = None
    #: What moves are graded against: the chart (the default) or the exact play.
    reference: Reference = Reference.CHART
    #: Chips per seat at a free table (the family session keeps its own players' chips).
    chips: list[Money] = field(default_factory=list)
    #: "My mistakes": the hands (quiz items, ``tutor.progress.weak_items``) to deal again, in
    #: order, one a round, before the shoe deals as usual (a free table of one seat only).
    replay: list[str] = field(default_factory=list)
    #: Whether the table was opened to deal the learner's mistakes again.
    replay_mode: bool = False
    #: The item the round on the table deals again (None: the shoe's own deal).
    replaying: str | None = field(default=None, init=False)
    session: FamilySession | None = field(default=None, init=False)
    #: The player holding the bank in the round on the table (a rotating bank only).
    round_banker: int | None = field(default=None, init=False)
    table: Table = field(init=False)
    round: Round | None = field(default=None, init=False)
    rounds_played: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        if self.family:
            self.names = seat_family(self.names, self.seats, self.rotation)
            self.seats = len(self.names)
            self.session = FamilySession(
                list(self.names), rules=self.rules, seed=self.seed, rotation=self.rotation
            )
            self.table = self.session.table
        elif not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise SeatingError("players", low=MIN_SEATS, high=MAX_SEATS, players=self.seats)
        else:
            self.table = Table(self.rules, seed=self.seed)
            self.chips = [START_CHIPS] * self.seats

    # -- queries --
    @property
    def is_over(self) -> bool:
        """The family session has played its rounds (a free table never ends)."""
        return self.session is not None and self.session.is_over and self.round_settled

    @property
    def round_settled(self) -> bool:
        return self.round is None or self.round.is_over

    @property
    def events(self) -> list[Event]:
        return self.round.events if self.round is not None else []

    def seat_player(self, seat: int) -> int:
        """The player index behind a seat of the current round (family sessions skip players
        who cannot bet)."""
        if self.session is not None:
            return self.session.seated[seat]
        return seat

    def player_chips(self) -> list[Money]:
        if self.session is not None:
            return [player.chips for player in self.session.players]
        return list(self.chips)

    def ranking(self) -> list[Standing]:
        return self.session.ranking() if self.session is not None else []

    def refusals(self) -> dict[Action, tuple[str, dict[str, object]]]:
        """Why each hand action is refused now (code and parameters), for the buttons' help."""
        out: dict[Action, tuple[str, dict[str, object]]] = {}
        if self.round is None or self.round.to_act() is None:
            return out
        for action in Action:
            refusal = self.round.refusal(action)
            if refusal is not None:
                out[action] = refusal
        return out

    def reason_waits(self, move: Move) -> bool:
        """Whether a move's reason, which names its hand's cards and total, waits until they are
        shown: its seat still holds a card of the deal face down and another seat's player is
        at the screen (``Round.screen_seat``). Its verdict is shown at once all the same."""
        game = self.round
        return game is not None and game.hides_cards_from(move.seat, game.screen_seat())

    @property
    def mistakes(self) -> list[Move]:
        return [move for move in self.moves if move.is_mistake]

    @property
    def slips(self) -> list[Move]:
        """Every move of the round that was not right: mistakes and close calls, in order."""
        return [move for move in self.moves if not move.is_right]

    # -- actions --
    def deal(self) -> Round:
        """Deal the next round (closing the previous one and paying its chips)."""
        if not self.round_settled:
            raise RuntimeError("finish the round in play first")
        self._close()
        self.moves = []
        self.hint = None
        self.replaying = None
        if self.session is not None:
            self.round_banker = self.session.banker
            self.round = self.session.start_round()
        elif (replayed := self._next_replay()) is not None:
            self.round = replayed
        else:
            self.round = self.table.new_round([BET] * self.seats)
        self._after_move()
        return self.round

    def _next_replay(self) -> Round | None:
        """The next mistake dealt again (``replaying`` names it), passing over any that no deal
        makes at this table (a cell of other rules: 10-10 split by value here); None when none
        is left, or the table seats more than one."""
        while self.replay and self.seats == 1:
            item = self.replay.pop(0)
            try:
                round_ = self._replayed(item)
            except ValueError:
                continue
            self.replaying = item
            return round_
        return None

    def _replayed(self, item: str) -> Round:
        """A round that deals ``item`` again: the hand and up-card of a past mistake (fresh
        suits, a fresh hole card and draws), from a shoe of its own; the table's shoe waits."""
        rng = random.Random((self.seed or 0) * 1_000_003 + self.rounds_played)
        question = question_for_item(item, self.rules, rng)
        point = question.point
        if point is None or len(point.cards) != 2:  # pragma: no cover - table items are hands
            return self.table.new_round([BET] * self.seats)
        # The deal's order: a card to the seat, the up-card, the seat's second card; the hole
        # card (American deal) and every draw come from the shuffled rest.
        script = [point.cards[0], point.dealer_up, point.cards[1]]
        shoe = new_shoe(self.rules, seed=rng.randrange(2**32), script=script)
        return Round(self.rules, shoe, [BET])

    def ask_hint(self) -> Judgement | None:
        """The judge's advice for the decision in front of the learner (no move yet)."""
        if self.round is None or (turn := self.round.to_act()) is None:
            return None
        self.hint = judge(
            self.round.decision_point(), reference=self.reference, bet=self._bet(turn)
        )
        return self.hint

    def act(self, action: Action) -> Move:
        """Play ``action`` for whoever is to act, judged first; refused actions raise."""
        game = self.round
        if game is None or (turn := game.to_act()) is None:
            raise IllegalActionError("round-over", "the round is over: nobody is to act")
        game.verify(action)
        judgement = judge(
            game.decision_point(), action, reference=self.reference, bet=self._bet(turn)
        )
        move = Move(turn.seat, turn.hand or 0, action, judgement)
        game.act(action)
        self.moves.append(move)
        self.hint = None
        self._after_move()
        return move

    def _bet(self, turn: Turn) -> Money:
        """The bet of the hand to act (the seat's first bet for the insurance decision)."""
        assert self.round is not None
        seat = self.round.seats[turn.seat]
        return seat.hands[turn.hand].bet if turn.hand is not None else seat.bet

    def _after_move(self) -> None:
        if self.round is not None and self.round.is_over:
            self.rounds_played += 1
            if self.session is None:
                for result in self.round.results:
                    self.chips[result.seat] = money(self.chips[result.seat] + result.net)
            else:
                self.session.finish_round()

    def _close(self) -> None:
        if self.session is None:
            self.table.close_round()
        self.round = None
