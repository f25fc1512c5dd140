"""What circuits and championships share: tournaments of several peñas under one set of
organizers (seasons/circuits/, seasons/championships/).

Responsible for: the abstract model ``Competition`` (its name, short name, region, season,
whether it is public, its peñas and its named organizers, who created it), the final places of
finished tournaments (``places.py``, pure), and the reads and writes every such competition
makes the same way: who sees a private one, who manages it, finding one from a URL, its
tournaments, creating one with a free short name, adding a peña or an organizer
(``selectors.py``, ``services.py``). Each kind of competition names its own errors
(``CompetitionErrors``): a client that knows ``circuit_not_found`` knows its text.

Must not: hold what one kind of competition alone decides (a circuit's points, a
championship's quotas and eligibility), or be an app of its own: it has no table; each
concrete model is its app's.

Terms: peña (club), circuito (circuit), campeonato (championship), organizador.
"""
