import type { AdminRate } from '@tradehost/contracts';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, FormAlert } from '../../../shared/ui/form';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { EmptyState } from '../../../shared/ui/states/states';
import { notify } from '../../../shared/ui/toast/notify';
import { useGetAdminVpsRatesQuery, useUpdateVpsRateMutation } from '../api/vps-operator-api';
import { DataTable, type Column } from '../components/data-table';
import { DiscountsForm } from '../components/discounts-form';
import { RateDialog } from '../components/rate-dialog';
import { LoadError, Loading } from '../components/states';
import { ActiveBadge } from '../components/vps-badges';
import { useFormatters } from '../lib/format';
import { useOperatorError } from '../lib/use-operator-error';
import styles from '../components/operator.module.css';

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
  const errorText = useOperatorError();
  const headingId = useId();
  const openerRef = useRef<HTMLElement | null>(null);
  const query = useGetAdminVpsRatesQuery();
  const [update] = useUpdateVpsRateMutation();
  const [editing, setEditing] = useState<Editing>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [switching, setSwitching] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const open = (rate: AdminRate | null, opener: HTMLElement) => {
    openerRef.current = opener;
    setFailure(null);
    setEditing((previous) => ({ rate, seq: (previous?.seq ?? 0) + 1 }));
    setDialogOpen(true);
  };

  const toggle = async (rate: AdminRate) => {
    setFailure(null);
    setSwitching(rate.id);
    try {
      await update({ id: rate.id, changes: { active: !rate.active } }).unwrap();
      notify(
        'success',
        t(rate.active ? 'vps.rates.deactivated' : 'vps.rates.activated', { name: rate.name }),
      );
    } catch (error) {
      setFailure(errorText.request(error));
    } finally {
      setSwitching(null);
    }
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
          <Button
            variant="secondary"
            className={rate.active ? styles.danger : undefined}
            loading={switching === rate.id}
            onClick={() => void toggle(rate)}
          >
            {rate.active ? t('vps.rates.deactivate') : t('vps.rates.activate')}{' '}
            <span className="visually-hidden">
              {t('vps.rates.rowContext', { name: rate.name })}
            </span>
          </Button>
        </span>
      ),
    },
  ];

  const data = query.data;
  const failed = query.isError && !query.isFetching;

  return (
    <div className={styles.section}>
      <section className={styles.section} aria-labelledby={headingId}>
        <div className={styles.sectionHeader}>
          <div>
            <h2 id={headingId} className={styles.sectionTitle}>
              {t('vps.rates.title')}
            </h2>
            <p className={styles.lead}>{t('vps.rates.lead')}</p>
          </div>
          <Button onClick={(event) => open(null, event.currentTarget)}>{t('vps.rates.add')}</Button>
        </div>
        {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
        {failed ? <LoadError error={query.error} onRetry={() => void query.refetch()} /> : null}
        {data ? (
          data.rates.length === 0 ? (
            <EmptyState>{t('vps.rates.empty')}</EmptyState>
          ) : (
            <DataTable
              labelledBy={headingId}
              columns={columns}
              rows={data.rates}
              rowKey={(rate) => rate.id}
              busy={query.isFetching}
            />
          )
        ) : failed ? null : (
          <Loading />
        )}
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
