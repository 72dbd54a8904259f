from django import template

from league.standings.tables import number

register = template.Library()

register.filter("number", number)
