"""Every URL of the site by name, who may reach it and how, and the arguments that address a
world of objects (the access matrix's, tests/integration/test_access_matrix.py; the phone
widths' walk, tests/browser/test_phone_widths.py)."""

from django.urls import URLPattern, URLResolver, get_resolver

from protocol.offline import pack
from protocol.sheet import check

PERSONAS = ["anonymous", "outsider", "member", "scorekeeper", "secretary", "staff"]

# Who may do what (see league/registry/access.py).
READERS = {"member", "scorekeeper", "secretary", "staff"}
RECORDERS = {"scorekeeper", "secretary", "staff"}
MANAGERS = {"secretary", "staff"}
EVERYONE = set(PERSONAS)
STARTER = {"member", "secretary", "staff"}  # a background job: who started it (here the member) and managers
LOGGED_IN = EVERYONE - {"anonymous"}
OPERATORS = {"staff"}  # the site's own pages (backups), jobs/site_views.py
GONE = set()  # the first-run page: 404 for everyone once a club exists

# url name -> (who may, methods: "get" page/"post" action/"both" form)
ROUTES = {
    "home": (EVERYONE, "get"),
    "club": (READERS, "get"),
    "standings": (READERS, "get"), "standings_season": (READERS, "get"), "standings_all_time": (READERS, "get"),
    "member_page": (READERS, "get"), "archive": (READERS, "get"),
    "ratings": (READERS, "get"), "how_rated": (EVERYONE, "get"),
    "records": (READERS, "get"), "head_to_head": (READERS, "get"), "head_to_head_choice": (READERS, "get"),
    "export_club": (READERS, "post"), "export_season": (READERS, "post"), "export_match": (READERS, "get"),
    "job": (STARTER, "get"), "job_progress": (STARTER, "get"), "job_download": (STARTER, "get"),
    "job_retry": (STARTER, "post"),
    "club_members": (MANAGERS, "get"), "member_add": (MANAGERS, "both"), "member_edit": (MANAGERS, "both"),
    "member_set_active": (MANAGERS, "post"), "club_seasons": (MANAGERS, "get"), "season_add": (MANAGERS, "both"),
    "season_edit": (MANAGERS, "both"), "club_settings": (MANAGERS, "both"), "secretary_add": (MANAGERS, "post"),
    "secretary_remove": (MANAGERS, "post"), "season_import": (MANAGERS, "both"),
    "season_import_confirm": (MANAGERS, "post"), "points_list_import": (MANAGERS, "both"),
    "points_list_confirm": (MANAGERS, "post"),
    "tournament": (READERS, "get"), "tournament_settings": (MANAGERS, "both"), "round_new": (MANAGERS, "both"),
    "round": (READERS, "get"), "round_pdf": (READERS, "get"), "round_redraw": (MANAGERS, "post"),
    "round_start": (MANAGERS, "post"), "round_delete": (MANAGERS, "post"),
    "round_results_pdf": (READERS, "get"), "ranking_pdf": (READERS, "get"),
    # Table cards (league.tournaments.card_pages): the secretary prints, reissues, closes the round.
    "round_cards_pdf": (MANAGERS, "get"), "table_card_pdf": (MANAGERS, "get"),
    "table_card_reissue": (MANAGERS, "both"), "round_close": (MANAGERS, "both"),
    # The tournament day (league.tournaments.attendance, next_round, board): the secretary's.
    "attendance": (MANAGERS, "both"), "walk_in": (MANAGERS, "post"), "round_draw_next": (MANAGERS, "post"),
    "round_board": (MANAGERS, "get"), "round_clock_start": (MANAGERS, "post"),
    # A table card's address: whoever holds the card; a code that is no card is 404 for everyone
    # (the cards themselves: tests/integration/test_table_cards.py).
    "table_card": (EVERYONE, "no card"),
    "protocol:new": (READERS, "both"), "protocol:import": (MANAGERS, "both"), "protocol:audit": (MANAGERS, "get"),
    "protocol:transcribe": (MANAGERS, "get"), "protocol:transcribe_check": (MANAGERS, "post"),
    "protocol:transcribe_save": (MANAGERS, "post"),
    "protocol:export": (READERS, "get"), "protocol:pdf": (READERS, "get"), "protocol:blank_pdf": (READERS, "get"),
    "protocol:match": (READERS, "get"), "protocol:sheet": (READERS, "get"), "protocol:history": (READERS, "get"),
    "protocol:settings": (MANAGERS, "both"), "protocol:game_new": (RECORDERS, "both"),
    "protocol:game_preview": (RECORDERS, "post"), "protocol:sanction_new": (RECORDERS, "both"),
    "protocol:end": (RECORDERS, "both"), "protocol:annul": (MANAGERS, "both"),
    "protocol:entry_correct": (RECORDERS, "both"), "protocol:entry_remove": (RECORDERS, "both"),
    "protocol:game_annul": (RECORDERS, "both"), "protocol:lot_new": (RECORDERS, "both"), "protocol:lot": (READERS, "get"),
    "protocol:confirm": (READERS, "post"),
    # The offline queue's endpoint answers JSON to everyone: 401 (not 302) to a visitor, 403 without the right.
    "protocol:entries_sync": (RECORDERS, "json"),
    # league/accounts: the first run, invitations (an unknown token gets its explaining page), the profile
    "first_run": (GONE, "gone"), "profile": (LOGGED_IN, "both"), "accept_invitation": (EVERYONE, "both"),
    "member_invitation": (MANAGERS, "get"), "member_account_active": (MANAGERS, "post"),
    # Publishing (the club of the world publishes its results): public pages, the secretary's settings.
    "publishing_settings": (MANAGERS, "both"), "public_index": (EVERYONE, "get"), "public_season": (EVERYONE, "get"),
    "public_embed": (EVERYONE, "get"), "public_csv": (EVERYONE, "get"), "public_json": (EVERYONE, "get"),
    "public_live": (EVERYONE, "get"), "public_live_board": (EVERYONE, "get"),
    # The operators' backups: the list (POST starts a backup job), a file, the job's pages.
    "backups": (OPERATORS, "both"), "backup_download": (OPERATORS, "get"), "site_job": (OPERATORS, "get"),
    "site_job_progress": (OPERATORS, "get"), "site_job_retry": (OPERATORS, "post"),
    # The offline pack: the rules pack, the service worker, the manifest hold no one's data.
    "rules_pack": (EVERYONE, "get"), "service_worker": (EVERYONE, "get"), "manifest": (EVERYONE, "get"),
    # The check page of a printed sheet: whoever holds the paper (its code) may see it.
    "sheet_check_form": (EVERYONE, "get"), "sheet_check": (EVERYONE, "get"),
}
SKIPPED_NAMESPACES = {"admin"}
SKIPPED_NAMES = {"login", "logout", "password_change", "password_change_done", "password_reset",
                 "password_reset_done", "password_reset_confirm", "password_reset_complete", "set_language"}


