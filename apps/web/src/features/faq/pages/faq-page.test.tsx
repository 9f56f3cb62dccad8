import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { searchOf } from '../../../test/render';
import { deferred, FAQ_ITEMS, renderFaq, stubFaqApi } from '../test-utils';
import { SEARCH_DEBOUNCE_MS } from './faq-page';

const question = (name: string | RegExp) => screen.getByRole('button', { name });
const marks = (element: HTMLElement) =>
  Array.from(element.querySelectorAll('mark')).map((mark) => mark.textContent);
const results = () => screen.getByRole('region', { name: /search results|результаты поиска/i });
const contactLink = () =>
  screen.getByRole('link', { name: /write to support|написать в поддержку/i });

let scrolled: Element[] = [];
beforeEach(() => {
  scrolled = [];
  Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
    scrolled.push(this);
  });
});
afterEach(() => {
  delete (Element.prototype as Partial<Element>).scrollIntoView;
});

describe('the FAQ page', () => {
  it('shows the four groups with their questions closed, and a way to write to support', async () => {
    stubFaqApi();
    renderFaq();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Frequently asked questions' }),
    ).toBeInTheDocument();
    expect(
      (await screen.findAllByRole('heading', { level: 2 })).map((heading) => heading.textContent),
    ).toEqual([
      'Partner programme',
      'Servers, payments and support',
      'Online monitoring',
      'Monitoring guide',
      "Didn't find an answer?",
    ]);
    const partners = screen.getByRole('region', { name: 'Partner programme' });
    expect(
      within(partners)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual([
      'How do I withdraw my partner reward?',
      'How many levels does the partner programme have?',
    ]);
    for (const button of within(partners).getAllByRole('button'))
      expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(/Choose a method/)).not.toBeInTheDocument();
    expect(screen.getByRole('search', { name: 'Questions' })).toContainElement(
      screen.getByRole('searchbox', { name: 'Search the questions' }),
    );
    expect(contactLink()).toHaveAttribute('href', '/support?new=technical');
    expect(document.title).toBe('Frequently asked questions · TradeHost');
  });

  it('opens and closes an answer, its paragraphs as text, with the question’s link', async () => {
    stubFaqApi();
    const { user } = renderFaq();
    const button = await screen.findByRole('button', {
      name: 'How do I withdraw my partner reward?',
    });
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const answer = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(answer).toBeVisible();
    expect(Array.from(answer.querySelectorAll('p')).map((p) => p.textContent)).toEqual([
      'Open Partners, then Withdrawal. Choose a method (USDT-TRC20, BTC or Payeer) and enter your wallet.',
      'An operator pays withdrawals out within two working days.',
    ]);
    expect(within(answer).getByRole('link', { name: 'Link to this question' })).toHaveAttribute(
      'href',
      '/faq#partner-withdrawal',
    );
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(answer).not.toBeVisible();
  });

  it('shows an answer’s markup as text, never as HTML', async () => {
    const [first] = FAQ_ITEMS;
    stubFaqApi([
      { ...first!, answer_en: 'Paste <img src=x onerror="alert(1)"> and <b>bold</b> here.' },
    ]);
    const { user } = renderFaq();
    await user.click(await screen.findByRole('button', { name: first!.question_en }));
    expect(
      screen.getByText('Paste <img src=x onerror="alert(1)"> and <b>bold</b> here.'),
    ).toBeVisible();
    expect(document.querySelector('img, b')).toBeNull();
  });

  it('copies a question’s full address', async () => {
    stubFaqApi();
    const { user } = renderFaq();
    await user.click(await screen.findByRole('button', { name: /MetaTrader terminal froze/ }));
    await user.click(screen.getByRole('button', { name: 'Copy the link to this question' }));
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/faq#vps-reboot`);
    expect(await screen.findByText('The link is copied.')).toBeInTheDocument();
  });

  it('opens the question of /faq#slug and scrolls to it', async () => {
    stubFaqApi();
    renderFaq('/faq#publisher-install');
    const button = await screen.findByRole('button', {
      name: 'How do I install the publisher in MetaTrader?',
    });
    await waitFor(() => expect(button).toHaveAttribute('aria-expanded', 'true'));
    expect(screen.getByText(/Copy the Expert Advisor into the Experts folder/)).toBeVisible();
    expect(scrolled).toContain(document.getElementById('publisher-install'));
    expect(button).toHaveFocus();
    // the others stay closed
    expect(question('What does online monitoring show?')).toHaveAttribute('aria-expanded', 'false');
  });

  it('searches across the groups as the reader types, highlights what matched and keeps the query in the address', async () => {
    stubFaqApi();
    const { user, router } = renderFaq();
    await user.type(
      await screen.findByRole('searchbox', { name: 'Search the questions' }),
      'withdrawals',
    );
    await waitFor(
      () => expect(screen.getByRole('status')).toHaveTextContent('1 answer for “withdrawals”'),
      { timeout: 3000 },
    );
    const list = within(results()).getByRole('list');
    const [hit] = within(list).getAllByRole('listitem');
    expect(hit).toHaveTextContent('Partner programme');
    const button = within(hit!).getByRole('button', {
      name: 'How do I withdraw my partner reward?',
    });
    expect(marks(button)).toEqual(['withdraw']);
    // the answer's excerpt while closed, highlighted too; then the whole answer
    expect(marks(hit!.querySelector('p:not([class*="groupTag"])') as HTMLElement)).toContain(
      'withdrawals',
    );
    await user.click(button);
    const answer = document.getElementById('partner-withdrawal-answer')!;
    expect(marks(answer)).toEqual(['Withdrawal', 'withdrawals']);
    expect(searchOf(router).get('q')).toBe('withdrawals');
    // the groups give way to the results; the best answer's department
    expect(screen.queryByRole('region', { name: 'Online monitoring' })).not.toBeInTheDocument();
    expect(contactLink()).toHaveAttribute('href', '/support?new=partnership');
  });

  it('keeps the keys typed while a paused query reaches the address, and searches for all of them', async () => {
    stubFaqApi();
    const { router } = renderFaq();
    const box = await screen.findByRole('searchbox', { name: 'Search the questions' });
    vi.useFakeTimers();
    try {
      fireEvent.change(box, { target: { value: 'wit' } });
      act(() => {
        // the pause puts "wit" in the address (the router renders that as a transition) …
        vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
        // … and the next key comes before that render
        fireEvent.change(box, { target: { value: 'with' } });
      });
      expect(searchOf(router).get('q')).toBe('wit');
      expect(box).toHaveValue('with');
      act(() => void vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
      expect(searchOf(router).get('q')).toBe('with');
      expect(box).toHaveValue('with');
    } finally {
      vi.useRealTimers();
    }
  });

  it('finds Russian word forms, forgives a typo and highlights the forms found', async () => {
    stubFaqApi();
    const { user } = renderFaq('/faq', { language: 'ru' });
    const box = await screen.findByRole('searchbox', { name: 'Поиск по вопросам' });
    await user.type(box, 'выводить');
    expect(
      await screen.findByText('1 ответ по запросу «выводить»', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    const [hit] = within(results()).getAllByRole('listitem');
    expect(hit).toHaveTextContent('Как вывести партнёрское вознаграждение?');
    expect(marks(hit!)).toEqual(['Вывод', 'вывод']);

    await user.clear(box);
    await user.type(box, 'пополнение');
    await waitFor(() =>
      expect(within(results()).getAllByRole('listitem')[0]).toHaveTextContent(
        'Как пополнить баланс?',
      ),
    );
    const first = within(results()).getAllByRole('listitem')[0]!;
    expect(marks(within(first).getByRole('button'))).toEqual(['пополнить']);
    expect(marks(first)).toContain('Пополнение');
    expect(contactLink()).toHaveAttribute('href', '/support?new=technical');

    await user.clear(box);
    await user.type(box, 'перезагрзить');
    await waitFor(() =>
      expect(within(results()).getAllByRole('listitem')[0]).toHaveTextContent(
        'Терминал MetaTrader завис. Как перезагрузить сервер?',
      ),
    );
  });

  it('runs the search of a shared address (?q=) at once', async () => {
    stubFaqApi();
    renderFaq('/faq?q=publisher');
    expect(await screen.findByRole('searchbox', { name: 'Search the questions' })).toHaveValue(
      'publisher',
    );
    expect(
      await screen.findByText('1 answer for “publisher”', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(contactLink()).toHaveAttribute('href', '/support?new=monitoring');
  });

  it('says when nothing is found and offers support', async () => {
    stubFaqApi();
    renderFaq('/faq?q=quantum%20entanglement');
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Nothing found for “quantum entanglement”' },
        { timeout: 3000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Nothing found for “quantum entanglement”',
    );
    expect(contactLink()).toHaveAttribute('href', '/support?new=technical');
  });

  it('narrows to a topic, and a search in it points to the answers elsewhere', async () => {
    stubFaqApi();
    const { user, router } = renderFaq();
    await user.click(await screen.findByRole('radio', { name: 'Online monitoring' }));
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Online monitoring',
      "Didn't find an answer?",
    ]);
    expect(searchOf(router).get('group')).toBe('monitoring');
    expect(contactLink()).toHaveAttribute('href', '/support?new=monitoring');

    await user.type(screen.getByRole('searchbox'), 'reward');
    const more = await screen.findByRole(
      'button',
      { name: 'Show 1 answer in other topics' },
      { timeout: 3000 },
    );
    expect(screen.getByRole('status')).toHaveTextContent('Nothing found for “reward”');
    await user.click(more);
    expect(screen.getByRole('radio', { name: 'All topics' })).toBeChecked();
    expect(await screen.findByText('1 answer for “reward”')).toBeInTheDocument();
    expect(searchOf(router).get('q')).toBe('reward');
  });

  it('follows a result’s link to the question in its group, open', async () => {
    stubFaqApi();
    const { user, router } = renderFaq('/faq?q=reboot');
    const button = await screen.findByRole(
      'button',
      { name: /How do I restart the server/ },
      { timeout: 3000 },
    );
    await user.click(button);
    await user.click(screen.getByRole('link', { name: 'Link to this question' }));
    expect(router.state.location.hash).toBe('#vps-reboot');
    expect(searchOf(router).get('q')).toBeNull();
    expect(screen.getByRole('searchbox')).toHaveValue('');
    const group = await screen.findByRole('region', { name: 'Servers, payments and support' });
    expect(
      within(group).getByRole('button', { name: /How do I restart the server/ }),
    ).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(scrolled).toContain(document.getElementById('vps-reboot')));
  });

  it('leads to a new ticket in the department of the best answer', async () => {
    stubFaqApi();
    const { user, router } = renderFaq('/faq?q=referrals');
    await screen.findByText(/answers? for “referrals”/, {}, { timeout: 3000 });
    await user.click(contactLink());
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Support ?new=partnership' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/support');
  });

  it('says it is loading, then offers to try again when the questions cannot be loaded', async () => {
    const gate = deferred<void>();
    let fail = true;
    stubFaqApi(FAQ_ITEMS, {
      'GET /user/faq': async () => {
        await gate.promise;
        return fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: { data: FAQ_ITEMS } };
      },
    });
    const { user } = renderFaq();
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the questions…');
    gate.resolve();
    expect(await screen.findByText('The questions could not be loaded')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Monitoring guide' }),
    ).toBeInTheDocument();
  });

  it('says so when there are no questions yet', async () => {
    stubFaqApi([]);
    renderFaq();
    expect(await screen.findByRole('heading', { name: 'No questions yet' })).toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(contactLink()).toHaveAttribute('href', '/support?new=technical');
  });

  it('is in Russian for a Russian reader', async () => {
    stubFaqApi();
    renderFaq('/faq', { language: 'ru' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Вопросы и ответы' }),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Партнёрская программа' }),
    ).toBeInTheDocument();
    expect(question('Терминал MetaTrader завис. Как перезагрузить сервер?')).toBeInTheDocument();
    expect(contactLink()).toHaveTextContent('Написать в поддержку');
  });
});
