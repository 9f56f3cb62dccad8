import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderFaq, stubFaqApi } from '../test-utils';

// counts the imports of the search module (minisearch and the stemmers), keeping it as it is
const searchModule = vi.hoisted(() => ({ imports: 0 }));
vi.mock('../lib/faq-search', async (importOriginal) => {
  searchModule.imports += 1;
  return importOriginal();
});

describe('the FAQ page’s search code', () => {
  it('is fetched only once the reader turns to the search box, and only once', async () => {
    stubFaqApi();
    const { user } = renderFaq();
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Monitoring guide' }),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'What does online monitoring show?' }));
    expect(searchModule.imports).toBe(0);

    await user.click(screen.getByRole('searchbox', { name: 'Search the questions' }));
    await waitFor(() => expect(searchModule.imports).toBe(1));
    await user.keyboard('reward');
    expect(
      await screen.findByText('1 answer for “reward”', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(searchModule.imports).toBe(1);
  });
});
