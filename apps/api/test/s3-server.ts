import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** An S3-compatible server on loopback for the tests, with one empty bucket. */
export interface TestS3 {
  endpoint: string;
  region: string;
  bucket: string;
  /** s3rver's one account (it checks the key id; it does not verify V4 signatures). */
  accessKeyId: string;
  secretAccessKey: string;
  /** Stops the server and removes its files. */
  close(): Promise<void>;
}

/** Starts s3rver on a free loopback port over a temporary directory. */
export async function startTestS3(bucket = 'tradehost-test'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'th-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  try {
    const { port } = await server.run();
    return {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      async close() {
        await server.close();
        await rm(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
