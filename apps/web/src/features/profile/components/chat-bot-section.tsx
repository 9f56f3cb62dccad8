import {
  TELEGRAM_PURPOSES,
  type TelegramChatStatus,
  type TelegramLinkResponse,
  type TelegramPurpose,
} from '@tradehost/contracts';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/lib/api-error';
import { formatDate, formatTime } from '../../../shared/lib/format-date';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, buttonClassName, FormAlert } from '../../../shared/ui/form';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { StatusBadge } from '../../../shared/ui/status-badge/status-badge';
import {
  useCreateTelegramLinkMutation,
  useGetTelegramStatusQuery,
  useUnlinkTelegramMutation,
} from '../api/telegram-api';
import styles from './chat-bot-section.module.css';
import profileStyles from './profile.module.css';
import { ProfileSection } from './profile-section';

/** How often the status is asked while a deep link waits for the user's Start in Telegram. */
export const LINK_POLL_MS = 3000;

/** A deep link handed out, and the chat linked before it (a relink replaces that one). */
interface PendingLink extends TelegramLinkResponse {
  linkedAtBefore: string | null;
}

type Outcome = { tone: 'success' | 'error'; text: string; serial: number };

interface PurposeRowProps {
  purpose: TelegramPurpose;
  chat: TelegramChatStatus;
  pending: PendingLink | undefined;
  /** The chat was linked with the link handed out on this page. */
  justLinked: boolean;
  linking: boolean;
  onLink(): void;
  onUnlink(): void;
}

