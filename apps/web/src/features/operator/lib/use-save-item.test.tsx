import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../../shared/ui/toast/notify';
import { createTestI18n } from '../../../test/i18n-resources';
import { useSaveItem, type SaveItemOptions } from './use-save-item';

vi.mock('../../../shared/ui/toast/notify', () => ({ notify: vi.fn() }));

interface Values {
  title: string;
  body: string;
}

const i18n = createTestI18n('en', 'operator');
const wrapper = ({ children }: { children: ReactNode }) => (
  <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
);

function setUp(save: () => Promise<unknown>, refused?: (error: unknown) => boolean) {
  const options = {
    save: vi.fn(save),
    savedText: (values: Values) => `Saved ${values.title}`,
    onSaved: vi.fn(),
    form: { fields: ['title', 'body'] as const, setError: vi.fn(), setFocus: vi.fn() },
    refused,
  } satisfies SaveItemOptions<Values, Values>;
  const hook = renderHook(() => useSaveItem(options), { wrapper });
  return { options, hook };
}

const values = { title: 'Hello', body: 'Text' };

describe('the submit of an add/edit dialog', () => {
  beforeEach(() => vi.mocked(notify).mockClear());

  it('saves, says so and closes', async () => {
    const { options, hook } = setUp(() => Promise.resolve({}));
    await act(() => hook.result.current.submit(values));
    expect(options.save).toHaveBeenCalledWith(values);
    expect(notify).toHaveBeenCalledWith('success', 'Saved Hello');
    expect(options.onSaved).toHaveBeenCalledOnce();
    expect(hook.result.current.failure).toBeNull();
  });

  it('puts the field refusals on their fields, the focus on the first in form order', async () => {
    const { options, hook } = setUp(() =>
      Promise.reject({
        status: 422,
        code: 'VALIDATION',
        message: 'The given data was invalid',
        errors: { body: ['Too short'], title: ['Taken'] },
      }),
    );
    await act(() => hook.result.current.submit(values));
    expect(options.form.setError).toHaveBeenCalledWith('title', {
      type: 'server',
      message: 'Taken',
    });
    expect(options.form.setError).toHaveBeenCalledWith('body', {
      type: 'server',
      message: 'Too short',
    });
    expect(options.form.setFocus).toHaveBeenCalledWith('title');
    expect(hook.result.current.failure).toBeNull();
    expect(options.onSaved).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
  });

  it('shows any other refusal above the buttons, and clears it on the next submit', async () => {
    let answer: Promise<unknown> = Promise.reject({
      status: 409,
      code: 'SOMETHING_ODD',
      message: 'A text only the server knows.',
    });
    const { options, hook } = setUp(() => answer);
    await act(() => hook.result.current.submit(values));
    expect(hook.result.current.failure).toBe('A text only the server knows.');
    expect(options.onSaved).not.toHaveBeenCalled();

    answer = Promise.resolve({});
    await act(() => hook.result.current.submit(values));
    expect(hook.result.current.failure).toBeNull();
    expect(options.onSaved).toHaveBeenCalledOnce();
  });

  it('lets the dialog place a refusal of its own first', async () => {
    const refusal = { status: 409, code: 'FAQ_SLUG_TAKEN', message: 'Taken' };
    const refused = vi.fn((error: unknown) => error === refusal);
    const { options, hook } = setUp(() => Promise.reject(refusal), refused);
    await act(() => hook.result.current.submit(values));
    expect(refused).toHaveBeenCalledWith(refusal);
    expect(hook.result.current.failure).toBeNull();
    expect(options.form.setError).not.toHaveBeenCalled();
  });
});
