import RFB from '@novnc/novnc';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { API_BASE } from '../../../shared/api/session-refresh';
import { errorText } from '../../../shared/lib/api-error';
import { Button, FormAlert, TextField } from '../../../shared/ui/form';
import { useCreateVpsConsoleTicketMutation } from '../api/vps-api';
import { keyPresses, XK_SHIFT_L } from '../lib/console-keys';
import { useVpsFormat } from '../lib/use-vps-format';
import styles from './console.module.css';

type ConsoleState = 'connecting' | 'connected' | 'disconnected' | 'error';

/** The relay's WebSocket for a ticket, on the API's own origin (ws: or wss: as the page is). */
export const consoleSocketUrl = (serverId: number, ticket: string) =>
  `${API_BASE.replace(/^http/, 'ws')}/user/vps/servers/${serverId}/console/socket?ticket=${encodeURIComponent(ticket)}`;

/**
 * The server's screen through noVNC: a ticket (POST .../console), then the relay's WebSocket. It
 * says where the connection stands (connecting, connected, closed, failed, read out politely),
 * offers Reconnect once it is closed or failed, Ctrl+Alt+Del (which the browser would keep for
 * itself if pressed), full screen, and a field whose text is typed on the server key by key:
 * the console has no clipboard (see console-keys.ts). The screen scales down to the page's width.
 */
export function ConsoleScreen({ serverId }: { serverId: number }) {
  const { t } = useVpsFormat();
  const [createTicket] = useCreateVpsConsoleTicketMutation();
  const screenRef = useRef<HTMLDivElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const rfbRef = useRef<RFB | null>(null);
  const [state, setState] = useState<ConsoleState>('connecting');
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [fullScreen, setFullScreen] = useState(false);
  const [text, setText] = useState('');
  const [typed, setTyped] = useState(false);
  const statusId = useId();

  useEffect(() => {
    let cancelled = false;
    let rfb: RFB | null = null;
    createTicket(serverId)
      .unwrap()
      .then(({ ticket }) => {
        if (cancelled || !screenRef.current) return;
        rfb = new RFB(screenRef.current, consoleSocketUrl(serverId, ticket));
        rfb.scaleViewport = true;
        rfb.resizeSession = false;
        rfb.background = 'transparent';
        rfb.addEventListener('connect', () => setState('connected'));
        rfb.addEventListener('disconnect', (event) => {
          const { clean } = (event as CustomEvent<{ clean: boolean }>).detail;
          rfbRef.current = null;
          if (!cancelled) setState(clean ? 'disconnected' : 'error');
        });
        rfbRef.current = rfb;
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        setFailure(errorText(t, error));
        setState('error');
      });
    return () => {
      cancelled = true;
      rfb?.disconnect();
      rfbRef.current = null;
    };
  }, [serverId, attempt, createTicket, t]);

  useEffect(() => {
    const follow = () => setFullScreen(document.fullscreenElement === frameRef.current);
    document.addEventListener('fullscreenchange', follow);
    return () => document.removeEventListener('fullscreenchange', follow);
  }, []);

  const connected = state === 'connected';
  const reconnect = () => {
    setState('connecting');
    setFailure(null);
    setAttempt((n) => n + 1);
  };
  const toggleFullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void frameRef.current?.requestFullscreen();
  };
  const sendCtrlAltDel = () => {
    rfbRef.current?.sendCtrlAltDel();
    rfbRef.current?.focus();
  };
  const typeText = (event: FormEvent) => {
    event.preventDefault();
    const rfb = rfbRef.current;
    if (!rfb || !text) return;
    for (const { keysym, shift } of keyPresses(text)) {
      if (shift) rfb.sendKey(XK_SHIFT_L, 'ShiftLeft', true);
      rfb.sendKey(keysym, null);
      if (shift) rfb.sendKey(XK_SHIFT_L, 'ShiftLeft', false);
    }
    setText('');
    setTyped(true);
    rfb.focus();
  };

  return (
    <div className={styles.console}>
      <div className={styles.toolbar}>
        <p id={statusId} className={styles.status} role="status" data-state={state}>
          <span className={styles.dot} aria-hidden="true" />
          {t(`console.state.${state}`)}
        </p>
        <div className={styles.controls}>
          {state === 'disconnected' || state === 'error' ? (
            <Button variant="primary" onClick={reconnect}>
              {t('console.reconnect')}
            </Button>
          ) : null}
          <Button
            variant="secondary"
            disabled={!connected}
            aria-label={t('console.ctrlAltDelLabel')}
            onClick={sendCtrlAltDel}
          >
            {t('console.ctrlAltDel')}
          </Button>
          <Button variant="secondary" aria-pressed={fullScreen} onClick={toggleFullScreen}>
            {fullScreen ? t('console.exitFullScreen') : t('console.fullScreen')}
          </Button>
        </div>
      </div>
      {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
      <div ref={frameRef} className={styles.frame}>
        <div
          ref={screenRef}
          className={styles.screen}
          role="application"
          aria-label={t('console.screen', { id: serverId })}
          aria-describedby={statusId}
          data-testid="console-screen"
        />
      </div>
      <form className={styles.typing} onSubmit={typeText}>
        <TextField
          label={t('console.type.label')}
          hint={t('console.type.hint')}
          value={text}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => {
            setText(event.target.value);
            setTyped(false);
          }}
        />
        <Button type="submit" variant="secondary" disabled={!connected || !text}>
          {t('console.type.button')}
        </Button>
      </form>
      {typed ? (
        <p className={styles.typed} role="status">
          {t('console.type.done')}
        </p>
      ) : null}
    </div>
  );
}
