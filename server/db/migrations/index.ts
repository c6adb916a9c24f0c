/**
 * Schema changes, applied in order and recorded in schema_migrations. Never edit a shipped
 * migration: add a new one. The SQL must run unchanged on PGlite and on PostgreSQL.
 *
 * Every table has ONE owner: the only module whose SQL reads or writes it. Other code asks the
 * owner (e.g. listening reads jobs through the jobs repository). tests/unit/table-owners.test.ts
 * fails when production code outside the owner mentions a table in SQL, or when a table has no
 * owner here. What each column means: docs/data-model.md.
 */
export const TABLE_OWNERS: Readonly<Record<string, string>> = {
  users: 'server/auth/users.ts',
  jobs: 'server/jobs/repository/jobs',
  job_steps: 'server/jobs/repository/job-steps.ts',
  uploaded_files: 'server/jobs/repository/uploaded-files.ts',
  upload_events: 'server/jobs/repository/upload-events.ts',
  playback_progress: 'server/progress/repository.ts',
  assistant_turns: 'server/assistant/conversations.ts',
  exports: 'server/exports/repository.ts',
  feeds: 'server/feeds/repository.ts',
  pronunciations: 'server/pronunciations/repository.ts',
  password_resets: 'server/auth/password-resets.ts',
  /** Created by the migration runner itself. */
  schema_migrations: 'server/db/migrate.ts',
};

export interface Migration {
  id: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    id: '0001_users',
    sql: `
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL UNIQUE CHECK (email = lower(email)),
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    id: '0002_jobs_files_progress',
    sql: `
      CREATE TABLE uploaded_files (
        file_key text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        filename text NOT NULL,
        size_bytes integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE jobs (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        parent_job_id uuid REFERENCES jobs(id) ON DELETE CASCADE,
        chapter_order integer,
        job_type text NOT NULL CHECK (job_type IN ('text_to_audio', 'book_processing')),
        title text NOT NULL,
        description text,
        status text NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED')),
        progress double precision NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 100),
        error_message text,
        config jsonb NOT NULL DEFAULT '{}'::jsonb,
        result_data jsonb NOT NULL DEFAULT '{}'::jsonb,
        input_file_key text,
        output_file_key text,
        duration double precision,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz
      );
      CREATE INDEX jobs_user_created_idx ON jobs (user_id, created_at DESC);
      CREATE INDEX jobs_user_status_idx ON jobs (user_id, status);
      CREATE INDEX jobs_parent_idx ON jobs (parent_job_id, chapter_order);

