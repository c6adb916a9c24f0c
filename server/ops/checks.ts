import type { Db } from '../db/types';
import type { Conversion } from '../jobs/index';
import type { JobEvent } from '../jobs/step-run';
import type { FileStorage } from '../storage/types';
import type { VoiceServer } from '../tts/voice-server';
import type { Metrics } from './metrics';
import { CheckState } from './routes';

/** Where readiness writes (and deletes) its probe file: proves the store takes writes, not only that it answers. */
export const READINESS_PROBE_PREFIX = 'ops/readyz-';

/**
 * The readiness checks of a process (database, storage, queue) and the scrape-time metric
 * sources that read the same parts; the voice server, when there is one, is reported beside them
 * (`voice_server`: ok or unavailable) without deciding readiness.
 */
export function readinessChecks(
  metrics: Metrics,
  db: Db,
  storage: FileStorage,
  conversion: Pick<Conversion, 'queue' | 'runner' | 'repo' | 'storageHealth' | 'voiceServer'>,
) {
  metrics.setSources({
    jobsByState: () => conversion.repo.jobs.countByStatus(),
    queueDepth: () => conversion.queue.depth(),
    runningJobs: () => conversion.runner?.runningCount() ?? 0,
  });
  const probeKey = `${READINESS_PROBE_PREFIX}${process.pid}`;
  return {
    checks: {
      database: () => db.query('SELECT 1'),
      storage: async () => {
        // Full first: on a full disk even the probe's few bytes may not fit.
        if ((await conversion.storageHealth.state()) === 'full') throw new CheckState('full', 'storage is full');
        await storage.write(probeKey, Buffer.from('ok'));
        await storage.delete(probeKey);
      },
      queue: () => conversion.queue.depth(),
    },
    reported: voiceServerReport(conversion.voiceServer),
  };
}

function voiceServerReport(server: VoiceServer | undefined): Record<string, () => Promise<unknown>> {
  if (server === undefined) return {};
  return {
    voice_server: async () => {
      const state = await server.voices();
      if (!state.reachable) throw new Error(state.detail ?? `${server.name} does not answer`);
    },
  };
}

/** Conversion events as metrics: speed of synthesize steps, voice and encoding errors. */
export function conversionMetricsHook(metrics: Metrics): { onJobEvent: (event: JobEvent) => void } {
  return {
    onJobEvent(event) {
      if (event.kind === 'step_completed' && event.step === 'synthesize') {
        metrics.observeConversion(event.provider, Number(event.metadata.duration_seconds ?? 0), event.wallSeconds);
      } else if (event.kind === 'step_failed') {
        metrics.observeStepError(event.step, event.provider, event.error);
      }
    },
  };
}
