import type { MonitoringAccount } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import segments from '../../../shared/ui/segments/segments.module.css';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';

/** The widget images' sizes (the API's WIDGET_SIZES, monitoring.widgets.ts). */
export const WIDGET_SIZES = {
  banner: { width: 468, height: 60 },
  box: { width: 300, height: 120 },
} as const;
type WidgetSize = keyof typeof WIDGET_SIZES;
const LANGS = ['en', 'ru'] as const;
const THEMES = ['light', 'dark'] as const;
/** The iframe card's size (the API's card is laid out for about 320×200). */
export const CARD_SIZE = { width: 320, height: 200 } as const;

export interface WidgetOptions {
  size: WidgetSize;
  lang: (typeof LANGS)[number];
  theme: (typeof THEMES)[number];
}

/** `text` fit for an HTML attribute between double quotes. */
const attribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The widgets' addresses and the snippets that embed them, absolute from `origin` (the page's):
 * the PNG linked to the public page in HTML and in BBCode (forums take PNG), and the card in an
 * iframe. `alt` names the account (the image's text, the frame's title), in the widget's language.
 */
export function widgetSnippets(
  origin: string,
  monitoringId: string,
  options: WidgetOptions,
  alt: string,
) {
  const id = encodeURIComponent(monitoringId);
  const page = `${origin}/online-monitoring/${id}`;
  const image = `${origin}/api/monitoring/${id}/widget.png?size=${options.size}&lang=${options.lang}&theme=${options.theme}`;
  const card = `${origin}/api/monitoring/${id}/card?lang=${options.lang}&theme=${options.theme}`;
  const { width, height } = WIDGET_SIZES[options.size];
  return {
    page,
    image,
    card,
    html: `<a href="${attribute(page)}"><img src="${attribute(image)}" width="${width}" height="${height}" alt="${attribute(alt)}"></a>`,
    bbcode: `[url=${page}][img]${image}[/img][/url]`,
    iframe: `<iframe src="${attribute(card)}" width="${CARD_SIZE.width}" height="${CARD_SIZE.height}" style="border:0" loading="lazy" title="${attribute(alt)}"></iframe>`,
  };
}

/**
 * "Share and embed" on the owner's page: for a public account, the widget image as it shows now
 * (its size, language and theme to choose) and the snippets that put it, or the iframe card, on a
 * forum or a site, each with a copy button; for a private one, where to make it public first.
 */
export function EmbedSection({ account }: { account: MonitoringAccount }) {
  const f = useMonitoringFormat();
  const { t } = f;
  const { i18n } = useTranslation();
  const titleId = useId();
  const [options, setOptions] = useState<WidgetOptions>({
    size: 'banner',
    lang: f.language.startsWith('ru') ? 'ru' : 'en',
    theme: 'light',
  });

  if (!account.is_public)
    return (
      <section className={styles.section} aria-labelledby={titleId}>
        <h2 id={titleId} className={styles.sectionTitle}>
          {t('embed.title')}
        </h2>
        <p className={styles.embedLead}>
          {t('embed.private', { setting: t('settings.is_public') })}{' '}
          <a href="#settings-title">{t('embed.toSettings')}</a>
        </p>
      </section>
    );

  const alt = i18n.getFixedT(options.lang, 'monitoring')('embed.alt', { name: account.name });
  const snippets = widgetSnippets(window.location.origin, account.monitoring_id, options, alt);
  const { width, height } = WIDGET_SIZES[options.size];
  const choose = <K extends keyof WidgetOptions>(key: K, values: readonly WidgetOptions[K][]) => (
    <fieldset className={styles.embedOption}>
      <legend className={styles.embedLegend}>{t(`embed.options.${key}`)}</legend>
      <div className={segments.segments}>
        {values.map((value) => (
          <label key={value} className={segments.segment}>
            <input
              type="radio"
              name={`${titleId}-${key}`}
              className={segments.radio}
              checked={options[key] === value}
              onChange={() => setOptions((current) => ({ ...current, [key]: value }))}
            />
            <span className={segments.text}>{t(`embed.values.${key}.${value}`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
  const copy = { copied: t('key.copied'), failed: t('key.copyFailed') };

  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        {t('embed.title')}
      </h2>
      <p className={styles.embedLead}>{t('embed.lead')}</p>
      <div className={styles.embedOptions}>
        {choose('size', Object.keys(WIDGET_SIZES) as WidgetSize[])}
        {choose('lang', LANGS)}
        {choose('theme', THEMES)}
      </div>
      <figure className={styles.embedPreview}>
        <img
          src={snippets.image}
          width={width}
          height={height}
          alt={t('embed.previewAlt', { name: account.name })}
        />
        <figcaption className={styles.muted}>{t('embed.previewNote')}</figcaption>
      </figure>
      <Snippet
        title={t('embed.html')}
        hint={t('embed.htmlHint')}
        text={snippets.html}
        copyLabel={t('embed.copyHtml')}
        messages={copy}
      />
      <Snippet
        title={t('embed.bbcode')}
        hint={t('embed.bbcodeHint')}
        text={snippets.bbcode}
        copyLabel={t('embed.copyBbcode')}
        messages={copy}
      />
      <Snippet
        title={t('embed.iframe')}
        hint={t('embed.iframeHint', CARD_SIZE)}
        text={snippets.iframe}
        copyLabel={t('embed.copyIframe')}
        messages={copy}
      />
    </section>
  );
}

/** A snippet to copy: its name, what it is for, the text as it will be pasted, a copy button. */
function Snippet({
  title,
  hint,
  text,
  copyLabel,
  messages,
}: {
  title: string;
  hint: string;
  text: string;
  copyLabel: string;
  messages: { copied: string; failed: string };
}) {
  return (
    <div className={styles.snippet}>
      <div className={styles.snippetHead}>
        <div>
          <h3 className={styles.snippetTitle}>{title}</h3>
          <p className={styles.muted}>{hint}</p>
        </div>
        <CopyButton text={text} label={copyLabel} messages={messages} />
      </div>
      <pre className={styles.snippetText}>
        <code>{text}</code>
      </pre>
    </div>
  );
}
