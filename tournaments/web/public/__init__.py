"""Public pages of a published tournament, for everybody, and the venue's big screen.

A package, one module per part: ``display`` (the display values and the standings tables),
``brackets``, ``screen`` (the big screen) and ``pages`` (the views and ``urlpatterns``).

Responsible for: the pages a player, a friend at home or the bar's TV reads — the list of
public tournaments, a tournament's page (who organizes it, where, when, the rules in force in
words, the tables of the round in play, the live standings and the brackets), the standings of
every phase, the brackets drawn as brackets, each round's tables, the pairs and each pair's
matches, and the big screen (`.../pantalla/`) that refreshes itself from a fragment: the
round's mesas in even pages (tournaments.web.screen_pages), and the standings or, during a
knockout, the bracket. Turning what the selectors return into plain display values (texts,
signs, grid positions of a bracket's matches) happens here; templates only print them.

Must not: write anything, decide anything about the game, the draw or the order of the
standings (scoring/ and tournaments/draw/ do; the standings are the snapshots stored by
tournaments.services.standings — the read path never recomputes), or show what is not public.
Everything is read as an anonymous visitor would (``user=None`` for the selectors), even for a
signed-in organizer: the venue's TV is often signed in, and it must never show a draft round.
Only published tournaments (public and past draft) exist here; anything else is a 404.

Terms: peña (club), pareja (an Entry), ronda, mesa (table), partida (a Match), juego, vaca,
piedras (stones), liguilla (round robin group), cuadro (bracket), cuadro de perdedores or
repesca (losers' bracket), descanso (bye), a tres ceros (out after N losses), desempate
(tiebreak), Buchholz.
"""

from tournaments.web.public.display import TIEBREAK_WHY
from tournaments.web.public.pages import home, urlpatterns
from tournaments.web.public.screen import SCREEN_TABLES_PER_PAGE

__all__ = ["SCREEN_TABLES_PER_PAGE", "TIEBREAK_WHY", "home", "urlpatterns"]
