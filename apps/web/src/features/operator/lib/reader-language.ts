import { useTranslation } from 'react-i18next';

/** The reader's language as the operator screens pick names, bodies and memos by it (help desk, FAQ, ledger). */
export function useReaderLanguage(): 'en' | 'ru' {
  const { i18n } = useTranslation();
  return (i18n.resolvedLanguage ?? i18n.language ?? 'en').startsWith('ru') ? 'ru' : 'en';
}
