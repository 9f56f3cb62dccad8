import { useCallback, useEffect, useState } from 'react';
import type { LegalDocument } from '../content/types';
import { legalLoaders, type LegalKind, type LegalLanguage } from './legal-loaders';

interface Loaded {
  key: string;
  document?: LegalDocument;
  failed?: boolean;
}

export interface LegalDocumentState {
  /** The document in the requested language, or the previous one while that loads. */
  document: LegalDocument | undefined;
  /** True while the requested language's document is on its way. */
  loading: boolean;
  failed: boolean;
  retry: () => void;
}

export function useLegalDocument(kind: LegalKind, language: LegalLanguage): LegalDocumentState {
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [shown, setShown] = useState<LegalDocument | undefined>(undefined);
  const key = `${kind}.${language}#${attempt}`;

  useEffect(() => {
    let active = true;
    legalLoaders[kind][language]().then(
      (module) => {
        if (!active) return;
        setLoaded({ key, document: module.document });
        setShown(module.document);
      },
      () => {
        if (active) setLoaded({ key, failed: true });
      },
    );
    return () => {
      active = false;
    };
  }, [kind, language, key]);

  const current = loaded?.key === key ? loaded : null;
  const retry = useCallback(() => setAttempt((value) => value + 1), []);
  return {
    document: current?.document ?? (current?.failed ? undefined : shown),
    loading: current === null,
    failed: Boolean(current?.failed),
    retry,
  };
}
