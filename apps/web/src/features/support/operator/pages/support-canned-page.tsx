import type { CannedReply } from '@tradehost/contracts';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import {
  useDeleteCannedReplyMutation,
  useGetCannedRepliesQuery,
} from '../api/support-operator-api';
import { CannedReplyDialog } from '../components/canned-reply-dialog';
import { type Column } from '../../../operator/components/data-table';
import { DeleteItemDialog } from '../../../operator/components/item-dialogs';
import { ItemsSection } from '../components/items-section';
import { SupportNav } from '../components/support-badges';
import { useFormatters } from '../../../operator/lib/format';
import { useItemDialog } from '../../../operator/lib/use-item-dialog';
import styles from '../../../operator/components/operator.module.css';
import supportStyles from '../components/support.module.css';

/**
 * Route module (lazy, admins only): the help desk's canned replies, each with its text in English
 * and Russian (the reply box inserts the one of the ticket owner's language); add, edit, delete
 * (asked first).
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('support.canned.title'));
  const format = useFormatters();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const query = useGetCannedRepliesQuery();
  const [remove] = useDeleteCannedReplyMutation();
  const editor = useItemDialog<CannedReply | null>();
  const deletion = useItemDialog<CannedReply>();
  const deleting = deletion.subject?.item;

  const columns: Column<CannedReply>[] = [
    {
      id: 'title',
      header: t('support.canned.columns.title'),
      cell: (reply) => <strong>{reply.title}</strong>,
    },
    {
      id: 'body_en',
      header: t('support.canned.columns.body_en'),
      cell: (reply) => (
        <span className={supportStyles.excerpt} lang="en">
          {reply.body_en}
        </span>
      ),
    },
    {
      id: 'body_ru',
      header: t('support.canned.columns.body_ru'),
      cell: (reply) => (
        <span className={supportStyles.excerpt} lang="ru">
          {reply.body_ru}
        </span>
      ),
    },
    {
      id: 'updated',
      header: t('support.canned.columns.updated'),
      moment: true,
      cell: (reply) => format.dateTime(reply.updated_at),
    },
    {
      id: 'actions',
      header: t('support.canned.columns.actions'),
      actions: true,
      cell: (reply) => (
        <span className={styles.rowActions}>
          <Button variant="secondary" onClick={(event) => editor.show(reply, event.currentTarget)}>
            {t('support.edit')}{' '}
            <span className="visually-hidden">
              {t('support.canned.rowContext', { title: reply.title })}
            </span>
          </Button>
          <Button
            variant="secondary"
            className={styles.danger}
            onClick={(event) => deletion.show(reply, event.currentTarget)}
          >
            {t('support.delete')}{' '}
            <span className="visually-hidden">
              {t('support.canned.rowContext', { title: reply.title })}
            </span>
          </Button>
        </span>
      ),
    },
  ];

  return (
    <div className={styles.section}>
      <SupportNav />
      <ItemsSection
        headingRef={headingRef}
        title={t('support.canned.title')}
        lead={t('support.canned.lead')}
        addLabel={t('support.canned.add')}
        onAdd={(opener) => editor.show(null, opener)}
        query={query}
        empty={t('support.canned.empty')}
        columns={columns}
        rowKey={(reply) => reply.id}
      />
      {editor.subject ? (
        <CannedReplyDialog
          // a fresh form each time it opens
          key={editor.subject.key}
          reply={editor.subject.item}
          {...editor.dialog}
        />
      ) : null}
      {deleting ? (
        <DeleteItemDialog
          key={deleting.id}
          {...deletion.dialog}
          close={deletion.close}
          title={t('support.canned.deleteDialog.title')}
          question={t('support.canned.deleteDialog.question', { title: deleting.title })}
          submitLabel={t('support.canned.deleteDialog.submit')}
          remove={() => remove({ id: deleting.id }).unwrap()}
          deletedText={t('support.canned.deleted', { title: deleting.title })}
          headingRef={headingRef}
        />
      ) : null}
    </div>
  );
}
