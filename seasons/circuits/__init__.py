"""Circuits across tournaments and matches of peña against peña (interpeñas).

Responsible for: a circuit (tournaments of one or several peñas ranked together by the points
their final places earn) and an interpeña (each peña fields its pairs, board against board,
every board played on the tournaments' result flow). The app sits ABOVE tournaments: it reads
their placings and reuses their tables; tournaments never import it (import-linter's contract
``circuits-above-tournaments``), they only queue its task by name.

Must not: rank pairs inside a tournament (tournaments' standings do) or score a partida
(scoring does).

Terms: circuito (circuit), peña, pareja, puesto (place), interpeñas, tablero (board), capitán
(captain).
"""
