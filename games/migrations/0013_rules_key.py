"""A game stores its rule set's key (issue 32's variants), not a flag for one of two rule sets."""

from django.db import migrations, models


def keys_from_flags(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(multiple_yahtzees=False).update(rules_key="no-multiple")


def flags_from_keys(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.filter(rules_key="no-multiple").update(multiple_yahtzees=False)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_seat_berserk"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rules_key",
            field=models.CharField(default="official", max_length=24),
        ),
        migrations.RunPython(keys_from_flags, flags_from_keys),
        migrations.RemoveField(
            model_name="game",
            name="multiple_yahtzees",
        ),
    ]
