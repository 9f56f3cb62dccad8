import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ErrorState, LoadingState } from './states';

describe('LoadingState', () => {
  it('says what is loading, politely', () => {
    render(<LoadingState>Loading the history…</LoadingState>);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the history…');
  });
});

describe('ErrorState', () => {
  it('alerts what could not load and why, and tries again', async () => {
    const user = userEvent.setup();
    const onRetry = vi.fn();
    render(
      <ErrorState
        title="The list could not be loaded"
        detail="No connection to the server"
        retryLabel="Try again"
        onRetry={onRetry}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The list could not be loaded');
    expect(alert).toHaveTextContent('No connection to the server');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
