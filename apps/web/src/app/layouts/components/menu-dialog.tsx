import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ICON_PATHS, StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import { MainNav } from './main-nav';
import type { NavItem } from './nav-items';
import styles from './mobile-menu.module.css';

export interface MenuDialogProps {
  id: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  items: readonly NavItem[];
  extras?: ReactNode;
}

/**
 * The slide-in menu: a modal dialog (focus trapped, Escape and the backdrop close it). It stays
 * mounted while its 300 ms closing animation runs (Radix Presence waits for the animation; with
 * reduced motion there is none and it goes at once). Focus returns to the menu button.
 */
export function MenuDialog({
  id,
  open,
  onOpenChange,
  returnFocusTo,
  items,
  extras,
}: MenuDialogProps) {
  const { t } = useTranslation('common');
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          id={id}
          className={styles.panel}
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
        >
          <div className={styles.panelHeader}>
            <Dialog.Title className={styles.title}>{t('header.menuTitle')}</Dialog.Title>
            <Dialog.Close className={styles.close} aria-label={t('header.closeMenu')}>
              <StrokeIcon size={20} strokeWidth={1.8} d={ICON_PATHS.close} />
            </Dialog.Close>
          </div>
          <div className={styles.panelBody}>
            {items.length > 0 ? (
              <MainNav items={items} layout="column" onNavigate={() => onOpenChange(false)} />
            ) : null}
            {extras ? <div className={styles.extras}>{extras}</div> : null}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
