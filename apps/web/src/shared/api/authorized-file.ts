import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import type { ApiRequestError } from '../lib/api-error';
import { fileNameOf, saveFile } from '../lib/save-file';
import { baseApi, SILENT } from './base-api';

/**
 * Files the API serves only with the bearer token (a support ticket's attachments and their
 * previews): an <img src> or a plain link would go without it. They are fetched through the base
 * query (the token, its refresh) as Blobs: a preview is kept as an object URL while something
 * shows it (released a minute after the last one has gone), a download is handed to the browser.
 * Paths are under /api, e.g. `/admin/support/attachments/7/preview`.
 */

/** The file as a Blob; a failure's body as JSON (the API's error) or text. */
async function blobOrError(response: Response): Promise<unknown> {
  if (response.ok) return response.blob();
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export interface AuthorizedDownloadArgs {
  /** The file's path under /api. */
  path: string;
  /** The name to save it under when the answer names none. */
  fileName: string;
}

export const authorizedFileApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** An object URL of the file at `path` (an image's preview), released with its cache entry. */
    authorizedFileUrl: build.query<string, string>({
      async queryFn(path, _api, _extraOptions, baseQuery) {
        const result = await baseQuery({ url: path, responseHandler: blobOrError });
        if (result.error) return { error: result.error as ApiRequestError };
        return { data: URL.createObjectURL(result.data as Blob) };
      },
      async onCacheEntryAdded(_path, { cacheDataLoaded, cacheEntryRemoved }) {
        let url: string;
        try {
          url = (await cacheDataLoaded).data;
        } catch {
          return; // removed before it loaded, or it failed: nothing to release
        }
        await cacheEntryRemoved;
        URL.revokeObjectURL(url);
      },
      extraOptions: SILENT,
    }),

    /** Saves the file at `path` under the answer's name (Content-Disposition), else `fileName`. */
    downloadAuthorizedFile: build.mutation<{ fileName: string }, AuthorizedDownloadArgs>({
      async queryFn({ path, fileName }, _api, _extraOptions, baseQuery) {
        const result = await baseQuery({ url: path, responseHandler: blobOrError });
        if (result.error) return { error: result.error as ApiRequestError };
        const meta = result.meta as FetchBaseQueryMeta | undefined;
        const name = fileNameOf(meta?.response?.headers.get('content-disposition')) ?? fileName;
        saveFile(result.data as Blob, name);
        return { data: { fileName: name } };
      },
      extraOptions: SILENT,
    }),
  }),
});

export const { useAuthorizedFileUrlQuery, useDownloadAuthorizedFileMutation } = authorizedFileApi;
