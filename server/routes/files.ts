import multipart from '@fastify/multipart';
import { DeleteFileParams, UploadFileResponse } from '../gen/contract.zod';
import { requireUser } from '../http/auth-guard';
import { HttpError } from '../http/errors';
import { handleNul, validationError } from '../http/zod';
import { DEFAULT_MAX_UPLOAD_BYTES } from '../ingest/text-file';
import type { JobService } from '../jobs/service';
import type { RoutePlugin } from './types';

const MULTIPART_HINT = 'send the file as multipart/form-data in a field named "file"';

/** POST /files: one .txt file in the multipart field `file`, at most 10 MB. DELETE /files/{fileKey}: the owner removes it. */
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
    if (part === undefined || part.fieldname !== 'file' || part.filename === undefined || part.filename === '') {
      throw new HttpError(422, 'File is required: send it in a multipart field named "file"');
    }
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (error) {
      throw uploadError(error);
    }
    if (bytes.byteLength > DEFAULT_MAX_UPLOAD_BYTES) throw new HttpError(413, 'The file is larger than 10 MB');
    return reply.code(201).send(await jobs.upload(user.id, part.filename, bytes));
  });

  // Keys hold slashes (uploads/<uuid>.txt), so the route takes the rest of the path.
  app.delete('/files/*', async (request, reply) => {
    const user = requireUser(request);
    const params = handleNul({ fileKey: (request.params as { '*'?: string })['*'] ?? '' }, 'params');
    const parsed = DeleteFileParams.safeParse(params);
    if (!parsed.success) throw validationError(parsed.error, params, 'params');
    await jobs.removeUpload(user.id, parsed.data.fileKey);
    return reply.code(204).send();
  });
};

function uploadError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new HttpError(413, 'The file is larger than 10 MB');
  if (code === 'FST_FILES_LIMIT') return new HttpError(413, 'Send one file at a time');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new HttpError(415, 'Send the file as multipart/form-data in a field named "file"');
  }
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new HttpError(413, `Too many form fields; ${MULTIPART_HINT}`);
  if (code === 'FST_MP_PREMATURE_CLOSE')
    return new HttpError(400, `The upload was cut off before its end; ${MULTIPART_HINT}`);
  // The multipart parser's own errors (busboy): no boundary, a body cut off mid-part, bad headers.
  const message = error instanceof Error ? error.message : '';
  if (/boundary/i.test(message)) {
    return new HttpError(
      400,
      `The multipart body has no boundary (Content-Type must be multipart/form-data; boundary=...); ${MULTIPART_HINT}`,
    );
  }
  if (/unexpected end|terminated early|malformed|multipart/i.test(message)) {
    return new HttpError(400, `The multipart body is malformed or cut off (${message}); ${MULTIPART_HINT}`);
  }
  return error;
}
