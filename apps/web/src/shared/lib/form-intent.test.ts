import { describe, expect, it } from 'vitest';
import { FormIntent } from './form-intent';

const network = { status: 0, code: 'NETWORK', message: 'Failed to fetch' };
const inProgress = { status: 409, code: 'IDEMPOTENCY_KEY_IN_PROGRESS', message: '…' };
const unavailable = { status: 503, code: 'TRANSFER_FAILED', message: '…' };
const refused = { status: 422, code: 'INSUFFICIENT_FUNDS_TRANSFER', message: '…' };

describe('FormIntent', () => {
  const body = { email: 'bob@example.com', amount: '20.00' };

  it('keeps the key while a retry of the same payload is possible', () => {
    const intent = new FormIntent();
    const key = intent.keyFor(body);
    intent.failed(network);
    expect(intent.keyFor({ ...body })).toBe(key);
    intent.failed(inProgress);
    expect(intent.keyFor(body)).toBe(key);
    intent.failed(unavailable);
    expect(intent.keyFor(body)).toBe(key);
  });

  it('takes a new key after a success or a definitive refusal', () => {
    const intent = new FormIntent();
    const first = intent.keyFor(body);
    intent.succeeded();
    const second = intent.keyFor(body);
    expect(second).not.toBe(first);
    intent.failed(refused);
    expect(intent.keyFor(body)).not.toBe(second);
  });

  it('takes a new key when the payload changes', () => {
    const intent = new FormIntent();
    const first = intent.keyFor(body);
    intent.failed(network);
    expect(intent.keyFor({ ...body, amount: '21.00' })).not.toBe(first);
  });

  it('sends nothing for a second start while the first has no answer', () => {
    const intent = new FormIntent();
    const key = intent.start(body);
    expect(key).toBeTruthy();
    expect(intent.start(body)).toBeNull();
    intent.failed(network);
    expect(intent.start(body)).toBe(key);
    intent.succeeded();
    const next = intent.start(body);
    expect(next).toBeTruthy();
    expect(next).not.toBe(key);
  });
});
