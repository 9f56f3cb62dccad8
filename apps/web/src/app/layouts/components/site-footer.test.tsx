import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../../../test/i18n-resources';
import { SiteFooter } from './site-footer';

function renderFooter(language: 'en' | 'ru') {
  render(
    <I18nextProvider i18n={createTestI18n(language)}>
      <MemoryRouter>
        <SiteFooter />
      </MemoryRouter>
    </I18nextProvider>,
  );
  return screen.getByRole('contentinfo');
}

describe('the footer', () => {
  it('counts the years up to the current one', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2031, 0, 1, 0, 5));
    expect(renderFooter('en')).toHaveTextContent('© 2012-2031 TradeHost');
  });

  it('says the current year in Russian too', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2027, 11, 31, 23, 55));
    expect(renderFooter('ru')).toHaveTextContent('© 2012-2027 TradeHost');
  });
});
