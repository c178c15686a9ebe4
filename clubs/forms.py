from django import forms

from clubs.models import Player


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["display_name", "preferred_language"]
