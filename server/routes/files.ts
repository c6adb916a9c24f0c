import multipart from '@fastify/multipart';
import { UploadFileResponse } from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import { HttpError } from '../http/errors';
import { DEFAULT_MAX_UPLOAD_BYTES } from '../ingest/text-file';
import { isIngestError } from '../ingest/errors';
import type { JobService } from '../jobs/service';
import type { RoutePlugin } from './types';

/** POST /files: one .txt file in the multipart field `file`, at most 10 MB. */
export const fileRoutes: RoutePlugin<{ jobs: JobService }> = async (app, { jobs }) => {
  // One byte over the limit is read so an oversize file is told apart from one of exactly 10 MB.
  await app.register(multipart, { limits: { fileSize: DEFAULT_MAX_UPLOAD_BYTES + 1, files: 1, fields: 10 } });

  app.post('/files', { schema: { response: { 201: UploadFileResponse } } }, async (request, reply) => {
    const user = requireUser(request);
    if (!request.isMultipart()) {
      throw new HttpError(415, 'Send the file as multipart/form-data in a field named "file"');
    }
    let part;
    try {
      part = await request.file();
    } catch (error) {
      throw uploadError(error);
    }
    if (part === undefined || part.fieldname !== 'file') {
      throw new HttpError(422, 'File is required: send it in a multipart field named "file"');
    }
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (error) {
      throw uploadError(error);
    }
    if (bytes.byteLength > DEFAULT_MAX_UPLOAD_BYTES) throw new HttpError(413, 'The file is larger than 10 MB');
    try {
      return reply.code(201).send(await jobs.upload(user.id, part.filename, bytes));
    } catch (error) {
      if (isIngestError(error)) throw new HttpError(error.status, error.message);
      throw error;
    }
  });
};

function uploadError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new HttpError(413, 'The file is larger than 10 MB');
  if (code === 'FST_FILES_LIMIT') return new HttpError(413, 'Send one file at a time');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new HttpError(415, 'Send the file as multipart/form-data in a field named "file"');
  }
  return error;
}
