import { screen, waitFor, within } from '@testing-library/react';
import type { CannedReply, CannedReplyRequest } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  adminUser,
  cannedReply,
  openOperator,
  stubOperatorApi,
} from '../../../operator/test-utils';

const PATH = '/operator/support/canned';
const LIST = '/admin/support/canned';
const cannedTable = () => screen.findByRole('table', { name: 'Canned replies' }, { timeout: 5000 });

/** The canned replies as the server keeps them. */
function stubCanned(initial: CannedReply[] = [cannedReply()]) {
  let rows = [...initial];
  return stubOperatorApi({
    [`GET ${LIST}`]: () => ({ body: { data: rows } }),
    [`POST ${LIST}`]: (call) => {
      const reply = cannedReply({ id: 9, ...(call.body as CannedReplyRequest) });
      rows = [...rows, reply];
      return { status: 201, body: { reply, message: 'ok' } };
    },
    [`PUT ${LIST}/4`]: (call) => {
      const reply = { ...rows[0]!, ...(call.body as CannedReplyRequest) };
      rows = rows.map((row) => (row.id === 4 ? reply : row));
      return { body: { reply, message: 'ok' } };
    },
    [`DELETE ${LIST}/4`]: () => {
      rows = rows.filter((row) => row.id !== 4);
      return { body: { message: 'ok' } };
    },
  });
}

describe('canned replies', () => {
  it('lists the replies with their text in both languages', async () => {
    stubCanned();
    await openOperator(PATH);
    const table = await cannedTable();
    const [header, row] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Title', 'English', 'Russian', 'Updated', 'Actions']);
    expect(row).toHaveTextContent('Restart the terminal');
    expect(row).toHaveTextContent('Please restart the terminal');
    expect(row).toHaveTextContent('Перезапустите терминал');
    expect(screen.getByRole('navigation', { name: 'Help desk sections' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Canned replies' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('adds a reply: asks for the title and both texts, then adds it', async () => {
    const http = stubCanned([]);
    const { user } = await openOperator(PATH);
    expect(
      await screen.findByText('There are no canned replies yet.', {}, { timeout: 5000 }),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Add a canned reply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a canned reply' });
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    expect(title).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Add the canned reply' }));
    expect(await within(dialog).findByText('Enter the title')).toBeVisible();
    expect(within(dialog).getAllByText('Enter the text')).toHaveLength(2);
    expect(http.callsTo('POST', LIST)).toHaveLength(0);

    await user.type(title, 'Payment received');
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Text in English' }),
      'Your payment has arrived.',
    );
    const russian = within(dialog).getByRole('textbox', { name: 'Text in Russian' });
    await user.type(russian, 'Платёж получен.');
    expect(russian).toHaveAccessibleDescription('15 of 8000 characters');
    await user.click(within(dialog).getByRole('button', { name: 'Add the canned reply' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(http.callsTo('POST', LIST).map((call) => call.body)).toEqual([
      {
        title: 'Payment received',
        body_en: 'Your payment has arrived.',
        body_ru: 'Платёж получен.',
      },
    ]);
    expect(await within(await cannedTable()).findByText('Payment received')).toBeVisible();
    expect(
      await screen.findByText('The canned reply “Payment received” has been added'),
    ).toBeInTheDocument();
  });

  it('edits a reply', async () => {
    const http = stubCanned();
    const { user } = await openOperator(PATH);
    const table = await cannedTable();
    await user.click(
      within(table).getByRole('button', { name: 'Edit the canned reply “Restart the terminal”' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Edit the canned reply “Restart the terminal”',
    });
    const english = within(dialog).getByRole('textbox', { name: 'Text in English' });
    expect(english).toHaveValue('Please restart the terminal and tell us whether it connects.');
    await user.clear(english);
    await user.type(english, 'Please restart MetaTrader.');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(http.callsTo('PUT', `${LIST}/4`).map((call) => call.body)).toEqual([
      {
        title: 'Restart the terminal',
        body_en: 'Please restart MetaTrader.',
        body_ru: 'Перезапустите терминал и напишите, подключается ли он.',
      },
    ]);
    expect(await within(table).findByText('Please restart MetaTrader.')).toBeVisible();
  });

  it('deletes a reply only once confirmed', async () => {
    const http = stubCanned();
    const { user } = await openOperator(PATH);
    const table = await cannedTable();
    const remove = within(table).getByRole('button', {
      name: 'Delete the canned reply “Restart the terminal”',
    });
    await user.click(remove);
    let dialog = await screen.findByRole('dialog', { name: 'Delete the canned reply' });
    expect(dialog).toHaveAccessibleDescription(
      'Delete the canned reply “Restart the terminal”? Replies already sent stay as they are.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(remove).toHaveFocus();
    expect(http.callsTo('DELETE', `${LIST}/4`)).toHaveLength(0);

    await user.click(remove);
    dialog = await screen.findByRole('dialog', { name: 'Delete the canned reply' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete the canned reply' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(http.callsTo('DELETE', `${LIST}/4`)).toHaveLength(1);
    expect(await screen.findByText('There are no canned replies yet.')).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Canned replies' })).toHaveFocus();
  });

  it('speaks Russian', async () => {
    stubOperatorApi(
      { [`GET ${LIST}`]: { body: { data: [cannedReply()] } } },
      { ...adminUser, language: 'ru' },
    );
    await openOperator(PATH, { language: 'ru' });
    const table = await screen.findByRole('table', { name: 'Шаблоны ответов' }, { timeout: 5000 });
    expect(
      within(table).getByRole('button', { name: 'Удалить шаблон «Restart the terminal»' }),
    ).toBeVisible();
  });
});
