"""The practice table's logic: rounds at a table or a family session, hints and judged moves.

No Streamlit here, so the page stays thin and this is tested like any module: the page only calls
``deal``, ``act`` and ``ask_hint`` from button callbacks and draws what the object holds.

Each move is judged *before* it is played (the decision point is gone once the cards move), by the
strategy's one judge (``tutor.strategy.judge``), never here; every move keeps its judgement (grade,
reason, cost in chips of the hand's bet), so the page lists each mistake of the round with its
reason without the learner asking for a hint first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tutor.decision import Action
from tutor.game import Event, IllegalActionError, Money, Round, Turn, money
from tutor.rules import TableRules
from tutor.strategy import Judgement, Reference, judge
from tutor.table import FamilySession, Standing, Table

#: Chips each seat starts with at a free table (the family session has its own 20).
START_CHIPS = 100
BET = 2


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
    seed: int | None = None
    moves: list[Move] = field(default_factory=list)
    hint: Judgement | None = None
    #: What moves are graded against: the chart (the default) or the exact play.
    reference: Reference = Reference.CHART
    #: Chips per seat at a free table (the family session keeps its own players' chips).
    chips: list[Money] = field(default_factory=list)
    session: FamilySession | None = field(default=None, init=False)
    table: Table = field(init=False)
    round: Round | None = field(default=None, init=False)
    rounds_played: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        if not 1 <= self.seats <= 7:
            raise ValueError(f"a table seats 1 to 7 players, not {self.seats}")
        if self.family:
            names = self.names or tuple(f"{index + 1}" for index in range(self.seats))
            self.session = FamilySession(list(names), rules=self.rules, seed=self.seed)
            self.table = self.session.table
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
        if self.session is not None:
            self.round = self.session.start_round()
        else:
            self.round = self.table.new_round([BET] * self.seats)
        self._after_move()
        return self.round

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
