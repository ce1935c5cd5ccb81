"""Blackjack Tutor: lessons, a real rules engine, exact basic strategy and a decision quiz."""
