import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  Button,
  Checkbox,
  FormAlert,
  OtpInput,
  PasswordField,
  SelectField,
  TextAreaField,
  TextField,
} from '.';

describe('form controls', () => {
  it('TextField ties the label, hint and error to the input', () => {
    const { rerender } = render(<TextField label="E-mail" hint="We never share it" name="email" />);
    const input = screen.getByLabelText('E-mail');
    expect(input).toHaveAccessibleDescription('We never share it');
    expect(input).not.toHaveAttribute('aria-invalid');

    rerender(
      <TextField label="E-mail" hint="We never share it" name="email" error="E-mail is invalid" />,
    );
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('E-mail is invalid We never share it');
  });

  it('SelectField ties the label, hint and error to the select, its arrow hidden from readers', () => {
    const { rerender } = render(
      <SelectField label="Network" hint="Where you send from" defaultValue="b">
        <option value="a">A</option>
        <option value="b">B</option>
      </SelectField>,
    );
    const select = screen.getByRole('combobox', { name: 'Network' });
    expect(select).toHaveValue('b');
    expect(select).toHaveAccessibleDescription('Where you send from');
    expect(select.nextElementSibling).toHaveAttribute('aria-hidden', 'true');

    rerender(
      <SelectField label="Network" hint="Where you send from" error="Choose a network">
        <option value="a">A</option>
      </SelectField>,
    );
    expect(select).toHaveAttribute('aria-invalid', 'true');
    expect(select).toHaveAccessibleDescription('Choose a network Where you send from');
  });

  it('SelectField lists its options after a prompt given as a child', () => {
    render(
      <SelectField
        label="Status"
        defaultValue="b"
        options={[
          { value: 'a', label: 'Active' },
          { value: 'b', label: 'Blocked' },
        ]}
      >
        <option value="">All</option>
      </SelectField>,
    );
    const select = screen.getByRole('combobox', { name: 'Status' });
    expect(
      Array.from(select.querySelectorAll('option')).map((option) => [option.value, option.text]),
    ).toEqual([
      ['', 'All'],
      ['a', 'Active'],
      ['b', 'Blocked'],
    ]);
    expect(select).toHaveValue('b');
  });

  it('TextAreaField ties the label, hint and error to the textarea; its class goes on the field', () => {
    const { container, rerender } = render(
      <TextAreaField label="Reason" hint="The user reads it" className="wide" rows={3} />,
    );
    const textarea = screen.getByRole('textbox', { name: 'Reason' });
    expect(textarea.tagName).toBe('TEXTAREA');
    expect(textarea).toHaveAttribute('rows', '3');
    expect(textarea).toHaveAccessibleDescription('The user reads it');
    expect(textarea).not.toHaveAttribute('aria-invalid');
    expect(container.firstElementChild).toHaveClass('wide');
    expect(textarea).not.toHaveClass('wide');

    rerender(
      <TextAreaField
        label="Reason"
        hint="The user reads it"
        className="wide"
        error="Write a reason"
        aria-describedby="elsewhere"
      />,
    );
    expect(textarea).toHaveAttribute('aria-invalid', 'true');
    expect(textarea).toHaveAttribute(
      'aria-describedby',
      `${textarea.id}-error ${textarea.id}-hint elsewhere`,
    );
  });

  it('TextField marks an optional field in its label', () => {
    render(<TextField label="Partner code" optionalText="optional" />);
    expect(screen.getByLabelText('Partner code (optional)')).toBeInTheDocument();
  });

  it('PasswordField has a named toggle that shows the password', async () => {
    const user = userEvent.setup();
    render(<PasswordField label="Password" toggleLabel="Show password" />);
    const input = screen.getByLabelText('Password', { selector: 'input' });
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle).toHaveAttribute('type', 'button');
    expect(toggle).toHaveAttribute('aria-controls', input.id);
    expect(input).toHaveAttribute('type', 'password');
    await user.click(toggle);
    expect(input).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });

  it('Checkbox keeps links in its label usable', async () => {
    const user = userEvent.setup();
    render(
      <Checkbox
        label={
          <>
            I accept the <a href="#offer">offer</a>
          </>
        }
        error="You must accept"
      />,
    );
    const box = screen.getByRole('checkbox', { name: 'I accept the offer' });
    expect(box).toHaveAccessibleDescription('You must accept');
    expect(screen.getByRole('link', { name: 'offer' })).toBeInTheDocument();
    await user.click(box);
    expect(box).toBeChecked();
  });

  it('Button puts its icon beside the words, not among them; the spinner takes its place while loading', () => {
    const icon = <svg data-testid="icon" aria-hidden="true" />;
    const { rerender } = render(<Button icon={icon}>Export CSV</Button>);
    const button = screen.getByRole('button', { name: 'Export CSV' });
    // a flex item of its own, so the button's gap sets it apart and centres it on the words
    expect(button.firstElementChild).toBe(screen.getByTestId('icon'));
    expect(button.lastElementChild).toHaveTextContent('Export CSV');
    expect(button.lastElementChild?.querySelector('svg')).toBeNull();

    rerender(
      <Button icon={icon} loading loadingText="Exporting…">
        Export CSV
      </Button>,
    );
    expect(screen.queryByTestId('icon')).toBeNull();
    expect(button.children).toHaveLength(2);
  });

  it('Button shows a busy, disabled state while loading', async () => {
    const onClick = vi.fn();
    const { rerender } = render(
      <Button variant="secondary" onClick={onClick}>
        Save
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toHaveAttribute('type', 'button');
    rerender(
      <Button variant="secondary" onClick={onClick} loading loadingText="Saving…">
        Save
      </Button>,
    );
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    await userEvent.setup().click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('FormAlert is an alert for errors and a status for the rest', () => {
    const { rerender } = render(<FormAlert tone="error">Bad</FormAlert>);
    expect(screen.getByRole('alert')).toHaveTextContent('Bad');
    rerender(<FormAlert tone="success">Good</FormAlert>);
    expect(screen.getByRole('status')).toHaveTextContent('Good');
    rerender(<FormAlert tone="info">Note</FormAlert>);
    expect(screen.getByRole('status')).toHaveTextContent('Note');
  });

  it('OtpInput is one numeric one-time-code input that keeps digits only', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<OtpInput label="Code" hint="6 digits" onChange={onChange} />);
    const input = screen.getByLabelText('Code');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    expect(input).toHaveAttribute('pattern', '[0-9]{6}');
    expect(input).toHaveAccessibleDescription('6 digits');
    await user.type(input, '12-34 5x67');
    expect(input).toHaveValue('123456');
    expect(onChange).toHaveBeenCalled();
  });
});
