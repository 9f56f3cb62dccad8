import { screen, waitFor, within } from '@testing-library/react';
import type { FaqItem, FaqItemRequest } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { adminUser, faqItem, openOperator, stubOperatorApi } from '../../../operator/test-utils';

const PATH = '/operator/faq';
const LIST = '/admin/faq';

const partners = faqItem({
  id: 2,
  group: 'partners',
  slug: 'partner-reward',
  question_en: 'How is my reward counted?',
  question_ru: 'Как считается вознаграждение?',
});
const draft = faqItem({
  id: 3,
  slug: 'ticket-files',
  position: 2,
  question_en: 'Which files can I attach?',
  question_ru: 'Какие файлы можно приложить?',
  published: false,
});

/** The questions as the server keeps them; a taken link name is refused with 409. */
function stubFaq(initial: FaqItem[] = [partners, faqItem(), draft]) {
  let rows = [...initial];
  return stubOperatorApi({
    [`GET ${LIST}`]: () => ({ body: { data: rows } }),
    [`POST ${LIST}`]: (call) => {
      const body = call.body as Required<FaqItemRequest>;
      if (rows.some((row) => row.slug === body.slug)) {
        return {
          status: 409,
          body: { message: 'This link name is already used', code: 'FAQ_SLUG_TAKEN' },
        };
      }
      const item = faqItem({ id: 9, ...body });
      rows = [...rows, item];
      return { status: 201, body: { item, message: 'ok' } };
    },
    [`DELETE ${LIST}/3`]: () => {
      rows = rows.filter((row) => row.id !== 3);
      return { body: { message: 'ok' } };
    },
  });
}

