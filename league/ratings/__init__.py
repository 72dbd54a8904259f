"""A rating per member and game (OpenSkill, Plackett–Luce), computed in the background from
the contests the games' rules read in finished Partien (protocol/rules/contests.py)."""
