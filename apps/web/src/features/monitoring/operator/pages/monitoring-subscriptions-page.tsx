import {
  MONITORING_MONTHS_MAX,
  SUBSCRIPTION_STATES,
  type AdminSubscription,
  type SubscriptionState,
} from '@tradehost/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { SelectField } from '../../../../shared/ui/form';
import {
  useOperatorExtendSubscriptionMutation,
  useGetAdminSubscriptionsQuery,
} from '../api/monitoring-operator-api';
import type { Column } from '../../../operator/components/data-table';
import { useDecisions } from '../../../operator/components/decision';
import {
  DecisionButtons,
  ReasonDecisionDialog,
} from '../../../operator/components/decision-dialogs';
import { ListHeader, RefreshButton, SearchForm } from '../../../operator/components/list-controls';
import { usePageParam } from '../../../operator/components/pagination';
import { PagedTable } from '../../../operator/components/paged-table';
import { Person } from '../../../operator/components/person';
import { Badge } from '../../../operator/components/badge';
import { useFormatters } from '../../../operator/lib/format';
import { oneOf, useFilterParams } from '../../../operator/lib/list-params';
import styles from '../../../operator/components/operator.module.css';
import controlStyles from '../../../operator/components/controls.module.css';

const ALL = 'all';
const PLANS = ['free', 'paid'] as const;
const MONTHS = Array.from({ length: MONITORING_MONTHS_MAX }, (_, index) => index + 1);

