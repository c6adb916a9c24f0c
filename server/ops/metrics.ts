import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { isTtsError } from '../tts/types';

/**
 * The process's Prometheus metrics (prom-client), one registry per app so tests never share one.
 * Cluster-wide figures (jobs by state, queue depth) are read from the database when scraped, so
 * any API process reports them; per-process figures (HTTP, conversions run here, voice sockets,
 * event-loop lag) are counted where they happen.
 */
export interface Metrics {
  registry: Registry;
  observeHttp(method: string, route: string, status: number, seconds: number): void;
  /** A synthesize step finished: `audioSeconds` of audio in `wallSeconds`. */
  observeConversion(provider: string, audioSeconds: number, wallSeconds: number): void;
  /** A step failed (and may be retried): counted as a synthesis error (voice) or an encoding error. */
  observeStepError(step: string, provider: string, error: unknown): void;
  /** Scrape-time sources for cluster-wide gauges. */
  setSources(sources: MetricSources): void;
}

export interface MetricSources {
  jobsByState?: () => Promise<Record<string, number>>;
  queueDepth?: () => Promise<{ waiting: number; oldestWaitSeconds: number }>;
  voiceSessions?: () => number;
  runningJobs?: () => number;
}

const JOB_STATES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'];

export function createMetrics(): Metrics {
  const registry = new Registry();
  // process_*, nodejs_* including nodejs_eventloop_lag_seconds and its percentiles.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  let sources: MetricSources = {};

  const http = new Histogram({
    name: 'lectio_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const speed = new Histogram({
    name: 'lectio_conversion_speed_ratio',
    help: 'Seconds of audio produced per wall-clock second, per synthesize step run in this process.',
    labelNames: ['provider'],
    buckets: [0.5, 1, 2, 5, 10, 20, 50, 100],
    registers: [registry],
  });
  const synthesisErrors = new Counter({
    name: 'lectio_synthesis_errors_total',
    help: 'Voice (text-to-speech) errors in conversion steps run in this process, by provider.',
    labelNames: ['provider'],
    registers: [registry],
  });
  const encodingErrors = new Counter({
    name: 'lectio_encoding_errors_total',
    help: 'Errors while encoding or joining audio (not from the voice) in conversion steps run in this process, by provider.',
    labelNames: ['provider'],
    registers: [registry],
  });
  new Gauge({
    name: 'lectio_jobs',
    help: 'Jobs (and chapter jobs) by state, across every process.',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      if (!sources.jobsByState) return;
      const counts = await sources.jobsByState();
      for (const state of JOB_STATES) this.set({ state }, counts[state] ?? 0);
    },
  });
  new Gauge({
    name: 'lectio_queue_depth',
    help: 'Queue messages waiting for a worker.',
    registers: [registry],
    async collect() {
      if (sources.queueDepth) this.set((await sources.queueDepth()).waiting);
    },
  });
  new Gauge({
    name: 'lectio_queue_oldest_wait_seconds',
    help: 'How long the oldest waiting queue message has waited (0 when none waits).',
    registers: [registry],
    async collect() {
      if (sources.queueDepth) this.set((await sources.queueDepth()).oldestWaitSeconds);
    },
  });
  new Gauge({
    name: 'lectio_voice_sessions_active',
    help: 'Open voice assistant websockets in this process.',
    registers: [registry],
    collect() {
      if (sources.voiceSessions) this.set(sources.voiceSessions());
    },
  });
  new Gauge({
    name: 'lectio_jobs_running',
    help: 'Jobs this process is converting now.',
    registers: [registry],
    collect() {
      if (sources.runningJobs) this.set(sources.runningJobs());
    },
  });

  return {
    registry,
    observeHttp(method, route, status, seconds) {
      http.observe({ method, route, status: String(status) }, seconds);
    },
    observeConversion(provider, audioSeconds, wallSeconds) {
      if (wallSeconds > 0 && audioSeconds > 0) speed.observe({ provider }, audioSeconds / wallSeconds);
    },
    observeStepError(step, provider, error) {
      if (isTtsError(error)) synthesisErrors.inc({ provider: error.engine });
      else if (step === 'synthesize' || step === 'combine_audio') encodingErrors.inc({ provider });
    },
    setSources(next) {
      sources = { ...sources, ...next };
    },
  };
}
