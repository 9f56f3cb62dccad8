import type { AdminPromocode } from '@tradehost/contracts';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, FormAlert } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { useGetAdminPromocodesQuery, useUpdatePromocodeMutation } from '../api/vps-operator-api';
import { useActiveSwitch } from '../components/active-switch';
import type { Column } from '../../../operator/components/data-table';
import { ListHeader } from '../../../operator/components/list-controls';
import { usePageParam } from '../../../operator/components/pagination';
import { PagedTable } from '../../../operator/components/paged-table';
import { Person } from '../../../operator/components/person';
import { PromocodeDialog } from '../components/promocode-dialog';
import { ActiveBadge } from '../../../operator/components/badge';
import { useFormatters } from '../../../operator/lib/format';
import styles from '../../../operator/components/operator.module.css';

/**
 * Route module (lazy, admins only): the promocodes (the operator's and, with the partner
 * programme, the partners'), newest first; add one, switch one off or on.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('vps.promocodes.title'));
  const format = useFormatters();
  const headingId = useId();
  const openerRef = useRef<HTMLElement | null>(null);
  const [page, setPage] = usePageParam();
  const query = useGetAdminPromocodesQuery({ page });
  const [update] = useUpdatePromocodeMutation();
  const [adding, setAdding] = useState(0);
  const [dialogOpen, setDialogOpen] = useState(false);
  const switcher = useActiveSwitch('vps.promocodes');

  const columns: Column<AdminPromocode>[] = [
    {
      id: 'code',
      header: t('vps.promocodes.columns.code'),
      cell: (promocode) => <span className={styles.mono}>{promocode.code}</span>,
    },
    {
      id: 'discount',
      header: t('vps.promocodes.columns.discount'),
      numeric: true,
      cell: (promocode) => t('vps.units.percent', { value: promocode.discount_percent }),
    },
    {
      id: 'used',
      header: t('vps.promocodes.columns.used'),
      numeric: true,
      cell: (promocode) => promocode.times_used,
    },
    {
      id: 'owner',
      header: t('vps.promocodes.columns.owner'),
      cell: (promocode) =>
        promocode.owner ? (
          <Person user={promocode.owner} />
        ) : (
          <span className={styles.muted}>{t('vps.promocodes.operator')}</span>
        ),
    },
    {
      id: 'created',
      header: t('vps.promocodes.columns.created'),
      moment: true,
      cell: (promocode) => format.dateTime(promocode.created_at),
    },
    {
      id: 'active',
      header: t('vps.promocodes.columns.active'),
      cell: (promocode) => <ActiveBadge active={promocode.active} />,
    },
    {
      id: 'actions',
      header: t('vps.promocodes.columns.actions'),
      actions: true,
      cell: (promocode) => (
        <span className={styles.rowActions}>
          {switcher.button(promocode, { code: promocode.code }, (active) =>
            update({ id: promocode.id, active }).unwrap(),
          )}
        </span>
      ),
    },
  ];

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        title={t('vps.promocodes.title')}
        lead={t('vps.promocodes.lead')}
      >
        <Button
          onClick={(event) => {
            openerRef.current = event.currentTarget;
            switcher.clearFailure();
            setAdding((count) => count + 1);
            setDialogOpen(true);
          }}
        >
          {t('vps.promocodes.add')}
        </Button>
      </ListHeader>
      {switcher.failure ? <FormAlert tone="error">{switcher.failure}</FormAlert> : null}
      <PagedTable
        result={query}
        empty={t('vps.promocodes.empty')}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('vps.promocodes.pages')}
        onPageChange={setPage}
      />
      {adding > 0 ? (
        <PromocodeDialog
          // a fresh form each time it opens
          key={adding}
          open={dialogOpen}
          onOpenChange={setDialogOpen}
          returnFocusTo={openerRef}
        />
      ) : null}
    </section>
  );
}
