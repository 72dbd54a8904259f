from django import template

from league.standings.tables import number, score

register = template.Library()

register.filter("number", number)
register.filter("score", score)  # a tournament score: TCG's with one decimal
