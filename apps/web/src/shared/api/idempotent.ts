/** A money-moving call: its body and the Idempotency-Key of its intent (shared/lib/form-intent). */
export interface Idempotent<T> {
  body: T;
  idempotencyKey: string;
}

/** The query of a money-moving POST to `url`: the body, and the key in its header. */
export const idempotentPost =
  <T>(url: string) =>
  ({ body, idempotencyKey }: Idempotent<T>) => ({
    url,
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
