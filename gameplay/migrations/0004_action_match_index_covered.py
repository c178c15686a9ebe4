"""The action log's match column loses its own index: one_action_per_seq (match, seq) serves
every lookup by match, and every move inserts into each index of the table.

Only the index is dropped: Django's AlterField would also drop and re-add the foreign key,
which validates every row of the log under a lock."""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "gameplay_matchaction_match_id_6cb58cee"


class Migration(migrations.Migration):

    dependencies = [
        ("gameplay", "0003_seat_invitations"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="matchaction",
                    name="match",
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE,
                                            related_name="actions", to="gameplay.match"),
                ),
            ],
            database_operations=[
                migrations.RunSQL(f'DROP INDEX IF EXISTS "{INDEX}"',
                                  f'CREATE INDEX "{INDEX}" ON "gameplay_matchaction" ("match_id")'),
            ],
        ),
    ]
