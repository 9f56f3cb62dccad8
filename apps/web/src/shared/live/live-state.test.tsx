import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLiveState, useFallbackPolling, useLiveConnected } from './live-state';

describe('polling while the live updates are down', () => {
  afterEach(() => setLiveState('down'));

  it('polls at the given period while down or connecting, not while the stream is open', () => {
    const { result } = renderHook(() => ({
      poll: useFallbackPolling(10_000),
      live: useLiveConnected(),
    }));
    expect(result.current).toEqual({ poll: 10_000, live: false });
    act(() => setLiveState('open'));
    expect(result.current).toEqual({ poll: 0, live: true });
    act(() => setLiveState('down'));
    expect(result.current).toEqual({ poll: 10_000, live: false });
    act(() => setLiveState('connecting'));
    expect(result.current.poll).toBe(10_000);
  });
});

describe('a change of the live state', () => {
  afterEach(() => setLiveState('down'));

  it('re-renders its readers as a transition, after the task that saw it', async () => {
    const renders: boolean[] = [];
    renderHook(() => {
      const live = useLiveConnected();
      renders.push(live);
      return live;
    });
    expect(renders.at(-1)).toBe(false);
    // outside act, as the stream's fetch callback runs: an urgent (synchronous-lane) render
    // would have happened by the end of the microtasks; a transition waits for React's scheduler
    setLiveState('open');
    await Promise.resolve();
    await Promise.resolve();
    expect(renders.at(-1)).toBe(false);
    await waitFor(() => expect(renders.at(-1)).toBe(true));
  });

  it('reads a change made between the first render and its subscription', () => {
    const { result } = renderHook(() => {
      const live = useLiveConnected();
      // the first render's effect has not subscribed yet when the state changes
      if (!live) setLiveState('open');
      return live;
    });
    expect(result.current).toBe(true);
  });
});
