"""Names unique case aside too (0011 gave each duplicate a number first)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("lobby", "0011_name_fold"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="name_fold",
            field=models.CharField(max_length=432, unique=True),
        ),
    ]
