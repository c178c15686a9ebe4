from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.text import slugify
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, JoinRequest, Membership, Player
from config import zones
from config.formatting import valid_zone_names
from gameplay.api import Game


RESERVED_SLUGS = {"new", "join"}  # paths of clubs/urls.py that a slug would shadow


class ZoneInput(forms.TextInput):
    """A text box with every zone as a suggestion, by its city in the reader's language (a datalist
    the browser searches as you type, the cities' names in the other two languages included)."""

    def format_value(self, value):
        return zones.shown(value, translation.get_language() or "en") if value in valid_zone_names() else value

    def render(self, name, value, attrs=None, renderer=None):
        list_id = f"{(attrs or {}).get('id', name)}-zones"
        box = super().render(name, value, {**(attrs or {}), "list": list_id, "autocomplete": "off"}, renderer)
        options = format_html_join("", '<option value="{}">{}</option>',
                                   zones.zone_options(translation.get_language() or "en"))
        return format_html('{}<datalist id="{}">{}</datalist>', box, list_id, options)


class ZoneField(forms.CharField):
    """A time zone, typed as a city in English, Spanish or Arabic ("Puerto España"), as its name
    (Europe/Madrid), or picked from the suggestions; stored as the zone's name."""

    widget = ZoneInput

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 120)
        kwargs.setdefault("help_text", _("Type a city, for example Madrid, Riyadh or Port of Spain."))
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return value
        zone = zones.find_zone(value)
        if zone is None:
            raise forms.ValidationError(_("%(zone)s is not a time zone. Choose one from the list.") % {"zone": value})
        return zone


# The table as a player likes it (issue 32): on the profile and in the table's menu. A value
# outside a field's choices is refused beside that field ("Select a valid choice").
TABLE_SETTINGS = ["hand_order", "four_colour_deck", "card_size", "turn_alert"]


class KeepsUnsentChoices:
    """A choice not sent at all (an older form, a script) keeps the profile's value; one sent
    outside its choices is refused beside its field."""

    KEPT = ("hand_order", "card_size", "digits")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.KEPT:
            if name in self.fields:
                self.fields[name].required = False

    def clean(self):
        cleaned = super().clean()
        for name in self.KEPT:
            if name in cleaned and not cleaned[name]:
                cleaned[name] = getattr(self.instance, name)
        return cleaned


class ProfileForm(KeepsUnsentChoices, forms.ModelForm):
    time_zone = ZoneField(label=_("Your time zone"), required=False)

    class Meta:
        model = Player
        fields = ["display_name", "preferred_language", "time_zone", "table_alerts", *TABLE_SETTINGS, "digits"]


class TableSettingsForm(KeepsUnsentChoices, forms.ModelForm):
    """The table's menu: the table settings alone."""

    class Meta:
        model = Player
        fields = TABLE_SETTINGS


class ClubForm(forms.ModelForm):
    """Create or edit a club. The slug is checked here, so a taken one is a form error, not a 500."""

    time_zone = ZoneField(label=_("Time zone"), initial="UTC")
    # A plain text box: clean_slug makes an address of what was typed ("Los Ases" is los-ases), so
    # Django's own "Enter a valid slug" never shows.
    slug = forms.CharField(label=_("Address on Chalk"), max_length=100,
                           help_text=_("The club's address on Chalk: letters, digits, hyphens and underscores."))
    home_games = forms.MultipleChoiceField(
        label=_("Home games"), choices=Game.choices, widget=forms.CheckboxSelectMultiple,
        help_text=_("The games the club plays. The first one is offered by “Play now”."),
    )

    class Meta:
        model = Club
        fields = ["name", "slug", "description", "home_games", "time_zone", "default_language", "is_public"]
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("A club needs a name."))
        return name

    def clean_slug(self):
        slug = slugify(self.cleaned_data["slug"])
        if not slug:
            raise forms.ValidationError(_("Enter an address made of letters, digits and hyphens."))
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(_("This address is reserved; choose another."))
        taken = Club.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if taken.exists():
            raise forms.ValidationError(_("A club with this address already exists."))
        return slug

    def clean_home_games(self):
        chosen = self.cleaned_data["home_games"]
        return [key for key in Game.values if key in chosen]

    def club_fields(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class InvitationForm(forms.Form):
    days = forms.IntegerField(label=_("Valid for (days)"), min_value=1, max_value=365, initial=7)
    max_uses = forms.IntegerField(label=_("Maximum uses"), min_value=1, max_value=10000, required=False,
                                  help_text=_("Leave empty for no limit."))


class MemberInvitationForm(forms.Form):
    who = forms.CharField(label=_("User name or e-mail address"), max_length=254)
    days = forms.IntegerField(label=_("Valid for (days)"), min_value=1, max_value=365, initial=7)


class JoinRequestForm(forms.ModelForm):
    class Meta:
        model = JoinRequest
        fields = ["message"]
        widgets = {"message": forms.Textarea(attrs={"rows": 3})}
        labels = {"message": _("A word for the organisers (optional)")}


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)
