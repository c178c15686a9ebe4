from django.urls import path, re_path

from clubs import views

app_name = "clubs"
urlpatterns = [
    path("", views.club_list, name="list"),
    path("new/", views.club_create, name="create"),
    path("join/<str:token>/", views.invitation, name="invitation"),
    path("<slug:slug>/", views.club_detail, name="detail"),
    path("<slug:slug>/edit/", views.club_edit, name="edit"),
    path("<slug:slug>/play/", views.play_now, name="play"),
    path("<slug:slug>/log/", views.audit_log, name="log"),
    path("<slug:slug>/members/", views.members, name="members"),
    path("<slug:slug>/members/<int:user_id>/role/", views.member_role, name="member_role"),
    path("<slug:slug>/members/<int:user_id>/remove/", views.member_remove, name="member_remove"),
    path("<slug:slug>/leave/", views.leave, name="leave"),
    path("<slug:slug>/invitations/", views.invitations, name="invitations"),
    path("<slug:slug>/invitations/<int:invitation_id>/revoke/", views.invitation_revoke, name="invitation_revoke"),
    path("<slug:slug>/invitations/player/", views.invite_member, name="invite_member"),
    path("<slug:slug>/invitations/player/<int:invitation_id>/withdraw/", views.member_invitation_revoke,
         name="member_invitation_revoke"),
    path("<slug:slug>/request/", views.join_request, name="request"),
    path("<slug:slug>/requests/", views.join_requests, name="requests"),
    re_path(r"^(?P<slug>[-\w]+)/requests/(?P<request_id>[0-9]+)/(?P<decision>approve|decline)/$", views.join_request_decide, name="decide"),
]