function PurposeRow(props: PurposeRowProps) {
  const { purpose, chat, pending, justLinked, linking, onLink, onUnlink } = props;
  const { t, i18n } = useTranslation('profile');
  const headingId = useId();
  // each control named after its purpose too ("Link Telegram for monitoring"): two items each
  // with a "Link Telegram" and an "Unlink" read alike in a list of controls or to speech input;
  // the words on the button come first, so that saying them still finds it
  const purposeName = { purpose: t(`chatBot.purposes.${purpose}.for`) };
  return (
    <li className={profileStyles.part} aria-labelledby={headingId}>
      <div className={profileStyles.partHead}>
        <h3 id={headingId} className={profileStyles.partTitle}>
          {t(`chatBot.purposes.${purpose}.title`)}
        </h3>
        {chat.linked ? (
          <StatusBadge tone="success" status="linked">
            {t('chatBot.linked')}
          </StatusBadge>
        ) : (
          <StatusBadge tone="neutral" status="not-linked">
            {t('chatBot.notLinked')}
          </StatusBadge>
        )}
      </div>
      <p className={styles.muted}>{t(`chatBot.purposes.${purpose}.hint`)}</p>
      {chat.linked ? (
        <p className={styles.chat}>
          {t('chatBot.linkedTo', { title: chat.title })}
          {chat.linked_at ? (
            <>
              {' '}
              <time dateTime={chat.linked_at}>
                {t('chatBot.since', { date: formatDate(chat.linked_at, i18n.language) })}
              </time>
            </>
          ) : null}
        </p>
      ) : null}
      {justLinked ? (
        <FormAlert tone="success">{t('chatBot.linkedNow', { title: chat.title })}</FormAlert>
      ) : null}
      {pending ? (
        <FormAlert tone="info">
          {t('chatBot.pending', { time: formatTime(pending.expires_at, i18n.language) })}{' '}
          <a href={pending.link} target="_blank" rel="noopener noreferrer">
            {t('chatBot.openLink')}
          </a>
        </FormAlert>
      ) : null}
      <div className={styles.actions}>
        <Button
          variant={chat.linked ? 'secondary' : 'primary'}
          loading={linking}
          loadingText={t('chatBot.linking')}
          aria-label={
            linking
              ? undefined
              : t(chat.linked ? 'chatBot.relinkNamed' : 'chatBot.linkNamed', purposeName)
          }
          onClick={onLink}
        >
          {chat.linked ? t('chatBot.relink') : t('chatBot.link')}
        </Button>
        {chat.linked && chat.bot_link ? (
          <a
            className={buttonClassName({ variant: 'ghost' })}
            href={chat.bot_link}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={t('chatBot.openChatNamed', purposeName)}
          >
            {t('chatBot.openChat')}
          </a>
        ) : null}
        {chat.linked ? (
          <Button
            variant="ghost"
            aria-label={t('chatBot.unlinkNamed', purposeName)}
            onClick={onUnlink}
          >
            {t('chatBot.unlink')}
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/**
 * The chat-bot (SPEC: Profile, chat-bot link): per purpose (account notifications, monitoring)
 * whether a Telegram chat is linked and which; "Link Telegram" opens a one-time deep link in
 * Telegram and the status is asked again until the chat is linked; "Unlink" after a confirmation.
 */
export function ChatBotSection({ pollMs = LINK_POLL_MS }: { pollMs?: number }) {
  const { t } = useTranslation('profile');
  const [pending, setPending] = useState<Partial<Record<TelegramPurpose, PendingLink>>>({});
  const forget = (purpose: TelegramPurpose) => setPending(({ [purpose]: _done, ...rest }) => rest);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [confirming, setConfirming] = useState<TelegramPurpose | null>(null);
  const [linkingPurpose, setLinkingPurpose] = useState<TelegramPurpose | null>(null);
  const { data, isLoading, isError, error, refetch } = useGetTelegramStatusQuery();
  const [createLink] = useCreateTelegramLinkMutation();
  const [unlink, { isLoading: unlinking }] = useUnlinkTelegramMutation();
  /** Whether a handed-out link has linked its chat: a chat linked since it was handed out. */
  const usedLink = (purpose: TelegramPurpose) => {
    const link = pending[purpose];
    const chat = data?.[purpose];
    return link !== undefined && chat?.linked === true && chat.linked_at !== link.linkedAtBefore;
  };
  const waiting = TELEGRAM_PURPOSES.some((p) => pending[p] && !usedLink(p));

  // while a link waits for the user's Start in Telegram, the status is asked again and again
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void refetch(), pollMs);
    return () => clearInterval(timer);
  }, [waiting, pollMs, refetch]);

  const report = (tone: Outcome['tone'], text: string) =>
    setOutcome((previous) => ({ tone, text, serial: (previous?.serial ?? 0) + 1 }));

  // a link the user did not use in time stops being waited for
  useEffect(() => {
    const timers = Object.entries(pending).map(([purpose, link]) =>
      setTimeout(
        () => forget(purpose as TelegramPurpose),
        Date.parse(link.expires_at) - Date.now(),
      ),
    );
    return () => timers.forEach(clearTimeout);
  }, [pending]);

  const startLink = async (purpose: TelegramPurpose) => {
    setLinkingPurpose(purpose);
    try {
      const link = await createLink(purpose).unwrap();
      setPending((current) => ({
        ...current,
        [purpose]: { ...link, linkedAtBefore: data?.[purpose].linked_at ?? null },
      }));
      window.open(link.link, '_blank', 'noopener,noreferrer');
    } catch (failure) {
      report('error', errorText(t, failure));
    } finally {
      setLinkingPurpose(null);
    }
  };

  const confirmUnlink = async () => {
    if (!confirming) return;
    try {
      await unlink(confirming).unwrap();
      forget(confirming);
      report('success', t('chatBot.unlinked'));
    } catch (failure) {
      report('error', errorText(t, failure));
    } finally {
      setConfirming(null);
    }
  };

  let body;
  if (isLoading) body = <LoadingState>{t('chatBot.loading')}</LoadingState>;
  else if (isError || !data)
    body = (
      <ErrorState
        title={t('chatBot.loadFailed')}
        detail={errorText(t, error)}
        retryLabel={t('retry')}
        onRetry={() => void refetch()}
      />
    );
  else if (!data.enabled) body = <EmptyState>{t('chatBot.off')}</EmptyState>;
  else
    body = (
      <ul className={profileStyles.parts} aria-label={t('chatBot.title')}>
        {TELEGRAM_PURPOSES.map((purpose) => (
          <PurposeRow
            key={purpose}
            purpose={purpose}
            chat={data[purpose]}
            pending={usedLink(purpose) ? undefined : pending[purpose]}
            justLinked={usedLink(purpose)}
            linking={linkingPurpose === purpose}
            onLink={() => void startLink(purpose)}
            onUnlink={() => setConfirming(purpose)}
          />
        ))}
      </ul>
    );

  return (
    <ProfileSection title={t('chatBot.title')} lead={t('chatBot.lead')}>
      {outcome ? (
        <FormAlert key={outcome.serial} tone={outcome.tone}>
          {outcome.text}
        </FormAlert>
      ) : null}
      {body}
      {confirming && data ? (
        <Dialog
          open
          onOpenChange={(open) => (open ? undefined : setConfirming(null))}
          title={t('chatBot.confirmTitle', {
            purpose: t(`chatBot.purposes.${confirming}.title`),
          })}
          description={t('chatBot.confirmText', { title: data[confirming].title ?? 'Telegram' })}
          closeLabel={t('close')}
          busy={unlinking}
        >
          <DialogActions>
            <Button variant="secondary" disabled={unlinking} onClick={() => setConfirming(null)}>
              {t('cancel')}
            </Button>
            <Button
              loading={unlinking}
              loadingText={t('chatBot.unlinking')}
              onClick={() => void confirmUnlink()}
            >
              {t('chatBot.unlink')}
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </ProfileSection>
  );
}
