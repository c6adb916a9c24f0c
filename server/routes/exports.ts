import { sendMedia } from '../audio/range';
import type { AuthService } from '../auth/service';
import type { ExportService, ExportView } from '../exports/service';
import {
  CancelAudioExportParams,
  GetAudioDownloadParams,
  GetAudioDownloadQueryParams,
  ListAudioExportsParams,
  ListAudioExportsResponse,
  StartAudioExportBody,
  StartAudioExportParams,
  StartAudioExportResponse,
} from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import { absoluteUrl, type CrossOrigin } from '../http/cross-origin';
import { HttpError } from '../http/errors';
import type { FileStorage } from '../storage/types';
import type { RoutePlugin } from './types';

export const exportRoutes: RoutePlugin<{
  exports: ExportService;
  auth: Pick<AuthService, 'authenticate'>;
  storage: FileStorage;
  urls: Pick<CrossOrigin, 'publicUrl'>;
}> = async (app, { exports, auth, storage, urls }) => {
  const dto = (request: Parameters<typeof absoluteUrl>[0], v: ExportView) => ({
    format: v.format,
    status: v.status,
    progress: v.progress,
    filename: v.filename,
    size_bytes: v.sizeBytes,
    download_url: v.downloadPath === null ? null : absoluteUrl(request, urls, v.downloadPath),
    error_message: v.errorMessage,
    updated_at: v.updatedAt?.toISOString() ?? null,
  });

  app.get(
    '/audio/:jobId/exports',
    { schema: { params: ListAudioExportsParams, response: { 200: ListAudioExportsResponse } } },
    async (request) => {
      const views = await exports.list(requireUser(request).id, request.params.jobId);
      return { exports: views.map((v) => dto(request, v)) };
    },
  );

  app.post(
    '/audio/:jobId/exports',
    {
      schema: {
        params: StartAudioExportParams,
        body: StartAudioExportBody,
        response: { 202: StartAudioExportResponse },
      },
    },
    async (request, reply) => {
      const view = await exports.start(requireUser(request).id, request.params.jobId, request.body.format);
      return reply.code(202).send(dto(request, view));
    },
  );

  app.delete(
    '/audio/:jobId/exports/:format',
    { schema: { params: CancelAudioExportParams } },
    async (request, reply) => {
      await exports.cancel(requireUser(request).id, request.params.jobId, request.params.format);
      return reply.code(204).send();
    },
  );

  // The owner's bearer token, or a signed link (a browser download cannot send a token).
  app.get(
    '/audio/:jobId/download',
    { config: { public: true }, schema: { params: GetAudioDownloadParams, querystring: GetAudioDownloadQueryParams } },
    async (request, reply) => {
      const { format, expires, sig } = request.query;
      const header = request.headers.authorization;
      let who: Parameters<ExportService['download']>[0];
      if (header !== undefined && header.trim() !== '') {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
        if (match?.[1] === undefined) {
          throw new HttpError(401, "Invalid token: the Authorization header must be 'Bearer <token>'");
        }
        who = { userId: (await auth.authenticate(match[1])).id };
      } else {
        who = { expires: expires === undefined ? undefined : String(expires), sig };
      }
      const download = await exports.download(who, request.params.jobId, format);
      if (download.kind === 'building') {
        return reply
          .code(202)
          .header('retry-after', String(download.retryAfterSeconds))
          .header('cache-control', 'no-store')
          .send({ status: download.status, progress: download.progress });
      }
      void reply.header('content-disposition', download.disposition).header('x-content-type-options', 'nosniff');
      return sendMedia(reply, storage, download.key, request.headers.range, download.contentType);
    },
  );
};
