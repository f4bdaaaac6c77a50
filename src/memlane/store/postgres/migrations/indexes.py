"""What the searches read beside the rows: the keyword and vector indexes, each user's keyword
statistics and speakers (kept by triggers) and the index of records without a vector."""

from __future__ import annotations

from memlane.store.postgres.migrations.tables import Connection


def _on_every_statement(db: Connection, name: str, function: str) -> None:
    """Run ``function`` after each INSERT, UPDATE and DELETE statement on memories, with the statement's
    rows as transition tables (``old_rows``, ``new_rows``)."""
    for event, tables in (
        ("INSERT", "NEW TABLE AS new_rows"),
        ("UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows"),
        ("DELETE", "OLD TABLE AS old_rows"),
    ):
        db.execute(
            f"CREATE TRIGGER {name}_{event.lower()} AFTER {event} ON memories "
            f"REFERENCING {tables} FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
        )


def m004_create_search_indexes(db: Connection, dim: int) -> None:
    # fastupdate off: GIN's pending list would be scanned by every search until a vacuum merged it
    db.execute("CREATE INDEX memories_keywords ON memories USING gin (tsv) WITH (fastupdate = off)")
    db.execute("CREATE INDEX memories_embedding ON memories USING hnsw (embedding vector_cosine_ops)")


def m005_count_keyword_statistics(db: Connection, dim: int) -> None:
    # BM25 needs each user's document count and average length; counting them per query would scan
    # all the user's rows, so statement-level triggers keep the totals as rows come and go.
    db.execute(
        """
        CREATE TABLE keyword_stats (
            user_id text PRIMARY KEY,
            docs bigint NOT NULL,
            tokens bigint NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE FUNCTION memlane_count_keywords() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN
                UPDATE keyword_stats s SET docs = s.docs - g.docs, tokens = s.tokens - g.tokens
                FROM (SELECT user_id, count(*) AS docs, sum(ntokens) AS tokens
                      FROM old_rows GROUP BY user_id) g
                WHERE s.user_id = g.user_id;
            ELSIF TG_OP = 'INSERT' THEN
                INSERT INTO keyword_stats (user_id, docs, tokens)
                SELECT user_id, count(*), sum(ntokens) FROM new_rows GROUP BY user_id
                ON CONFLICT (user_id) DO UPDATE SET docs = keyword_stats.docs + excluded.docs,
                                                    tokens = keyword_stats.tokens + excluded.tokens;
            ELSE
                -- only a changed text moves the totals: a recall (access count) must not lock them
                UPDATE keyword_stats s SET tokens = s.tokens + g.delta
                FROM (SELECT n.user_id, sum(n.ntokens - o.ntokens) AS delta
                      FROM new_rows n JOIN old_rows o ON o.id = n.id
                      GROUP BY n.user_id HAVING sum(n.ntokens - o.ntokens) <> 0) g
                WHERE s.user_id = g.user_id;
            END IF;
            RETURN NULL;
        END
        $$
        """
    )
    _on_every_statement(db, "memories_keyword_stats", "memlane_count_keywords")


