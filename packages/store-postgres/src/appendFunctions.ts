import { LockNamespace } from "./advisoryLocks.js"

/** The SQLSTATE the append functions raise when an append is refused; the detail is `{"append": i, "actual": v}`. */
export const refusedState = "RL409"

/**
 * The server-side functions of an append, created by a migration in the store's schema, so that an append is one
 * statement (facts no projection reads) or two (facts that change view documents). Each function does one step:
 *
 * - `runledger_lock(namespace, keys)`: transaction-level advisory locks on the keys' hashes, in hash order.
 * - `runledger_check_streams(...)`: locks the streams, reads their versions (`{stream: version}`, each the
 *   stream's `max(position)`), and raises `RL409` for the first append not at its expected version (`NULL` for
 *   "any").
 * - `runledger_allocate(n)`: `n` global positions from the identity's sequence, ascending, so the facts are
 *   complete (and can be folded) before they are inserted.
 * - `runledger_docs(keys)` reads view documents; `runledger_lock_docs(locks, keys)` first locks them (advisory,
 *   in hash order) and holds off a rebuild (`ROW SHARE` on the views, which the rebuild's `EXCLUSIVE` waits for).
 * - `runledger_write_docs(upserts, deletions)`: upserts and deletes view documents.
 * - `runledger_write(...)`: inserts the facts at their positions (each stream's version, then one by one) and
 *   allocated global positions, raises `RL409` for the first fact not inserted (an id the ledger holds or one
 *   repeated, or a position taken by a writer that bypassed the locks), writes the documents, and queues the
 *   NOTIFY payloads.
 *
 * They are PL/pgSQL, whose plans PostgreSQL keeps for the session; one statement per step, loops where a set-based
 * query would cost more to start than to run (an append has a few streams and facts).
 * - `runledger_append(...)`: an append whose facts change no document: check, allocate, write.
 * - `runledger_prepare(...)`: the first call of an append that changes documents: check, lock and read the
 *   documents, allocate; the caller folds the facts and calls `runledger_write` with COMMIT.
 *
 * Locks come before any write, and nothing before them gives the transaction an id, so transactions that share a
 * stream or a document get their ids in the order they commit.
 */
