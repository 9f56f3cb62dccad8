import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import buttonStyles from '../../../shared/ui/form/button.module.css';
import { openSignedIn } from '../../../test/signed-in';
import { monitoringAccount, stubAccountPage } from '../test-utils';

const ACCOUNT = monitoringAccount();
const BASE = `/user/monitoring/accounts/${ACCOUNT.id}`;

describe('removing an account from monitoring', () => {
  it('sits apart from Save, below it, and asks first, naming the account; Cancel removes nothing and gives the focus back', async () => {
    const api = stubAccountPage(ACCOUNT, { 'DELETE $': { status: 204 } });
    const { user } = await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`);
    const remove = await screen.findByRole(
      'button',
      { name: 'Remove this trading account from monitoring' },
      { timeout: 5000 },
    );
    const save = screen.getByRole('button', { name: /^Save$/ });
    // not a button of the settings' form, which Save sends, but a zone of its own under it
    expect(remove.closest('form')).toBeNull();
    const zone = remove.closest('section')!;
    expect(within(zone).getByRole('heading', { name: 'Remove from monitoring' })).toBeVisible();
    expect(within(zone).queryByRole('button', { name: /^Save$/ })).toBeNull();
    expect(save.compareDocumentPosition(remove) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(remove).toHaveClass(buttonStyles.danger!);

    await user.click(remove);
    const dialog = await screen.findByRole('dialog', {
      name: 'Remove “Swing EURUSD” (account 5012345) from monitoring?',
    });
    expect(within(dialog).getByRole('button', { name: 'Remove' })).toHaveClass(
      buttonStyles.danger!,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(remove).toHaveFocus();
    expect(api.callsTo('DELETE', BASE)).toHaveLength(0);
  });

  it('removes it once confirmed (in Russian too) and goes to the accounts', async () => {
    const api = stubAccountPage(ACCOUNT, { 'DELETE $': { status: 204 } }, 'ru');
    const { user, router } = await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`, {
      language: 'ru',
    });
    await user.click(
      await screen.findByRole(
        'button',
        { name: 'Удалить этот торговый счёт из мониторинга' },
        { timeout: 5000 },
      ),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Удалить «Swing EURUSD» (счёт 5012345) из мониторинга?',
    });
    expect(api.callsTo('DELETE', BASE)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await expect
      .poll(() => router.state.location.pathname, { timeout: 5000 })
      .toBe('/online-monitoring/accounts');
    expect(api.callsTo('DELETE', BASE)).toHaveLength(1);
  });
});
