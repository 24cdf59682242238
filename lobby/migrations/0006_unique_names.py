"""Names unique among all profiles (0005 gave each duplicate a number first)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("lobby", "0005_profiles"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(max_length=96, unique=True),
        ),
    ]
