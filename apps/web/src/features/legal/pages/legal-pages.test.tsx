import { act, render, screen, within, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n as createI18n } from '../../../test/i18n-resources';

const createTestI18n = (language: 'en' | 'ru') => createI18n(language, 'legal');
import { document as offerEn } from '../content/public-offer.en';
import { document as offerRu } from '../content/public-offer.ru';
import { document as policyEn } from '../content/privacy-policy.en';
import { document as policyRu } from '../content/privacy-policy.ru';
import { legalLoaders } from '../components/legal-loaders';
import { Component as PrivacyPolicyPage } from './privacy-policy-page';
import { Component as PublicOfferPage } from './public-offer-page';

afterEach(() => {
  vi.restoreAllMocks();
});

function renderLegal(path: '/public-offer' | '/privacy-policy', language: 'en' | 'ru') {
  const i18n = createTestI18n(language);
  const router = createMemoryRouter(
    [
      { path: '/public-offer', Component: PublicOfferPage },
      { path: '/privacy-policy', Component: PrivacyPolicyPage },
    ],
    { initialEntries: [path] },
  );
  render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </StrictMode>,
  );
  return { i18n };
}

describe('legal pages', () => {
  it('shows the English offer with a table of contents of section anchors', async () => {
    const ruLoader = vi.spyOn(legalLoaders['public-offer'], 'ru');
    renderLegal('/public-offer', 'en');

    const title = await screen.findByRole('heading', { level: 1, name: offerEn.title });
    expect(title).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    await waitFor(() => expect(document.title).toBe(`${offerEn.title} · TradeHost`));
    expect(screen.getByText(offerEn.effectiveDate)).toBeInTheDocument();
    expect(screen.getByText(offerEn.intro)).toBeInTheDocument();

    const toc = screen.getByRole('navigation', { name: 'Contents' });
    const links = within(toc).getAllByRole('link');
    expect(links).toHaveLength(offerEn.sections.length);
    offerEn.sections.forEach((section, index) => {
      const link = links[index]!;
      expect(link).toHaveTextContent(section.heading);
      const heading = screen.getByRole('heading', { level: 2, name: section.heading });
      expect(link).toHaveAttribute('href', `#${heading.id}`);
    });
    const firstParagraph = offerEn.sections[0]!.paragraphs[0]!;
    expect(screen.getByText(firstParagraph)).toBeInTheDocument();
    expect(screen.getByRole('article')).toBeInTheDocument();
    // only the reader's language is loaded
    expect(ruLoader).not.toHaveBeenCalled();
  });

  it('shows the Russian privacy policy to a Russian reader', async () => {
    const enLoader = vi.spyOn(legalLoaders['privacy-policy'], 'en');
    renderLegal('/privacy-policy', 'ru');

    // the loading state already shows the title; the contents come with the document
    expect(await screen.findByRole('navigation', { name: 'Содержание' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: policyRu.title })).toBeInTheDocument();
    for (const section of policyRu.sections) {
      expect(screen.getByRole('heading', { level: 2, name: section.heading })).toBeInTheDocument();
    }
    expect(
      screen.getByRole('heading', { level: 1, name: policyRu.title }).closest('[lang]'),
    ).toHaveAttribute('lang', 'ru');
    expect(screen.queryByText(policyEn.title)).not.toBeInTheDocument();
    expect(enLoader).not.toHaveBeenCalled();
  });

  it('switches the document when the language changes', async () => {
    const { i18n } = renderLegal('/public-offer', 'en');
    await screen.findByRole('heading', { level: 1, name: offerEn.title });

    await act(() => i18n.changeLanguage('ru'));

    expect(
      await screen.findByRole('heading', { level: 1, name: offerRu.title }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { level: 2, name: offerRu.sections[0]!.heading }),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${offerRu.title} · TradeHost`));
  });

  it('offers a retry when the document cannot be loaded', async () => {
    const loader = vi
      .spyOn(legalLoaders['privacy-policy'], 'en')
      .mockRejectedValue(new Error('offline'));
    renderLegal('/privacy-policy', 'en');

    expect(await screen.findByRole('alert')).toHaveTextContent('The document could not be loaded');
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeInTheDocument();
    loader.mockRestore();
    await act(async () => screen.getByRole('button', { name: 'Try again' }).click());
    expect(
      await screen.findByRole('heading', { level: 1, name: policyEn.title }),
    ).toBeInTheDocument();
  });
});
