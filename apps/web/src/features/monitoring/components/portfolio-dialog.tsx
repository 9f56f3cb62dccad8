import type { MonitoringAccount } from '@tradehost/contracts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useFailure } from '../../../shared/lib/use-failure';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button } from '../../../shared/ui/form';
import { useCreatePortfolioMutation } from '../api/portfolios-api';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { FailureAlert } from './failure';
import styles from './monitoring.module.css';
import {
  checkPortfolio,
  PortfolioFields,
  portfolioFieldErrors,
  type PortfolioErrors,
  type PortfolioValues,
} from './portfolio-form';

/**
 * A new portfolio: its name and 2 to 20 of the reader's accounts, chosen by checkboxes; made, it
 * opens. Refusals show on their fields (the name, the accounts) or above the buttons.
 */
export function NewPortfolioDialog({
  accounts,
  onClose,
}: {
  accounts: MonitoringAccount[];
  onClose: () => void;
}) {
  const { t } = useMonitoringFormat();
  const navigate = useNavigate();
  const [create, { isLoading }] = useCreatePortfolioMutation();
  const { failure, alertRef, fail, clear } = useFailure();
  const [values, setValues] = useState<PortfolioValues>({ name: '', accountIds: [] });
  const [errors, setErrors] = useState<PortfolioErrors>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const refused = checkPortfolio(t, values);
    setErrors(refused);
    if (Object.keys(refused).length > 0) return;
    clear();
    try {
      const made = await create({
        name: values.name.trim(),
        account_ids: values.accountIds,
      }).unwrap();
      onClose();
      void navigate(`/online-monitoring/portfolios/${made.portfolio.monitoring_id}`);
    } catch (error) {
      const fields = portfolioFieldErrors(t, error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) fail(error);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={onClose}
      closeLabel={t('close')}
      title={t('portfolio.new.title')}
      description={t('portfolio.new.lead')}
      busy={isLoading}
    >
      <form className={styles.checks} onSubmit={(event) => void submit(event)} noValidate>
        <PortfolioFields accounts={accounts} values={values} errors={errors} onChange={setValues} />
        <FailureAlert failure={failure} alertRef={alertRef} />
        <DialogActions>
          <Button variant="secondary" disabled={isLoading} onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={isLoading} loadingText={t('portfolio.new.creating')}>
            {t('portfolio.new.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
