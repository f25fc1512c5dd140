"""Championships across many centres: qualifiers feeding optional intermediate finals and a
final (app label ``championships``).

Responsible for: a championship (a competition of several peñas, seasons.competitions), its
centres (the peñas, bars and houses that run a qualifier), its stages and their quotas, the
tournaments of each stage (ordinary tournaments of their peñas, run by their own organizers
with their own rules and plan), the pairs each tournament qualifies and their flow into the
next stage, and the eligibility rules every registration in its tournaments must keep. The
app sits ABOVE tournaments: tournaments never import it; they queue its task by name
(``championships.tournament_changed``) and call its eligibility through the registry it fills
(tournaments.services.eligibility).

Must not: play a tournament (tournaments do), rank pairs inside one (tournaments' standings
do), or score a partida (scoring does).

Terms: campeonato (championship), centro (a centre: a peña, bar or house that runs a
qualifier), fase (stage), clasificatoria (qualifier), final provincial o regional
(intermediate final), final, cupo (quota), clasificados (qualified pairs).
"""
