import type { Language } from '@tradehost/contracts';
import { escapeHtml } from '../../lib/html.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const BRAND = 'TradeHost';

/** Wraps paragraphs (already HTML) in a plain, inline-styled letter. */
function layout(language: Language, title: string, paragraphs: string[]): string {
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#1d2433">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<p style="font-size:20px;font-weight:bold;margin:0 0 16px">${BRAND}</p>
${paragraphs.map((p) => `<p style="font-size:15px;line-height:1.5;margin:0 0 12px">${p}</p>`).join('\n')}
</div>
</body>
</html>
`;
}

const button = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;padding:10px 18px;background:#1a5fd0;color:#ffffff;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a>`;

export function verificationMail(
  language: Language,
  input: { name: string; link: string },
): RenderedMail {
  const { name, link } = input;
  if (language === 'ru') {
    const subject = `${BRAND}: подтвердите e-mail`;
    return {
      subject,
      text: `Здравствуйте, ${name}!\n\nЧтобы подтвердить e-mail и завершить регистрацию в ${BRAND}, откройте ссылку:\n${link}\n\nСсылка действует 48 часов. Если вы не регистрировались, просто проигнорируйте это письмо.\n\n${BRAND}\n`,
      html: layout(language, subject, [
        `Здравствуйте, ${escapeHtml(name)}!`,
        `Чтобы подтвердить e-mail и завершить регистрацию в ${BRAND}, нажмите кнопку:`,
        button(link, 'Подтвердить e-mail'),
        `Или откройте ссылку: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
        'Ссылка действует 48 часов. Если вы не регистрировались, просто проигнорируйте это письмо.',
      ]),
    };
  }
  const subject = `${BRAND}: confirm your e-mail`;
  return {
    subject,
    text: `Hello ${name},\n\nTo confirm your e-mail and finish signing up for ${BRAND}, open this link:\n${link}\n\nThe link works for 48 hours. If you did not sign up, ignore this e-mail.\n\n${BRAND}\n`,
    html: layout(language, subject, [
      `Hello ${escapeHtml(name)},`,
      `To confirm your e-mail and finish signing up for ${BRAND}, press the button:`,
      button(link, 'Confirm e-mail'),
      `Or open this link: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
      'The link works for 48 hours. If you did not sign up, ignore this e-mail.',
    ]),
  };
}

export function resetCodeMail(
  language: Language,
  input: { name: string; code: string },
): RenderedMail {
  const { name, code } = input;
  const codeHtml = `<span style="font-size:28px;font-weight:bold;letter-spacing:6px">${escapeHtml(code)}</span>`;
  if (language === 'ru') {
    const subject = `${BRAND}: код для сброса пароля`;
    return {
      subject,
      text: `Здравствуйте, ${name}!\n\nВаш код для сброса пароля: ${code}\n\nКод действует 10 минут. Если вы не запрашивали сброс пароля, просто проигнорируйте это письмо.\n\n${BRAND}\n`,
      html: layout(language, subject, [
        `Здравствуйте, ${escapeHtml(name)}!`,
        'Ваш код для сброса пароля:',
        codeHtml,
        'Код действует 10 минут. Если вы не запрашивали сброс пароля, просто проигнорируйте это письмо.',
      ]),
    };
  }
  const subject = `${BRAND}: your password reset code`;
  return {
    subject,
    text: `Hello ${name},\n\nYour password reset code: ${code}\n\nThe code works for 10 minutes. If you did not ask to reset your password, ignore this e-mail.\n\n${BRAND}\n`,
    html: layout(language, subject, [
      `Hello ${escapeHtml(name)},`,
      'Your password reset code:',
      codeHtml,
      'The code works for 10 minutes. If you did not ask to reset your password, ignore this e-mail.',
    ]),
  };
}
