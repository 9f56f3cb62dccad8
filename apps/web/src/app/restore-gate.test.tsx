import { act, render, screen } from '@testing-library/react';
import { Suspense, use } from 'react';
import { persistStore, type PersistorOptions } from 'redux-persist';
import { describe, expect, it } from 'vitest';
import { RestoreGate } from './restore-gate';
import { makeStore } from './store';

/** The session's restore as main.tsx starts it: held until `persist()`. */
function heldRestore() {
  const options: PersistorOptions & { manualPersist: true } = { manualPersist: true };
  return persistStore(makeStore(), options);
}

function renderGate(persistor: ReturnType<typeof heldRestore>) {
  render(
    <RestoreGate persistor={persistor} loading={<p>restoring</p>}>
      <p>console</p>
    </RestoreGate>,
  );
}

describe('RestoreGate', () => {
  it('shows its fallback until the session is restored, then the console', async () => {
    const persistor = heldRestore();
    renderGate(persistor);
    expect(screen.getByText('restoring')).toBeInTheDocument();
    expect(screen.queryByText('console')).toBeNull();
    await act(async () => persistor.persist());
    expect(await screen.findByText('console')).toBeInTheDocument();
    expect(screen.queryByText('restoring')).toBeNull();
  });

  it('shows the console at once when the session was restored before it rendered', async () => {
    const persistor = heldRestore();
    persistor.persist();
    await expect.poll(() => persistor.getState().bootstrapped).toBe(true);
    renderGate(persistor);
    expect(screen.getByText('console')).toBeInTheDocument();
    expect(screen.queryByText('restoring')).toBeNull();
  });

  it('lifts as a transition: its fallback stays while the console waits for its code', async () => {
    const persistor = heldRestore();
    let loaded!: () => void;
    const code = new Promise<void>((resolve) => (loaded = resolve));
    function Console() {
      use(code);
      return <p>console</p>;
    }
    render(
      <Suspense fallback={<p>outer fallback</p>}>
        <RestoreGate persistor={persistor} loading={<p>restoring</p>}>
          <Console />
        </RestoreGate>
      </Suspense>,
    );
    await act(async () => persistor.persist());
    // an urgent lift would have put the boundary above in its place (the spinner over the
    // start's frame); a transition keeps what is on screen until the console can show
    expect(screen.getByText('restoring')).toBeInTheDocument();
    expect(screen.queryByText('outer fallback')).toBeNull();
    await act(async () => loaded());
    expect(await screen.findByText('console')).toBeInTheDocument();
    expect(screen.queryByText('restoring')).toBeNull();
  });
});
