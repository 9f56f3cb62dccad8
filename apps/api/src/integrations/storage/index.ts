import { join } from 'node:path';
import type { Config } from '../../config.ts';
import { createLocalDiskStorage } from './local-disk.ts';
import type { Storage } from './port.ts';
import { createS3Storage } from './s3.ts';

export * from './port.ts';

/** The storage the configuration names: the S3 bucket with S3_BUCKET, else DATA_DIR/files. */
export function createStorage(config: Config): Storage {
  if (config.s3) return createS3Storage(config.s3);
  return createLocalDiskStorage(join(config.dataDir, 'files'));
}
