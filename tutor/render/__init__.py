"""What a person reads and sees, without Streamlit: words, pictures, tables and files.

Every sentence of the interface is made here from the domain's values (codes, keys and figures
that the engine, the strategy, the quiz and class mode return), and every picture and export is
drawn here, so ``tutor/ui/`` only places them on a Streamlit page. Nothing here imports
Streamlit or ``tutor.ui``, and nothing below (the domain) imports this package: the words stay
out of the rules.

- ``translator`` — the ``Translator`` a page holds, made of ``catalogue`` (gettext, typography,
  numbers), ``naming`` (cards, hands, actions, presets), ``reasons`` (why a play, why refused)
  and ``narration`` (a round told in sentences);
- ``card_pictures`` — playing cards as SVG images;
- ``chart_view`` — the strategy chart's grid, legend, rule changes in words, CSV, printable page;
- ``explain`` — what an expected value and a house edge mean, in a sentence;
- ``style`` — the app's CSS text;
- ``class_messages`` — class mode's sentences (refusals, typed hands, retention, the question);
- ``class_reports`` — a class's results as tables, a ``.xlsx``, a CSV and a printable page.

The catalogues themselves are in ``tutor/locale/``; refresh them with
``python -m tutor.render.catalogue``.
"""
