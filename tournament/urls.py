"""Every URL of the site; each page's view is one step away from here."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.views import entry, public
from tournament.views.director import audit, deals, rounds, staff, stages, teams, tournaments

public_patterns = [
    path("", public.home, name="home"),
    path("t/<slug:slug>/", public.tournament_page, name="tournament"),
    path("t/<slug:slug>/rounds/<int:pk>/", public.round_draw, name="round"),
    path("t/<slug:slug>/rounds/<int:pk>/hands/", public.hand_records, name="hand_records"),
    path("t/<slug:slug>/deals/", public.deal_check, name="deal_check"),
]

director_patterns = [
    path("", tournaments.home, name="home"),
    path("new/", tournaments.tournament_create, name="tournament_create"),
    path("<slug:slug>/", tournaments.dashboard, name="dashboard"),
    path("<slug:slug>/settings/", tournaments.tournament_edit, name="tournament_edit"),
    path("<slug:slug>/open/", tournaments.tournament_open, name="tournament_open"),
    path("<slug:slug>/teams/", teams.team_list, name="team_list"),
    path("<slug:slug>/teams/new/", teams.team_create, name="team_create"),
    path("<slug:slug>/teams/import/", teams.team_import, name="team_import"),
    path("<slug:slug>/teams/<int:pk>/", teams.team_edit, name="team_edit"),
    path("<slug:slug>/teams/<int:pk>/delete/", teams.team_delete, name="team_delete"),
    path("<slug:slug>/teams/<int:pk>/pins/", teams.team_pins, name="team_pins"),
    path("<slug:slug>/staff/", staff.staff_list, name="staff"),
    path("<slug:slug>/staff/<int:pk>/remove/", staff.staff_remove, name="staff_remove"),
    path("<slug:slug>/staff/unlock/", staff.staff_unlock, name="staff_unlock"),
    path("<slug:slug>/audit/", audit.audit_log, name="audit"),
    path("<slug:slug>/stages/", stages.stage_list, name="stage_list"),
    path("<slug:slug>/stages/<int:pk>/", stages.stage_detail, name="stage_detail"),
    path("<slug:slug>/stages/<int:pk>/groups/", stages.stage_groups, name="stage_groups"),
    path("<slug:slug>/stages/<int:pk>/teams/", stages.stage_teams, name="stage_teams"),
    path("<slug:slug>/stages/<int:pk>/generate/", stages.round_generate,
         name="round_generate"),
    path("<slug:slug>/rounds/<int:pk>/", rounds.round_detail, name="round_detail"),
    path("<slug:slug>/rounds/<int:pk>/swap/", rounds.round_swap, name="round_swap"),
    path("<slug:slug>/rounds/<int:pk>/publish/", rounds.round_publish, name="round_publish"),
    path("<slug:slug>/rounds/<int:pk>/start/", rounds.round_start, name="round_start"),
    path("<slug:slug>/rounds/<int:pk>/close/", rounds.round_close, name="round_close"),
    path("<slug:slug>/rounds/<int:pk>/undo/", rounds.round_undo, name="round_undo"),
    path("<slug:slug>/rounds/<int:pk>/lineup/<int:team_pk>/", rounds.round_lineup,
         name="round_lineup"),
    path("<slug:slug>/rounds/<int:pk>/<slug:kind>.pdf", rounds.round_pdf, name="round_pdf"),
    path("<slug:slug>/deals/", deals.deal_key, name="deal_key"),
    path("<slug:slug>/tables/<int:pk>/", entry.table_entry, name="table_entry"),
    path("<slug:slug>/tables/<int:pk>/hands/<int:hand>/", entry.hand_save, name="hand_save"),
    path("<slug:slug>/tables/<int:pk>/hands/<int:hand>/preview/", entry.hand_preview,
         name="hand_preview"),
    path("<slug:slug>/tables/<int:pk>/hands/<int:hand>/approve/<int:seat>/",
         entry.hand_approve, name="hand_approve"),
    path("<slug:slug>/tables/<int:pk>/sign/<int:seat>/", entry.table_sign, name="table_sign"),
    path("<slug:slug>/matches/<int:pk>/", entry.match_page, name="match_page"),
    path("<slug:slug>/matches/<int:pk>/sign-off/", entry.match_sign_off,
         name="match_sign_off"),
    path("<slug:slug>/matches/<int:pk>/extra-hands/", entry.match_extra_hands,
         name="match_extra_hands"),
    path("<slug:slug>/rounds/<int:pk>/progress/", entry.round_progress_page,
         name="round_progress"),
    path("<slug:slug>/players/<int:pk>/pin-unlock/", entry.player_pin_unlock, name="pin_unlock"),
    path("<slug:slug>/rounds/<int:pk>/cards/<slug:kind>.pdf", entry.round_scorecards,
         name="round_scorecards"),
    path("<slug:slug>/deals/reveal/", deals.deal_key_reveal, name="deal_key_reveal"),
    path("<slug:slug>/deals/new-key/", deals.deal_key_new, name="deal_key_new"),
    path("<slug:slug>/rounds/<int:pk>/deals/", deals.round_deals, name="round_deals"),
    path("<slug:slug>/rounds/<int:pk>/deals/make/", deals.round_deals_generate,
         name="round_deals_generate"),
    path("<slug:slug>/rounds/<int:pk>/deals/<int:deal_pk>/replace/", deals.deal_replace,
         name="deal_replace"),
    path("<slug:slug>/rounds/<int:pk>/deals/<slug:kind>.pdf", deals.round_deals_pdf,
         name="round_deals_pdf"),
]

urlpatterns = [
    path("", include((public_patterns, "public"))),
    path("manage/", include((director_patterns, "director"))),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
