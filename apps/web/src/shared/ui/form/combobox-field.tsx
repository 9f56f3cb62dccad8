import { useState, type KeyboardEvent } from 'react';
import { FieldFrame, useField, type FieldOwnProps } from './field-frame';
import styles from './field.module.css';
import combobox from './combobox.module.css';

export interface ComboboxFieldProps extends FieldOwnProps {
  value: string;
  /** The text as typed, or the suggestion chosen. */
  onChange: (value: string) => void;
  /** Suggestions for the text (the caller finds them, e.g. from the API as it is typed). */
  options: readonly string[];
  /** Marks the label "optional" with this text (e.g. a translated "optional"). */
  optionalText?: string;
  placeholder?: string;
  maxLength?: number;
  /** The list's name for screen readers ("Broker servers"). */
  listLabel: string;
}

/**
 * A text field with suggestions (the WAI-ARIA combobox pattern with list autocomplete): typing
 * opens the list of what `options` holds; Down and Up move through it (Down opens it too), Enter
 * takes the highlighted suggestion, Escape closes the list, and a click takes one. Focus stays
 * in the field all along: the highlighted suggestion is its aria-activedescendant. Anything
 * typed is a value too: a suggestion only saves typing.
 */
export function ComboboxField({
  value,
  onChange,
  options,
  optionalText,
  placeholder,
  maxLength,
  listLabel,
  ...field
}: ComboboxFieldProps) {
  const { frame, control } = useField(field);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = `${control.id}-list`;
  const optionId = (index: number) => `${control.id}-option-${index}`;
  // a list of only what is typed already suggests nothing
  const shown = open && options.length > 0 && !(options.length === 1 && options[0] === value);
  const highlighted = shown && active >= 0 && active < options.length ? active : -1;

  const choose = (option: string) => {
    onChange(option);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (options.length === 0) return;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setOpen(true);
        setActive(
          !shown || highlighted === -1
            ? step === 1
              ? 0
              : options.length - 1
            : (highlighted + step + options.length) % options.length,
        );
        return;
      }
      case 'Enter':
        if (highlighted === -1) return;
        event.preventDefault();
        choose(options[highlighted]!);
        return;
      case 'Escape':
        if (!shown) return;
        // the list closes; a dialog around the field stays open
        event.preventDefault();
        event.stopPropagation();
        setOpen(false);
        setActive(-1);
        return;
      default:
    }
  };

  return (
    <FieldFrame
      {...frame}
      label={
        <>
          {frame.label}
          {optionalText ? <span className={styles.optional}> ({optionalText})</span> : null}
        </>
      }
    >
      <div className={combobox.control}>
        <input
          {...control}
          className={styles.input}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={shown}
          aria-controls={listId}
          aria-activedescendant={highlighted === -1 ? undefined : optionId(highlighted)}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder={placeholder}
          maxLength={maxLength}
          value={value}
          onChange={(event) => {
            onChange(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setOpen(false)}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={listLabel}
          className={combobox.list}
          hidden={!shown}
        >
          {shown
            ? options.map((option, index) => (
                <li
                  key={option}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === highlighted}
                  className={combobox.option}
                  // the field keeps the focus (and its list) while the pointer chooses
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(option)}
                >
                  {option}
                </li>
              ))
            : null}
        </ul>
      </div>
    </FieldFrame>
  );
}
