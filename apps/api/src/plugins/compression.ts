import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import fp from 'fastify-plugin';

/** API answers smaller than this go as they are: compressing them saves less than a packet. */
export const API_COMPRESS_THRESHOLD = 1024;

/**
 * Compresses the API's answers of API_COMPRESS_THRESHOLD bytes and more, brotli or gzip by the
 * request's Accept-Encoding (with `Vary: Accept-Encoding`), identity when neither is accepted.
 * Brotli runs at quality 4, which is about gzip's CPU for smaller output. Only types mime-db calls
 * compressible: JSON, HTML, CSV, text; never images, PDFs, WebP avatars or attachments (already
 * compressed), nor `text/event-stream`, which is sent as it is written. Requests are not
 * decompressed (the body limit stays the limit of what arrives).
 *
 * Register it in the /api scope only: the console's files are compressed once, at build time
 * (apps/web/build/precompress.ts), and served as they are (plugins/web-console.ts).
 */
export const apiCompressionPlugin = fp(
  async (app) => {
    await app.register(compress, {
      encodings: ['br', 'gzip'],
      threshold: API_COMPRESS_THRESHOLD,
      globalDecompression: false,
      brotliOptions: {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: 4,
        },
      },
      zlibOptions: { level: 6 },
    });
  },
  { name: 'tradehost-api-compression' },
);
