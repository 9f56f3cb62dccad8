import type { TestRequest } from '@tradehost/contracts';
import { useId, useRef, useState } from 'react';
import { Button } from '../../../shared/ui/form';
import { useOrderVpsTestServerMutation } from '../api/vps-api';
import { useFailure } from '../../../shared/lib/use-failure';
import { useVpsFormat } from '../lib/use-vps-format';
import { FailureAlert } from './failure-alert';
import {
  NO_ANSWER,
  SourceQuestion,
  sourceBody,
  sourceErrors,
  type SourceAnswer,
} from './source-question';
import { RequestStatusBadge } from './status-badge';
import styles from './vps.module.css';

export interface TestServerCardProps {
  trialDays: number;
  /** The reader's request, null before they ask. */
  request: TestRequest | null;
  onOpenServers: () => void;
}

/**
 * "Free test server for N days": one per account, reviewed within one business day (SPEC 4).
 * Before the request: the source question and Order; after: where the request stands.
 */
export function TestServerCard({ trialDays, request, onOpenServers }: TestServerCardProps) {
  const { t, days } = useVpsFormat();
  const headingId = useId();
  const [sent, setSent] = useState<TestRequest | null>(null);
  const current = request ?? sent;

  return (
    <section className={styles.testCard} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.testTitle}>
        {t('test.title', { duration: days(trialDays) })}
      </h3>
      {current ? (
        <RequestStatus request={current} onOpenServers={onOpenServers} />
      ) : (
        <TestServerForm onSent={setSent} />
      )}
    </section>
  );
}

function RequestStatus({
  request,
  onOpenServers,
}: {
  request: TestRequest;
  onOpenServers: () => void;
}) {
  const { t, date } = useVpsFormat();
  return (
    <div className={styles.requestStatus} role="status">
      <p className={styles.requestLine}>
        <span>{t('test.requestOf', { date: date(request.created_at) })}</span>
        <RequestStatusBadge status={request.status} />
      </p>
      <p className={styles.requestText}>{t(`test.status.${request.status}`)}</p>
      {request.status === 'rejected' && request.reason ? (
        <p className={styles.requestText}>{t('test.reason', { reason: request.reason })}</p>
      ) : null}
      {request.status === 'approved' ? (
        <div>
          <Button variant="secondary" onClick={onOpenServers}>
            {t('test.openServers')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function TestServerForm({ onSent }: { onSent: (request: TestRequest) => void }) {
  const { t } = useVpsFormat();
  const [answer, setAnswer] = useState<SourceAnswer>(NO_ANSWER);
  const [errors, setErrors] = useState<{ source?: string; other?: string }>({});
  const selectRef = useRef<HTMLSelectElement>(null);
  const [order, { isLoading }] = useOrderVpsTestServerMutation();
  const { failure, alertRef, fail, clear } = useFailure();

  const submit = async () => {
    const found = sourceErrors(answer);
    setErrors(found);
    if (found.source || found.other) {
      selectRef.current?.focus();
      return;
    }
    clear();
    try {
      const result = await order(sourceBody(answer)).unwrap();
      onSent(result.test_request);
    } catch (error) {
      fail(error);
    }
  };

  return (
    <form
      className={styles.testForm}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p className={styles.muted}>{t('test.text')}</p>
      <FailureAlert failure={failure} alertRef={alertRef} />
      <SourceQuestion
        value={answer}
        onChange={(next) => {
          setAnswer(next);
          setErrors({});
        }}
        errors={errors}
        selectRef={selectRef}
      />
      <div>
        <Button
          type="submit"
          variant="secondary"
          loading={isLoading}
          loadingText={t('test.ordering')}
        >
          {t('test.order')}
        </Button>
      </div>
    </form>
  );
}