export const appendFunctions = (schema: string): ReadonlyArray<string> => {
  const s = `"${schema}"`
  return [
    `CREATE FUNCTION ${s}.runledger_lock(namespace int4, lock_keys text[]) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(namespace, hash)
        FROM (SELECT DISTINCT hashtext(lock_key) AS hash FROM unnest(lock_keys) AS lock_key ORDER BY hash) AS locks;
    END $$`,
    `CREATE FUNCTION ${s}.runledger_check_streams(stream_locks text[], stream_names text[], expected_versions int[])
    RETURNS jsonb LANGUAGE plpgsql AS $$
    DECLARE
      versions jsonb := '{}';
      version int;
    BEGIN
      PERFORM ${s}.runledger_lock(${LockNamespace.stream}, stream_locks);
      FOR i IN 1 .. coalesce(array_length(stream_names, 1), 0) LOOP
        IF versions ? stream_names[i] THEN
          version := (versions ->> stream_names[i])::int;
        ELSE
          SELECT coalesce(max(f.position), 0) INTO version FROM ${s}.runledger_facts AS f
            WHERE f.stream = stream_names[i];
          versions := versions || jsonb_build_object(stream_names[i], version);
        END IF;
        IF expected_versions[i] <> version THEN
          RAISE EXCEPTION 'runledger: an append is not at its expected version' USING ERRCODE = '${refusedState}',
            DETAIL = jsonb_build_object('append', i - 1, 'actual', version)::text;
        END IF;
      END LOOP;
      RETURN versions;
    END $$`,
    `CREATE FUNCTION ${s}.runledger_allocate(how_many int) RETURNS bigint[] LANGUAGE plpgsql AS $$
    DECLARE
      allocated bigint[] := '{}';
    BEGIN
      FOR i IN 1 .. how_many LOOP
        allocated[i] := nextval('${s}.runledger_facts_global_position_seq');
      END LOOP;
      RETURN allocated;
    END $$`,
    `CREATE FUNCTION ${s}.runledger_docs(doc_keys jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
    BEGIN
      RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('view', v.view, 'partition', v.partition, 'id', v.id,
          'sort', v.sort, 'data', v.data)), '[]'::jsonb)
        FROM ${s}.runledger_views AS v
        JOIN jsonb_to_recordset(doc_keys) AS k(view text, partition text, id text)
          ON v.view = k.view AND v.partition = k.partition AND v.id = k.id);
    END $$`,
    `CREATE FUNCTION ${s}.runledger_lock_docs(doc_locks text[], doc_keys jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM ${s}.runledger_lock(${LockNamespace.viewDoc}, doc_locks);
      LOCK TABLE ${s}.runledger_views IN ROW SHARE MODE;
      RETURN ${s}.runledger_docs(doc_keys);
    END $$`,
    `CREATE FUNCTION ${s}.runledger_write_docs(upserts jsonb, deletions jsonb) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      IF jsonb_array_length(upserts) > 0 THEN
        INSERT INTO ${s}.runledger_views (view, partition, id, sort, data)
          SELECT d.view, d.partition, d.id, d.sort, coalesce(d.data, 'null'::jsonb)
          FROM jsonb_to_recordset(upserts) AS d(view text, partition text, id text, sort text, data jsonb)
          ON CONFLICT (view, partition, id) DO UPDATE SET sort = excluded.sort, data = excluded.data;
      END IF;
      IF jsonb_array_length(deletions) > 0 THEN
        DELETE FROM ${s}.runledger_views AS v
          USING jsonb_to_recordset(deletions) AS k(view text, partition text, id text)
          WHERE v.view = k.view AND v.partition = k.partition AND v.id = k.id;
      END IF;
    END $$`,
    `CREATE FUNCTION ${s}.runledger_write(versions jsonb, new_facts jsonb, global_positions bigint[], upserts jsonb,
      deletions jsonb, channel text, payloads text[]) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      inserted int;
      refused record;
    BEGIN
      INSERT INTO ${s}.runledger_facts (global_position, id, type, stream, position, data, metadata)
        OVERRIDING SYSTEM VALUE
        SELECT global_positions[t.n::int], t.r ->> 'id', t.r ->> 'type', t.r ->> 'stream',
          (versions ->> (t.r ->> 'stream'))::int + row_number() OVER (PARTITION BY t.r ->> 'stream' ORDER BY t.n),
          coalesce(t.r -> 'data', 'null'::jsonb), t.r -> 'metadata'
        FROM jsonb_array_elements(new_facts) WITH ORDINALITY AS t(r, n)
        ON CONFLICT DO NOTHING;
      GET DIAGNOSTICS inserted = ROW_COUNT;
      IF inserted < jsonb_array_length(new_facts) THEN
        SELECT (t.r ->> 'append')::int AS append, t.r ->> 'stream' AS name INTO refused
          FROM jsonb_array_elements(new_facts) WITH ORDINALITY AS t(r, n)
          WHERE NOT EXISTS (SELECT FROM ${s}.runledger_facts AS f
            WHERE f.id = t.r ->> 'id' AND f.global_position = global_positions[t.n::int])
          ORDER BY t.n LIMIT 1;
        RAISE EXCEPTION 'runledger: a fact id is already in the ledger' USING ERRCODE = '${refusedState}',
          DETAIL = jsonb_build_object('append', refused.append, 'actual', (versions ->> refused.name)::int)::text;
      END IF;
      PERFORM ${s}.runledger_write_docs(upserts, deletions);
      PERFORM pg_notify(channel, payload) FROM unnest(payloads) AS payload;
    END $$`,
    `CREATE FUNCTION ${s}.runledger_append(stream_locks text[], stream_names text[], expected_versions int[],
      new_facts jsonb, channel text, payloads text[]) RETURNS jsonb LANGUAGE plpgsql AS $$
    DECLARE
      versions jsonb := ${s}.runledger_check_streams(stream_locks, stream_names, expected_versions);
      global_positions bigint[] := ${s}.runledger_allocate(jsonb_array_length(new_facts));
    BEGIN
      PERFORM ${s}.runledger_write(versions, new_facts, global_positions, '[]', '[]', channel, payloads);
      RETURN jsonb_build_object('versions', versions, 'global_positions', to_jsonb(global_positions));
    END $$`,
    `CREATE FUNCTION ${s}.runledger_prepare(stream_locks text[], stream_names text[], expected_versions int[],
      doc_locks text[], doc_keys jsonb, how_many int) RETURNS jsonb LANGUAGE plpgsql AS $$
    DECLARE
      versions jsonb := ${s}.runledger_check_streams(stream_locks, stream_names, expected_versions);
      docs jsonb := ${s}.runledger_lock_docs(doc_locks, doc_keys);
    BEGIN
      RETURN jsonb_build_object('versions', versions, 'docs', docs,
        'global_positions', to_jsonb(${s}.runledger_allocate(how_many)));
    END $$`
  ]
}

/** The SQLSTATE `runledger_append_known` raises when a document it was told of changed since (ADR 0409). */
export const staleState = "RL412"

