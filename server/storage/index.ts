import type { Config } from '../config';
import { LocalFileStorage } from './local';
import { S3FileStorage } from './s3';
import type { FileStorage } from './types';

export * from './types';
export { LocalFileStorage } from './local';

/** The configured store: S3-compatible with STORAGE_URL, else the local directory STORAGE_DIR. */
export function openStorage(config: Pick<Config, 's3' | 'storageDir'>): FileStorage {
  if (config.s3 === undefined) return new LocalFileStorage(config.storageDir);
  const { bucket, prefix, endpoint, region, forcePathStyle, presign } = config.s3;
  return new S3FileStorage({
    bucket,
    prefix,
    forcePathStyle,
    presign,
    ...(endpoint !== undefined && { endpoint }),
    ...(region !== undefined && { region }),
  });
}
