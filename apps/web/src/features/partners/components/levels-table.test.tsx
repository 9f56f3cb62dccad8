import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPartners, stubPartnerApi } from '../test-utils';

describe('the partner levels on a phone', () => {
  it.each([
    [
      'en' as const,
      'Levels',
      [
        /^Level 110% of what they payReward\$12\.50Clients4Active now3Turnover\$125\.00$/,
        /^Level 25% of what they payReward\$0\.00Clients1Active now1Turnover\$0\.00$/,
        /^Level 32% of what they payReward\$0\.00Clients0Active now0Turnover\$0\.00$/,
      ],
    ],
    [
      'ru' as const,
      'Уровни',
      [
        /^Уровень 110\s%\sот их оплатВознаграждение12,50\s\$Клиенты4Активны сейчас3Оборот125,00\s\$$/,
        /^Уровень 25\s%\sот их оплатВознаграждение0,00\s\$/,
        /^Уровень 32\s%\sот их оплатВознаграждение0,00\s\$/,
      ],
    ],
  ])(
    'are a card a level in %s, its reward at the top, no table to scroll sideways',
    async (language, title, cards) => {
      stubPartnerApi();
      renderPartners('/partner-program', { width: 375, language });
      const list = await screen.findByRole('list', { name: title }, { timeout: 5000 });
      expect(screen.queryByRole('table', { name: title })).toBeNull();
      const items = within(list).getAllByRole('listitem');
      expect(items).toHaveLength(3);
      items.forEach((item, index) => expect(item).toHaveTextContent(cards[index]!));
    },
  );
});
