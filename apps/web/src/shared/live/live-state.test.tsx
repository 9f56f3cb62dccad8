import { act, renderHook } from '@testing-library/react';
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
