import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { selectLanguage, selectTheme } from '../features/settings/model/settings-slice';
import { selectScrollLocked, windowResized } from '../shared/model/ui-slice';
import { FullScreenSpinner } from '../shared/ui/spinner/spinner';
import { Toaster } from '../shared/ui/toast/toaster';
import { useAppDispatch, useAppSelector } from './hooks';
import { StepUpHost } from './step-up-host';

/** The browser bar colour of each theme (its header surface). */
const THEME_COLORS = { light: '#ffffff', dark: '#151c23' } as const;

/**
 * What every screen shares, outside the router: the theme and language on <html>, the window
 * size in the store, the page scroll lock, the toasts, the global loader and the step-up dialog.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const { i18n, t } = useTranslation('common');
  const theme = useAppSelector(selectTheme);
  const language = useAppSelector(selectLanguage);
  const scrollLocked = useAppSelector(selectScrollLocked);
  const displayLoader = useAppSelector((state) => state.ui.displayLoader);

  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.style.colorScheme = theme;
    document
      .querySelector('meta[name="theme-color"]')
      ?.setAttribute('content', THEME_COLORS[theme]);
  }, [theme]);

  useEffect(() => {
    document.documentElement.lang = language;
    if (i18n.language !== language) void i18n.changeLanguage(language);
  }, [language, i18n]);

  // Page scrolling is locked while the menu, the loader or a modal shows.
  useEffect(() => {
    if (!scrollLocked) return;
    const { body } = document;
    const previous = body.style.overflow;
    body.style.overflow = 'hidden';
    return () => {
      body.style.overflow = previous;
    };
  }, [scrollLocked]);

  useEffect(() => {
    let frame = 0;
    const onResize = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() =>
        dispatch(windowResized({ width: window.innerWidth, height: window.innerHeight })),
      );
    };
    window.addEventListener('resize', onResize);
    onResize();
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', onResize);
    };
  }, [dispatch]);

  return (
    <>
      {children}
      {displayLoader ? <FullScreenSpinner /> : null}
      <Toaster theme={theme} closeLabel={t('toast.close')} />
      <StepUpHost />
    </>
  );
}
