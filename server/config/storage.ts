import path from 'node:path';
import { flag, httpUrl, integer, section, text } from './declare';
import { dataDirOf } from './core';

const S3_URL = /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9._/-]*)?$/;

/** Where files live (a directory, or an S3-compatible store) and how long media links last. */
export const storageSection = section({
  title: 'Storage',
  variables: {
    storageDir: text(
      'STORAGE_DIR',
      { shown: 'DATA_DIR/files' },
      'Directory for uploaded files, job sources and generated audio (when STORAGE_URL is unset).',
    ),
    storageUrl: text(
      'STORAGE_URL',
      {
        shown: '(unset: STORAGE_DIR)',
        check: (url) =>
          S3_URL.test(url) && !url.includes('..')
            ? undefined
            : `STORAGE_URL must look like s3://bucket or s3://bucket/prefix with a valid bucket name (got one starting with ${JSON.stringify(url.slice(0, 5))})`,
      },
      "s3://bucket/prefix: keep files in an S3-compatible object store (AWS S3, MinIO, R2, Garage) instead of STORAGE_DIR. Credentials come from the AWS SDK's standard chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, instance or task roles).",
    ),
    s3Endpoint: httpUrl(
      'S3_ENDPOINT',
      '(AWS S3)',
      'http(s) URL of an S3-compatible store (MinIO, R2, Garage); unset for AWS S3.',
    ),
    s3Region: text(
      'S3_REGION',
      { shown: '(SDK default, else us-east-1)' },
      "The store's region (AWS_REGION also works; R2 uses 'auto').",
    ),
    s3ForcePathStyle: flag(
      'S3_FORCE_PATH_STYLE',
      { default: false },
      "'true' addresses objects as endpoint/bucket/key (MinIO and most self-hosted stores) instead of bucket.endpoint/key.",
    ),
    s3Presign: flag(
      'S3_PRESIGN',
      { default: false },
      "'true' redirects signed media links to the store's presigned GET URLs (players then fetch, with Range, from the store directly, until the link's own expiry); 'false' streams the bytes through this server with Range passthrough.",
    ),
    storageMinFreeBytes: integer(
      'STORAGE_MIN_FREE_BYTES',
      { min: 0, max: 1_099_511_627_776, default: 104_857_600 },
      'Free space (bytes) the storage directory\'s disk must keep (0-1099511627776; default 100 MB; 0 turns the check off). Below it /readyz answers 503 "storage full" and new uploads and jobs get 507 until space is freed; a job that failed on a full disk completes when retried afterwards. Not checked for STORAGE_URL stores.',
    ),
    /** Lifetime of a signed media (audio) URL in seconds. */
    mediaUrlTtlSeconds: integer(
      'MEDIA_URL_TTL_SECONDS',
      { min: 60, max: 86_400, default: 3600 },
      'How long a signed audio streaming URL stays valid, in seconds (60-86400).',
    ),
  },
  rawOnly: ['storageDir', 'storageUrl', 's3Endpoint', 's3Region', 's3ForcePathStyle', 's3Presign'],
  derive: (vars, all) => {
    const dataDir = dataDirOf(all.DATA_DIR as string | undefined);
    const location = vars.storageUrl?.slice('s3://'.length).split('/') ?? [];
    const region = vars.s3Region ?? (all.AWS_REGION as string | undefined);
    return {
      /** Root of stored files (uploads, sources, audio) when no object store is configured. */
      storageDir: vars.storageDir !== undefined ? path.resolve(vars.storageDir) : path.join(dataDir, 'files'),
      /** Object storage instead of STORAGE_DIR: `s3://bucket/prefix` and how to reach the store. */
      s3:
        vars.storageUrl === undefined
          ? undefined
          : {
              bucket: location[0]!,
              prefix: location
                .slice(1)
                .filter((part) => part !== '')
                .join('/'),
              endpoint: vars.s3Endpoint,
              region,
              forcePathStyle: vars.s3ForcePathStyle,
              presign: vars.s3Presign,
            },
    };
  },
});
