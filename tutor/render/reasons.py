"""Why, in sentences: the strategy's reasons for a play (with the figures that decide it), the
engine's refusals of a move, and the practice table's refusal to seat a party.

Why the words live here and not with the rules: the engine and the strategy give a key and its
figures (``Reason(key, params)``, a refusal code and its parameters), so they never hold text a
learner reads, and one sentence per key serves every page that explains a play or a refusal.

>>> from tutor.render.translator import translator
>>> translator("en").refusal("max-hands", {"max_hands": 2})
'This table allows at most 2 hands per seat.'
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from tutor.decision import Action
from tutor.practice import SeatingError
from tutor.render.catalogue import N_, Words
from tutor.render.naming import Names
from tutor.strategy.advice import CLOSE

#: How each refusal code reads: the engine's (``tutor.game.REFUSALS`` keeps the English for logs),
#: the rules', and every other ``tutor.refusal.RefusedError``'s whose sentence is not class mode's
#: (``tutor.render.class_messages.error_message``) or the seating form's (``seating_message``).
REFUSAL_MESSAGES: dict[str, str] = {
    "round-over": N_("The round is over: nobody is to act."),
    "no-insurance-now": N_("Insurance is only offered on a dealer Ace, before anyone plays."),
    "insurance-first": N_("Every player answers the insurance offer before play starts."),
    "split-aces-one-card": N_("Split Aces receive one card each and no more."),
    "double-two-cards": N_("You can only double on your first two cards."),
    "no-double-after-split": N_("You cannot double after a split at this table."),
    "double-total": N_("At this table you may only double on {allowed}; this hand makes {total}."),
    "insured-no-double": N_("After taking insurance you may no longer double."),
    "insured-no-split": N_("After taking insurance you may no longer split."),
    "split-pair": N_("You can only split two cards of the same rank."),
    "no-split": N_("This table does not allow splitting."),
    "max-hands": N_("This table allows at most {max_hands} hands per seat."),
    "no-resplit-aces": N_("Split Aces cannot be split again."),
    "no-surrender": N_("This table does not offer surrender."),
    "surrender-first": N_(
        "You can only surrender your first two cards, before any other decision."
    ),
    "no-surrender-ace": N_(
        "This table's house rule refuses surrender against a dealer Ace (a casino's rule: none"
        " of the course's texts states it)."
    ),
    "even-money-natural": N_("Even money is only offered on a natural."),
    "no-even-money": N_("This table does not offer even money."),
    "no-insurance": N_("This table does not offer insurance."),
    "funds": N_("You need {needed} more for this, and have {stack}."),
    "insurance-amount": N_("Insurance is more than 0 and at most {most}."),
    # Homework's refusals (``tutor.homework.errors``).
    "unknown-group": N_("No group has this code and key: check them with your teacher."),
    "group-full": N_("This group is full: it has {most} members at most."),
    "too-many-groups": N_("A browser keeps at most {most} groups: delete an old one first."),
    "too-much-work": N_("A group has at most {most} assignments."),
    "group-name-taken": N_(
        "Someone in this group is already called {nickname}. If it is you, on another device:"
        " open Settings on your first device and scan its recovery code with this one, and both"
        " are you, with your work. Otherwise add a letter to your name."
    ),
    "group-merge-refused": N_(
        "These two cannot be merged: pick two different students of the group, neither of them"
        " merged already."
    ),
    "group-key-locked": N_("Too many wrong keys for this group: wait {seconds} s, then try again."),
    "groups-too-fast": N_(
        "Too many groups created in a minute: wait {seconds} s, then try again."
    ),
    "group-too-many-tries": N_("Too many attempts: wait {seconds} s, then try again."),
    "invalid-work": N_(
        "This work cannot be given as it is: a group needs a name, a drill has 1 to {most} hands,"
        " and a due date lies within the coming year."
    ),
    # The rules' mistakes (``tutor.rules_errors.InvalidRulesError``, ``RuleProblem``).
    "rules-decks": N_("A shoe holds 1 to 8 decks, not {decks}."),
    "rules-max-hands": N_("A seat holds 1 to 4 hands after splitting, not {hands}."),
    "rules-resplit-aces-room": N_("Resplitting Aces needs room for at least 3 hands."),
    "rules-natural-pays": N_("A natural pays at least even money (1 to 1), not {pays}."),
    "rules-insurance-max": N_(
        "Insurance is a part of the bet, more than 0 and at most 1, not {most}."
    ),
    "rules-insurance-without-insurance": N_(
        "Insurance rules are set, but this table offers no insurance."
    ),
    "rules-insurance-both": N_(
        "Insurance cannot both forbid doubling and splitting and insure the bets they add."
    ),
    "rules-insure-added-bets-hole-card": N_(
        "Insuring the bets that a double or a split adds only makes sense without a hole "
        "card: with the American deal, the dealer has already checked for a natural."
    ),
    "rules-even-money-without-insurance": N_(
        "Even money is a form of insurance, and this table offers no insurance."
    ),
    "rules-surrender-ace-without-surrender": N_(
        "Surrender against an Ace is refused, but this table offers no surrender at all."
    ),
    "rules-penetration": N_(
        "The cut card goes between 10% and 95% of the shoe, not {penetration}."
    ),
    "rules-spare-deck": N_("A spare deck is for tables that shuffle after every round."),
    "rules-bonus": N_(
        "The bonus for the Ace of spades with a black Jack pays more than a natural."
    ),
    "rules-unknown-option": N_("Unknown table rule: “{option}”. The rules are: {options}."),
    "rules-option-value": N_("{key} is one of {choices}, not {value}."),
    "rules-payout": N_("{key} is a number or a ratio such as 3/2, not {value}."),
    "rules-preset-type": N_("A preset is given by its name, not {value}."),
    "rules-unknown-preset": N_("Unknown preset “{preset}”. The presets are: {presets}."),
    "rules-not-bool": N_("{key} is true or false, not {value}."),
    "rules-not-int": N_("{key} is a whole number, not {value}."),
    "rules-not-number": N_("{key} is a number, not {value}."),
    "rules-not-text": N_("{key} is a text of at most {most} characters, not {value}."),
    "rules-no-file": N_("“{spec}” is neither a preset ({presets}) nor a rules file that exists."),
    "rules-unreadable": N_("The rules file {path} cannot be read."),
    "rules-file-too-large": N_("A rules file is a few lines, not more than {kilobytes} KB."),
    "rules-not-utf8": N_("The rules file {path} is not UTF-8 text (byte {byte} cannot be read)."),
    "rules-not-mapping": N_("A rules file is a list of option = value lines."),
    "rules-toml-syntax": N_("The TOML of the rules file {path} does not parse."),
    "rules-nests-too-deeply": N_("The rules file nests too deeply."),
    "rules-yaml-alias": N_(
        "Aliases and anchors are not allowed in a rules file (line {line}, column {column})."
    ),
    "rules-yaml-too-many-values": N_(
        "A rules file is a few lines, not more than {most} values (line {line}, column "
        "{column})."
    ),
    "rules-yaml-value": N_(
        "A value of the rules file cannot be read (line {line}, column {column})."
    ),
    "rules-yaml-syntax": N_(
        "The YAML of the rules file does not parse at line {line}, column {column}."
    ),
    # Cards, cells and exact numbers (``tutor.cards``, ``tutor.cell``, ``tutor.exact``).
    "card-rank": N_("“{token}” is not a card: a rank is A, 2 to 10 (or T), J, Q or K."),
    "card-suit": N_("“{token}” is not a card: a suit is ♠ ♥ ♦ ♣ or S H D C."),
    "card-form": N_("“{token}” is not a card: write a rank then a suit, such as A♠ or AS."),
    "shoe-exhausted": N_("The scripted cards ran out, and this shoe deals no others."),
    "cell": N_("“{text}” is not a cell of the chart."),
    "not-a-number": N_("{text} is not a number written as 3, 1.5 or 3/2."),
    "number-too-long": N_("A number has at most {most} characters."),
    "number-divides-by-zero": N_("{text} divides by 0."),
    "number-beyond": N_("A number stays between −{limit} and +{limit}."),
    # A recovery code, typed hands, an erased learner, a move a lesson does not offer yet.
    "recovery-code-characters": N_(
        "A recovery code uses the digits and the letters A to Z except I, L, O and U; this "
        "one has {characters}."
    ),
    "recovery-code-length": N_(
        "A recovery code has {expected} characters (letters and digits); this one has "
        "{length}."
    ),
    "hands": N_("Some typed hands cannot be asked: each line's problem is listed."),
    "unknown-learner": N_("This learner's data has been erased, in another tab perhaps."),
    "not-offered": N_("This lesson does not offer “{action}” yet; its moves are: {offered}."),
    "lesson-too-large": N_(
        "A lesson is at most {most} KB and this one is {size} KB: split it into several lessons."
    ),
    "too-many-lessons": N_(
        "You keep {most} lessons already, the most a teacher keeps: delete one to write another."
    ),
    "unknown-lesson": N_("This lesson no longer exists: it was deleted."),
    "wrong-lesson-key": N_("No lesson has this link and key: check both and try again."),
    "lessons-too-fast": N_(
        "Too many lessons created in a minute: wait {seconds} s, then try again."
    ),
    "lesson-checks-spent": N_(
        "This minute's checking is spent (each check costs the server some work): wait"
        " {seconds} s, then save again. Your text is still in the editor."
    ),
    "lesson-tries": N_("Too many wrong links or keys: wait {seconds} s, then try again."),
    "not-your-lesson": N_(
        "This lesson was written in another browser: open it with its link and its key."
    ),
    "lesson-has-problems": N_(
        "The checker finds problems in this lesson ({count}): fix them to publish it."
    ),
}

#: Sentences for the strategy's reason keys (``tutor.strategy.advice``); an unknown key falls
#: back to the EVs alone. Each is followed by the comparison of ``COMPARE_MESSAGES``, so the
#: figures that decide the play are always on screen beside the words.
REASON_MESSAGES: dict[str, str] = {
    # Standing rather than hitting.
    "twenty-one": N_("No card can improve {hand}: any card makes it lower or busts it."),
    "soft-stand": N_(
        "One more card cannot bust {hand}, but it improves it only {improve} of the time;"
        " otherwise it leaves the same total or a lower one. Against {up}, keep the {total}."
    ),
    "dealer-busts-often": N_(
        "The dealer shows {up} and busts {bust} of the time, while one more card would bust"
        " your {total} {player_bust} of the time: stand and let the dealer take the risk."
    ),
    "stiff-stand": N_(
        "Standing on {total} wins whenever the dealer busts, {bust} of the time against {up};"
        " one more card would bust you {player_bust} of the time: here standing loses less."
    ),
    "stand-hard": N_(
        "One more card would bust {hand} {player_bust} of the time: against {up}, standing on"
        " {total} is worth more."
    ),
    # Hitting rather than standing.
    "cannot-bust": N_(
        "No card can bust {hand}, and standing on {total} wins only when the dealer busts: one"
        " more card can only help."
    ),
    "soft-hit": N_(
        "One more card cannot bust {hand}, and against {up} standing on {total} loses more than"
        " it wins: take a card to improve it."
    ),
    "soft-hit-improves": N_(
        "One more card cannot bust {hand} and improves it {improve} of the time: against {up},"
        " that is worth more than standing on {total}."
    ),
    "dealer-strong": N_(
        "The dealer shows {up} and busts only {bust} of the time: standing on {total} loses too"
        " often, even though one more card busts you {player_bust} of the time."
    ),
    "stiff-hit": N_(
        "Standing on {total} wins only when the dealer busts, {bust} of the time against {up};"
        " one more card busts you {player_bust} of the time and otherwise improves your hand:"
        " take it."
    ),
    "hit-hard-high": N_(
        "Against {up}, standing on {total} loses so often that one more card is worth taking,"
        " though it busts {hand} {player_bust} of the time."
    ),
    # Doubling, or not.
    "double-edge": N_(
        "Against {up} the dealer busts {bust} of the time and one card cannot bust {hand}: the"
        " hand wins more than it loses, and one card on twice the bet earns more than drawing on"
        " one bet."
    ),
    "double-not-stand": N_(
        "Against {up} the dealer busts {bust} of the time and one card cannot bust {hand}: the"
        " hand wins more than it loses, and one more card on twice the bet earns more than"
        " standing on {total}."
    ),
    "double-strong": N_(
        "One card cannot bust {hand}, and even against {up} the hand wins more than it loses:"
        " one card on twice the bet earns more than drawing on one bet."
    ),
    "double-strong-not-stand": N_(
        "One card cannot bust {hand}, and even against {up} the hand wins more than it loses:"
        " one more card on twice the bet earns more than standing on {total}."
    ),
    "double-busts": N_(
        "Against {up}, {hand} wins more than it loses even with one card only, which busts it"
        " {player_bust} of the time: that card is worth twice the bet."
    ),
    "hit-not-double": N_(
        "Doubling {hand} against {up} stops the hand after one card for twice the bet; drawing"
        " as many cards as it needs, on the first bet, is worth more."
    ),
    "stand-not-double": N_(
        "Doubling {hand} means exactly one more card for twice the bet, and that card busts it"
        " {player_bust} of the time: against {up}, standing is worth more."
    ),
    "stand-not-double-soft": N_(
        "Doubling {hand} means exactly one more card for twice the bet, and that card improves"
        " it only {improve} of the time: against {up}, keep the {total} on one bet."
    ),
    # Splitting, or not.
    "split-aces": N_(
        "Played as one hand, two Aces make only a soft 12; split, each Ace starts a hand of its"
        " own, which a ten-valued card makes 21."
    ),
    "split-edge": N_(
        "Against {up}, a hand that starts from a single {pair} wins more than it loses: split"
        " {hand}, and each bet rides on such a start rather than on {pair_total}."
    ),
    "split-stiff": N_(
        "Against {up}, {hand} loses either way. Played as one hand it is {pair_total}, which one"
        " card busts {player_bust} of the time; split, each {pair} starts a hand that its next"
        " card cannot bust, and the two hands lose less."
    ),
    "split-less-loss": N_(
        "Against {up}, {hand} loses on average however it is played, and less as two hands, each"
        " starting from a single {pair}, than as {pair_total}."
    ),
    "double-not-split": N_(
        "Played as one hand, {hand} makes {total}, a start worth doubling against {up}; split,"
        " each of its cards would start a weaker hand."
    ),
    "stand-not-split": N_(
        "Played as one hand, {hand} is {pair_total}, which already wins more than it loses"
        " against {up}; split, each {pair} would have to start over."
    ),
    "stand-not-split-less": N_(
        "Against {up}, a hand that starts from a single {pair} loses more than it wins, and"
        " splitting {hand} would put two bets on such starts; kept as {pair_total}, it loses"
        " less."
    ),
    "hit-not-split": N_(
        "Against {up}, a hand that starts from a single {pair} loses more than it wins:"
        " splitting {hand} would put two bets on such starts, where drawing to {pair_total}"
        " risks one."
    ),
    "hit-not-split-weak": N_(
        "Against {up}, drawing to {pair_total} is worth more than two hands that each start from"
        " a single {pair}."
    ),
    # Surrendering, or not.
    "surrender-saves": N_(
        "Surrendering {hand} costs exactly half the bet; against {up}, {other} costs more than"
        " that on average."
    ),
    "split-not-surrender": N_(
        "Surrendering {hand} gives up half the bet for sure; against {up}, splitting it is worth"
        " more than that on average."
    ),
    "keep-playing": N_(
        "Surrendering {hand} gives up half the bet for sure; against {up}, {play} is worth more"
        " than that on average."
    ),
    "composition": N_(
        "The chart's row for {bare} against {column} says {row_play}, but the cards you hold are"
        " out of the shoe and change what is left to draw: here {play} loses less."
    ),
    # Insurance and even money.
    "insurance-odds": N_(
        "Insurance pays 2 to 1 and wins only when {hole} is worth ten: {tens} of the time here,"
        " less than the {break_even} it needs to break even."
    ),
    "insurance-pays": N_(
        "Insurance pays 2 to 1 and wins when {hole} is worth ten: {tens} of the time here, more"
        " than the {break_even} it needs to break even."
    ),
    "even-money-declined": N_(
        "Declining even money, your natural is paid {pays} unless {hole} is worth ten, which"
        " happens {tens} of the time here: less than the {break_even} that would make the sure"
        " win of one bet better."
    ),
    "even-money-sure": N_(
        "Even money is a sure win of one bet; declining, your natural is paid {pays} unless"
        " {hole} is worth ten, which happens {tens} of the time here, more than the"
        " {break_even} that makes declining pay."
    ),
}

#: How a reason names a move inside its sentence (``hitting``, « tirer »): a phrase that reads
#: as the subject of "is worth", where the buttons' names (``Hit``, « Pas d'assurance ») do not.
ACTION_PHRASES: dict[Action, str] = {
    Action.HIT: N_("hitting"),
    Action.STAND: N_("standing"),
    Action.DOUBLE: N_("doubling"),
    Action.SPLIT: N_("splitting"),
    Action.SURRENDER: N_("surrendering"),
    Action.INSURE: N_("taking insurance"),
    Action.DECLINE_INSURANCE: N_("declining insurance"),
    Action.EVEN_MONEY: N_("taking even money"),
}
#: With a natural against an Ace, insuring is even money: declining it is declining even money.
_EVEN_MONEY_PHRASES: dict[Action, str] = {
    Action.INSURE: N_("taking even money"),
    Action.DECLINE_INSURANCE: N_("declining even money"),
}

#: The figures behind every reason: the play argued for against the runner-up, for these cards
#: or averaged over the chart's cell.
COMPARE_MESSAGES: dict[str, str] = {
    "cards": N_(
        "With these cards, {play} is worth {play_ev} of a bet on average, {other} {other_ev}."
    ),
    "chart": N_(
        "On average over the hands of this chart cell ({bare} against {column}), {play} is worth"
        " {play_ev} of a bet, {other} {other_ev}."
    ),
    "chart-insurance": N_(
        "Averaged over the shoe, as the chart counts, {play} is worth {play_ev} of a bet, {other}"
        " {other_ev}."
    ),
    # The same figures when the move set against the play is the learner's own.
    "cards-chosen": N_(
        "With these cards, {play} is worth {play_ev} of a bet on average; {other}, your choice,"
        " {other_ev}."
    ),
    "chart-chosen": N_(
        "On average over the hands of this chart cell ({bare} against {column}), {play} is worth"
        " {play_ev} of a bet; {other}, your choice, {other_ev}."
    ),
    "chart-insurance-chosen": N_(
        "Averaged over the shoe, as the chart counts, {play} is worth {play_ev} of a bet;"
        " {other}, your choice, {other_ev}."
    ),
}

_PERCENT_PARAMS = frozenset({"bust", "player_bust", "tens", "break_even", "improve"})
_CARD_PARAMS = frozenset({"up", "pair"})
#: Figures a sentence sets against each other: shown with as many decimals as it takes for them
#: to differ on screen (32,7 % against 33,3 %, never 33 % against 33 %).
_COMPARED: tuple[tuple[str, str], ...] = (("play_ev", "other_ev"), ("tens", "break_even"))


class Reasons(Names):
    """Reasons and refusals as sentences in one language (a part of the ``Translator``)."""

    def refusal(self, code: str, params: Mapping[str, Any]) -> str:
        """Why something is refused (a disabled button, a rules mistake, a code that cannot be
        one): a ``tutor.refusal.Refusal``'s code and parameters as a sentence.

        >>> from tutor.render.translator import translator
        >>> fr = translator("fr")
        >>> fr.refusal("rules-decks", {"decks": "9"})
        'Un sabot contient de 1 à 8 jeux, pas 9.'
        """
        message = REFUSAL_MESSAGES.get(code)
        if message is None:
            return code
        values = dict(params)
        if code == "double-total":
            values["allowed"] = {
                "9-11": self.gettext(N_("9, 10 or 11")),
                "10-11": self.gettext(N_("10 or 11")),
            }.get(str(values.get("allowed")), str(values.get("allowed")))
        if code == "split-pair" and values.get("by") == "value":
            message = N_("You can only split two cards of the same value.")
        if code in ("funds", "insurance-amount"):
            for key in ("needed", "stack", "most"):
                amount = values.get(key)
                if isinstance(amount, int | float | Fraction):
                    values[key] = self.chips_text(amount)
        if code == "not-offered":
            values["action"] = self._action_value_name(values.get("action"))
            offered = values.get("offered", ())
            names = offered if isinstance(offered, tuple | list) else ()
            values["offered"] = ", ".join(self._action_value_name(name) for name in names)
        if code == "rules-penetration" and isinstance(values.get("penetration"), int | float):
            values["penetration"] = self.percent(float(values["penetration"]), digits=0)
        if code in ("number-beyond", "rules-yaml-too-many-values"):
            for key in ("limit", "most"):
                if key in values:
                    values[key] = self.number(values[key], digits=0)
        return self.format(message, **values)

    def _action_value_name(self, value: object) -> str:
        """An action given by its value (``"hit"``, as a refusal's parameters carry it)."""
        try:
            return self.action_name(Action(value))
        except ValueError:
            return str(value)

    def reason(
        self, key: str, params: Mapping[str, Any], *, figures: bool = True
    ) -> str | None:
        """The parts of ``reason_parts`` as one text, or None for a key this version does not
        know."""
        parts = self.reason_parts(key, params, figures=figures)
        return None if parts is None else " ".join(parts)

    def reason_parts(
        self, key: str, params: Mapping[str, Any], *, figures: bool = True
    ) -> list[str] | None:
        """The strategy's reason as sentences, or None for a key this version does not know: why
        the play, then the figures that decide it (``COMPARE_MESSAGES``), then a word when the
        call is close. Without ``figures`` (a lesson before expected values are taught) the two
        moves are still named and set against each other, in words only."""
        message = REASON_MESSAGES.get(key)
        if message is None:
            return None
        values: dict[str, Any] = dict(params)
        for name, value in params.items():
            if name == "up" and isinstance(value, int):
                rank = params.get("up_rank")
                values[name] = self.up_card_phrase(value, rank if isinstance(rank, str) else None)
                values["column"] = self.up_card_phrase(value)  # the chart's column: « un 10 »
            elif name in _CARD_PARAMS and isinstance(value, int):
                values[name] = self.up_card_name(value)
            elif name in ("play", "other") and isinstance(value, str):
                values[name] = self.action_phrase(
                    Action(value), even_money=key.startswith("even-money")
                )
            elif name == "row_play" and isinstance(value, str):
                values[name] = self.action_name(Action(value)).lower()
        for name in _PERCENT_PARAMS:
            if isinstance(params.get(name), float):
                values[name] = self.percent(params[name], digits=0)
        for first, second in _COMPARED:
            a, b = params.get(first), params.get(second)
            if isinstance(a, float) and isinstance(b, float):
                values[first], values[second] = self._distinct(first, a, b)
        values["hand"] = self.hand_name(params, article=True)
        values["bare"] = self.hand_name(params)
        values["pair_total"] = self.hand_name({**params, "pair": None}, article=True)
        values["pair_bare"] = self.hand_name({**params, "pair": None})
        values["hole"] = self.gettext(
            N_("the dealer's second card") if params.get("no_hole_card") else N_("the hole card")
        )
        pays = params.get("pays")
        if isinstance(pays, str) and ":" in pays:
            numerator, denominator = pays.split(":", 1)
            values["pays"] = self.ratio(Fraction(int(numerator), int(denominator)))
        if key == "composition":  # the chart's row of the total, not the pair's own row
            values["bare"] = self.hand_name({**params, "pair": None})
        try:
            parts = [self.format(message, **values)]
            scope = str(params.get("scope", "cards"))
            if scope == "chart" and key.startswith(("insurance", "even-money")):
                scope = "chart-insurance"
            if params.get("chosen"):
                scope += "-chosen"
            if params.get("natural_takes_bet"):
                parts.append(self.gettext(
                    N_("At this table the dealer has no hole card: if the second card makes a"
                       " natural, it takes the bet you added too.")
                ))
            if "other" in params and not figures:
                parts.append(self.format(
                    N_("Here {play} is the better play: on average, {other}, as you did, is"
                       " worth less.")
                    if params.get("chosen")
                    else N_("Here {play} is the better play: on average, {other} is worth"
                            " less."),
                    **values,
                ))
            elif "other" in params and scope in COMPARE_MESSAGES:
                parts.append(self.format(COMPARE_MESSAGES[scope], **values))
        except (KeyError, IndexError, ValueError):
            return None
        if params.get("close") and figures:
            close = (
                N_("A close call: the two plays are less than {close} of a bet apart.")
                if params.get("chosen")
                else N_("A close call: the two best plays are less than {close} of a bet apart.")
            )
            parts.append(self.format(close, close=self.number(CLOSE, digits=3)))
        return parts

    def action_phrase(self, action: Action, *, even_money: bool = False) -> str:
        """A move as a reason's sentence names it (``hitting``, « refuser le paiement immédiat »):
        with ``even_money`` (a natural against an Ace), insuring and declining are named as
        taking and declining even money."""
        phrase = (_EVEN_MONEY_PHRASES.get(action) if even_money else None) or ACTION_PHRASES[action]
        return self.gettext(phrase)

    def _distinct(self, name: str, a: float, b: float) -> tuple[str, str]:
        """Two figures a sentence compares, with the fewest decimals that tell them apart."""
        percent = name in _PERCENT_PARAMS
        start, stop = (0, 4) if percent else (3, 7)
        for digits in range(start, stop):
            if percent:
                shown = self.percent(a, digits=digits), self.percent(b, digits=digits)
            else:
                shown = self.ev(a, digits=digits), self.ev(b, digits=digits)
            if shown[0] != shown[1] or a == b:
                break
        return shown

    def hand_name(self, params: Mapping[str, Any], *, article: bool = False) -> str:
        """``hard 13``, ``soft 18``, ``pair of 8s`` from a reason's parameters; with
        ``article``, as a sentence names it (``a hard 13``)."""
        pair, total = params.get("pair"), params.get("total")
        if isinstance(pair, int):
            if pair == 1:
                return self.gettext(N_("a pair of Aces") if article else N_("pair of Aces"))
            message = N_("a pair of {pair}s") if article else N_("pair of {pair}s")
            return self.format(message, pair=pair)
        if total is None:
            return ""
        if params.get("soft"):
            return self.format(N_("a soft {total}") if article else N_("soft {total}"), total=total)
        return self.format(N_("a hard {total}") if article else N_("hard {total}"), total=total)


def seating_message(error: SeatingError, t: Words) -> str:
    """Why the form refused, as a sentence in the learner's language."""
    values = error.params
    if error.code == "too-many-names":
        count = values["players"]
        players = count if isinstance(count, int) else 2  # an int at every raise site
        return t.ngettext(
            "You typed {names} names for {players} player: move the Players slider to {names},"
            " or remove names.",
            "You typed {names} names for {players} players: move the Players slider to {names},"
            " or remove names.",
            players,
        ).format(**values)
    if error.code == "too-many-players":
        return t.format(
            "The family table seats 7 people at most, the bank included: {most} players besides"
            " the bank, and you typed {names} names.",
            **values,
        )
    if error.code == "too-many-players-rotating":
        return t.format(
            "The family table seats 7 people at most, and here the players hold the bank in"
            " turn: {most} players, and you typed {names} names.",
            **values,
        )
    if error.code == "players":
        return t.format("This table seats {low} to {high} players, not {players}.", **values)
    if error.code == "same-name":
        return t.format("Two players are called {name}: give each a different name.", **values)
    return t.gettext("These players cannot be seated.")  # pragma: no cover - every code above
