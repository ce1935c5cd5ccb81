"""Plain sentences that explain the figures a beginner meets: an expected value where an EV table
is shown, and a house edge, above all a negative one (the family table's, a player's edge).

Why here: a beginner reads "Espérance (par mise) −0,293" or "avantage de la maison −0,02 %" and
has no way to know what it means; the sentence sits right under the figure, on every page that
shows one, worded once for all of them (issue 17). Plain functions of a Translator: no Streamlit.
"""

from __future__ import annotations

from tutor.render.translator import Translator


def ev_sentence(play: str, ev: float, t: Translator) -> str:
    """What one play's expected value means, in chips per 100 bet.

    ``ev`` is per unit bet: −0.293 loses 29.3 chips for every 100 chips bet, on average over a
    great many hands like this one."""
    per100 = t.chips_text(round(abs(ev) * 100, 1))
    if round(ev, 3) == 0:
        return t.format(
            "Expected value: the average result per chip bet over many hands like this one."
            " {play} at {ev} breaks even on average.",
            play=play,
            ev=t.ev(ev),
        )
    if ev > 0:
        return t.format(
            "Expected value: the average result per chip bet over many hands like this one."
            " {play} at {ev} wins {per100} for every 100 chips bet, on average.",
            play=play,
            ev=t.ev(ev),
            per100=per100,
        )
    return t.format(
        "Expected value: the average result per chip bet over many hands like this one."
        " {play} at {ev} loses {per100} for every 100 chips bet, on average: most hands lose"
        " a little whatever you do, and the best play is the one that loses least.",
        play=play,
        ev=t.ev(ev),
        per100=per100,
    )


def house_edge_sentence(edge: float, t: Translator) -> str:
    """What a house edge means, and, when it is negative, that the edge is the player's.

    ``edge`` is a fraction of the bet (−0.000248 for the family table)."""
    amount = t.chips_text(round(abs(edge) * 100, 2))
    if edge < 0:
        return t.format(
            "A negative house edge is an edge for the player: at this table a player who"
            " follows the chart wins {amount} for every 100 chips bet, on average over a very"
            " long game, and the bank loses as much. Casinos choose rules that keep the edge on"
            " their side.",
            amount=amount,
        )
    return t.format(
        "The house edge is what the bank wins on average from a player who follows the chart:"
        " {amount} for every 100 chips bet, over a very long game.",
        amount=amount,
    )


#: How many standard errors make a 95 % margin of error (the normal law's 97.5 % quantile).
Z_95 = 1.959963984540054


def margin_of_error(standard_error: float) -> float:
    """The 95 % margin of error of a simulated figure, from the simulation's own standard error.

    >>> round(margin_of_error(0.001), 5)
    0.00196
    """
    return Z_95 * standard_error


def simulated_edge_text(edge: float, standard_error: float, t: Translator) -> str:
    """A simulated house edge with its 95 % margin of error: ``−0,12 % ± 0,23 %``.

    >>> from tutor.render.translator import translator
    >>> simulated_edge_text(-0.0012, 0.00117, translator("fr"))
    '−0,12\\xa0%\\xa0±\\xa00,23\\xa0%'
    >>> simulated_edge_text(-0.0012, 0.00117, translator("en"))
    '−0.12% ± 0.23%'
    """
    return t.format(
        "{edge} ± {margin}", edge=t.percent(edge), margin=t.percent(margin_of_error(standard_error))
    )


def simulation_agreement_sentence(
    edge: float, standard_error: float, exact: float, t: Translator
) -> str:
    """Whether the exact house edge lies inside the simulated figure's 95 % margin of error, and
    what that means: inside, the difference between the two is chance; outside, it is the
    difference between the game simulated (the chart played through a shoe) and the figure
    computed (the first round from a full shoe, each hand at its best).

    >>> from tutor.render.translator import translator
    >>> en = translator("en")
    >>> simulation_agreement_sentence(-0.0012, 0.00117, -0.0002, en).startswith("The exact")
    True
    """
    margin = margin_of_error(standard_error)
    low, high = edge - margin, edge + margin
    params = {
        "exact": t.percent(exact),
        "low": t.percent(low),
        "high": t.percent(high),
    }
    if low <= exact <= high:
        return t.format(
            "The exact value, {exact}, lies inside the simulation's margin of error (from {low}"
            " to {high}, 95% of such simulations land this close): the difference between the"
            " two figures is chance, and more rounds narrow it.",
            **params,
        )
    return t.format(
        "The exact value, {exact}, lies outside the simulation's margin of error (from {low} to"
        " {high}, 95%): more than chance separates them; the simulation plays the chart"
        " through the shoe, the exact figure is the first round from a full shoe with each hand"
        " played at its best.",
        **params,
    )
