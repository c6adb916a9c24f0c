import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../auth/service';
import type { EnvironmentInfo } from '../environment/info';
import type { JobService } from '../jobs/service';
import { installAuthGuard } from '../http/auth-guard';
import type { ListeningService } from '../listening/service';
import type { TranscriptService } from '../listening/transcript';
import type { CoverService } from '../listening/covers';
import type { ProgressService } from '../progress/service';
import { allowsSocketOrigin, type CrossOrigin } from '../http/cross-origin';
import type { FileStorage } from '../storage/types';
import { audioRoutes } from './audio';
import { authRoutes, type AccountDeps, type AuthRateLimits } from './auth';
import { environmentRoutes } from './environment';
import { fileRoutes } from './files';
import { jobRoutes } from './jobs';
import { progressRoutes } from './progress';
import { transcriptRoutes } from './transcript';
import { voiceAssistantRoutes } from './voice-assistant';
import { voiceSocketRoutes } from './voice-socket';
import type { VoiceAssistant } from '../assistant/service';
import type { ListCache } from '../jobs/list-cache';
import type { Reconverter } from '../jobs/reconvert';
import type { PronunciationService } from '../pronunciations/service';
import type { VoiceCatalog } from '../voices/catalog';
import type { VoiceSamples } from '../voices/samples';
import { pronunciationRoutes } from './pronunciations';
import { voiceRoutes } from './voices';
import type { ExportService } from '../exports/service';
import type { MediaTagger } from '../exports/media-tags';
import type { FeedService } from '../feeds/service';
import { exportRoutes } from './exports';
import { feedRoutes } from './feeds';
import type { CastService } from '../cast/service';
import { castRoutes } from './cast';

export interface ApiDeps {
  auth: AuthService;
  authLimits: AuthRateLimits;
  /** Password changes and resets, preferences and account deletion (routes/auth.ts). */
  account: AccountDeps;
  /** The environment as it is now (whether the voice server answers changes). */
  environment: () => Promise<EnvironmentInfo>;
  storage: FileStorage;
  progress: ProgressService;
  listening: ListeningService;
  transcripts: TranscriptService;
  exports: ExportService;
  mediaTags: MediaTagger;
  feeds: FeedService;
  covers: CoverService;
  jobs: JobService;
  reconverter: Reconverter;
  voices: { catalog: VoiceCatalog; samples: VoiceSamples };
  pronunciations: PronunciationService;
  /** Full-cast books' casts and their corrections. */
  cast: CastService;
  voiceAssistant: VoiceAssistant;
  /** Where browsers reach us (PUBLIC_URL), for the absolute URLs in answers; which origins may open the voice socket. */
  urls: CrossOrigin;
  /** Check answers against the contract before sending them (dev and tests). */
  strictResponses: boolean;
  listCache: ListCache;
}

/** Everything under /api/v1. Every route here needs a bearer token unless marked `public: true`. */
export function apiRoutes(deps: ApiDeps) {
  return async (app: FastifyInstance) => {
    installAuthGuard(app, deps.auth);
    await app.register(environmentRoutes, { info: deps.environment });
    await app.register(authRoutes, {
      auth: deps.auth,
      limits: deps.authLimits,
      storageUse: (userId) => deps.jobs.storageUse(userId),
      account: deps.account,
    });
    await app.register(audioRoutes, {
      listening: deps.listening,
      storage: deps.storage,
      covers: deps.covers,
      urls: deps.urls,
      mediaTags: deps.mediaTags,
    });
    await app.register(transcriptRoutes, { transcripts: deps.transcripts });
    await app.register(castRoutes, { cast: deps.cast });
    await app.register(exportRoutes, {
      exports: deps.exports,
      auth: deps.auth,
      storage: deps.storage,
      urls: deps.urls,
    });
    await app.register(feedRoutes, { feeds: deps.feeds, urls: deps.urls });
    await app.register(progressRoutes, { progress: deps.progress });
    await app.register(voiceAssistantRoutes, { assistant: deps.voiceAssistant, urls: deps.urls });
    await app.register(voiceRoutes, { ...deps.voices, storage: deps.storage });
    await app.register(pronunciationRoutes, { pronunciations: deps.pronunciations });
    await app.register(voiceSocketRoutes, {
      assistant: deps.voiceAssistant,
      authenticate: (token) => deps.auth.authenticate(token),
      allowOrigin: (request) => allowsSocketOrigin(request.headers.origin, request.headers.host, deps.urls),
    });
    await app.register(jobRoutes, {
      jobs: deps.jobs,
      reconverter: deps.reconverter,
      strictResponses: deps.strictResponses,
      listCache: deps.listCache,
    });
    await app.register(fileRoutes, { jobs: deps.jobs });
  };
}
