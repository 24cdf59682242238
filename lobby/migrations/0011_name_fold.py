"""Names differ in more than capitals: each profile gets its case key (games.names.case_key).

Where two profiles' names differ only in capitals ("Alice" and "ALICE"), the one online most
recently keeps it and each other gets a number after it ("ALICE 2"), as 0005 did for look-alikes;
0012 then makes the key unique. Two migrations: on PostgreSQL a table whose rows changed in a
transaction cannot be given a constraint in the same one.
"""

from django.db import migrations, models
from django.db.models import F


def one_name_each(apps, schema_editor):
    from games.names import case_key, look_alike_key

    Player = apps.get_model("lobby", "Player")
    keys = set(Player.objects.values_list("name_key", flat=True))  # look-alikes: 0005
    names = {case_key(name) for name in Player.objects.values_list("name", flat=True)}
    folds = set()  # kept so far
    newest_first = Player.objects.order_by(F("online_until").desc(nulls_last=True), "-pk")
    for player in newest_first.only("pk", "name", "name_key").iterator():
        name, number = player.name, 2
        while case_key(name) in folds or (
            name != player.name and (case_key(name) in names or look_alike_key(name) in keys)
        ):  # a number taken by nobody, under any of the two keys
            suffix = f" {number}"
            name = player.name[: 24 - len(suffix)].rstrip() + suffix
            number += 1
        key = look_alike_key(name) if name != player.name else player.name_key
        keys.add(key)
        folds.add(case_key(name))
        Player.objects.filter(pk=player.pk).update(
            name=name, name_key=key, name_fold=case_key(name)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("lobby", "0010_challenge_pace"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_fold",
            field=models.CharField(max_length=432, null=True),
        ),
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(max_length=432, unique=True),
        ),
        migrations.RunPython(one_name_each, migrations.RunPython.noop),
    ]
