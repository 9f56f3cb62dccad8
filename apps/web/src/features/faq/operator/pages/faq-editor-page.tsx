import { FAQ_GROUPS, type FaqGroup, type FaqItem } from '@tradehost/contracts';
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { EmptyState } from '../../../../shared/ui/states/states';
import { useDeleteFaqItemMutation, useGetAdminFaqQuery } from '../api/faq-operator-api';
import { DataTable, type Column } from '../../../operator/components/data-table';
import { FaqItemDialog } from '../components/faq-item-dialog';
import { DeleteItemDialog } from '../../../operator/components/item-dialogs';
import { ListHeader } from '../../../operator/components/list-controls';
import { QueryStates } from '../../../operator/components/states';
import { PublishedBadge } from '../components/published-badge';
import { useFormatters } from '../../../operator/lib/format';
import { useReaderLanguage } from '../../../operator/lib/reader-language';
import { useItemDialog } from '../../../operator/lib/use-item-dialog';
import styles from '../../../operator/components/operator.module.css';
import controlStyles from '../../../operator/components/controls.module.css';
import faqStyles from '../components/faq-editor.module.css';

/** After the last question of the group. */
const nextPosition = (items: readonly FaqItem[], group: FaqGroup) => {
  const positions = items.filter((item) => item.group === group).map((item) => item.position);
  return positions.length > 0 ? Math.max(...positions) + 1 : 1;
};

/**
 * Route module (lazy, admins only): the FAQ editor. Every question by group (partners, support,
 * monitoring, the monitoring guide) and position, published or a draft; add, edit, delete (asked
 * first). The users' FAQ shows the published ones.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('faq.title'));
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const query = useGetAdminFaqQuery();
  const [remove] = useDeleteFaqItemMutation();
  const editor = useItemDialog<FaqItem | null>();
  const deletion = useItemDialog<FaqItem>();
  const deleting = deletion.subject?.item;
  const items = query.data?.data ?? [];
  const language = useReaderLanguage();
  const question = (item: FaqItem) => (language === 'ru' ? item.question_ru : item.question_en);

  return (
    <div className={styles.section}>
      <section className={styles.section} aria-labelledby={headingId}>
        <ListHeader
          headingId={headingId}
          headingRef={headingRef}
          title={t('faq.title')}
          lead={t('faq.lead')}
        >
          <Button onClick={(event) => editor.show(null, event.currentTarget)}>
            {t('faq.add')}
          </Button>
        </ListHeader>
        <QueryStates result={query} isEmpty={() => false} empty={null}>
          {(list) => (
            <div
              className={`${faqStyles.groups} ${faqStyles.faqTables}`}
              aria-busy={query.isFetching || undefined}
            >
              {FAQ_GROUPS.map((group) => (
                <FaqGroupSection
                  key={group}
                  group={group}
                  items={list.data.filter((item) => item.group === group)}
                  onEdit={editor.show}
                  onDelete={deletion.show}
                />
              ))}
            </div>
          )}
        </QueryStates>
      </section>
      {editor.subject ? (
        <FaqItemDialog
          // a fresh form each time it opens
          key={editor.subject.key}
          item={editor.subject.item}
          group={FAQ_GROUPS[0]}
          positionIn={(group) => nextPosition(items, group)}
          {...editor.dialog}
        />
      ) : null}
      {deleting ? (
        <DeleteItemDialog
          key={deleting.id}
          {...deletion.dialog}
          close={deletion.close}
          title={t('faq.deleteDialog.title')}
          question={t('faq.deleteDialog.question', { question: question(deleting) })}
          submitLabel={t('faq.deleteDialog.submit')}
          remove={() => remove({ id: deleting.id }).unwrap()}
          deletedText={t('faq.deleted', { question: question(deleting) })}
          headingRef={headingRef}
        />
      ) : null}
    </div>
  );
}

/** One group's questions in their order, as a table (cards on a phone). */
function FaqGroupSection({
  group,
  items,
  onEdit,
  onDelete,
}: {
  group: FaqGroup;
  items: readonly FaqItem[];
  onEdit: (item: FaqItem, opener: HTMLElement) => void;
  onDelete: (item: FaqItem, opener: HTMLElement) => void;
}) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const language = useReaderLanguage();
  const headingId = useId();
  const question = (item: FaqItem) => (language === 'ru' ? item.question_ru : item.question_en);

  // the same widths in every group's table, so that their columns line up (support.module.css)
  const columns: Column<FaqItem>[] = [
    {
      id: 'position',
      header: t('faq.columns.position'),
      numeric: true,
      width: 'var(--faq-position)',
      cell: (item) => item.position,
    },
    {
      id: 'question',
      header: t('faq.columns.question'),
      cell: (item) => (
        <span className={controlStyles.stack}>
          <span lang={language}>{question(item)}</span>
          <span className={controlStyles.small} lang={language === 'ru' ? 'en' : 'ru'}>
            {language === 'ru' ? item.question_en : item.question_ru}
          </span>
        </span>
      ),
    },
    {
      id: 'slug',
      header: t('faq.columns.slug'),
      width: 'var(--faq-slug)',
      cell: (item) => <span className={styles.mono}>#{item.slug}</span>,
    },
    {
      id: 'published',
      header: t('faq.columns.published'),
      width: 'var(--faq-published)',
      cell: (item) => <PublishedBadge published={item.published} />,
    },
    {
      id: 'updated',
      header: t('faq.columns.updated'),
      width: 'var(--faq-updated)',
      moment: true,
      cell: (item) => format.dateTime(item.updated_at),
    },
    {
      id: 'actions',
      header: t('faq.columns.actions'),
      actions: true,
      width: 'var(--faq-actions)',
      cell: (item) => {
        const context = t('faq.rowContext', { question: question(item) });
        return (
          <span className={styles.rowActions}>
            <Button variant="secondary" onClick={(event) => onEdit(item, event.currentTarget)}>
              {t('support.edit')} <span className="visually-hidden">{context}</span>
            </Button>
            <Button
              variant="secondary"
              className={styles.danger}
              onClick={(event) => onDelete(item, event.currentTarget)}
            >
              {t('support.delete')} <span className="visually-hidden">{context}</span>
            </Button>
          </span>
        );
      },
    },
  ];

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.groupTitle}>
        {t(`faq.groups.${group}`)}{' '}
        <span className={styles.muted}>{t('faq.count', { count: items.length })}</span>
      </h3>
      {items.length > 0 ? (
        <DataTable
          labelledBy={headingId}
          columns={columns}
          rows={items}
          rowKey={(item) => item.id}
        />
      ) : (
        <EmptyState>{t('faq.emptyGroup')}</EmptyState>
      )}
    </section>
  );
}
