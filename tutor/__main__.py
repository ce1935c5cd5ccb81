"""``python -m tutor``: see ``tutor.cli`` for the subcommands."""

from __future__ import annotations

from tutor.cli import main

raise SystemExit(main())
