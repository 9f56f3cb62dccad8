import { screen, within } from '@testing-library/react';
import { RUIN_LEVELS, type RiskOfRuinResponse } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { renderSignedInPage } from '../../../test/render';
import { RiskOfRuin } from './risk-of-ruin';

/** An estimate from 42 trades whose probability of losing x is `probability(x)`. */
function estimate(probability: (loss: number) => number): RiskOfRuinResponse {
  return {
    reason: null,
    estimate: {
      trades: 42,
      win_rate: 0.55,
      average_win: 0.012,
      average_loss: 0.009,
      levels: RUIN_LEVELS.map((loss) => ({ loss, probability: probability(loss) })),
    },
  };
}

function show(ruin: RiskOfRuinResponse, language: 'en' | 'ru' = 'en') {
  return renderSignedInPage([{ path: '/', element: <RiskOfRuin ruin={ruin} /> }], '/', 'token', {
    language,
  });
}

/** The loss and the probability of each row of the table. */
async function levels(name: string) {
  const table = await screen.findByRole('table', { name });
  const [, ...rows] = within(table).getAllByRole('row');
  return rows.map((row) => [
    within(row).getByRole('rowheader').textContent,
    within(row).getByRole('cell').textContent,
  ]);
}

describe('the risk of ruin', () => {
  it('gives the probability of each loss from 10% to 100%, a very small one as below 0.01%', async () => {
    show(estimate((loss) => Math.exp(-20 * loss)));
    expect(await levels('Risk of ruin')).toEqual([
      ['10%', '13.53%'],
      ['20%', '1.83%'],
      ['30%', '0.25%'],
      ['40%', '0.03%'],
      ['50%', '<\u00a00.01%'],
      ['60%', '<\u00a00.01%'],
      ['70%', '<\u00a00.01%'],
      ['80%', '<\u00a00.01%'],
      ['90%', '<\u00a00.01%'],
      ['100%', '<\u00a00.01%'],
    ]);
    expect(screen.getByRole('columnheader', { name: 'Loss of the account' })).toBeVisible();
    expect(screen.getByRole('columnheader', { name: 'Probability' })).toBeVisible();
    // what it assumes, and from how many trades
    expect(screen.getByText(/Cramér–Lundberg/)).toHaveTextContent(
      'win rate (55.00%) its average win (1.20% of the balance), or loses its average loss (0.90% of the balance)',
    );
    expect(screen.getByText(/no time horizon/)).toBeVisible();
    expect(screen.getByText('Estimated from 42 trades.')).toBeVisible();
    expect(screen.queryByText(/certain/)).toBeNull();
  });

  it('in Russian, with the reader’s notation', async () => {
    show(
      estimate((loss) => Math.exp(-20 * loss)),
      'ru',
    );
    const rows = await levels('Риск разорения');
    expect(rows[0]).toEqual(['10\u00a0%', '13,53\u00a0%']);
    expect(rows[9]).toEqual(['100\u00a0%', '<\u00a00,01\u00a0%']);
    expect(screen.getByText('Оценка по 42 сделкам.')).toBeVisible();
    expect(screen.getByText(/Крамера — Лундберга/)).toHaveTextContent(/\(55,00\s%\)/);
  });

  it('says a certain loss as 100%, and why: the trades lose on average; nearly certain is not certain', async () => {
    show(estimate(() => 1));
    expect((await levels('Risk of ruin')).map(([, probability]) => probability)).toEqual(
      Array(10).fill('100%'),
    );
    expect(screen.getByText(/lose money on average/)).toBeVisible();

    show(estimate(() => 0.999995));
    expect(screen.getAllByRole('table')[1]).toHaveTextContent(/>\s99\.99%/);
  });

  it.each([
    [
      'too_few_trades' as const,
      'Too few trades for an estimate: it takes at least 20 closed trades.',
    ],
    [
      'no_losses' as const,
      'No estimate: no trade has lost yet, so there is no loss to estimate from.',
    ],
  ])('without an estimate (%s) says why, and shows no table', async (reason, text) => {
    show({ reason, estimate: null });
    expect(await screen.findByText(text)).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Risk of ruin' })).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('too few trades, in Russian', async () => {
    show({ reason: 'too_few_trades', estimate: null }, 'ru');
    expect(
      await screen.findByText(
        'Слишком мало сделок для оценки: нужно не меньше 20 закрытых сделок.',
      ),
    ).toBeVisible();
  });
});
