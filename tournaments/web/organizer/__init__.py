"""Pages of the organizer's desk: a tournament from its creation to its last round.

Responsible for: the HTML pages an organizer works with, on a laptop or a phone — the list of
the peñas they organize and their tournaments (``home``), creating a tournament from a preset,
the desk of one tournament with its status and the next step (``desk``), registering pairs one
by one or as a pasted list and checking them in (``entries``), phases and drawing their rounds
(``phases``), adjusting, publishing and closing a round and its live board (``rounds``),
printing a round's pairings and one sheet per mesa with the QR code of its link
(``printing``), and one partida's page where disputes are resolved, results corrected and
no-shows and lateness recorded (``matches``), with the audit trail in view (``history``).
``common`` loads what a URL names with the access checks; ``forms`` reads what was typed;
``urls`` lists every path.

Each view loads what it shows through the selectors, sends a POST to the same service the API
calls, and redirects after it succeeds (POST/redirect/GET). A domain error (config.errors,
scoring.ScoringError, tournaments.draw.DrawError) is shown on the page that holds the form, in
a clear box, with what the person typed kept. Permissions are the services' and the selectors':
somebody who does not organize the tournament's peña gets 404 for a tournament they cannot see
and 403 for a published one, as in the API.

Must not: hold a rule of Mus, of pairing or of who may do what; write rows itself; build an
error message itself: an error is shown as ``config.errors.error_message`` renders it. This package
module imports nothing, so that importing one page's module loads only what that page needs.

Terms: peña, pareja (pair; an Entry in a tournament), cabeza de serie (seed), fase (phase),
ronda (round), mesa (table), partida (a Match), suizo, liguilla, eliminatoria, a tres ceros,
descanso (bye), juego, vaca, piedras, disputa (two different versions of a result).
"""
