import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ComboboxField } from '.';

const NAMES = ['Alpha-Live', 'Alpha-Demo', 'Alphabet-Real'];

/** The field as a form holds it: the value in state, the suggestions those that start so. */
function Broker({ onChange = () => {} }: { onChange?: (value: string) => void }) {
  const [value, setValue] = useState('');
  const options = value
    ? NAMES.filter((name) => name.toLowerCase().startsWith(value.toLowerCase()))
    : [];
  return (
    <form onSubmit={(event) => event.preventDefault()}>
      <ComboboxField
        label="Broker server"
        hint="As your terminal names it"
        listLabel="Known servers"
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange(next);
        }}
        options={options}
      />
    </form>
  );
}

const field = () => screen.getByRole('combobox', { name: 'Broker server' });
const highlighted = () => {
  const id = field().getAttribute('aria-activedescendant');
  return id ? document.getElementById(id)?.textContent : undefined;
};

describe('ComboboxField', () => {
  it('is a combobox tied to its label, hint and list, closed until something is typed', () => {
    render(<Broker />);
    expect(field()).toHaveAccessibleDescription('As your terminal names it');
    expect(field()).toHaveAttribute('aria-autocomplete', 'list');
    expect(field()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('opens on typing; Down and Up move through the suggestions, round the ends', async () => {
    const user = userEvent.setup();
    render(<Broker />);
    await user.type(field(), 'alp');
    expect(field()).toHaveAttribute('aria-expanded', 'true');
    const list = screen.getByRole('listbox', { name: 'Known servers' });
    expect(field()).toHaveAttribute('aria-controls', list.id);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(NAMES);
    // nothing is highlighted until the arrows say so: Enter then submits what is typed
    expect(field()).not.toHaveAttribute('aria-activedescendant');

    await user.keyboard('{ArrowDown}');
    expect(highlighted()).toBe('Alpha-Live');
    expect(screen.getByRole('option', { name: 'Alpha-Live' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(highlighted()).toBe('Alphabet-Real');
    await user.keyboard('{ArrowDown}');
    expect(highlighted()).toBe('Alpha-Live');
    await user.keyboard('{ArrowUp}');
    expect(highlighted()).toBe('Alphabet-Real');
    // the focus never left the field
    expect(field()).toHaveFocus();
  });

  it('takes the highlighted suggestion on Enter and closes', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Broker onChange={onChange} />);
    await user.type(field(), 'alpha-');
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(field()).toHaveValue('Alpha-Demo');
    expect(onChange).toHaveBeenLastCalledWith('Alpha-Demo');
    expect(field()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('option')).toBeNull();
  });

  it('closes on Escape keeping what is typed, and opens again on Down', async () => {
    const user = userEvent.setup();
    render(<Broker />);
    await user.type(field(), 'Alpha');
    await user.keyboard('{ArrowDown}{Escape}');
    expect(field()).toHaveAttribute('aria-expanded', 'false');
    expect(field()).not.toHaveAttribute('aria-activedescendant');
    expect(field()).toHaveValue('Alpha');
    await user.keyboard('{ArrowDown}');
    expect(field()).toHaveAttribute('aria-expanded', 'true');
    expect(highlighted()).toBe('Alpha-Live');
  });

  it('takes a clicked suggestion, and keeps a name no suggestion has', async () => {
    const user = userEvent.setup();
    render(<Broker />);
    await user.type(field(), 'alphab');
    await user.click(screen.getByRole('option', { name: 'Alphabet-Real' }));
    expect(field()).toHaveValue('Alphabet-Real');
    // the only suggestion is what is typed: nothing more to suggest
    expect(field()).toHaveAttribute('aria-expanded', 'false');
    await user.clear(field());
    await user.type(field(), 'Gamma-Live');
    expect(field()).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(field()).toHaveValue('Gamma-Live');
  });
});
