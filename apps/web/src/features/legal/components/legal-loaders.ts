import type { LegalDocument } from '../content/types';

export type LegalKind = 'public-offer' | 'privacy-policy';
export type LegalLanguage = 'en' | 'ru';

type Loader = () => Promise<{ document: LegalDocument }>;

/**
 * One dynamic import per document and language: each text is its own chunk,
 * and only the reader's language is downloaded.
 */
export const legalLoaders: Record<LegalKind, Record<LegalLanguage, Loader>> = {
  'public-offer': {
    en: () => import('../content/public-offer.en'),
    ru: () => import('../content/public-offer.ru'),
  },
  'privacy-policy': {
    en: () => import('../content/privacy-policy.en'),
    ru: () => import('../content/privacy-policy.ru'),
  },
};

export function legalLanguageOf(language: string | undefined): LegalLanguage {
  return language?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}
