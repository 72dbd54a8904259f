from django import template

from league.tables import number

register = template.Library()

register.filter("number", number)
