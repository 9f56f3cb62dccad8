import { screen, within } from '@testing-library/react';
import type { MonitoringAccount } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { renderSignedInPage } from '../../../test/render';
import { monitoringAccount } from '../test-utils';
import { EmbedSection, widgetSnippets } from './embed-section';

const ORIGIN = 'https://console.tradehost.example';

describe('the widget snippets', () => {
  it('link the PNG to the public page in HTML and BBCode, and frame the card, all absolute from the origin', () => {
    const snippets = widgetSnippets(
      ORIGIN,
      'AbCdEfGhIjKlMnOp',
      { size: 'banner', lang: 'en', theme: 'light' },
      'Swing EURUSD: trading account monitoring on TradeHost',
    );
    expect(snippets.html).toBe(
      '<a href="https://console.tradehost.example/online-monitoring/AbCdEfGhIjKlMnOp"><img src="https://console.tradehost.example/api/monitoring/AbCdEfGhIjKlMnOp/widget.png?size=banner&amp;lang=en&amp;theme=light" width="468" height="60" alt="Swing EURUSD: trading account monitoring on TradeHost"></a>',
    );
    expect(snippets.bbcode).toBe(
      '[url=https://console.tradehost.example/online-monitoring/AbCdEfGhIjKlMnOp][img]https://console.tradehost.example/api/monitoring/AbCdEfGhIjKlMnOp/widget.png?size=banner&lang=en&theme=light[/img][/url]',
    );
    expect(snippets.iframe).toBe(
      '<iframe src="https://console.tradehost.example/api/monitoring/AbCdEfGhIjKlMnOp/card?lang=en&amp;theme=light" width="320" height="200" style="border:0" loading="lazy" title="Swing EURUSD: trading account monitoring on TradeHost"></iframe>',
    );
  });

  it("size the box's image, and escape the name in the attributes", () => {
    const snippets = widgetSnippets(
      ORIGIN,
      'AbCdEfGhIjKlMnOp',
      { size: 'box', lang: 'ru', theme: 'dark' },
      'Swing "A" <1> & co',
    );
    expect(snippets.html).toBe(
      '<a href="https://console.tradehost.example/online-monitoring/AbCdEfGhIjKlMnOp"><img src="https://console.tradehost.example/api/monitoring/AbCdEfGhIjKlMnOp/widget.png?size=box&amp;lang=ru&amp;theme=dark" width="300" height="120" alt="Swing &quot;A&quot; &lt;1&gt; &amp; co"></a>',
    );
    expect(snippets.iframe).toContain('card?lang=ru&amp;theme=dark');
    expect(snippets.iframe).toContain('title="Swing &quot;A&quot; &lt;1&gt; &amp; co"');
  });
});

function show(account: MonitoringAccount, language: 'en' | 'ru' = 'en') {
  return renderSignedInPage(
    [{ path: '/', element: <EmbedSection account={account} /> }],
    '/',
    'token',
    { language },
  );
}

describe('"Share and embed" on the owner’s page', () => {
  it('of a private account: one line saying where to make the page public, no widget', async () => {
    show(monitoringAccount({ is_public: false }));
    expect(await screen.findByRole('heading', { name: 'Share and embed' })).toBeVisible();
    expect(
      screen.getByText(
        /^Widgets work once the public page is on: tick “Anyone with the link can see this account” under Settings, Public page\./,
      ),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to the settings' })).toHaveAttribute(
      'href',
      '#settings-title',
    );
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('of a public account: a live preview, and the snippets with the page’s origin, in the reader’s language first', async () => {
    const origin = window.location.origin;
    show(monitoringAccount({ is_public: true }));
    const preview = await screen.findByRole('img', {
      name: 'The widget of Swing EURUSD as others will see it',
    });
    expect(preview).toHaveAttribute(
      'src',
      `${origin}/api/monitoring/AbCdEfGhIjKlMnOp/widget.png?size=banner&lang=en&theme=light`,
    );
    expect(preview).toHaveAttribute('width', '468');
    expect(screen.getByRole('radio', { name: 'Banner 468 × 60' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'English' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();
    expect(screen.getByText(/^\[url=/)).toHaveTextContent(
      `[url=${origin}/online-monitoring/AbCdEfGhIjKlMnOp][img]${origin}/api/monitoring/AbCdEfGhIjKlMnOp/widget.png?size=banner&lang=en&theme=light[/img][/url]`,
    );
    expect(screen.getByText(/^<iframe/).textContent).toBe(
      `<iframe src="${origin}/api/monitoring/AbCdEfGhIjKlMnOp/card?lang=en&amp;theme=light" width="320" height="200" style="border:0" loading="lazy" title="Swing EURUSD: trading account monitoring on TradeHost"></iframe>`,
    );
  });

  it('follows the options: the preview and every snippet change, the alt text in the widget’s language', async () => {
    const origin = window.location.origin;
    const { user } = show(monitoringAccount({ is_public: true }));
    await user.click(await screen.findByRole('radio', { name: 'Box 300 × 120' }));
    await user.click(screen.getByRole('radio', { name: 'Русский' }));
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    const image = `${origin}/api/monitoring/AbCdEfGhIjKlMnOp/widget.png?size=box&lang=ru&theme=dark`;
    expect(screen.getByRole('img')).toHaveAttribute('src', image);
    expect(screen.getByRole('img')).toHaveAttribute('height', '120');
    expect(screen.getByText(/^<a href=/).textContent).toBe(
      `<a href="${origin}/online-monitoring/AbCdEfGhIjKlMnOp"><img src="${image.replace(/&/g, '&amp;')}" width="300" height="120" alt="Swing EURUSD: мониторинг торгового счёта на TradeHost"></a>`,
    );
    expect(screen.getByText(/^<iframe/)).toHaveTextContent('card?lang=ru&amp;theme=dark');
  });

  it('copies each snippet as shown, and says so', async () => {
    const origin = window.location.origin;
    const { user } = show(monitoringAccount({ is_public: true }), 'ru');
    const html = await screen.findByText(/^<a href=/);
    expect(html.textContent).toContain('lang=ru');
    const copy = screen.getByRole('button', { name: 'Скопировать HTML' });
    await user.click(copy);
    expect(await navigator.clipboard.readText()).toBe(html.textContent);
    expect(within(copy.parentElement!).getByRole('status')).toHaveTextContent('Скопировано');
    await user.click(screen.getByRole('button', { name: 'Скопировать BBCode' }));
    expect(await navigator.clipboard.readText()).toBe(
      `[url=${origin}/online-monitoring/AbCdEfGhIjKlMnOp][img]${origin}/api/monitoring/AbCdEfGhIjKlMnOp/widget.png?size=banner&lang=ru&theme=light[/img][/url]`,
    );
    await user.click(screen.getByRole('button', { name: 'Скопировать HTML фрейма' }));
    expect(await navigator.clipboard.readText()).toMatch(/^<iframe src="/);
  });
});
