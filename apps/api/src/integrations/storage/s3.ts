import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { assertStorageKey, isStorageKey, type Storage } from './port.ts';

export interface S3StorageOptions {
  /** The server's address, e.g. `https://s3.eu-central-1.amazonaws.com` or `http://minio:9000`. */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /**
   * `https://host/bucket/key` instead of `https://bucket.host/key`: what MinIO, Ceph and most
   * S3-compatible servers expect without a wildcard DNS name. Default true.
   */
  forcePathStyle?: boolean;
  /** Segments the keys are stored under (`tradehost/files`), so that a bucket can be shared. */
  prefix?: string;
}

/**
 * The error of a GET on a key the bucket does not hold. Only this one means "no such file": a
 * missing bucket, refused credentials or a bare 404 from something that is not the S3 server (a
 * proxy, a wrong endpoint) are configuration faults and must not make every file look missing.
 */
const isNoSuchKey = (error: unknown) => error instanceof Error && error.name === 'NoSuchKey';

/**
 * Files in an S3 bucket (AWS S3 or an S3-compatible server: MinIO, Ceph, ...), so that several
 * instances of the product share them. S3 reads its own writes, so a file put is readable at once
 * everywhere; a PUT stores the whole object or nothing.
 */
export function createS3Storage(options: S3StorageOptions): Storage {
  const prefix = options.prefix?.replace(/^\/+|\/+$/g, '') ?? '';
  if (prefix !== '' && !isStorageKey(prefix)) {
    throw new Error(`not a storage key prefix: ${JSON.stringify(options.prefix)}`);
  }
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle ?? true,
    credentials: {
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
    },
    // checksums only where the API requires them: S3-compatible servers differ in which of the
    // newer checksum headers they know, and TLS and the signature already protect the bytes
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // a server that stops answering fails the request instead of holding it forever
    requestHandler: { connectionTimeout: 10_000, socketTimeout: 60_000 },
  });
  const { bucket } = options;
  const objectKey = (key: string) => {
    assertStorageKey(key);
    return prefix === '' ? key : `${prefix}/${key}`;
  };

  return {
    async put(key, data, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          Body: data,
          ContentLength: data.length,
          ContentType: contentType,
        }),
      );
    },
    async get(key) {
      const Key = objectKey(key);
      try {
        const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key }));
        if (Body === undefined) return Buffer.alloc(0);
        const bytes = await Body.transformToByteArray();
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (error) {
        if (isNoSuchKey(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      // S3 answers 204 for a key it does not hold: deleting a missing file is no error
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },
  };
}