/**
 * Migration `6_known_documents` (ADRs 0408, 0409):
 *
 * - `runledger_docs_json(keys)` reads view documents as `json`, each with its row's `xmin` as `stamp`: PostgreSQL
 *   builds a `json` aggregate by writing text, about a quarter of what a `jsonb` one costs to build and write out, and
 *   an append's documents are read only to be sent; the stamp says which write left the document as it is.
 * - `runledger_prepare` answers `json`, its documents read so. Both types reach the client as the same text, so an
 *   instance of an earlier version calls it as before. A result type cannot be replaced: the old one is dropped first.
 * - `runledger_write_stamped(...)`: `runledger_write`, answering the transaction's id as a row's `xmin` shows it,
 *   the stamp of every document it wrote.
 * - `runledger_append_known(...)`: an append whose documents the instance knows as they stand, in one statement:
 *   check the streams, lock the documents, raise `RL412` if any is not as stamped (a stamp `NULL`: absent), allocate,
 *   write; answers the versions, the global positions and the stamp.
 */
export const knownDocumentFunctions = (schema: string): ReadonlyArray<string> => {
  const s = `"${schema}"`
  return [
    `CREATE FUNCTION ${s}.runledger_docs_json(doc_keys jsonb) RETURNS json LANGUAGE plpgsql AS $$
    BEGIN
      RETURN (SELECT coalesce(json_agg(json_build_object('view', v.view, 'partition', v.partition, 'id', v.id,
          'sort', v.sort, 'data', v.data, 'stamp', v.xmin::text)), '[]'::json)
        FROM ${s}.runledger_views AS v
        JOIN jsonb_to_recordset(doc_keys) AS k(view text, partition text, id text)
          ON v.view = k.view AND v.partition = k.partition AND v.id = k.id);
    END $$`,
    `DROP FUNCTION ${s}.runledger_prepare(text[], text[], int[], text[], jsonb, int)`,
    `CREATE FUNCTION ${s}.runledger_prepare(stream_locks text[], stream_names text[], expected_versions int[],
      doc_locks text[], doc_keys jsonb, how_many int) RETURNS json LANGUAGE plpgsql AS $$
    DECLARE
      versions jsonb := ${s}.runledger_check_streams(stream_locks, stream_names, expected_versions);
    BEGIN
      PERFORM ${s}.runledger_lock(${LockNamespace.viewDoc}, doc_locks);
      LOCK TABLE ${s}.runledger_views IN ROW SHARE MODE;
      RETURN json_build_object('versions', versions, 'docs', ${s}.runledger_docs_json(doc_keys),
        'global_positions', to_json(${s}.runledger_allocate(how_many)));
    END $$`,
    `CREATE FUNCTION ${s}.runledger_write_stamped(versions jsonb, new_facts jsonb, global_positions bigint[],
      upserts jsonb, deletions jsonb, channel text, payloads text[]) RETURNS text LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM ${s}.runledger_write(versions, new_facts, global_positions, upserts, deletions, channel, payloads);
      RETURN (pg_current_xact_id()::text::bigint & 4294967295)::text;
    END $$`,
    `CREATE FUNCTION ${s}.runledger_append_known(stream_locks text[], stream_names text[], expected_versions int[],
      doc_locks text[], known_docs jsonb, new_facts jsonb, upserts jsonb, deletions jsonb, channel text,
      payloads text[]) RETURNS json LANGUAGE plpgsql AS $$
    DECLARE
      versions jsonb := ${s}.runledger_check_streams(stream_locks, stream_names, expected_versions);
      global_positions bigint[];
    BEGIN
      PERFORM ${s}.runledger_lock(${LockNamespace.viewDoc}, doc_locks);
      LOCK TABLE ${s}.runledger_views IN ROW SHARE MODE;
      IF EXISTS (SELECT FROM jsonb_to_recordset(known_docs) AS k(view text, partition text, id text, stamp text)
          LEFT JOIN ${s}.runledger_views AS v ON v.view = k.view AND v.partition = k.partition AND v.id = k.id
          WHERE v.xmin::text IS DISTINCT FROM k.stamp) THEN
        RAISE EXCEPTION 'runledger: a view document changed since this instance read it'
          USING ERRCODE = '${staleState}';
      END IF;
      global_positions := ${s}.runledger_allocate(jsonb_array_length(new_facts));
      RETURN json_build_object('versions', versions, 'global_positions', to_json(global_positions),
        'stamp', ${s}.runledger_write_stamped(versions, new_facts, global_positions, upserts, deletions, channel,
          payloads));
    END $$`
  ]
}
