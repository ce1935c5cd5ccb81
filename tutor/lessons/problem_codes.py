"""Every code a lesson problem's reason may carry, and the parts its sentences are made of.

Why a list here: the checker writes the codes (``tutor.lessons.findings.why``) and the interface
says them (``tutor.render.lesson_problems.LESSON_PROBLEMS``, from the catalogues); the domain
cannot import the words, so the codes are declared on this side, by ``LessonValueError``, and a
test holds the two lists equal: no code without its sentence in French and in English.
"""

from __future__ import annotations

PROBLEM_CODES: tuple[str, ...] = (
    "lesson-no-file", "lesson-link-outside", "lesson-unreadable", "lesson-too-large",
    "lesson-not-utf8", "lesson-empty", "lesson-not-a-mapping", "lesson-file-name",
    "lesson-duplicate-id", "lesson-unknown-prerequisite", "lesson-cycle", "lesson-did-you-mean",
    "lesson-character", "lesson-char-nul", "lesson-char-vertical-tab", "lesson-char-form-feed",
    "lesson-char-escape", "lesson-char-delete", "lesson-char-control", "lesson-alias",
    "lesson-anchor", "lesson-too-many-values", "lesson-too-deep", "lesson-value",
    "lesson-duplicate-key", "lesson-yaml-syntax", "lesson-yaml-context", "lesson-missing-key",
    "lesson-unknown-key", "lesson-unknown-step-key", "lesson-step-kind", "lesson-not-a-step",
    "lesson-card", "lesson-rules", "lesson-too-short", "lesson-boolean", "lesson-expected",
    "lesson-schema", "lesson-want-int", "lesson-want-text", "lesson-want-bool",
    "lesson-want-mapping", "lesson-want-list", "lesson-want-at-least", "lesson-want-more-than",
    "lesson-want-at-most", "lesson-want-less-than", "lesson-want-at-most-items",
    "lesson-want-one-of", "lesson-want-a-text", "lesson-want-answer", "lesson-want-cards",
    "lesson-no-cards", "lesson-want-action", "lesson-not-an-action", "lesson-want-outcome",
    "lesson-not-an-outcome", "lesson-not-an-up-card", "lesson-not-an-id", "lesson-want-rules",
    "lesson-want-hand", "lesson-no-hands", "lesson-text-empty", "lesson-text-no-language",
    "lesson-claim-hard-total", "lesson-claim-soft-total", "lesson-claim-not-a-hand",
    "lesson-claim-play-or-avoid", "lesson-claim-no-tables", "lesson-total-or-number",
    "lesson-total-engine", "lesson-loss-signed", "lesson-choice-beyond", "lesson-two-cards",
    "lesson-dealer-cards", "lesson-found-nothing", "lesson-found-empty-mapping",
    "lesson-found-mapping", "lesson-found-list", "lesson-found-value",
    "lesson-found-number", "lesson-found-text", "lesson-only-text",
    "lesson-offers-no-stand", "lesson-too-many-tables", "lesson-deal-not-offered",
    "lesson-answer-not-offered",
    "lesson-round-not-offered", "lesson-drill-not-offered", "lesson-drill-no-surrender",
    "lesson-drill-no-insurance", "lesson-drill-no-split", "lesson-drill-insurance-ace",
    "lesson-drill-undealable", "lesson-hands-aces", "lesson-hands-no-aces",
    "lesson-hands-naturals", "lesson-hands-stiff", "lesson-hands-double-totals",
    "lesson-against-ups", "lesson-deal-asks-count", "lesson-question-states-total",
    "lesson-caption-states-total", "lesson-translation-plain", "lesson-translation-no-fr",
    "lesson-translation-no-en", "lesson-copies-one-deck", "lesson-copies",
    "lesson-american-dealer", "lesson-european-dealer", "lesson-out-of-cards-at-deal",
    "lesson-out-of-cards-after", "lesson-round-over", "lesson-decision-illegal",
    "lesson-round-goes-on", "lesson-cards-unused", "lesson-outcome-count", "lesson-outcome-wrong",
    "lesson-net-wrong", "lesson-state", "lesson-story", "lesson-answer-illegal",
    "lesson-settle-in-chips", "lesson-settle-chips", "lesson-settle-loss",
    "lesson-settle-loss-gain", "lesson-total-no-cards", "lesson-total-hard", "lesson-total-soft",
    "lesson-number-on-cards", "lesson-money-on-cards", "lesson-average-no-engine",
    "lesson-engine-figure", "lesson-figure-parts", "lesson-figure-minus", "lesson-figure-times",
    "lesson-decision-unjudged", "lesson-against-strategy", "lesson-hand-insurance",
    "lesson-hand-pair", "lesson-hand-hard", "lesson-hand-soft", "lesson-claim-unjudged",
    "lesson-claim-insurance-ace", "lesson-claim-no-point", "lesson-claim-false",
    "lesson-claim-play", "lesson-claim-avoid", "lesson-every-up", "lesson-ups",
    "lesson-claim-cell", "lesson-claim-holds-at", "lesson-claim-holds-nowhere",
    "lesson-word-unbacked", "lesson-word-table-unnamed",
)
