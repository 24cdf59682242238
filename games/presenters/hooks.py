"""What a game's page asks the apps built on the games, so that games imports none of them: a
finished online game's rematch offer and a ranked match's rating changes (both the lobby's). The
app that knows answers in its ``AppConfig.ready()``; unanswered, a question gets its default."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Question:
    """One thing the page asks; ``answer`` is the default until an app sets its own."""

    answer: Callable[..., Any]

    def __call__(self, *args: Any) -> Any:
        return self.answer(*args)


# (game, the viewer's seat or None) -> the rematch offer the end of an online game shows, with
# where its buttons post (``urls``); None: no rematch, the page offers to play again.
REMATCH = Question(lambda game, viewer: None)
# (game) -> a ranked match's change to each seat's rating, by position ({} for none).
RATING_CHANGES = Question(lambda game: {})
