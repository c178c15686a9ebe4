"""Chalk's allauth adapter: failed logins are throttled per account *and* per address.

allauth's default (`login_failed`: 10/m/ip, 5/5m/key with the login as the key) counts an
account's failures from every address together, so five wrong passwords from anywhere locked the
owner out too, right password included. Here the key is the login plus the client's address:
five failures for one account from one address stop that address for that account for five
minutes, and each address is held to ten failures a minute across accounts; the owner at another
address logs in as usual. The throttled message offers the password reset, which works at once.
Behind a proxy the address comes from X-Forwarded-For (TRUSTED_PROXY_COUNT, docs/deploying.md).
"""

from allauth.account import forms as allauth_forms
from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _


def too_many_attempts_message():
    return format_html(
        _('Too many failed logins to this account from your address. Wait five minutes and try again, '
          'or <a href="{url}">reset your password</a>: the link in the e-mail works at once.'),
        url=reverse("account_reset_password"))


class AccountAdapter(DefaultAccountAdapter):
    def _get_login_attempts_cache_key(self, request, **credentials):
        """The account's key, per address (allauth's hook for the `login_failed` key)."""
        return f"{super()._get_login_attempts_cache_key(request, **credentials)}|{self.get_client_ip(request)}"

    def validation_error(self, code, *args):
        if code == "too_many_login_attempts":
            return ValidationError(too_many_attempts_message(), code=code)
        return super().validation_error(code, *args)


class SignupForm(allauth_forms.SignupForm):
    """allauth's sign-up, plus the browser's time zone (page.js fills the hidden box): a new account
    reads its times in its own clock from its first page, and keeps following the browser's zone
    until the player picks one (services.follow_browser_zone)."""

    browser_zone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def save(self, request):
        user = super().save(request)
        from clubs import services  # services imports the models, which allauth's forms must not need at import

        services.follow_browser_zone(user, self.cleaned_data.get("browser_zone", ""))
        return user