/**
 * Route module (lazy, admins only): every monitoring subscription, newest first, by number or
 * owner's e-mail, state and plan. A paid one is extended free of charge in a dialog that asks
 * for the months and the reason the audit log keeps.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('monitoring.subscriptions.title'));
  const format = useFormatters();
  const headingId = useId();
  const decisions = useDecisions<'extend', AdminSubscription>({
    staleCodes: [],
    noticeOf: () => undefined,
  });
  const [params, setFilter] = useFilterParams(decisions.clearNotice);
  const search = params.get('search') ?? '';
  const state = oneOf<SubscriptionState>(SUBSCRIPTION_STATES, params.get('state'));
  const plan = oneOf(PLANS, params.get('plan'));
  const [page, setPage] = usePageParam();
  const query = useGetAdminSubscriptionsQuery({ search, state, plan, page });
  const [extend] = useOperatorExtendSubscriptionMutation();
  const [months, setMonths] = useState(1);

  const columns: Column<AdminSubscription>[] = [
    {
      id: 'subscription',
      header: t('monitoring.subscriptions.columns.subscription'),
      cell: (s) => <strong>{t('number', { id: s.id })}</strong>,
    },
    {
      id: 'user',
      header: t('monitoring.subscriptions.columns.user'),
      cell: (s) => <Person user={s.user} />,
    },
    {
      id: 'plan',
      header: t('monitoring.subscriptions.columns.plan'),
      cell: (s) => (
        <Badge tone={s.plan === 'paid' ? 'info' : 'neutral'}>
          {t(`monitoring.plans.${s.plan}`)}
        </Badge>
      ),
    },
    {
      id: 'accounts',
      header: t('monitoring.subscriptions.columns.accounts'),
      numeric: true,
      cell: (s) => t('monitoring.subscriptions.used', { used: s.used_accounts, total: s.accounts }),
    },
    {
      id: 'created',
      header: t('monitoring.subscriptions.columns.created'),
      moment: true,
      cell: (s) => format.dateTime(s.created_at),
    },
    {
      id: 'ends',
      header: t('monitoring.subscriptions.columns.ends'),
      moment: true,
      cell: (s) =>
        s.ends_at ? (
          format.dateTime(s.ends_at)
        ) : (
          <span className={styles.muted}>{t('monitoring.subscriptions.noEnd')}</span>
        ),
    },
    {
      id: 'state',
      header: t('monitoring.subscriptions.columns.state'),
      cell: (s) => (
        <Badge tone={s.active ? 'success' : 'neutral'}>
          {t(`monitoring.states.${s.active ? 'running' : 'ended'}`)}
        </Badge>
      ),
    },
    {
      id: 'actions',
      header: t('monitoring.subscriptions.columns.actions'),
      actions: true,
      cell: (s) =>
        s.plan === 'paid' ? (
          <DecisionButtons
            context={t('monitoring.subscriptions.rowContext', { id: s.id, email: s.user.email })}
            decisions={[['extend', t('monitoring.subscriptions.extend')]]}
            onStart={(kind, opener) => {
              setMonths(1);
              decisions.start(kind, s, opener);
            }}
          />
        ) : null,
    },
  ];

  const stateOptions = [ALL, ...SUBSCRIPTION_STATES].map((value) => ({
    value,
    label:
      value === ALL ? t('monitoring.subscriptions.allStates') : t(`monitoring.states.${value}`),
  }));
  const planOptions = [ALL, ...PLANS].map((value) => ({
    value,
    label: value === ALL ? t('monitoring.subscriptions.allPlans') : t(`monitoring.plans.${value}`),
  }));
  const filtered = Boolean(search || state || plan);
  const subject = decisions.pending?.subject;

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        headingRef={decisions.headingRef}
        title={t('monitoring.subscriptions.title')}
        lead={t('monitoring.subscriptions.lead')}
      >
        <RefreshButton result={query} />
      </ListHeader>
      <div className={controlStyles.filters}>
        <SearchForm
          label={t('monitoring.subscriptions.search')}
          name="search"
          value={search}
          spellCheck={false}
          maxLength={254}
          submitLabel={t('monitoring.subscriptions.searchSubmit')}
          onSearch={(value) => setFilter('search', value)}
        />
        <SelectField
          label={t('monitoring.subscriptions.state')}
          options={stateOptions}
          value={state ?? ALL}
          onChange={(event) => setFilter('state', event.target.value, ALL)}
        />
        <SelectField
          label={t('monitoring.subscriptions.plan')}
          options={planOptions}
          value={plan ?? ALL}
          onChange={(event) => setFilter('plan', event.target.value, ALL)}
        />
      </div>
      <PagedTable
        result={query}
        empty={
          filtered
            ? t('monitoring.subscriptions.emptyFiltered')
            : t('monitoring.subscriptions.empty')
        }
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('monitoring.subscriptions.pages')}
        onPageChange={setPage}
      />
      {subject ? (
        <ReasonDecisionDialog
          key={`extend-${subject.id}`}
          {...decisions.dialog}
          danger={false}
          title={t('monitoring.subscriptions.extendDialog.title', { id: subject.id })}
          description={t('monitoring.subscriptions.extendDialog.question', {
            email: subject.user.email,
          })}
          submitLabel={t('monitoring.subscriptions.extendDialog.submit')}
          submittingLabel={t('monitoring.subscriptions.extendDialog.submitting')}
          reasonLabel={t('monitoring.subscriptions.extendDialog.reason')}
          reasonHint={t('monitoring.subscriptions.extendDialog.reasonHint')}
          run={(reason) =>
            decisions.decide({
              fingerprint: `extend-subscription:${subject.id}:${months}:${reason}`,
              send: (idempotencyKey) =>
                extend({ id: subject.id, months, reason, idempotencyKey }).unwrap(),
              successText: (result) =>
                t('monitoring.subscriptions.extended', {
                  id: subject.id,
                  date: format.dateTime(result.subscription.ends_at ?? ''),
                }),
            })
          }
        >
          {subject.ends_at ? (
            <p className={styles.lead}>
              {t('monitoring.subscriptions.extendDialog.ends', {
                date: format.dateTime(subject.ends_at),
              })}
            </p>
          ) : null}
          <SelectField
            label={t('monitoring.subscriptions.extendDialog.months')}
            options={MONTHS.map((value) => ({
              value: String(value),
              label: t('monitoring.months', { count: value }),
            }))}
            value={String(months)}
            onChange={(event) => setMonths(Number(event.target.value))}
          />
        </ReasonDecisionDialog>
      ) : null}
    </section>
  );
}
