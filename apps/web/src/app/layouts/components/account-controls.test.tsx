import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../../test/i18n-resources';
import { BalanceBadge } from './account-controls';

function renderBadge(balance: number | undefined, language: 'en' | 'ru' = 'en') {
  render(
    <I18nextProvider i18n={createTestI18n(language)}>
      <MemoryRouter>
        <BalanceBadge balance={balance} />
      </MemoryRouter>
    </I18nextProvider>,
  );
  return screen.getByTestId('header-balance');
}

describe("the header's balance", () => {
  it('shows a dash until the user has loaded, not a balance of $0', () => {
    expect(renderBadge(undefined)).toHaveTextContent(/^—$/);
  });

  it('shows the balance, $0 included, once known', () => {
    expect(renderBadge(0)).toHaveTextContent(/^\$0$/);
  });

  it('rounds down to the dime, never showing more money than there is', () => {
    expect(renderBadge(769.25)).toHaveTextContent(/^\$769\.2$/);
  });

  it('writes the decimal separator of the reader’s language', () => {
    expect(renderBadge(769.25, 'ru')).toHaveTextContent(/^\$769,2$/);
  });
});
