import { AVATAR_MAX_BYTES, AVATAR_MIME_TYPES, type User } from '@tradehost/contracts';
import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/lib/api-error';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, buttonClassName, FormAlert } from '../../../shared/ui/form';
import { useRemoveAvatarMutation, useUploadAvatarMutation } from '../api/profile-api';
import { ProfileSection } from './profile-section';
import styles from './profile.module.css';

type Notice = { tone: 'error' | 'success'; text: string; serial: number };

/** Why a chosen file cannot be an avatar (the server checks its content again), or null. */
export function avatarFileProblem(file: File): 'AVATAR_TOO_LARGE' | 'AVATAR_FORMAT' | null {
  if (!AVATAR_MIME_TYPES.some((type) => type === file.type)) return 'AVATAR_FORMAT';
  if (file.size > AVATAR_MAX_BYTES) return 'AVATAR_TOO_LARGE';
  return null;
}

interface Chosen {
  file: File;
  /** An object URL of the file, for the preview. */
  url: string;
}

/**
 * The file chosen to upload and its preview URL. The URL is made when the file is chosen and
 * released when another is chosen, the choice is cleared or the section goes.
 */
function useChosenFile() {
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const current = useRef<Chosen | null>(null);
  const choose = useCallback((file: File | null) => {
    if (current.current) URL.revokeObjectURL(current.current.url);
    current.current = file ? { file, url: URL.createObjectURL(file) } : null;
    setChosen(current.current);
  }, []);
  useEffect(
    () => () => {
      if (current.current) URL.revokeObjectURL(current.current.url);
    },
    [],
  );
  return [chosen, choose] as const;
}

function AvatarImage({ user, preview }: { user: User; preview: string | null }) {
  const { t } = useTranslation('profile');
  const src = preview ?? user.photo_path;
  if (src)
    return (
      <img
        className={styles.avatar}
        src={src}
        alt={preview ? t('avatar.preview') : t('avatar.current')}
        width="96"
        height="96"
        data-testid="profile-avatar"
      />
    );
  const letter = Array.from(user.name.trim())[0]?.toUpperCase() ?? '';
  return (
    <span className={`${styles.avatar} ${styles.avatarLetter}`} aria-hidden="true">
      {letter}
    </span>
  );
}

/**
 * The photo: the current one (or the name's letter), a file chosen and previewed before it is
 * saved, the rules (format, 1 MB) checked in the browser first and by the server on its content,
 * and its removal after a confirmation.
 */
export function AvatarSection({ user }: { user: User }) {
  const { t, i18n } = useTranslation('profile');
  const inputId = useId();
  const rulesId = useId();
  const [chosen, chooseFile] = useChosenFile();
  const file = chosen?.file ?? null;
  const [notice, setNotice] = useState<Notice | null>(null);
  const [confirming, setConfirming] = useState(false);
  const noticeRef = useRef<HTMLDivElement>(null);
  const preview = chosen?.url ?? null;
  const [upload, { isLoading: uploading }] = useUploadAvatarMutation();
  const [remove, { isLoading: removing }] = useRemoveAvatarMutation();

  useEffect(() => {
    if (notice?.tone === 'error') noticeRef.current?.focus();
  }, [notice]);

  const say = (tone: Notice['tone'], text: string) =>
    setNotice((previous) => ({ tone, text, serial: (previous?.serial ?? 0) + 1 }));

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    event.target.value = ''; // the same file chosen again is a change too
    if (!picked) return;
    const problem = avatarFileProblem(picked);
    chooseFile(problem ? null : picked);
    if (problem) say('error', t(`errors:${problem}`));
    else setNotice(null);
  };

  const save = async () => {
    if (!file) return;
    try {
      await upload(file).unwrap();
      chooseFile(null);
      say('success', t('avatar.saved'));
    } catch (error) {
      say('error', errorText(t, error));
    }
  };

  const confirmRemove = async () => {
    try {
      await remove().unwrap();
      setConfirming(false);
      say('success', t('avatar.removed'));
    } catch (error) {
      setConfirming(false);
      say('error', errorText(t, error));
    }
  };

  const size = file
    ? new Intl.NumberFormat(i18n.language, {
        style: 'unit',
        unit: 'kilobyte',
        maximumFractionDigits: 0,
      }).format(Math.max(1, file.size / 1024))
    : '';

  return (
    <ProfileSection title={t('avatar.title')}>
      <div className={styles.avatarRow}>
        <AvatarImage user={user} preview={preview} />
        <div className={styles.avatarText}>
          <p id={rulesId} className={styles.muted}>
            {t('avatar.rules')}
          </p>
          {!user.photo_path && !file ? <p className={styles.muted}>{t('avatar.none')}</p> : null}
          {file ? (
            <p className={styles.muted}>{t('avatar.selected', { name: file.name, size })}</p>
          ) : null}
        </div>
      </div>
      {notice ? (
        <FormAlert ref={noticeRef} key={notice.serial} tone={notice.tone}>
          {notice.text}
        </FormAlert>
      ) : null}
      <div className={styles.actions}>
        <input
          id={inputId}
          type="file"
          accept={AVATAR_MIME_TYPES.join(',')}
          className={`visually-hidden ${styles.fileInput}`}
          aria-describedby={rulesId}
          disabled={uploading || removing}
          onChange={choose}
        />
        <label htmlFor={inputId} className={buttonClassName({ variant: 'secondary' })}>
          {file ? t('avatar.chooseAnother') : t('avatar.choose')}
        </label>
        {file ? (
          <>
            <Button
              loading={uploading}
              loadingText={t('avatar.saving')}
              onClick={() => void save()}
            >
              {t('avatar.save')}
            </Button>
            <Button variant="ghost" disabled={uploading} onClick={() => chooseFile(null)}>
              {t('cancel')}
            </Button>
          </>
        ) : user.photo_path ? (
          <Button variant="ghost" disabled={removing} onClick={() => setConfirming(true)}>
            {t('avatar.remove')}
          </Button>
        ) : null}
      </div>
      {confirming ? (
        <Dialog
          open
          onOpenChange={setConfirming}
          title={t('avatar.confirmRemoveTitle')}
          description={t('avatar.confirmRemoveText')}
          closeLabel={t('close')}
          busy={removing}
        >
          <DialogActions>
            <Button variant="secondary" disabled={removing} onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
            <Button
              loading={removing}
              loadingText={t('avatar.removing')}
              onClick={() => void confirmRemove()}
            >
              {t('avatar.remove')}
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </ProfileSection>
  );
}
