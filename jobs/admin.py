from django.contrib import admin

from .models import Job


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ["kind", "club", "started_by", "state", "created_at", "finished_at"]
    list_filter = ["kind", "state"]
    readonly_fields = ["id", "created_at", "finished_at", "attempts"]
