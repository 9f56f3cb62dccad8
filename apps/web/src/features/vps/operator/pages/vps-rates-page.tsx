import type { AdminRate } from '@tradehost/contracts';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, FormAlert } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { useGetAdminVpsRatesQuery, useUpdateVpsRateMutation } from '../api/vps-operator-api';
import { useActiveSwitch } from '../components/active-switch';
import { DataTable, type Column } from '../../../operator/components/data-table';
import { DiscountsForm } from '../components/discounts-form';
import { ListHeader } from '../../../operator/components/list-controls';
import { RateDialog } from '../components/rate-dialog';
import { QueryStates } from '../../../operator/components/states';
import { ActiveBadge } from '../../../operator/components/badge';
import { useFormatters } from '../../../operator/lib/format';
import styles from '../../../operator/components/operator.module.css';

/** The dialog on screen: adding (rate null) or editing a rate. */
type Editing = { rate: AdminRate | null; seq: number } | null;

/**
 * Route module (lazy, admins only): the rates catalogue (add, edit, take off sale and put back)
 * and the discounts of the rental periods.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('vps.rates.title'));
  const format = useFormatters();
  const headingId = useId();
  const openerRef = useRef<HTMLElement | null>(null);
  const query = useGetAdminVpsRatesQuery();
  const [update] = useUpdateVpsRateMutation();
  const [editing, setEditing] = useState<Editing>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const switcher = useActiveSwitch('vps.rates');

  const open = (rate: AdminRate | null, opener: HTMLElement) => {
    openerRef.current = opener;
    switcher.clearFailure();
    setEditing((previous) => ({ rate, seq: (previous?.seq ?? 0) + 1 }));
    setDialogOpen(true);
  };

  const columns: Column<AdminRate>[] = [
    { id: 'name', header: t('vps.rates.columns.name'), cell: (rate) => rate.name },
    {
      id: 'cpu',
      header: t('vps.rates.columns.cpu'),
      numeric: true,
      cell: (rate) => t('vps.units.cpu', { value: rate.cpu_cores }),
    },
    {
      id: 'ram',
      header: t('vps.rates.columns.ram'),
      numeric: true,
      cell: (rate) => t('vps.units.gb', { value: rate.ram_gb }),
    },
    {
      id: 'disk',
      header: t('vps.rates.columns.disk'),
      numeric: true,
      cell: (rate) => t('vps.units.gb', { value: rate.disk_gb }),
    },
    { id: 'location', header: t('vps.rates.columns.location'), cell: (rate) => rate.location },
    {
      id: 'price',
      header: t('vps.rates.columns.price'),
      numeric: true,
      cell: (rate) => format.money(rate.monthly_price),
    },
    {
      id: 'template',
      header: t('vps.rates.columns.template'),
      cell: (rate) => <span className={styles.mono}>{rate.template_id}</span>,
    },
    {
      id: 'active',
      header: t('vps.rates.columns.active'),
      cell: (rate) => <ActiveBadge active={rate.active} />,
    },
    {
      id: 'servers',
      header: t('vps.rates.columns.servers'),
      numeric: true,
      cell: (rate) => rate.servers,
    },
    {
      id: 'actions',
      header: t('vps.rates.columns.actions'),
      actions: true,
      cell: (rate) => (
        <span className={styles.rowActions}>
          <Button variant="secondary" onClick={(event) => open(rate, event.currentTarget)}>
            {t('vps.rates.edit')}{' '}
            <span className="visually-hidden">
              {t('vps.rates.rowContext', { name: rate.name })}
            </span>
          </Button>
          {switcher.button(rate, { name: rate.name }, (active) =>
            update({ id: rate.id, changes: { active } }).unwrap(),
          )}
        </span>
      ),
    },
  ];

  const data = query.data;

  return (
    <div className={styles.section}>
      <section className={styles.section} aria-labelledby={headingId}>
        <ListHeader headingId={headingId} title={t('vps.rates.title')} lead={t('vps.rates.lead')}>
          <Button onClick={(event) => open(null, event.currentTarget)}>{t('vps.rates.add')}</Button>
        </ListHeader>
        {switcher.failure ? <FormAlert tone="error">{switcher.failure}</FormAlert> : null}
        <QueryStates
          result={query}
          isEmpty={({ rates }) => rates.length === 0}
          empty={t('vps.rates.empty')}
        >
          {({ rates }) => (
            <DataTable
              labelledBy={headingId}
              columns={columns}
              rows={rates}
              rowKey={(rate) => rate.id}
              busy={query.isFetching}
            />
          )}
        </QueryStates>
      </section>
      {data ? <DiscountsForm key={JSON.stringify(data.periods)} periods={data.periods} /> : null}
      {editing ? (
        <RateDialog
          // a fresh form each time it opens
          key={editing.seq}
          rate={editing.rate}
          open={dialogOpen}
          onOpenChange={setDialogOpen}
          returnFocusTo={openerRef}
        />
      ) : null}
    </div>
  );
}
