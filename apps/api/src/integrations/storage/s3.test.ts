import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../../../test/s3-server.ts';
import { loadConfig } from '../../config.ts';
import { createStorage } from './index.ts';
import type { Storage } from './port.ts';
import { createS3Storage, type S3StorageOptions } from './s3.ts';
import { describeStorageContract } from './storage-contract.ts';

let s3: TestS3;
/** A client of its own, to see the bucket around the driver. */
let raw: S3Client;
const temp = mkdtempSync(join(tmpdir(), 'th-s3-test-'));

beforeAll(async () => {
  s3 = await startTestS3('files');
  raw = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  for (const bucket of ['prefixed', 'shared', 'picked'])
    await raw.send(new CreateBucketCommand({ Bucket: bucket }));
});
afterAll(async () => {
  raw?.destroy();
  await s3?.close();
  rmSync(temp, { recursive: true, force: true });
});

const optionsFor = (bucket: string, extra: Partial<S3StorageOptions> = {}): S3StorageOptions => ({
  endpoint: s3.endpoint,
  region: s3.region,
  bucket,
  accessKeyId: s3.accessKeyId,
  secretAccessKey: s3.secretAccessKey,
  ...extra,
});

async function objectKeys(bucket: string): Promise<string[]> {
  const { Contents = [] } = await raw.send(new ListObjectsV2Command({ Bucket: bucket }));
  return Contents.map((object) => object.Key!);
}

async function objectOf(bucket: string, key: string) {
  const object = await raw.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return {
    contentType: object.ContentType,
    text: Buffer.from(await object.Body!.transformToByteArray()).toString(),
  };
}

let plain: Storage;
let prefixed: Storage;
beforeAll(() => {
  plain = createS3Storage(optionsFor('files'));
  prefixed = createS3Storage(optionsFor('prefixed', { prefix: 'tradehost/files' }));
});

describeStorageContract('the S3 storage', {
  storage: () => plain,
  storedKeys: () => objectKeys('files'),
  async afterDelete() {
    await expect(
      raw.send(new GetObjectCommand({ Bucket: 'files', Key: 'avatars/a1.webp' })),
    ).rejects.toMatchObject({ name: 'NoSuchKey' });
  },
});

describeStorageContract('the S3 storage under a key prefix', {
  storage: () => prefixed,
  // keys under the prefix as the driver names them; any object outside it shows as such
  storedKeys: async () =>
    (await objectKeys('prefixed')).map((key) =>
      key.startsWith('tradehost/files/')
        ? key.slice('tradehost/files/'.length)
        : `outside the prefix: ${key}`,
    ),
});

describe('the S3 storage driver', () => {
  it('stores the content type with the object, under the prefix when one is set', async () => {
    await plain.put('avatars/t.webp', Buffer.from('webp'), 'image/webp');
    expect(await objectOf('files', 'avatars/t.webp')).toEqual({
      contentType: 'image/webp',
      text: 'webp',
    });
    await prefixed.put('attachments/t.pdf', Buffer.from('%PDF-'), 'application/pdf');
    expect(await objectOf('prefixed', 'tradehost/files/attachments/t.pdf')).toEqual({
      contentType: 'application/pdf',
      text: '%PDF-',
    });
    await plain.delete('avatars/t.webp');
    await prefixed.delete('attachments/t.pdf');
  });

  it('shares a bucket under different prefixes without one seeing the other', async () => {
    const a = createS3Storage(optionsFor('shared', { prefix: 'a' }));
    const b = createS3Storage(optionsFor('shared', { prefix: '/b/' }));
    await raw.send(new PutObjectCommand({ Bucket: 'shared', Key: 'x.png', Body: 'theirs' }));
    await a.put('x.png', Buffer.from('of a'), 'image/png');
    expect(await b.get('x.png')).toBeNull();
    await b.put('x.png', Buffer.from('of b'), 'image/png');
    expect((await a.get('x.png'))?.toString()).toBe('of a');
    expect((await b.get('x.png'))?.toString()).toBe('of b');
    await a.delete('x.png');
    expect((await objectKeys('shared')).sort()).toEqual(['b/x.png', 'x.png']);
  });

  it('refuses a prefix that is not made of key segments', () => {
    for (const prefix of ['..', 'a/../b', 'a//b', 'a b', 'a\\b'])
      expect(() => createS3Storage(optionsFor('files', { prefix })), prefix).toThrow(
        /not a storage key prefix/,
      );
  });

  it('reports a missing bucket or a refused key as an error, never as a missing file', async () => {
    for (const storage of [
      createS3Storage(optionsFor('no-such-bucket')),
      createS3Storage(optionsFor('files', { accessKeyId: 'NOBODY' })),
    ]) {
      await expect(storage.get('avatars/x.webp')).rejects.toThrow();
      await expect(storage.put('avatars/x.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow();
      await expect(storage.delete('avatars/x.webp')).rejects.toThrow();
    }
    await expect(createS3Storage(optionsFor('no-such-bucket')).get('x')).rejects.toMatchObject({
      name: 'NoSuchBucket',
    });
    expect(await objectKeys('files')).toEqual([]);
  });
});

describe('createStorage', () => {
  it('uses the bucket S3_* names, and the local disk under DATA_DIR without S3_BUCKET', async () => {
    const env = { DATA_DIR: 'data', JWT_SECRET: 's'.repeat(32) };
    const inBucket = createStorage(
      loadConfig(
        {
          ...env,
          S3_ENDPOINT: s3.endpoint,
          S3_BUCKET: 'picked',
          S3_ACCESS_KEY_ID: s3.accessKeyId,
          S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
          S3_PREFIX: 'th',
        },
        temp,
      ),
    );
    await inBucket.put('avatars/c.webp', Buffer.from('in the bucket'), 'image/webp');
    expect(await objectOf('picked', 'th/avatars/c.webp')).toEqual({
      contentType: 'image/webp',
      text: 'in the bucket',
    });
    expect(existsSync(join(temp, 'data', 'files'))).toBe(false);

    const onDisk = createStorage(loadConfig(env, temp));
    await onDisk.put('avatars/c.webp', Buffer.from('on the disk'), 'image/webp');
    expect(readFileSync(join(temp, 'data', 'files', 'avatars', 'c.webp'), 'utf8')).toBe(
      'on the disk',
    );
    expect(await objectKeys('picked')).toEqual(['th/avatars/c.webp']);
  });
});
