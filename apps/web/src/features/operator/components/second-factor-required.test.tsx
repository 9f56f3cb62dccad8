import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Reply } from '../../../test/fetch-stub';
import { openOperator, operatorUser, page, stubOperatorApi } from '../test-utils';

const SECOND_FACTOR_REQUIRED: Reply = {
  status: 403,
  body: {
    message:
      'Turn on a second factor (an authenticator app or a passkey) in your profile to use the operator area',
    code: 'OPERATOR_SECOND_FACTOR_REQUIRED',
  },
};

const findScreen = () =>
  screen.findByRole(
    'heading',
    { level: 2, name: 'The operator area needs a second factor' },
    { timeout: 5000 },
  );

describe('an operator without a second factor', () => {
  it('is told the operator area needs one, with the way to Profile’s second factor, not a failed list', async () => {
    const http = stubOperatorApi(
      { 'GET /admin/users': SECOND_FACTOR_REQUIRED },
      operatorUser('support'),
    );
    const { router, user } = await openOperator('/operator/users');
    expect(await findScreen()).toBeVisible();
    expect(document.title).toBe('The operator area needs a second factor · TradeHost');
    expect(screen.queryByText('The list could not be loaded')).toBeNull();
    // no sections to go to: every one would refuse the same way
    expect(screen.queryByRole('navigation', { name: 'Operator sections' })).toBeNull();
    expect(http.callsTo('GET', '/admin/users')).toHaveLength(1);

    const link = screen.getByRole('link', { name: 'Turn on a second factor' });
    expect(link).toHaveAttribute('href', '/profile#second-factor');
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(router.state.location.hash).toBe('#second-factor');
  });

  it('opens the page again with Try again once the API lets them in', async () => {
    let factorOn = false;
    stubOperatorApi(
      { 'GET /admin/users': () => (factorOn ? { body: page([]) } : SECOND_FACTOR_REQUIRED) },
      operatorUser('support'),
    );
    const { user } = await openOperator('/operator/users');
    const heading = await findScreen();
    factorOn = true;
    await user.click(
      within(heading.closest('section')!).getByRole('button', { name: 'Try again' }),
    );
    expect(await screen.findByText('There are no users yet.')).toBeVisible();
    expect(screen.getByRole('navigation', { name: 'Operator sections' })).toBeVisible();
  });

  it('is told so in Russian, whichever section refused', async () => {
    stubOperatorApi(
      {
        'GET /admin/support/queues': SECOND_FACTOR_REQUIRED,
        'GET /admin/support/tickets': SECOND_FACTOR_REQUIRED,
      },
      { ...operatorUser('support'), language: 'ru' },
    );
    await openOperator('/operator/support', { language: 'ru' });
    expect(
      await screen.findByRole(
        'heading',
        { level: 2, name: 'Для раздела оператора нужен второй фактор' },
        { timeout: 5000 },
      ),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Включить второй фактор' })).toHaveAttribute(
      'href',
      '/profile#second-factor',
    );
  });
});
