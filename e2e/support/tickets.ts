import { expect, type APIRequestContext, type Locator } from '@playwright/test';
import sharp from 'sharp';
import { ApiSession } from './money.ts';

/**
 * Support tickets made and answered through the API, for the journeys that start from a ticket
 * that already has a thread (the accessibility checks). The access tokens of the journeys live
 * 8 seconds: every helper signs in for itself (an operator refreshes one sign-in, operators.ts).
 */

/** A PNG "screenshot" of `width` × `height`, generated (a real image, decoded by the API). */
export function screenshotPng(width = 640, height = 360): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: '#2a6fd6' },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><rect x="40" y="40" width="${width / 2}" height="${height / 3}" fill="#f5f7fa"/></svg>`,
        ),
      },
    ])
    .png()
    .toBuffer();
}

async function tokenOf(request: APIRequestContext, email: string): Promise<string> {
  return new ApiSession(request, email).bearer();
}

/** The id of the department with `code` (technical, billing, partnership, monitoring). */
export async function departmentId(
  request: APIRequestContext,
  email: string,
  code: string,
): Promise<number> {
  const res = await request.get('/api/user/support/departments', {
    headers: { authorization: `Bearer ${await tokenOf(request, email)}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { data } = (await res.json()) as { data: { id: number; code: string | null }[] };
  const found = data.find((department) => department.code === code);
  expect(found, `the ${code} department`).toBeDefined();
  return found!.id;
}

/** A ticket opened by `email` with a screenshot; its id. */
export async function openTicketByApi(
  request: APIRequestContext,
  email: string,
  fields: { department: string; title: string; text: string },
): Promise<number> {
  const department = await departmentId(request, email, fields.department);
  const form = new FormData();
  form.append('department_id', String(department));
  form.append('title', fields.title);
  form.append('text', fields.text);
  form.append(
    'files',
    new File([new Uint8Array(await screenshotPng())], 'screenshot.png', { type: 'image/png' }),
  );
  const res = await request.post('/api/user/support/tickets', {
    headers: { authorization: `Bearer ${await tokenOf(request, email)}` },
    multipart: form,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { ticket: { id: number } }).ticket.id;
}

/** An operator's reply in the help desk, through the admin API (a reply sets Processing). */
export async function answerByApi(
  request: APIRequestContext,
  operatorEmail: string,
  ticketId: number,
  text: string,
): Promise<void> {
  const form = new FormData();
  form.append('text', text);
  form.append('internal', 'false');
  const res = await request.post(`/api/admin/support/tickets/${ticketId}/messages`, {
    headers: { authorization: `Bearer ${await tokenOf(request, operatorEmail)}` },
    multipart: form,
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** Whether an <img> has loaded a picture (not a broken image). */
export const imageLoaded = (image: Locator) =>
  image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
