import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../../../test/i18n-resources';
import { pageCountOf, Pagination } from './pagination';

function renderPagination(page: number, pageCount: number, language: 'en' | 'ru' = 'en') {
  const onPageChange = vi.fn();
  const view = render(
    <I18nextProvider i18n={createTestI18n(language)}>
      <Pagination page={page} pageCount={pageCount} onPageChange={onPageChange} />
    </I18nextProvider>,
  );
  return { ...view, onPageChange };
}

describe('Pagination', () => {
  it('says the page and goes back and forth', async () => {
    const user = userEvent.setup();
    const { onPageChange } = renderPagination(2, 3);
    expect(screen.getByRole('navigation', { name: 'Pages' })).toHaveTextContent('Page 2 of 3');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onPageChange).toHaveBeenLastCalledWith(1);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onPageChange).toHaveBeenLastCalledWith(3);
  });

  it('keeps the buttons at the ends focusable but unavailable', async () => {
    const user = userEvent.setup();
    const { onPageChange } = renderPagination(3, 3);
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toHaveAttribute('aria-disabled', 'true');
    expect(next).not.toBeDisabled();
    await user.click(next);
    expect(onPageChange).not.toHaveBeenCalled();
  });

  it('shows nothing for a single page', () => {
    const { container } = renderPagination(1, 1);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows the range before the buttons, under its own name', () => {
    render(
      <I18nextProvider i18n={createTestI18n('en')}>
        <Pagination
          page={2}
          pageCount={3}
          onPageChange={() => undefined}
          label="Pages of the log"
          range="21–40 of 57"
        />
      </I18nextProvider>,
    );
    const pages = screen.getByRole('navigation', { name: 'Pages of the log' });
    expect(pages).toHaveTextContent('21–40 of 57');
    expect(pages).toHaveTextContent('Page 2 of 3');
    expect(screen.getByText('21–40 of 57')).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByText('Page 2 of 3')).not.toHaveAttribute('aria-live');
  });

  it('shows only the range when it fits on one page', () => {
    render(
      <I18nextProvider i18n={createTestI18n('en')}>
        <Pagination page={1} pageCount={1} onPageChange={() => undefined} range="1–7 of 7" />
      </I18nextProvider>,
    );
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.getByText('1–7 of 7')).toBeInTheDocument();
  });

  it('speaks Russian', () => {
    renderPagination(1, 4, 'ru');
    expect(screen.getByRole('navigation', { name: 'Страницы' })).toHaveTextContent(
      'Страница 1 из 4',
    );
  });

  it('counts the pages', () => {
    expect(pageCountOf(0, 20)).toBe(1);
    expect(pageCountOf(20, 20)).toBe(1);
    expect(pageCountOf(21, 20)).toBe(2);
    expect(pageCountOf(45, 20)).toBe(3);
  });
});
