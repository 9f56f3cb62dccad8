import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/form';
import { legalLanguageOf, type LegalKind } from './legal-loaders';
import { LegalDocumentView } from './legal-document-view';
import { useLegalDocument } from './use-legal-document';
import styles from './legal.module.css';

const FALLBACK_TITLE_KEY = {
  'public-offer': 'publicOffer',
  'privacy-policy': 'privacyPolicy',
} as const satisfies Record<LegalKind, string>;

/** The page of one legal document in the reader's language. */
export function LegalPage({ kind }: { kind: LegalKind }) {
  const { t, i18n } = useTranslation('legal');
  const language = legalLanguageOf(i18n.language);
  const { document: legal, loading, failed, retry } = useLegalDocument(kind, language);
  const title = legal?.title ?? t(FALLBACK_TITLE_KEY[kind]);

  useEffect(() => {
    document.title = t('docTitle', { title });
  }, [t, title]);

  return (
    <div className={styles.page}>
      {legal ? (
        <LegalDocumentView
          anchorPrefix={kind}
          document={legal}
          language={language}
          busy={loading}
        />
      ) : (
        <div className={styles.header}>
          <h1 className={styles.title}>{title}</h1>
          {failed ? (
            <div className={styles.failed} role="alert">
              <p>{t('loadFailed')}</p>
              <Button variant="secondary" onClick={retry}>
                {t('retry')}
              </Button>
            </div>
          ) : (
            <p className={styles.status} role="status">
              {t('loading')}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
