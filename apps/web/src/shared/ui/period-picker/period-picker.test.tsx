import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../../../test/i18n-resources';
import { ALL_TIME, presetRange, type PeriodRange, type PeriodSelection } from './period';
import { PeriodPicker } from './period-picker';

const NOW = new Date(2026, 10, 21, 15, 30);

function Harness({ onChange }: { onChange: (s: PeriodSelection, r: PeriodRange) => void }) {
  const [value, setValue] = useState<PeriodSelection>(ALL_TIME);
  return (
    <PeriodPicker
      value={value}
      now={() => NOW}
      onChange={(selection, range) => {
        setValue(selection);
        onChange(selection, range);
      }}
    />
  );
}

function renderPicker(language: 'en' | 'ru' = 'en') {
  const onChange = vi.fn();
  const user = userEvent.setup();
  render(
    <I18nextProvider i18n={createTestI18n(language)}>
      <Harness onChange={onChange} />
    </I18nextProvider>,
  );
  return { onChange, user };
}

describe('PeriodPicker', () => {
  it('offers All, Week, Month, Quarter, Year and Custom in a labelled group', () => {
    renderPicker();
    const group = screen.getByRole('group', { name: 'Period' });
    expect(group).toBeInTheDocument();
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('value'))).toEqual([
      'all',
      'week',
      'month',
      'quarter',
      'year',
      'custom',
    ]);
    expect(screen.getByRole('radio', { name: 'All' })).toBeChecked();
  });

  it('applies a preset at once with its range', async () => {
    const { onChange, user } = renderPicker();
    await user.click(screen.getByRole('radio', { name: 'Quarter' }));
    expect(onChange).toHaveBeenLastCalledWith({ preset: 'quarter' }, presetRange('quarter', NOW));
    expect(onChange.mock.lastCall?.[1]).toEqual({
      from: new Date(2026, 7, 21, 15, 30).toISOString(),
    });
    // the arrow keys move along the presets (native radio buttons)
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Year' })).toBeChecked();
    expect(onChange).toHaveBeenLastCalledWith({ preset: 'year' }, presetRange('year', NOW));
    await user.click(screen.getByRole('radio', { name: 'All' }));
    expect(onChange).toHaveBeenLastCalledWith({ preset: 'all' }, {});
  });

  it('applies a custom range with the button, from the start of a day to the end of another', async () => {
    const { onChange, user } = renderPicker();
    await user.click(screen.getByRole('radio', { name: 'Week' }));
    onChange.mockClear();
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    // nothing until Apply; the dates start from the period shown so far
    expect(onChange).not.toHaveBeenCalled();
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    expect(from).toHaveValue('2026-11-14');
    expect(to).toHaveValue('2026-11-21');

    await user.clear(from);
    await user.type(from, '2026-11-02');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onChange).toHaveBeenLastCalledWith(
      { preset: 'custom', from: '2026-11-02', to: '2026-11-21' },
      { from: new Date(2026, 10, 2).toISOString(), to: new Date(2026, 10, 22).toISOString() },
    );

    await user.clear(to);
    await user.type(to, '2026-11-05{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(
      { preset: 'custom', from: '2026-11-02', to: '2026-11-05' },
      { from: new Date(2026, 10, 2).toISOString(), to: new Date(2026, 10, 6).toISOString() },
    );
  });

  it('refuses a range that ends before it starts', async () => {
    const { onChange, user } = renderPicker();
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    const from = screen.getByLabelText('From');
    await user.clear(from);
    await user.type(from, '2026-11-25');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The start date must not be later than the end date',
    );
    expect(screen.getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('To')).toHaveAccessibleDescription(
      'The start date must not be later than the end date',
    );
    expect(onChange).not.toHaveBeenCalled();
  });

  it('speaks Russian', () => {
    renderPicker('ru');
    expect(screen.getByRole('group', { name: 'Период' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Всё время' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Свой период' })).toBeInTheDocument();
  });
});
