import type { TicketSummary } from '@tradehost/contracts';
import { useMemo, useRef, useState } from 'react';
import { useFailure } from '../../../shared/lib/use-failure';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { FailureAlert } from '../../../shared/ui/failure-alert/failure-alert';
import { Button } from '../../../shared/ui/form';
import { notify } from '../../../shared/ui/toast/notify';
import { useCloseTicketMutation } from '../api/support-api';
import { useSupportFormat } from '../lib/use-support-format';

/**
 * "Close ticket", after a confirmation that says writing in it later resumes it. The button goes
 * with the ticket's closing: the focus then moves to the element with `fallbackFocusId`.
 */
export function CloseTicket({
  ticket,
  fallbackFocusId,
}: {
  ticket: TicketSummary;
  fallbackFocusId: string;
}) {
  const { t } = useSupportFormat();
  const [confirming, setConfirming] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [close, closing] = useCloseTicketMutation();
  const { failure, alertRef, fail, clear } = useFailure();
  const returnFocusTo = useMemo(
    () => ({
      get current(): HTMLElement | null {
        const button = buttonRef.current;
        return button?.isConnected ? button : document.getElementById(fallbackFocusId);
      },
    }),
    [fallbackFocusId],
  );

  const confirm = async () => {
    clear();
    try {
      await close(ticket.id).unwrap();
      setConfirming(false);
      notify('success', t('closing.done', { id: ticket.id }));
    } catch (error) {
      fail(error);
    }
  };

  return (
    <>
      <Button ref={buttonRef} variant="secondary" onClick={() => setConfirming(true)}>
        {t('closing.button')}
      </Button>
      {confirming ? (
        <Dialog
          open
          onOpenChange={(open) => {
            if (!open) clear();
            setConfirming(open);
          }}
          title={t('closing.title', { id: ticket.id })}
          description={t('closing.lead')}
          closeLabel={t('close')}
          busy={closing.isLoading}
          returnFocusTo={returnFocusTo}
        >
          <FailureAlert failure={failure} alertRef={alertRef} topUp={null} />
          <DialogActions>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
            <Button loading={closing.isLoading} onClick={() => void confirm()}>
              {t('closing.confirm')}
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </>
  );
}