def m009_count_keyword_documents(db: Connection, dim: int) -> None:
    # BM25 needs how many of the user's documents hold each query word; counting that per query cost a
    # GIN scan and a row visit per match, so statement-level triggers keep a count per word instead.
    # The words are the lexemes of tsv, which is what the GIN index matches. A word leaves the table
    # with its last memory: what a user deleted must not stay behind here.
    db.execute(
        """
        CREATE TABLE keyword_terms (
            user_id text NOT NULL,
            term text NOT NULL,
            docs bigint NOT NULL,
            PRIMARY KEY (user_id, term)
        )
        """
    )
    # the words of each row in a transition table, counted +1 or -1
    words = "SELECT r.user_id, w.term, {sign} AS n FROM {rows} r, unnest(tsvector_to_array(r.tsv)) w(term)"
    # an update moves the counts only where the text changed: a recall (access count) writes nothing
    changed = "(SELECT {a}.* FROM {a} JOIN {b} ON {b}.id = {a}.id WHERE {b}.tsv IS DISTINCT FROM {a}.tsv)"
    came = words.format(sign=1, rows=changed.format(a="new_rows", b="old_rows"))
    went = words.format(sign=-1, rows=changed.format(a="old_rows", b="new_rows"))
    deltas = {
        "INSERT": words.format(sign=1, rows="new_rows"),
        "DELETE": words.format(sign=-1, rows="old_rows"),
        "UPDATE": f"{came} UNION ALL {went}",
    }
    collect = {
        op: "SELECT array_agg(user_id), array_agg(term), array_agg(n) INTO users, terms, counts FROM "
        f"(SELECT user_id, term, sum(n) AS n FROM ({sql}) d GROUP BY user_id, term HAVING sum(n) <> 0) g;"
        for op, sql in deltas.items()
    }
    db.execute(
        f"""
        CREATE FUNCTION memlane_count_terms() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            users text[];
            terms text[];
            counts bigint[];
        BEGIN
            IF TG_OP = 'INSERT' THEN
                {collect["INSERT"]}
            ELSIF TG_OP = 'DELETE' THEN
                {collect["DELETE"]}
            ELSE
                {collect["UPDATE"]}
            END IF;
            IF users IS NULL THEN
                RETURN NULL;
            END IF;
            -- in key order, so that two statements never wait on each other's words in turn
            INSERT INTO keyword_terms (user_id, term, docs)
            SELECT * FROM unnest(users, terms, counts) ORDER BY 1, 2
            ON CONFLICT (user_id, term) DO UPDATE SET docs = keyword_terms.docs + excluded.docs;
            DELETE FROM keyword_terms k USING unnest(users, terms, counts) AS g(user_id, term, n)
            WHERE g.n < 0 AND k.user_id = g.user_id AND k.term = g.term AND k.docs <= 0;
            RETURN NULL;
        END
        $$
        """
    )
    _on_every_statement(db, "memories_keyword_terms", "memlane_count_terms")
    # then the rows already there: creating the triggers locked the table against writes until this
    # migration commits, so no write falls between this count and the triggers
    db.execute(
        "INSERT INTO keyword_terms (user_id, term, docs) "
        "SELECT user_id, term, count(*) FROM memories, unnest(tsvector_to_array(tsv)) w(term) "
        "GROUP BY user_id, term"
    )


def m011_index_records_without_vectors(db: Connection, dim: int) -> None:
    # log turns wait for their vectors (memlane.write.backlog); maintain() finds the ones a stopped
    # process left without one, and this keeps that from reading every row and its vector
    db.execute("CREATE INDEX memories_unembedded ON memories (user_id, status) WHERE embedding IS NULL")


def m012_count_speakers(db: Connection, dim: int) -> None:
    # who speaks in a user's conversations (the names messages came with, tagged "speaker:<name>" on
    # log turns): a query's words that only name a speaker say whose turns, not what about, and search
    # embeds the query without them (memlane.read.search); derived from the turns, so deleting them
    # deletes the names
    db.execute(
        """
        CREATE TABLE speakers (
            user_id text NOT NULL,
            name text NOT NULL,
            turns bigint NOT NULL,
            PRIMARY KEY (user_id, name)
        )
        """
    )
    named = (
        "SELECT substr(v, 9) AS name FROM jsonb_array_elements_text({row}.tags) v "
        "WHERE left(v, 8) = 'speaker:'"
    )
    db.execute(
        f"""
        CREATE FUNCTION memlane_count_speakers() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.kind = 'log' THEN
                UPDATE speakers s SET turns = s.turns - 1 FROM ({named.format(row="OLD")}) n
                WHERE s.user_id = OLD.user_id AND s.name = n.name;
                -- a name leaves with the last turn that named it
                DELETE FROM speakers WHERE user_id = OLD.user_id AND turns <= 0;
            END IF;
            IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.kind = 'log' THEN
                INSERT INTO speakers (user_id, name, turns) SELECT NEW.user_id, name, 1
                FROM ({named.format(row="NEW")}) n
                ON CONFLICT (user_id, name) DO UPDATE SET turns = speakers.turns + 1;
            END IF;
            RETURN NULL;
        END
        $$
        """
    )
    db.execute(
        "CREATE TRIGGER memories_speakers AFTER INSERT OR DELETE ON memories "
        "FOR EACH ROW EXECUTE FUNCTION memlane_count_speakers()"
    )
    db.execute(
        "CREATE TRIGGER memories_speakers_changed AFTER UPDATE OF tags, kind ON memories FOR EACH ROW "
        "WHEN (OLD.tags IS DISTINCT FROM NEW.tags OR OLD.kind IS DISTINCT FROM NEW.kind) "
        "EXECUTE FUNCTION memlane_count_speakers()"
    )
    db.execute(
        "INSERT INTO speakers (user_id, name, turns) SELECT m.user_id, substr(v, 9), count(*) "
        "FROM memories m, jsonb_array_elements_text(m.tags) v "
        "WHERE m.kind = 'log' AND left(v, 8) = 'speaker:' GROUP BY 1, 2"
    )
