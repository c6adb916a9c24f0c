import type { Config } from '../config';
import { LocalFileStorage } from './local';
import type { FileStorage } from './types';

export * from './types';
export { LocalFileStorage } from './local';

/**
 * The configured store: S3-compatible with STORAGE_URL, else the local directory STORAGE_DIR.
 * The S3 client (about 20 MB of memory) is loaded only when it is the one configured.
 */
export async function openStorage(config: Pick<Config, 's3' | 'storageDir'>): Promise<FileStorage> {
  if (config.s3 === undefined) return new LocalFileStorage(config.storageDir);
  const { S3FileStorage } = await import('./s3');
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
