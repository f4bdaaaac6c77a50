"""memlane's own marks as typed columns (m013): a log turn's role and a record's flags move out of the
user's tags."""

from __future__ import annotations

from memlane.store.postgres.migrations.tables import Connection


def m013_typed_flags(db: Connection, dim: int) -> None:
    # memlane's own marks leave the user's tag namespace (as in the embedded store's m013): who said a
    # log turn becomes the role column, and "outdated", "chatter", "flag:injection" and "trend" flags
    db.execute("ALTER TABLE memories ADD COLUMN role text")
    db.execute("ALTER TABLE memories ADD COLUMN flags jsonb NOT NULL DEFAULT '[]'")
    db.execute(
        """
        UPDATE memories SET
            role = (SELECT substr(t, 6) FROM jsonb_array_elements_text(tags) t
                    WHERE kind = 'log' AND left(t, 5) = 'role:' LIMIT 1),
            flags = COALESCE((SELECT jsonb_agg(DISTINCT CASE t WHEN 'flag:injection' THEN 'instruction'
                                                          WHEN 'trend' THEN 'derived' ELSE t END)
                              FROM jsonb_array_elements_text(tags) t
                              WHERE t IN ('flag:injection', 'trend') AND kind != 'log'
                                 OR t IN ('flag:injection', 'outdated', 'chatter') AND kind = 'log'), '[]'),
            tags = COALESCE((SELECT jsonb_agg(t) FROM jsonb_array_elements_text(tags) t
                             WHERE NOT (kind = 'log' AND (left(t, 5) = 'role:'
                                        OR t IN ('flag:injection', 'outdated', 'chatter')))
                               AND NOT (kind != 'log' AND t IN ('flag:injection', 'trend'))), '[]')
        WHERE tags ?| ARRAY['outdated', 'chatter', 'flag:injection', 'trend']
           OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(tags) t WHERE left(t, 5) = 'role:')
        """
    )
