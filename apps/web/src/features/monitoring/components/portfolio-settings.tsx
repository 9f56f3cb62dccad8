import type { MonitoringAccount, PortfolioSummary } from '@tradehost/contracts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useFailure } from '../../../shared/lib/use-failure';
import { Button, Checkbox } from '../../../shared/ui/form';
import { useDeletePortfolioMutation, useUpdatePortfolioMutation } from '../api/portfolios-api';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { FailureAlert } from './failure';
import { RemovalZone, ShareLink } from './settings-parts';
import styles from './monitoring.module.css';
import {
  checkPortfolio,
  PortfolioFields,
  portfolioFieldErrors,
  type PortfolioErrors,
} from './portfolio-form';

/**
 * The owner's settings of a portfolio: its name and accounts, the public page (with its link to
 * copy) and whether it hides money; apart from them, under Save, its deletion after a
 * confirmation that names it (its accounts stay as they are).
 */
export function PortfolioSettings({
  portfolio,
  accounts,
}: {
  portfolio: PortfolioSummary;
  accounts: MonitoringAccount[];
}) {
  const { t } = useMonitoringFormat();
  const navigate = useNavigate();
  const [update, updating] = useUpdatePortfolioMutation();
  const [remove, removing] = useDeletePortfolioMutation();
  const saved = useFailure();
  const [done, setDone] = useState(false);
  const [values, setValues] = useState({
    name: portfolio.name,
    accountIds: portfolio.account_ids,
    isPublic: portfolio.is_public,
    hideMoney: portfolio.hide_money,
  });
  const [errors, setErrors] = useState<PortfolioErrors>({});

  const save = async (event: FormEvent) => {
    event.preventDefault();
    saved.clear();
    setDone(false);
    const refused = checkPortfolio(t, values);
    setErrors(refused);
    if (Object.keys(refused).length > 0) return;
    try {
      await update({
        id: portfolio.id,
        name: values.name.trim(),
        account_ids: values.accountIds,
        is_public: values.isPublic,
        hide_money: values.hideMoney,
      }).unwrap();
      setDone(true);
    } catch (error) {
      const fields = portfolioFieldErrors(t, error);
      setErrors(fields);
      if (Object.keys(fields).length === 0) saved.fail(error);
    }
  };

  return (
    <section className={styles.section} aria-labelledby="portfolio-settings-title">
      <h2 id="portfolio-settings-title" className={styles.sectionTitle}>
        {t('settings.title')}
      </h2>
      <form className={styles.checks} onSubmit={(event) => void save(event)} noValidate>
        <PortfolioFields
          accounts={accounts}
          values={values}
          errors={errors}
          onChange={(next) => setValues((v) => ({ ...v, ...next }))}
        />
        <fieldset className={styles.group}>
          <legend className={styles.legend}>{t('settings.publicPage')}</legend>
          {portfolio.is_public ? (
            <ShareLink path={`/online-monitoring/portfolios/${portfolio.monitoring_id}`} />
          ) : null}
          <Checkbox
            label={t('portfolio.settings.isPublic')}
            hint={t('portfolio.settings.isPublicHint')}
            checked={values.isPublic}
            onChange={(event) => setValues((v) => ({ ...v, isPublic: event.target.checked }))}
          />
          <Checkbox
            label={t('settings.hide_money')}
            checked={values.hideMoney}
            disabled={!values.isPublic}
            onChange={(event) => setValues((v) => ({ ...v, hideMoney: event.target.checked }))}
          />
        </fieldset>
        <FailureAlert failure={saved.failure} alertRef={saved.alertRef} />
        {done ? (
          <p role="status" className={styles.up}>
            {t('settings.saved')}
          </p>
        ) : null}
        <div className={styles.row}>
          <Button type="submit" loading={updating.isLoading}>
            {t('settings.save')}
          </Button>
        </div>
      </form>
      <RemovalZone
        id="portfolio-remove-title"
        title={t('portfolio.settings.removeTitle')}
        lead={t('portfolio.settings.removeLead')}
        action={t('portfolio.settings.remove')}
        confirmTitle={t('portfolio.settings.deleteTitle', { name: portfolio.name })}
        confirmLead={t('portfolio.settings.deleteLead')}
        confirmLabel={t('portfolio.settings.deleteConfirm')}
        busy={removing.isLoading}
        remove={() =>
          remove(portfolio.id)
            .unwrap()
            .then(() => navigate('/online-monitoring/portfolios'))
        }
      />
    </section>
  );
}
