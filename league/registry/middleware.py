"""An anonymous visitor refused a page is sent to the login (``access.LoginRequired``); a
method the page does not take is 405 (``access.MethodNotAllowed``); the roles a request asks
are asked of the database once per request (``access.roles_per_request``)."""

import logging

from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponseNotAllowed

from league.registry.access import LoginRequired, MethodNotAllowed, roles_per_request

logger = logging.getLogger("django.request")


class LoginRequiredMiddleware:
    """Turns :class:`~league.registry.access.LoginRequired` raised by a view into the
    redirect to the login, back to the page asked for, and ``MethodNotAllowed`` into 405."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, LoginRequired):
            return redirect_to_login(request.get_full_path())
        if isinstance(exception, MethodNotAllowed):  # logged as Django's require_http_methods does
            logger.warning("Method Not Allowed (%s): %s", request.method, request.path,
                           extra={"status_code": 405, "request": request})
            return HttpResponseNotAllowed(exception.methods)
        return None


class RolesPerRequest:
    """A page asks several questions of the user's roles in a club: the database answers each
    once per request, and nothing is kept on the user beyond it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with roles_per_request():
            return self.get_response(request)