      CREATE TABLE job_steps (
        id uuid PRIMARY KEY,
        job_id uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        step_name text NOT NULL,
        step_order integer NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
        progress double precision NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 100),
        error_message text,
        step_metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz,
        UNIQUE (job_id, step_name)
      );

      CREATE TABLE playback_progress (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        job_id uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        position_seconds double precision NOT NULL CHECK (position_seconds >= 0),
        duration_seconds double precision,
        percentage_complete double precision NOT NULL DEFAULT 0,
        current_chapter_id text,
        current_chapter_position double precision NOT NULL DEFAULT 0,
        is_completed boolean NOT NULL DEFAULT false,
        last_played_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, job_id)
      );
      CREATE INDEX playback_progress_recent_idx ON playback_progress (user_id, last_played_at DESC);
    `,
  },
  {
    // The conversion engine (server/jobs): a lease so one worker at a time runs a job, and the
    // moment a chapter job was handed to the queue (books start CHAPTER_CONCURRENCY at a time).
    id: '0003_job_leases',
    sql: `
      ALTER TABLE jobs ADD COLUMN lease_owner text;
      ALTER TABLE jobs ADD COLUMN lease_until timestamptz;
      ALTER TABLE jobs ADD COLUMN enqueued_at timestamptz;
    `,
  },
  {
    // Per-user quotas and a job list that stays cheap: one index per sort of GET /jobs (each
    // starting with user_id, the filter every list has), and a log of uploads for the hourly limit.
    id: '0004_quotas_and_list_indexes',
    sql: `
      DROP INDEX IF EXISTS jobs_user_status_idx;
      CREATE INDEX jobs_user_status_created_idx ON jobs (user_id, status, created_at DESC);
      CREATE INDEX jobs_user_updated_idx ON jobs (user_id, updated_at DESC);
      CREATE INDEX jobs_user_title_idx ON jobs (user_id, lower(title));
      CREATE INDEX jobs_user_top_created_idx ON jobs (user_id, created_at DESC) WHERE parent_job_id IS NULL;
      CREATE INDEX jobs_input_file_idx ON jobs (input_file_key) WHERE input_file_key LIKE 'uploads/%';

      CREATE TABLE upload_events (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX upload_events_user_idx ON upload_events (user_id, created_at);
    `,
  },
  {
    // Every change to a job that the list shows is announced on 'lectio_job_changes' with the
    // owner's id, so each server process knows at once which users' cached list pages are stale,
    // whichever process (API or worker) wrote the change.
    id: '0005_job_change_notifications',
    sql: `
      CREATE FUNCTION lectio_notify_job_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('lectio_job_changes', COALESCE(NEW.user_id, OLD.user_id)::text);
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER jobs_notify_change
        AFTER INSERT OR DELETE OR UPDATE OF parent_job_id, job_type, title, description, status, progress, error_message,
          config, result_data, input_file_key, output_file_key, duration, created_at, updated_at, started_at, completed_at
        ON jobs FOR EACH ROW EXECUTE FUNCTION lectio_notify_job_change();
    `,
  },
  {
    // The voice assistant's conversations: one per user and book, kept across mode switches,
    // reconnects and reloads until the reader clears it. Each turn says the mode it was said in.
    id: '0006_assistant_turns',
    sql: `
      CREATE TABLE assistant_turns (
        id bigserial PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        job_id uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        mode text NOT NULL CHECK (mode IN ('tutor', 'xray')),
        speaker text NOT NULL CHECK (speaker IN ('reader', 'assistant')),
        text text NOT NULL,
        evidence jsonb,
        tutor jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX assistant_turns_conversation_idx ON assistant_turns (user_id, job_id, id);
      `,
  },
  {
    // Jobs wait in a fair queue (server/jobs/scheduler.ts): a top-level job is handed to the
    // workers (enqueued_at set) once its user has fewer than QUOTA_RUNNING_JOBS running. Jobs that
    // were already running or queued before keep running.
    id: '0007_fair_queue',
    sql: `
      UPDATE jobs SET enqueued_at = COALESCE(enqueued_at, created_at)
        WHERE parent_job_id IS NULL AND status IN ('PENDING', 'PROCESSING');
      CREATE INDEX jobs_waiting_idx ON jobs (user_id, created_at) WHERE parent_job_id IS NULL AND status = 'PENDING' AND enqueued_at IS NULL;
    `,
  },
  {
    // Downloads of a finished book (server/exports): one row per book and format, built once on the
    // queue and kept; `source_version` is the book's completion time when it was built, so a book
    // converted again makes its downloads stale. Private podcast feeds (server/feeds): the token is
    // never stored, only its SHA-256; one feed per book and one for the library per user. The
    // streaming route finds the chapter a stored MP3 belongs to by its key, to tag it.
    id: '0008_exports_and_feeds',
    sql: `
      CREATE TABLE exports (
        id uuid PRIMARY KEY,
        job_id uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        format text NOT NULL CHECK (format IN ('m4b', 'mp3', 'zip', 'epub')),
        status text NOT NULL CHECK (status IN ('queued', 'building', 'ready', 'failed')),
        progress integer NOT NULL DEFAULT 0,
        source_version text NOT NULL,
        file_key text,
        size_bytes bigint,
        error_message text,
        attempts integer NOT NULL DEFAULT 0,
        lease_owner text,
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        UNIQUE (job_id, format)
      );
      CREATE INDEX exports_unfinished_idx ON exports (status) WHERE status IN ('queued', 'building');

      CREATE TABLE feeds (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        job_id uuid REFERENCES jobs(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX feeds_book_idx ON feeds (user_id, job_id) WHERE job_id IS NOT NULL;
      CREATE UNIQUE INDEX feeds_library_idx ON feeds (user_id) WHERE job_id IS NULL;

      CREATE INDEX jobs_output_file_key_idx ON jobs (output_file_key) WHERE output_file_key IS NOT NULL;
    `,
  },
  {
    // A user's pronunciations: how the voices should say a word or phrase, in the user's order.
    // The word is unique per user ignoring case, as entries are matched.
    id: '0009_pronunciations',
    sql: `
      CREATE TABLE pronunciations (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        position integer NOT NULL CHECK (position >= 0),
        text text NOT NULL CHECK (length(text) BETWEEN 1 AND 100),
        say_as text NOT NULL CHECK (length(say_as) BETWEEN 1 AND 200),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, position)
      );
      CREATE UNIQUE INDEX pronunciations_user_text_idx ON pronunciations (user_id, lower(text));
    `,
  },
  {
    // The storage quota counts every byte a reader keeps and reserves room before it is written:
    // a job holds an estimate of the audio it has yet to write (counted while it waits or
    // converts), replaced by the true size of what it wrote (its MP3 and timing map) when it
    // finishes. Rows finished before keep counting their MP3's size from result_data. Downloads
    // count too: a reader's are summed (and the oldest evicted) at every storage check.
    id: '0010_storage_reservations',
    sql: `
      ALTER TABLE jobs ADD COLUMN reserved_bytes bigint NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN stored_bytes bigint;
      CREATE INDEX exports_user_idx ON exports (user_id, status);
    `,
  },
  {
    // Accounts: a session generation in every access token (raising it signs out the tokens
    // issued before), the voice a reader's new books start with, and one-time password reset
    // links (only a hash of each link's token is kept).
    id: '0011_account_settings_and_password_reset',
    sql: `
      ALTER TABLE users ADD COLUMN session_generation integer NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN default_voice jsonb;
      ALTER TABLE users ADD COLUMN default_speed real;
      CREATE TABLE password_resets (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX password_resets_user_idx ON password_resets (user_id);
    `,
  },
  {
    // Queries that ran under load without an index: the fair queue counts each reader's jobs handed
    // to the workers and unfinished on every dispatch (after every job's end), which read the whole
    // jobs table, finished jobs included; deleting a book removes its listeners' places by job_id,
    // which read every place of every reader.
    id: '0012_queue_and_progress_indexes',
    sql: `
      CREATE INDEX jobs_handed_over_idx ON jobs (user_id)
        WHERE parent_job_id IS NULL AND status IN ('PENDING', 'PROCESSING') AND enqueued_at IS NOT NULL;
      CREATE INDEX playback_progress_job_idx ON playback_progress (job_id);
    `,
  },
  {
    // Every change to an account (a new password, signing out everywhere, deletion, its settings)
    // is announced on 'lectio_account_changes' with its id, so each process may keep the accounts
    // its requests are checked against until they change (auth/user-cache.ts), whichever process
    // changed them.
    id: '0013_account_change_notifications',
    sql: `
      CREATE FUNCTION lectio_notify_account_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('lectio_account_changes', OLD.id::text);
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER users_notify_change AFTER UPDATE OR DELETE ON users
        FOR EACH ROW EXECUTE FUNCTION lectio_notify_account_change();
    `,
  },
];
