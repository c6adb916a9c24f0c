import { flag, integer, oneOf, optionalInteger, section } from './declare';

const DEFAULT_QUEUED_JOBS = 100;

/** The conversion engine (server/jobs): workers, leases, web-page downloads and per-user limits. */
export const jobsSection = section({
  title: 'Conversion and limits',
  variables: {
    workers: oneOf(
      'WORKERS',
      ['in-process', 'none'] as const,
      { default: 'in-process' },
      "'in-process': this server also converts jobs. 'none': it only queues them, for separate `npm run worker` processes (which need DATABASE_URL: the embedded database has one owner).",
    ),
    workerConcurrency: integer(
      'WORKER_CONCURRENCY',
      { min: 1, max: 32, default: 2 },
      'Jobs (or chapters) one process converts at once (1-32).',
    ),
    chapterConcurrency: integer(
      'CHAPTER_CONCURRENCY',
      { min: 1, max: 32, default: 2 },
      'Chapters of one book converted at the same time (1-32).',
    ),
    /** Seconds a worker's claim on a job lasts without renewal. */
    jobLeaseSeconds: integer(
      'JOB_LEASE_SECONDS',
      { min: 3, max: 3600, default: 60 },
      "How long a worker's claim on a job lasts without renewal (3-3600). Workers renew it every third of that; when a worker dies, another takes its job over once the claim lapses.",
    ),
    jobStepTimeoutSeconds: integer(
      'JOB_STEP_TIMEOUT_SECONDS',
      { min: 30, max: 86_400, default: 1800 },
      "Longest a conversion step may run (30-86400). A worker stops a step at this limit; the queue hands a dead worker's job to another worker after it.",
    ),
    quotaStorageBytes: integer(
      'QUOTA_STORAGE_BYTES',
      { min: 1_048_576, max: 1_099_511_627_776, default: 2_147_483_648 },
      'Storage one user may fill with uploads, texts, covers, audio and downloads, in bytes (1048576-1099511627776; default 2 GB, room for a few long novels with their downloads). An upload or a new job past it gets 413 (the audio of a job is estimated from its text up front); older downloads are removed to make room for new ones; deleting books or files frees space.',
    ),
    quotaQueuedJobs: optionalInteger(
      'QUOTA_QUEUED_JOBS',
      { min: 1, max: 10_000, shown: '100' },
      "Jobs one user may have waiting or converting at once (1-10000); one more gets 429 until one finishes. Jobs past QUOTA_RUNNING_JOBS wait in the queue, in turn with other users' jobs.",
    ),
    quotaRunningJobs: integer(
      'QUOTA_RUNNING_JOBS',
      { min: 1, max: 100, default: 2 },
      "Jobs of one user converting at the same time (1-100); the user's further jobs wait in the queue. Users take turns: a reader's first waiting job starts before another reader's next one.",
    ),
    quotaActiveJobs: optionalInteger(
      'QUOTA_ACTIVE_JOBS',
      { min: 1, max: 1000, shown: '(unset)' },
      'Deprecated, kept for existing deployments: when set (and QUOTA_QUEUED_JOBS is not), it is the number of jobs one user may have waiting or converting, as QUOTA_QUEUED_JOBS is; the server says so at start. Jobs past QUOTA_RUNNING_JOBS now wait in the queue instead of being refused.',
    ),
    quotaUploadsPerHour: integer(
      'QUOTA_UPLOADS_PER_HOUR',
      { min: 1, max: 100_000, default: 30 },
      'Files one user may upload within an hour (1-100000); one more gets 429 with Retry-After.',
    ),
    urlFetchConcurrency: integer(
      'URL_FETCH_CONCURRENCY',
      { min: 1, max: 32, default: 1 },
      'Web pages one process downloads at once (1-32). A web-page job that finds every download slot busy gives its worker slot back and waits in the queue, so slow sites never hold all of WORKER_CONCURRENCY.',
    ),
    urlFetchTimeoutSeconds: integer(
      'URL_FETCH_TIMEOUT_SECONDS',
      { min: 1, max: 300, default: 15 },
      'Longest a web-page download may take, in seconds (1-300), from the request to the last byte; the job then fails with a message saying so.',
    ),
    /** TESTS ONLY: lets web-page jobs fetch loopback addresses (127.0.0.0/8, ::1). */
    allowPrivateFetchForTests: flag(
      'ALLOW_PRIVATE_FETCH_FOR_TESTS',
      { default: false },
      "TESTS ONLY. 'true' lets web-page jobs fetch loopback addresses (127.0.0.1, ::1). Never set it on a server: it weakens the protection against requests to internal networks.",
    ),
    jobListCache: oneOf(
      'JOB_LIST_CACHE',
      ['on', 'off'] as const,
      { default: 'on' },
      "'on' or 'off'. On: pages of the job list are kept in memory until their owner's jobs change, and the accounts requests are checked against until they change (each process LISTENs for the changes database triggers announce), so unchanged polls and a listener's progress saves read no account or list. Off: accounts are kept 5 s. Turn it off where LISTEN does not work, e.g. behind PgBouncer in transaction mode.",
    ),
    castModelMaxLines: integer(
      'CAST_MODEL_MAX_LINES',
      { min: 0, max: 1000, default: 40 },
      'Full-cast books, when a chat model is configured (ASSISTANT_MODEL_URL): the most quoted lines of one book whose speaker the offline attribution is unsure of (confidence below 0.6) that are asked of the model, least sure first (0-1000; 0 asks none). Without a model, or when it fails, the offline answer stands.',
    ),
    castModelBudgetSeconds: integer(
      'CAST_MODEL_BUDGET_SECONDS',
      { min: 1, max: 3600, default: 60 },
      "Longest the questions about one full-cast book's unsure lines may take together, in seconds (1-3600): two at a time, each within 8 s; after three failures in a row, or at this limit, the lines not yet answered keep the offline speaker.",
    ),
  },
  rawOnly: ['jobListCache', 'quotaQueuedJobs', 'quotaActiveJobs'],
  derive: (vars) => ({
    /** Keep job-list pages and accounts until they change (needs LISTEN/NOTIFY). */
    jobListCache: vars.jobListCache === 'on',
    /** Waiting or converting jobs one user may have: QUOTA_QUEUED_JOBS, else the deprecated QUOTA_ACTIVE_JOBS, else 100. */
    quotaQueuedJobs: vars.quotaQueuedJobs ?? vars.quotaActiveJobs ?? DEFAULT_QUEUED_JOBS,
    /** Set when only the deprecated QUOTA_ACTIVE_JOBS says how many jobs a user may queue (the server logs it at start). */
    quotaActiveJobsDeprecated: vars.quotaQueuedJobs === undefined && vars.quotaActiveJobs !== undefined,
  }),
});
