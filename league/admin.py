from django.contrib import admin

from .models import Club, Member, Season


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0
    fields = ("name", "user", "is_guest", "active", "joined")
    autocomplete_fields = ("user",)


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "place", "standings_public", "created")
    list_filter = ("standings_public",)
    search_fields = ("name", "place")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("secretaries",)
    inlines = [SeasonInline, MemberInline]


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "user", "is_guest", "active", "joined")
    list_filter = ("club", "is_guest", "active")
    search_fields = ("name", "user__username")
    autocomplete_fields = ("user",)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "start", "end", "ranking_rule")
    list_filter = ("club", "ranking_rule")
