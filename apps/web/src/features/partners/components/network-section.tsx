import { NETWORK_SEARCH_MAX, type PartnerNetworkNode } from '@tradehost/contracts';
import { useId, useState, type FormEvent } from 'react';
import { Button, TextField } from '../../../shared/ui/form';
import { Pagination, pageCountOf } from '../../../shared/ui/pagination/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetPartnerNetworkQuery } from '../api/partner-api';
import { usePartnerFormat } from '../lib/use-partner-format';
import styles from './partners.module.css';

export const NETWORK_PER_PAGE = 20;

/**
 * The network: the partner's referrals a page at a time, each opening onto their own referrals
 * (to the third level); a search finds people on all three levels by a part of their e-mail or
 * name. E-mails are masked: a partner sees who joined, not their addresses.
 */
export function NetworkSection() {
  const { t } = usePartnerFormat();
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const searchId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(draft.trim());
  };

  return (
    <section className={styles.section} aria-labelledby="partner-network-title">
      <div className={styles.sectionHead}>
        <h2 id="partner-network-title" className={styles.sectionTitle}>
          {t('network.title')}
        </h2>
        <form role="search" className={styles.search} onSubmit={submit}>
          <TextField
            id={searchId}
            label={t('network.search')}
            type="search"
            value={draft}
            maxLength={NETWORK_SEARCH_MAX}
            onChange={(event) => {
              setDraft(event.target.value);
              if (event.target.value === '') setSearch('');
            }}
          />
          <Button type="submit" variant="secondary">
            {t('network.find')}
          </Button>
        </form>
      </div>
      <p className={styles.muted}>{t('network.lead')}</p>
      <Branch key={search} search={search} />
    </section>
  );
}

/** One list of the tree: the partner's referrals, a referral's, or the search's matches. */
function Branch({ parentId, search = '' }: { parentId?: number; search?: string }) {
  const { t, count } = usePartnerFormat();
  const [page, setPage] = useState(1);
  const network = useGetPartnerNetworkQuery({
    ...(parentId === undefined ? {} : { parent_id: parentId }),
    ...(search ? { search } : {}),
    page,
    per_page: NETWORK_PER_PAGE,
  });

  if (network.isError)
    return (
      <ErrorState
        title={t('network.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => void network.refetch()}
      />
    );
  if (!network.data) return <LoadingState>{t('loading')}</LoadingState>;
  const { data: nodes, meta } = network.data;
  if (nodes.length === 0 && parentId === undefined)
    return (
      <EmptyState title={search ? t('network.noMatchTitle') : t('network.emptyTitle')}>
        {search ? t('network.noMatch', { search }) : t('network.empty')}
      </EmptyState>
    );
  const first = (meta.page - 1) * meta.per_page + 1;
  return (
    <div className={parentId === undefined ? undefined : styles.branch}>
      <ul className={styles.nodes} aria-busy={network.isFetching || undefined}>
        {nodes.map((node) => (
          <NetworkNode key={node.id} node={node} expandable={!search} />
        ))}
      </ul>
      <Pagination
        page={meta.page}
        pageCount={pageCountOf(meta.total, meta.per_page)}
        onPageChange={setPage}
        label={parentId === undefined ? t('network.pages') : t('network.branchPages')}
        range={
          meta.total > meta.per_page
            ? t('network.range', {
                first: count(first),
                last: count(first + nodes.length - 1),
                total: count(meta.total),
              })
            : undefined
        }
      />
    </div>
  );
}

function NetworkNode({ node, expandable }: { node: PartnerNetworkNode; expandable: boolean }) {
  const f = usePartnerFormat();
  const { t } = f;
  const [open, setOpen] = useState(false);
  const branchId = useId();
  const canOpen = expandable && node.referrals > 0 && node.level < 3;
  return (
    <li className={styles.node}>
      <div className={styles.nodeRow}>
        <div className={styles.nodeWho}>
          <span className={styles.nodeEmail}>{node.email}</span>
          <span className={styles.muted}>
            {t('network.meta', { level: node.level, date: f.date(node.registered_at) })}
          </span>
        </div>
        <span className={node.active ? styles.active : styles.inactive}>
          {node.active ? t('network.active') : t('network.inactive')}
        </span>
        <dl className={styles.nodeFigures}>
          <div>
            <dt>{t('network.turnover')}</dt>
            <dd>{f.money(node.turnover)}</dd>
          </div>
          <div>
            <dt>{t('network.rewards')}</dt>
            <dd>{f.money(node.rewards)}</dd>
          </div>
        </dl>
        {canOpen ? (
          <Button
            variant="secondary"
            aria-expanded={open}
            aria-controls={open ? branchId : undefined}
            onClick={() => setOpen(!open)}
          >
            {open
              ? t('network.hide', { count: node.referrals })
              : t('network.show', { count: node.referrals })}
          </Button>
        ) : node.level < 3 ? (
          <span className={styles.muted}>{t('network.referrals', { count: node.referrals })}</span>
        ) : null}
      </div>
      {open ? (
        <div id={branchId}>
          <Branch parentId={node.id} />
        </div>
      ) : null}
    </li>
  );
}
