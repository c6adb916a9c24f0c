import { flag, optionalInteger, section, text } from './declare';

/** Operations: metrics and a worker's own health port (docs/operations.md). */
export const opsSection = section({
  title: 'Operations',
  variables: {
    /** Bearer token that unlocks GET /metrics; unset (and metricsPublic false) keeps it off. */
    metricsToken: text(
      'METRICS_TOKEN',
      {
        check: (token) =>
          token.length >= 16 ? undefined : `METRICS_TOKEN must be at least 16 characters (got ${token.length})`,
      },
      'Bearer token (at least 16 characters) that GET /metrics requires. Without it (and without METRICS_PUBLIC=true) /metrics answers 404.',
    ),
    metricsPublic: flag(
      'METRICS_PUBLIC',
      { default: false },
      "'true' serves GET /metrics without a token (only for a scraper on a private network).",
    ),
    /** A worker's port for /healthz, /readyz and /metrics (the API uses PORT). */
    opsPort: optionalInteger(
      'OPS_PORT',
      { min: 0, max: 65535 },
      'Workers only: the port on which `npm run worker` serves /healthz, /readyz and /metrics (0-65535, 0 picks a free one; bound to HOST). Unset: a worker serves nothing.',
    ),
  },
});
