"""Accounts (Django's names: login, logout, password_change, password_reset…) and, in
the ``members`` namespace, a club's members and invitations."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import (
    account_views,
    approval_views,
    member_views,
    owner_views,
    player_views,
    request_views,
)

member_patterns = [
    path("clubs/<slug:slug>/members/", member_views.members, name="list"),
    path("clubs/<slug:slug>/members/<id:pk>/role/", member_views.change_role, name="role"),
    path("clubs/<slug:slug>/members/<id:pk>/remove/", member_views.remove_member, name="remove"),
    path("clubs/<slug:slug>/invitations/", member_views.invite, name="invite"),
    path("clubs/<slug:slug>/invitations/<id:pk>/revoke/", member_views.revoke, name="revoke"),
    path("invitations/<str:token>/", member_views.invitation, name="invitation"),
    # A club's players, for its admins: link, unlink, merge (prefscore/clubs/players.py).
    path("clubs/<slug:slug>/players/", player_views.player_list, name="players"),
    path("clubs/<slug:slug>/players/merge/", player_views.merge, name="player_merge"),
    path("clubs/<slug:slug>/players/<id:pk>/link/", player_views.link, name="player_link"),
    path("clubs/<slug:slug>/players/<id:pk>/unlink/", player_views.unlink, name="player_unlink"),
    # Requests to join from a table's link, and the club's spectator switch
    # (docs/design.md, "Joining a table, and watching it").
    path("clubs/<slug:slug>/requests/<id:pk>/approve/", request_views.approve, name="approve"),
    path("clubs/<slug:slug>/requests/<id:pk>/decline/", request_views.decline, name="decline"),
    path("clubs/<slug:slug>/spectators/", request_views.spectators, name="spectators"),
]

urlpatterns = [
    path("accounts/login/", account_views.SignInView.as_view(), name="login"),
    path("accounts/login/code/", account_views.sign_in_code, name="login_code"),
    # A challenged sign-in approved by a person (prefscore/clubs/approvals.py).
    path("accounts/login/approval/", approval_views.login_approval, name="login_approval"),
    path("accounts/approvals/", approval_views.signin_approvals, name="signin_approvals"),
    path(
        "accounts/approvals/<id:pk>/refuse/",
        approval_views.refuse_signin,
        name="signin_refuse",
    ),
    path("accounts/logout/", account_views.SignOutView.as_view(), name="logout"),
    path("accounts/signup/", account_views.signup, name="signup"),
    path("accounts/name/", account_views.display_name, name="display_name"),
    # The one-time link a new server prints for its owner (prefscore/clubs/owner.py).
    path("owner/<str:token>/", owner_views.owner_setup, name="owner_setup"),
    path(
        "accounts/password/change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "accounts/password/reset/",
        account_views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("", include((member_patterns, "members"))),
]
