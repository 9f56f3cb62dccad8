import { act, screen, waitFor } from '@testing-library/react';
import { PUBLISHER_SILENT_AFTER_MS } from '@tradehost/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedInPage } from '../../../test/render';
import { TerminalState } from './terminal-state';

const NOW = new Date('2026-11-28T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

async function show(
  lastDataAt: string,
  connected: boolean,
  { full = false, language = 'en' as 'en' | 'ru' } = {},
) {
  const view = renderSignedInPage(
    [
      {
        path: '/',
        element: <TerminalState lastDataAt={lastDataAt} connected={connected} full={full} />,
      },
    ],
    '/',
    'token',
    { language },
  );
  const state = await waitFor(() => {
    const found = view.container.querySelector<HTMLElement>('[data-state]');
    expect(found).not.toBeNull();
    return found!;
  });
  const dot = () => state.querySelector('[aria-hidden="true"]') as HTMLElement;
  return { state, on: () => dot().className.includes('dotOn') };
}

describe('the terminal\'s "live" dot', () => {
  afterEach(() => vi.useRealTimers());

  it('is live while the publisher reports and the terminal is connected', async () => {
    vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true });
    const { state, on } = await show(ago(60_000), true, { full: true });
    expect(on()).toBe(true);
    expect(state).toHaveTextContent(/^Terminal connected, last data /);
  });

  it('is off when the terminal is disconnected, the publisher reporting', async () => {
    vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true });
    const { state, on } = await show(ago(60_000), false);
    expect(on()).toBe(false);
    expect(state).toHaveTextContent('terminal disconnected');
  });

  it("is off for a silent publisher even with its last data's terminal connected, and says since when", async () => {
    vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true });
    const { state, on } = await show(ago(PUBLISHER_SILENT_AFTER_MS + 60_000), true, {
      full: true,
    });
    expect(on()).toBe(false);
    expect(state).toHaveTextContent(/^No data since /);
    expect(state).not.toHaveTextContent('connected');
  });

  it('says so in Russian, in the list too', async () => {
    vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true });
    const { state, on } = await show(ago(3_600_000), true, { language: 'ru' });
    expect(on()).toBe(false);
    expect(state).toHaveTextContent(/^Нет данных с /);
  });

  it('goes off by itself when the data turns old, with nothing new arriving', async () => {
    vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true });
    const { state, on } = await show(ago(PUBLISHER_SILENT_AFTER_MS - 60_000), true, {
      full: true,
    });
    expect(on()).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(2 * 60_000));
    expect(on()).toBe(false);
    expect(state).toHaveTextContent(/^No data since /);
    expect(screen.queryByText(/Terminal connected/)).toBeNull();
  });
});