def all_route_names():
    names = []

    def walk(patterns, namespace=None):
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.namespace in SKIPPED_NAMESPACES:
                    continue
                walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and p.name:
                names.append(f"{namespace}:{p.name}" if namespace else p.name)
    walk(get_resolver().url_patterns)
    return sorted(set(n for n in names if n not in SKIPPED_NAMES))


def kwargs_for(name, pattern_kwargs, w, club_key=None):
    objects = w["other"] if club_key == "other" else w
    kwargs = {}
    for key in pattern_kwargs:
        if key == "slug":
            kwargs[key] = w["club"].slug
        elif key == "pk" and name in ("member_edit", "member_set_active", "member_invitation", "member_account_active"):
            kwargs[key] = objects["member"].pk
        elif key == "pk" and name == "season_import_confirm":
            kwargs[key] = objects["check"].pk
        elif key == "pk" and name == "points_list_confirm":
            kwargs[key] = objects["points_check"].pk
        elif key == "pk" and name.startswith("site_job"):
            kwargs[key] = objects["site_job"].pk
        elif key == "name" and name == "backup_download":
            kwargs[key] = w["backup"]
        elif key == "name" and name == "rules_pack":
            kwargs[key] = pack.current().filename
        elif key == "pk" and name.startswith("job"):
            kwargs[key] = objects["job"].pk
        elif key == "pk" and name in ("season_edit", "export_season"):
            kwargs[key] = objects["season"].pk
        elif key == "pk":
            kwargs[key] = objects["match"].pk
        elif key == "season_pk":
            kwargs[key] = objects["season"].pk
        elif key == "member_pk":
            kwargs[key] = objects["member"].pk
        elif key == "other_pk":  # a head-to-head: another member of the club (of the other club: the same one)
            kwargs[key] = objects.get("versus", objects["member"]).pk
        elif key == "round_pk":
            kwargs[key] = objects["round"].pk
        elif key == "position":
            kwargs[key] = 0
        elif key == "lot":
            kwargs[key] = w["lot"].pk
        elif key == "user_id":
            kwargs[key] = w["secretary"].pk
        elif key == "member":
            kwargs[key] = objects["member"].pk
        elif key == "token":
            kwargs[key] = "d2k9xq-0123456789abcdef0123456789abcdef"
        elif key == "table":
            kwargs[key] = 1
        elif key == "card":  # well-formed, and no card's
            kwargs[key] = "K7M2X-Q9PTA"
        elif key == "code":  # the check code printed on the match's sheet
            kwargs[key] = check.make(objects["match"].pk, objects["match"].version)
    return kwargs


def pattern_keys(name):
    resolver = get_resolver()
    namespace, _, short = name.rpartition(":")
    if namespace:
        resolver = resolver.namespace_dict[namespace][1]
    (possibilities,) = [resolver.reverse_dict.getlist(short)]
    keys = list(possibilities[0][0][0][1])
    return keys + ["slug"] if namespace else keys  # the namespace's prefix holds the club