describe('the FAQ editor', () => {
  it('lists the questions by group, published or draft', async () => {
    stubFaq();
    await openOperator(PATH);
    const support = await screen.findByRole(
      'table',
      { name: 'Support (2 questions)' },
      { timeout: 5000 },
    );
    const [header, first, second] = within(support).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Order', 'Question', 'Link', 'Status', 'Updated', 'Actions']);
    expect(first).toHaveTextContent('How do I open a ticket?');
    expect(first).toHaveTextContent('Как открыть обращение?');
    expect(first).toHaveTextContent('#how-to-open-a-ticket');
    expect(first).toHaveTextContent('Published');
    expect(second).toHaveTextContent('Which files can I attach?');
    expect(second).toHaveTextContent('Draft');

    expect(screen.getByRole('table', { name: 'Partners (1 question)' })).toHaveTextContent(
      'How is my reward counted?',
    );
    // the groups in the order of the FAQ, empty ones too
    expect(
      screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent),
    ).toEqual([
      'Partners (1 question)',
      'Support (2 questions)',
      'Monitoring (0 questions)',
      'Monitoring guide (0 questions)',
    ]);
    expect(screen.getAllByText('There are no questions in this group yet.')).toHaveLength(2);
  });

  it('gives every group’s table the same column widths, so that their columns line up', async () => {
    stubFaq();
    await openOperator(PATH);
    await screen.findByRole('table', { name: /^Support/ }, { timeout: 5000 });
    // the two groups with questions
    const [partnersTable, support] = screen.getAllByRole('table');
    const widths = (table: HTMLElement) =>
      [...table.querySelectorAll('colgroup > col')].map((col) => (col as HTMLElement).style.width);
    // the question takes what the others leave
    expect(support).toHaveAccessibleName('Support (2 questions)');
    expect(widths(support!)).toEqual([
      'var(--faq-position)',
      '',
      'var(--faq-slug)',
      'var(--faq-published)',
      'var(--faq-updated)',
      'var(--faq-actions)',
    ]);
    expect(widths(partnersTable!)).toEqual(widths(support!));
  });

  it('adds a question: checks it, shows a taken link name on its field, then adds it', async () => {
    const http = stubFaq();
    const { user } = await openOperator(PATH);
    await screen.findByRole('table', { name: /^Support/ }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Add a question' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a question' });
    const group = within(dialog).getByRole('combobox', { name: 'Group' });
    expect(group).toHaveFocus();
    const slug = within(dialog).getByRole('textbox', { name: 'Link name' });
    const submit = within(dialog).getByRole('button', { name: 'Add the question' });

    await user.type(slug, 'Not A Slug');
    await user.click(submit);
    await waitFor(() => expect(slug).toHaveAttribute('aria-invalid', 'true'));
    expect(slug).toHaveAccessibleDescription(
      /A link name is lower-case letters and digits joined by "-"/,
    );
    expect(within(dialog).getByText('Enter the question in English')).toBeVisible();
    expect(within(dialog).getByText('Enter the answer in Russian')).toBeVisible();
    expect(http.callsTo('POST', LIST)).toHaveLength(0);

    const order = within(dialog).getByRole('textbox', { name: 'Order' });
    expect(order).toHaveValue('2');
    await user.selectOptions(group, 'Support');
    expect(order).toHaveValue('3');
    await user.clear(slug);
    await user.type(slug, 'ticket-files');
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Question in English' }),
      'How long do you answer?',
    );
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Answer in English' }),
      'Within a working day.',
    );
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Question in Russian' }),
      'Как быстро вы отвечаете?',
    );
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Answer in Russian' }),
      'В течение рабочего дня.',
    );
    await user.click(within(dialog).getByRole('checkbox', { name: 'Published' }));
    await user.click(submit);
    expect(
      await within(dialog).findByText(
        'Another question already has this link name. Choose another.',
      ),
    ).toBeVisible();
    expect(slug).toHaveAttribute('aria-invalid', 'true');
    expect(slug).toHaveFocus();

    await user.clear(slug);
    await user.type(slug, 'answer-time');
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(http.callsTo('POST', LIST).map((call) => call.body)).toEqual([
      expect.objectContaining({ slug: 'ticket-files' }),
      {
        group: 'support',
        slug: 'answer-time',
        // after the last of its group
        position: 3,
        question_en: 'How long do you answer?',
        answer_en: 'Within a working day.',
        question_ru: 'Как быстро вы отвечаете?',
        answer_ru: 'В течение рабочего дня.',
        published: false,
      },
    ]);
    const support = await screen.findByRole('table', { name: 'Support (3 questions)' });
    expect(support).toHaveTextContent('How long do you answer?');
    expect(
      await screen.findByText('The question “How long do you answer?” has been added'),
    ).toBeInTheDocument();
  });

  it('deletes a question only once confirmed', async () => {
    const http = stubFaq();
    const { user } = await openOperator(PATH);
    const support = await screen.findByRole('table', { name: /^Support/ }, { timeout: 5000 });
    const remove = within(support).getByRole('button', {
      name: 'Delete the question “Which files can I attach?”',
    });
    await user.click(remove);
    let dialog = await screen.findByRole('dialog', { name: 'Delete the question' });
    expect(dialog).toHaveAccessibleDescription(
      'Delete “Which files can I attach?”? It leaves the FAQ at once and its link stops working.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(http.callsTo('DELETE', `${LIST}/3`)).toHaveLength(0);
    expect(remove).toHaveFocus();

    await user.click(remove);
    dialog = await screen.findByRole('dialog', { name: 'Delete the question' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete the question' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(http.callsTo('DELETE', `${LIST}/3`)).toHaveLength(1);
    expect(
      await screen.findByRole('table', { name: 'Support (1 question)' }),
    ).not.toHaveTextContent('Which files can I attach?');
    expect(screen.getByRole('heading', { level: 2, name: 'FAQ' })).toHaveFocus();
  });

  it('speaks Russian, the refusals too', async () => {
    stubOperatorApi(
      {
        [`GET ${LIST}`]: { body: { data: [faqItem()] } },
        [`POST ${LIST}`]: {
          status: 409,
          body: { message: 'This link name is already used', code: 'FAQ_SLUG_TAKEN' },
        },
      },
      { ...adminUser, language: 'ru' },
    );
    const { user } = await openOperator(PATH, { language: 'ru' });
    const support = await screen.findByRole(
      'table',
      { name: 'Поддержка (1 вопрос)' },
      { timeout: 5000 },
    );
    expect(support).toHaveTextContent('Как открыть обращение?');
    expect(support).toHaveTextContent('Опубликован');
    await user.click(screen.getByRole('button', { name: 'Добавить вопрос' }));
    const dialog = await screen.findByRole('dialog', { name: 'Добавить вопрос' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Имя ссылки' }), 'taken');
    for (const [name, text] of [
      ['Вопрос на английском', 'Q?'],
      ['Ответ на английском', 'A.'],
      ['Вопрос на русском', 'В?'],
      ['Ответ на русском', 'О.'],
    ] as const) {
      await user.type(within(dialog).getByRole('textbox', { name }), text);
    }
    await user.click(within(dialog).getByRole('button', { name: 'Добавить вопрос' }));
    expect(
      await within(dialog).findByText(
        'Это имя ссылки уже занято другим вопросом. Выберите другое.',
      ),
    ).toBeVisible();
  });
});
