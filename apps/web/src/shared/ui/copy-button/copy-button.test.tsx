import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyButton } from './copy-button';

const MESSAGES = { copied: 'Address copied', failed: 'Could not copy' };

describe('CopyButton', () => {
  afterEach(() => vi.restoreAllMocks());

  it('copies the text and says so in a live region; the button keeps its name', async () => {
    const user = userEvent.setup();
    render(<CopyButton text="TQn9Y2" label="Copy the address" messages={MESSAGES} />);
    await user.click(screen.getByRole('button', { name: 'Copy the address' }));
    expect(await navigator.clipboard.readText()).toBe('TQn9Y2');
    expect(screen.getByRole('status')).toHaveTextContent('Address copied');
    expect(screen.getByRole('button', { name: 'Copy the address' })).toBeInTheDocument();
  });

  it('says when the clipboard refuses, then goes quiet again', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    render(<CopyButton text="abc" label="Copy TXID" messages={MESSAGES} variant="icon" />);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Copy TXID' }));
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Could not copy');
    expect(status).not.toHaveClass('visually-hidden');
    act(() => vi.advanceTimersByTime(4000));
    expect(status).toHaveTextContent('');
  });

  it('as an icon, names the button by its label and announces the copy without showing it', async () => {
    const user = userEvent.setup();
    render(<CopyButton text="abc" label="Copy TXID" messages={MESSAGES} variant="icon" />);
    const button = screen.getByRole('button', { name: 'Copy TXID' });
    expect(button).not.toHaveTextContent('Copy TXID');
    await user.click(button);
    expect(screen.getByRole('status')).toHaveTextContent('Address copied');
    expect(screen.getByRole('status')).toHaveClass('visually-hidden');
  });
});
