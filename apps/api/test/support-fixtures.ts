import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ApiResponse, Json, TestApp } from './helpers.ts';

/** What the support tests share: forms sent as a browser sends them, small files made at run time. */

export const TICKETS = '/api/user/support/tickets';
export const ADMIN_TICKETS = '/api/admin/support/tickets';

export interface FormFile {
  bytes: Buffer | Uint8Array;
  name: string;
  /** What the browser declares (the API never believes it). */
  type?: string;
}

async function answer(response: Response): Promise<ApiResponse> {
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('application/json');
  return {
    status: response.status,
    body: json ? (JSON.parse(text) as Json) : text,
    text,
    headers: response.headers,
  };
}

/** A multipart/form-data POST with text fields and `files` parts, as the console's form sends it. */
export async function postForm(
  t: TestApp,
  path: string,
  token: string,
  fields: Record<string, string>,
  files: FormFile[] = [],
): Promise<ApiResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files)
    form.append(
      'files',
      new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  return answer(
    await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    }),
  );
}

/** A GET of a file: the raw bytes and the headers. */
export async function download(t: TestApp, path: string, token: string) {
  const response = await fetch(`${t.url}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** The seeded department with `code` (technical, billing, partnership, monitoring). */
export async function departmentId(t: TestApp, code: string): Promise<number> {
  const { rows } = await t.sql.query<{ id: number }>(
    'select id from support_departments where code = $1',
    [code],
  );
  return rows[0]!.id;
}

/** A department of the test's own (so nobody else's tickets or operators are in it). */
export async function ownDepartment(t: TestApp, name = 'Test desk'): Promise<number> {
  const { rows } = await t.sql.query<{ id: number }>(
    `insert into support_departments (name_en, name_ru, position) values ($1, $2, 50) returning id`,
    [name, `${name} (ru)`],
  );
  return rows[0]!.id;
}

/** Opens a ticket through the API (201 expected). */
export async function openTicket(
  t: TestApp,
  token: string,
  department: number,
  fields: { title?: string; text?: string } = {},
  files: FormFile[] = [],
): Promise<Json> {
  const res = await postForm(
    t,
    TICKETS,
    token,
    {
      department_id: String(department),
      title: fields.title ?? 'The server does not start',
      text: fields.text ?? 'It stays in Starting for an hour.',
    },
    files,
  );
  if (res.status !== 201) throw new Error(`opening a ticket failed: ${res.status} ${res.text}`);
  return res.body.ticket;
}

// ---- files ---------------------------------------------------------------------------------------

const solid = (width: number, height: number, background = '#2a6fd6') =>
  sharp({ create: { width, height, channels: 3, background } });

export const pngOf = (width = 40, height = 30) => solid(width, height).png().toBuffer();
export const jpegOf = (width = 40, height = 30) =>
  solid(width, height)
    .jpeg()
    .withExif({ IFD0: { Copyright: 'exif-secret-42' } })
    .toBuffer();
export const gifOf = (width = 32, height = 32) => solid(width, height).gif().toBuffer();

export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);
export const HTML_PAGE = Buffer.from(
  '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
);
export const SVG_IMAGE = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><rect width="64" height="64"/></svg>',
);
export const SCRIPT = '<script>alert(document.cookie)</script>';

/** The files the app stored for tickets (originals and previews). */
export function storedSupportFiles(t: TestApp): string[] {
  const dir = join(t.config.dataDir, 'files', 'support');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** The number of rows of `table` (the tests' check that a refusal wrote nothing). */
export async function rowsOf(t: TestApp, table: string, where = 'true', params: unknown[] = []) {
  const { rows } = await t.sql.query<{ n: string }>(
    `select count(*) as n from ${table} where ${where}`,
    params,
  );
  return Number(rows[0]!.n);
}
