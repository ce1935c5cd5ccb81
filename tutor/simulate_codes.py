"""The simulator's vocabulary, shared by its compiled loop and its Python side: the chart's codes,
the actions of a trace, and the slots of the configuration, shoe and counter arrays.

A module of its own because both halves of the simulator (``tutor.simulate_loop``, compiled by
numba, and ``tutor.simulate``, which builds the arrays and reads them back) must agree on every
index; numba reads these module constants as compile-time constants.
"""

from __future__ import annotations

import tutor.blas  # noqa: F401  (one BLAS thread, set before numpy is imported)

# isort: split
import numpy as np
import numpy.typing as npt

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
U64 = npt.NDArray[np.uint64]

# -- chart codes and actions, as the compiled loop reads them -------------------------------------

#: The chart's codes (see :mod:`tutor.strategy.chart`); NONE marks a pair cell that defers to the
#: hand's total (naive strategies never split).
CODES: dict[str, int] = {
    "H": 0, "S": 1, "D": 2, "Ds": 3, "P": 4, "Ph": 5, "Rh": 6, "Rs": 7, "Rp": 8,
}
C_H, C_S, C_D, C_DS, C_P, C_PH, C_RH, C_RS, C_RP = range(9)
C_NONE = -1

#: Actions, in the order of the trace (``Simulation(trace=True)``).
A_HIT, A_STAND, A_DOUBLE, A_SPLIT, A_SURRENDER, A_INSURE, A_DECLINE, A_EVEN_MONEY = range(8)
ACTION_NAMES: tuple[str, ...] = (
    "hit", "stand", "double", "split", "surrender", "insure", "decline-insurance", "even-money",
)

#: Tables of a strategy: hard totals, soft totals, pairs (rows by total or pair value 1-10).
HARD, SOFT, PAIRS = 0, 1, 2

# -- configuration slots ---------------------------------------------------------------------------
(
    K_UNIT, K_NATURAL, K_BONUS, K_PEEK, K_H17, K_DOUBLE_ON, K_DAS, K_MAX_HANDS, K_SAOC,
    K_RESPLIT_ACES, K_BY_VALUE, K_SURRENDER, K_INSURANCE, K_INSURANCE_UNITS, K_INS_FORBIDS,
    K_INS_EXTRA, K_EVEN_MONEY, K_EVERY_ROUND, K_CUT, K_SPARE, K_SESSION_ROUNDS, K_SESSION_STACK,
    K_SURRENDER_NATURAL, K_SURRENDER_NO_ACE, K_FACE_DOWN, K_BASE_SIZE,
) = range(26)
CONFIG_SIZE = 26

# -- shoe state slots --
S_LEFT, S_SIZE, S_ROUND_START, S_SPARES, S_SHUFFLES = range(5)

# -- counters --
(
    N_ROUNDS, N_HANDS, N_WIN, N_LOSE, N_PUSH, N_NATURAL, N_BONUS, N_BUST, N_SURRENDER,
    N_EVEN_MONEY, N_DOUBLE, N_SPLIT, N_INSURANCE, N_INSURANCE_WON, N_DEALER_NATURAL,
    N_DEALER_BUST, N_SAT_OUT, M_NET, M_SUMSQ, M_WIN, M_LOSE, M_NATURAL, M_BUST, M_SURRENDER,
    M_EVEN_MONEY, M_INSURANCE, X_CHECKPOINT, X_BANKROLL, X_TRACE_CARDS, X_TRACE_ACTIONS,
) = range(30)
COUNTERS_SIZE = 30

#: The counters a result reports, by name (``M_`` money in units, ``N_`` counts).
COUNT_NAMES: dict[str, int] = {
    "rounds": N_ROUNDS, "hands": N_HANDS, "win": N_WIN, "loss": N_LOSE, "push": N_PUSH,
    "natural": N_NATURAL, "bonus": N_BONUS, "bust": N_BUST, "surrender": N_SURRENDER,
    "even_money": N_EVEN_MONEY, "double": N_DOUBLE, "split": N_SPLIT, "insurance": N_INSURANCE,
    "insurance_won": N_INSURANCE_WON, "dealer_natural": N_DEALER_NATURAL,
    "dealer_bust": N_DEALER_BUST, "sat_out": N_SAT_OUT,
}
MONEY_NAMES: dict[str, int] = {
    "win": M_WIN, "loss": M_LOSE, "natural": M_NATURAL, "bust": M_BUST,
    "surrender": M_SURRENDER, "even_money": M_EVEN_MONEY, "insurance": M_INSURANCE,
}

MAX_HANDS = 4
